/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private copies of the XFS and btrfs ioctl interfaces the non-ext4
 * probes use, written from the kernel's uapi headers (xfs_fs.h, btrfs.h,
 * btrfs_tree.h) and never included from the host: the layouts are ABI and
 * the asserts below pin them, on every architecture CI builds.
 */
#ifndef LIBXSTAT_FSPROBE_UAPI_H
#define LIBXSTAT_FSPROBE_UAPI_H

#include <stddef.h>
#include <stdint.h>

/* ---- XFS: XFS_IOC_BULKSTAT (Linux 5.2), CAP_SYS_ADMIN only ---- */

struct xs_xfs_bulk_ireq {
	uint64_t	ino;		/* in: first inode wanted */
	uint32_t	flags;		/* in: 0 */
	uint32_t	icount;		/* in: records the buffer holds */
	uint32_t	ocount;		/* out: records filled */
	uint32_t	agno;		/* in: unused without a flag */
	uint64_t	reserved[5];	/* must be zero */
};

struct xs_xfs_bulkstat {
	uint64_t	bs_ino;
	uint64_t	bs_size;
	uint64_t	bs_blocks;
	uint64_t	bs_xflags;
	int64_t		bs_atime;
	int64_t		bs_mtime;
	int64_t		bs_ctime;
	int64_t		bs_btime;	/* zero unless a v5 filesystem */
	uint32_t	bs_gen;
	uint32_t	bs_uid;
	uint32_t	bs_gid;
	uint32_t	bs_projectid;
	uint32_t	bs_atime_nsec;
	uint32_t	bs_mtime_nsec;
	uint32_t	bs_ctime_nsec;
	uint32_t	bs_btime_nsec;
	uint32_t	bs_blksize;
	uint32_t	bs_rdev;
	uint32_t	bs_cowextsize_blks;
	uint32_t	bs_extsize_blks;
	uint32_t	bs_nlink;
	uint32_t	bs_extents;
	uint32_t	bs_aextents;
	uint16_t	bs_version;
	uint16_t	bs_forkoff;
	uint16_t	bs_sick;
	uint16_t	bs_checked;
	uint16_t	bs_mode;
	uint16_t	bs_pad2;
	uint64_t	bs_extents64;
	uint64_t	bs_pad[6];
};

/* struct xfs_bulkstat_req: the header, then icount records. */
struct xs_xfs_bulkstat_one {
	struct xs_xfs_bulk_ireq	hdr;
	struct xs_xfs_bulkstat	bs[1];
};

#define XS_XFS_BULKSTAT_VERSION_V5	5

/* _IOR('X', 127, struct xfs_bulkstat_req): the size is the header's. */
#define XS_XFS_IOC_BULKSTAT		0x8040587FUL

_Static_assert(sizeof(struct xs_xfs_bulk_ireq) == 64, "xfs_bulk_ireq");
_Static_assert(sizeof(struct xs_xfs_bulkstat) == 192, "xfs_bulkstat");
_Static_assert(offsetof(struct xs_xfs_bulkstat, bs_btime) == 56, "bs_btime");
_Static_assert(offsetof(struct xs_xfs_bulkstat, bs_gen) == 64, "bs_gen");
_Static_assert(offsetof(struct xs_xfs_bulkstat, bs_btime_nsec) == 92,
	       "bs_btime_nsec");
_Static_assert(offsetof(struct xs_xfs_bulkstat, bs_version) == 124,
	       "bs_version");
_Static_assert(offsetof(struct xs_xfs_bulkstat, bs_mode) == 132, "bs_mode");
_Static_assert(offsetof(struct xs_xfs_bulkstat_one, bs) == 64, "req");
_Static_assert(((2UL << 30) | (sizeof(struct xs_xfs_bulk_ireq) << 16) |
		('X' << 8) | 127) == XS_XFS_IOC_BULKSTAT, "XFS_IOC_BULKSTAT");

/* ---- btrfs: BTRFS_IOC_TREE_SEARCH (v1), CAP_SYS_ADMIN only ---- */

struct xs_btrfs_search_key {
	uint64_t	tree_id;	/* 0: the subvolume of the fd */
	uint64_t	min_objectid;
	uint64_t	max_objectid;
	uint64_t	min_offset;
	uint64_t	max_offset;
	uint64_t	min_transid;
	uint64_t	max_transid;
	uint32_t	min_type;
	uint32_t	max_type;
	uint32_t	nr_items;	/* in: at most; out: returned */
	uint32_t	unused;
	uint64_t	unused1, unused2, unused3, unused4;
};

/* Before each item in the buffer; host byte order, not aligned. */
struct xs_btrfs_search_header {
	uint64_t	transid;
	uint64_t	objectid;
	uint64_t	offset;
	uint32_t	type;
	uint32_t	len;		/* bytes of item that follow */
};

#define XS_BTRFS_SEARCH_BUFSIZE	(4096 - sizeof(struct xs_btrfs_search_key))

struct xs_btrfs_search_args {
	struct xs_btrfs_search_key	key;
	unsigned char			buf[XS_BTRFS_SEARCH_BUFSIZE];
};

/* _IOWR(0x94, 17, struct btrfs_ioctl_search_args) */
#define XS_BTRFS_IOC_TREE_SEARCH	0xD0009411UL
#define XS_BTRFS_INODE_ITEM_KEY		1

_Static_assert(sizeof(struct xs_btrfs_search_key) == 104, "search_key");
_Static_assert(sizeof(struct xs_btrfs_search_header) == 32, "search_header");
_Static_assert(sizeof(struct xs_btrfs_search_args) == 4096, "search_args");
_Static_assert(((3UL << 30) | (sizeof(struct xs_btrfs_search_args) << 16) |
		(0x94 << 8) | 17) == XS_BTRFS_IOC_TREE_SEARCH,
	       "BTRFS_IOC_TREE_SEARCH");

/*
 * struct btrfs_inode_item: packed, little-endian, 160 bytes; read by
 * offset rather than overlaid, as the buffer gives no alignment.
 * A btrfs_timespec is le64 seconds then le32 nanoseconds.
 */
#define XS_BTRFS_II_GENERATION	0
#define XS_BTRFS_II_SIZE	16
#define XS_BTRFS_II_MODE	52
#define XS_BTRFS_II_SEQUENCE	72
#define XS_BTRFS_II_CTIME	124
#define XS_BTRFS_II_MTIME	136
#define XS_BTRFS_II_OTIME	148
#define XS_BTRFS_INODE_ITEM_SIZE 160

#endif /* LIBXSTAT_FSPROBE_UAPI_H */
