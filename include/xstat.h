/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxstat - extended, selective file status for Linux programs.
 *
 * The interface of David Howells' xstat()/fxstat() patch ("[ver #3]",
 * July 2010), implemented in userspace over statx(2) and, where statx is
 * missing or blocked, over fstatat(2)/fstat(2) plus filesystem probes.
 *
 * This is the only public header.  It is self-contained, compiles as C and
 * C++, and does not depend on _GNU_SOURCE or _FILE_OFFSET_BITS: every
 * public structure has the same layout on i386 and x86_64.
 */
#ifndef XSTAT_H
#define XSTAT_H

#include <stddef.h>
#include <sys/types.h>
#include <fcntl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LIBXSTAT_VERSION_MAJOR	1
#define LIBXSTAT_VERSION_MINOR	0
#define LIBXSTAT_VERSION_MICRO	0

/*
 * Flags for xstat()/fxstat().  <fcntl.h> supplies the AT_* lookup flags
 * only under _GNU_SOURCE or POSIX 2008; the values are the kernel's.
 */
#ifndef AT_FDCWD
#define AT_FDCWD		-100
#endif
#ifndef AT_SYMLINK_NOFOLLOW
#define AT_SYMLINK_NOFOLLOW	0x100	/* do not follow a final symlink */
#endif
#ifndef AT_NO_AUTOMOUNT
#define AT_NO_AUTOMOUNT		0x800	/* do not trigger an automount */
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH		0x1000	/* empty filename: stat dfd itself */
#endif

/*
 * Attribute synchronisation.  The patch defined AT_FORCE_ATTR_SYNC as 0x800,
 * but mainline gave 0x800 to AT_NO_AUTOMOUNT.  libxstat uses the values the
 * kernel later merged for statx(2): AT_STATX_FORCE_SYNC (0x2000) and
 * AT_STATX_DONT_SYNC (0x4000).  Passing both is EINVAL.
 */
#define AT_FORCE_ATTR_SYNC	0x2000	/* refresh attributes from the server */
#define AT_NO_ATTR_SYNC		0x4000	/* use cached attributes, never sync */

/*
 * Request and result bits.  A set bit in request_mask asks for a field;
 * a set bit in st_result_mask says the field holds a real value.
 */
#define XSTAT_REQUEST_MODE		0x00000001ULL	/* st_mode */
#define XSTAT_REQUEST_NLINK		0x00000002ULL	/* st_nlink */
#define XSTAT_REQUEST_UID		0x00000004ULL	/* st_uid */
#define XSTAT_REQUEST_GID		0x00000008ULL	/* st_gid */
#define XSTAT_REQUEST_RDEV		0x00000010ULL	/* st_rdev */
#define XSTAT_REQUEST_ATIME		0x00000020ULL	/* st_atim */
#define XSTAT_REQUEST_MTIME		0x00000040ULL	/* st_mtim */
#define XSTAT_REQUEST_CTIME		0x00000080ULL	/* st_ctim */
#define XSTAT_REQUEST_INO		0x00000100ULL	/* st_ino */
#define XSTAT_REQUEST_SIZE		0x00000200ULL	/* st_size */
#define XSTAT_REQUEST_BLOCKS		0x00000400ULL	/* st_blocks */
#define XSTAT_REQUEST__BASIC_STATS	0x000007ffULL	/* struct stat's set */
#define XSTAT_REQUEST_BTIME		0x00000800ULL	/* st_btim */
#define XSTAT_REQUEST_GEN		0x00001000ULL	/* st_gen */
#define XSTAT_REQUEST_DATA_VERSION	0x00002000ULL	/* st_data_version */
#define XSTAT_REQUEST__EXTENDED_STATS	0x00003fffULL	/* struct xstat's set */

/*
 * Extra results (class 4): returned only when requested, appended after
 * struct xstat in ascending bit order, each starting on an 8-byte boundary
 * of the buffer, its bit left set in st_result_mask only if produced.  Use
 * xstat_extra() to find one rather than computing offsets by hand.
 */
#define XSTAT_REQUEST_MNT_ID		0x00004000ULL	/* xstat_mnt_id */
#define XSTAT_REQUEST_ATTRIBUTES	0x00008000ULL	/* xstat_attributes */
#define XSTAT_REQUEST_DIOALIGN		0x00010000ULL	/* xstat_dioalign */
#define XSTAT_REQUEST_SUBVOL		0x00020000ULL	/* xstat_subvol */
#define XSTAT_REQUEST_WRITE_ATOMIC	0x00040000ULL	/* xstat_write_atomic */
#define XSTAT_REQUEST_DIO_READ_ALIGN	0x00080000ULL	/* xstat_dio_read_align */
#define XSTAT_REQUEST__EXTRA_RESULTS	0x000fc000ULL
#define XSTAT_REQUEST__ALL_STATS	0x000fffffULL	/* every defined bit */

/*
 * 64-bit members are 8-byte aligned on every architecture so that the
 * structures have one layout on i386 (where long long is 4-aligned in
 * structs) and x86_64.
 */
#if defined(__GNUC__) || defined(__clang__)
#define __XSTAT_ALIGN8 __attribute__((aligned(8)))
#else
#define __XSTAT_ALIGN8
#endif
typedef unsigned long long __xstat_u64 __XSTAT_ALIGN8;
typedef long long __xstat_s64 __XSTAT_ALIGN8;

struct xstat_parameters {
	__xstat_u64		request_mask;
};

struct xstat_dev {
	unsigned int		major;
	unsigned int		minor;
};

/* tv_sec is signed: times before 1970 are negative. */
struct xstat_time {
	__xstat_s64		tv_sec;
	__xstat_u64		tv_nsec;
};

/*
 * Field names follow the patch's test program: st_atim etc., because
 * <sys/stat.h> defines st_atime, st_mtime and st_ctime as macros.
 */
struct xstat {
	unsigned int		st_mode;	/* file type and mode */
	unsigned int		st_nlink;	/* number of hard links */
	unsigned int		st_uid;		/* user ID of owner */
	unsigned int		st_gid;		/* group ID of owner */
	struct xstat_dev	st_rdev;	/* device ID of special file */
	struct xstat_dev	st_dev;		/* ID of device containing file */
	struct xstat_time	st_atim;	/* last access time */
	struct xstat_time	st_mtim;	/* last data modification time */
	struct xstat_time	st_ctim;	/* last status change time */
	struct xstat_time	st_btim;	/* file creation time */
	__xstat_u64		st_ino;		/* inode number */
	__xstat_u64		st_size;	/* file size in bytes */
	__xstat_u64		st_blksize;	/* preferred I/O block size */
	__xstat_u64		st_blocks;	/* 512-byte blocks allocated */
	__xstat_u64		st_gen;		/* inode generation number */
	__xstat_u64		st_data_version; /* data version number */
	__xstat_u64		st_result_mask;	/* which fields hold values */
	__xstat_u64		st_extra_results[]; /* requested extra results */
};

#define XSTAT_STRUCT_SIZE	152

/* XSTAT_REQUEST_MNT_ID: the mount the file is on. */
struct xstat_mnt_id {
	__xstat_u64		mnt_id;
	unsigned int		unique;	/* 1: never-reused 64-bit ID (6.8+);
					   0: the reusable ID of mountinfo */
	unsigned int		__reserved;
};

/* XSTAT_REQUEST_ATTRIBUTES: which XSTAT_ATTR_* are known, which are set. */
struct xstat_attributes {
	__xstat_u64		attributes;
	__xstat_u64		attributes_mask;
};

/* The statx(2) STATX_ATTR_* values. */
#define XSTAT_ATTR_COMPRESSED		0x00000004ULL
#define XSTAT_ATTR_IMMUTABLE		0x00000010ULL
#define XSTAT_ATTR_APPEND		0x00000020ULL
#define XSTAT_ATTR_NODUMP		0x00000040ULL
#define XSTAT_ATTR_ENCRYPTED		0x00000800ULL
#define XSTAT_ATTR_AUTOMOUNT		0x00001000ULL
#define XSTAT_ATTR_MOUNT_ROOT		0x00002000ULL
#define XSTAT_ATTR_VERITY		0x00100000ULL
#define XSTAT_ATTR_DAX			0x00200000ULL
#define XSTAT_ATTR_WRITE_ATOMIC		0x00400000ULL

/* XSTAT_REQUEST_DIOALIGN: O_DIRECT alignment; 0 = not supported. */
struct xstat_dioalign {
	unsigned int		mem_align;
	unsigned int		offset_align;
};

/* XSTAT_REQUEST_SUBVOL: subvolume ID (btrfs, bcachefs). */
struct xstat_subvol {
	__xstat_u64		subvol;
};

/* XSTAT_REQUEST_WRITE_ATOMIC: untorn write limits, in bytes. */
struct xstat_write_atomic {
	unsigned int		unit_min;
	unsigned int		unit_max;
	unsigned int		segments_max;
	unsigned int		unit_max_opt;
};

/* XSTAT_REQUEST_DIO_READ_ALIGN: O_DIRECT read file-offset alignment. */
struct xstat_dio_read_align {
	unsigned int		offset_align;
	unsigned int		__reserved;
};

#if !defined(__cplusplus) && defined(__STDC_VERSION__) && \
	__STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct xstat_parameters) == 8, "xstat_parameters");
_Static_assert(sizeof(struct xstat_dev) == 8, "xstat_dev");
_Static_assert(sizeof(struct xstat_time) == 16, "xstat_time");
_Static_assert(sizeof(struct xstat) == XSTAT_STRUCT_SIZE, "struct xstat");
_Static_assert(offsetof(struct xstat, st_mode) == 0, "st_mode");
_Static_assert(offsetof(struct xstat, st_nlink) == 4, "st_nlink");
_Static_assert(offsetof(struct xstat, st_uid) == 8, "st_uid");
_Static_assert(offsetof(struct xstat, st_gid) == 12, "st_gid");
_Static_assert(offsetof(struct xstat, st_rdev) == 16, "st_rdev");
_Static_assert(offsetof(struct xstat, st_dev) == 24, "st_dev");
_Static_assert(offsetof(struct xstat, st_atim) == 32, "st_atim");
_Static_assert(offsetof(struct xstat, st_mtim) == 48, "st_mtim");
_Static_assert(offsetof(struct xstat, st_ctim) == 64, "st_ctim");
_Static_assert(offsetof(struct xstat, st_btim) == 80, "st_btim");
_Static_assert(offsetof(struct xstat, st_ino) == 96, "st_ino");
_Static_assert(offsetof(struct xstat, st_size) == 104, "st_size");
_Static_assert(offsetof(struct xstat, st_blksize) == 112, "st_blksize");
_Static_assert(offsetof(struct xstat, st_blocks) == 120, "st_blocks");
_Static_assert(offsetof(struct xstat, st_gen) == 128, "st_gen");
_Static_assert(offsetof(struct xstat, st_data_version) == 136, "st_dv");
_Static_assert(offsetof(struct xstat, st_result_mask) == 144, "st_rm");
_Static_assert(offsetof(struct xstat, st_extra_results) == 152, "extra");
_Static_assert(_Alignof(struct xstat) == 8, "alignment");
_Static_assert(sizeof(struct xstat_mnt_id) == 16, "xstat_mnt_id");
_Static_assert(offsetof(struct xstat_mnt_id, unique) == 8, "mnt_id.unique");
_Static_assert(sizeof(struct xstat_attributes) == 16, "xstat_attributes");
_Static_assert(offsetof(struct xstat_attributes, attributes_mask) == 8,
	       "attributes_mask");
_Static_assert(sizeof(struct xstat_dioalign) == 8, "xstat_dioalign");
_Static_assert(offsetof(struct xstat_dioalign, offset_align) == 4,
	       "dioalign.offset_align");
_Static_assert(sizeof(struct xstat_subvol) == 8, "xstat_subvol");
_Static_assert(sizeof(struct xstat_write_atomic) == 16, "write_atomic");
_Static_assert(offsetof(struct xstat_write_atomic, unit_max_opt) == 12,
	       "write_atomic.unit_max_opt");
_Static_assert(sizeof(struct xstat_dio_read_align) == 8, "dio_read_align");
#endif

/*
 * xstat - get extended status of the file at @filename relative to @dfd.
 * fxstat - likewise for the open file descriptor @fd.
 *
 * Returns the size of the complete result (152 plus any extra results) and
 * copies as much of it as fits in @buflen bytes of @buffer; a NULL @buffer
 * with @buflen 0 asks only for the size.  On error returns -1 and sets
 * errno.  @params NULL means XSTAT_REQUEST__EXTENDED_STATS.
 */
ssize_t xstat(int dfd, const char *filename, unsigned flags,
	      const struct xstat_parameters *params,
	      struct xstat *buffer, size_t buflen);

ssize_t fxstat(unsigned fd, unsigned flags,
	       const struct xstat_parameters *params,
	       struct xstat *buffer, size_t buflen);

/*
 * xstat_extra - find the extra result @bit in a result of @buflen bytes.
 * Returns a pointer to its payload, or NULL if @bit is not a single extra
 * result bit, was not produced (its bit is clear in st_result_mask), or
 * does not lie wholly within @buflen.
 */
const void *xstat_extra(const struct xstat *buffer, size_t buflen,
			unsigned long long bit);

#ifdef __cplusplus
}
#endif

#endif /* XSTAT_H */
