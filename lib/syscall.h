/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private copies of the kernel interfaces libxstat depends on: syscall
 * numbers, struct statx and its constants, ioctl numbers.  Taken from the
 * kernel's uapi, never from the host's headers, so the library builds the
 * same against any libc and any kernel headers.
 */
#ifndef LIBXSTAT_SYSCALL_H
#define LIBXSTAT_SYSCALL_H

#include <stdint.h>
#include <sys/syscall.h>

/*
 * statx(2).  The xstat patch's own numbers (300/301 on x86_64, 338/339 on
 * i386) were never merged and are fanotify_init/fanotify_mark today: they
 * must never be called.
 */
#if defined(__x86_64__) && defined(__ILP32__)
#define XS_NR_statx	(0x40000000 | 332)	/* x32 */
#elif defined(__x86_64__)
#define XS_NR_statx	332
#elif defined(__i386__)
#define XS_NR_statx	383
#elif defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64)
#define XS_NR_statx	291
#elif defined(SYS_statx)
#define XS_NR_statx	SYS_statx
#endif

#define XS_STATX_TYPE		0x00000001U
#define XS_STATX_MODE		0x00000002U
#define XS_STATX_NLINK		0x00000004U
#define XS_STATX_UID		0x00000008U
#define XS_STATX_GID		0x00000010U
#define XS_STATX_ATIME		0x00000020U
#define XS_STATX_MTIME		0x00000040U
#define XS_STATX_CTIME		0x00000080U
#define XS_STATX_INO		0x00000100U
#define XS_STATX_SIZE		0x00000200U
#define XS_STATX_BLOCKS		0x00000400U
#define XS_STATX_BASIC_STATS	0x000007ffU
#define XS_STATX_BTIME		0x00000800U
#define XS_STATX_MNT_ID		0x00001000U
#define XS_STATX_MNT_ID_UNIQUE	0x00004000U
/* The statx bits of the extra results are in their rows of fields.h. */
#define XS_STATX__RESERVED	0x80000000U	/* never set by the kernel */

#define XS_AT_STATX_SYNC_TYPE	0x6000
#define XS_AT_STATX_FORCE_SYNC	0x2000
#define XS_AT_STATX_DONT_SYNC	0x4000

struct xs_statx_timestamp {
	int64_t		tv_sec;
	uint32_t	tv_nsec;
	int32_t		__reserved;
};

/* struct statx as of Linux 6.14: 256 bytes, identical on all ABIs. */
struct xs_statx {
	uint32_t	stx_mask;
	uint32_t	stx_blksize;
	uint64_t	stx_attributes;
	uint32_t	stx_nlink;
	uint32_t	stx_uid;
	uint32_t	stx_gid;
	uint16_t	stx_mode;
	uint16_t	__spare0[1];
	uint64_t	stx_ino;
	uint64_t	stx_size;
	uint64_t	stx_blocks;
	uint64_t	stx_attributes_mask;
	struct xs_statx_timestamp stx_atime;
	struct xs_statx_timestamp stx_btime;
	struct xs_statx_timestamp stx_ctime;
	struct xs_statx_timestamp stx_mtime;
	uint32_t	stx_rdev_major;
	uint32_t	stx_rdev_minor;
	uint32_t	stx_dev_major;
	uint32_t	stx_dev_minor;
	uint64_t	stx_mnt_id;
	uint32_t	stx_dio_mem_align;
	uint32_t	stx_dio_offset_align;
	uint64_t	stx_subvol;
	uint32_t	stx_atomic_write_unit_min;
	uint32_t	stx_atomic_write_unit_max;
	uint32_t	stx_atomic_write_segments_max;
	uint32_t	stx_dio_read_offset_align;
	uint32_t	stx_atomic_write_unit_max_opt;
	uint32_t	__spare2[1];
	uint64_t	__spare3[8];
} __attribute__((aligned(8)));

_Static_assert(sizeof(struct xs_statx) == 256, "struct statx");
_Static_assert(__builtin_offsetof(struct xs_statx, stx_atime) == 0x40, "atime");
_Static_assert(__builtin_offsetof(struct xs_statx, stx_rdev_major) == 0x80,
	       "rdev");
_Static_assert(__builtin_offsetof(struct xs_statx, stx_mnt_id) == 0x90,
	       "mnt_id");

/* ioctls: _IOR('v', 1, long) and _IOR('f', 1, long); the kernel uses int. */
#if defined(__LP64__)
#define XS_FS_IOC_GETVERSION	0x80087601UL
#define XS_FS_IOC_GETFLAGS	0x80086601UL
#else
#define XS_FS_IOC_GETVERSION	0x80047601UL
#define XS_FS_IOC_GETFLAGS	0x80046601UL
#endif

/*
 * statmount(2) (Linux 6.8+; one number on every architecture).  The
 * head of struct statmount up to the idmappings (6.15); the strings
 * follow in the same buffer, at the offsets the head gives.
 */
#define XS_NR_statmount		457
#define XS_STATMOUNT_SB_BASIC	0x0001U
#define XS_STATMOUNT_MNT_BASIC	0x0002U
#define XS_STATMOUNT_MNT_UIDMAP	0x2000U
#define XS_STATMOUNT_MNT_GIDMAP	0x4000U
#define XS_MOUNT_ATTR_IDMAP	0x00100000ULL

struct xs_mnt_id_req {
	uint32_t	size;
	uint32_t	spare;
	uint64_t	mnt_id;
	uint64_t	param;
};

struct xs_statmount {
	uint32_t	size;
	uint32_t	mnt_opts;
	uint64_t	mask;
	uint32_t	sb_dev_major;
	uint32_t	sb_dev_minor;
	uint64_t	sb_magic;
	uint32_t	sb_flags;
	uint32_t	fs_type;
	uint64_t	mnt_id;
	uint64_t	mnt_parent_id;
	uint32_t	mnt_id_old;
	uint32_t	mnt_parent_id_old;
	uint64_t	mnt_attr;
	uint64_t	mnt_propagation;
	uint64_t	mnt_peer_group;
	uint64_t	mnt_master;
	uint64_t	propagate_from;
	uint32_t	mnt_root;
	uint32_t	mnt_point;
	uint64_t	mnt_ns_id;
	uint32_t	fs_subtype;
	uint32_t	sb_source;
	uint32_t	opt_num;
	uint32_t	opt_array;
	uint32_t	opt_sec_num;
	uint32_t	opt_sec_array;
	uint64_t	supported_mask;
	uint32_t	mnt_uidmap_num;
	uint32_t	mnt_uidmap;
	uint32_t	mnt_gidmap_num;
	uint32_t	mnt_gidmap;
	uint64_t	spare2[43];
};

_Static_assert(__builtin_offsetof(struct xs_statmount, mnt_attr) == 64,
	       "mnt_attr");
_Static_assert(__builtin_offsetof(struct xs_statmount, mnt_uidmap_num) ==
	       152, "mnt_uidmap_num");
_Static_assert(sizeof(struct xs_statmount) == 512, "struct statmount");

#endif /* LIBXSTAT_SYSCALL_H */
