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
 * public structure has the same layout on i386 and x86_64.  Only the
 * static inline conversions to struct stat and struct timespec take the
 * caller's types, which is why they are inline.
 *
 * Names: everything here starts with xstat_, XSTAT_ or LIBXSTAT_, apart
 * from the AT_* flags; none is reserved to the implementation (no leading
 * double underscore), and the padding members are called "reserved".  The
 * patch's XSTAT_REQUEST__*_STATS keep their double underscore (C++
 * reserves such names, but renaming them would break the patch's callers).
 *
 * How this interface grows (the ABI rules, also in libxstat(7)):
 *  - libxstat.so.1 keeps its SONAME.  Every release that adds functions
 *    puts them in a new version node (LIBXSTAT_1.1, LIBXSTAT_1.2, ...)
 *    that inherits the previous one; nothing is ever removed or changed.
 *  - struct xstat is closed: 152 bytes, bits 0-13.  New results are
 *    extra results (class 4), each with its own request bit and a
 *    payload of fixed size and layout (a multiple of 8 bytes; a changed
 *    layout takes a new bit).  An extra result is returned only when its
 *    bit is requested, so a result asked for with this header's bits is
 *    never larger than XSTAT_RESULT_MAX, whatever the library's version.
 *  - Request bits 14-31 are extra results that mirror a statx(2) field,
 *    allocated upwards in the order the kernel adds them.  Bits 32-55 are
 *    library-only extra results (no statx field behind them), allocated
 *    upwards from 32.  Bits 56-63 are never allocated.
 *  - A library ignores request bits it does not know (as the patch
 *    does): xstat_known_mask() returns the bits it knows, so a program
 *    can tell "this library is too old" from "not available here".
 *  - LIBXSTAT_VERSION_* are the release; configure takes the package
 *    version from them.
 */
#ifndef XSTAT_H
#define XSTAT_H

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <fcntl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The release, and the one number configure.ac, pkg-config and xstat(1) use. */
#define LIBXSTAT_VERSION_MAJOR	0
#define LIBXSTAT_VERSION_MINOR	3
#define LIBXSTAT_VERSION_MICRO	0
/* True if this header is release MAJOR.MINOR.MICRO or later. */
#define LIBXSTAT_VERSION_AT_LEAST(major, minor, micro) \
	(LIBXSTAT_VERSION_MAJOR * 1000000L + LIBXSTAT_VERSION_MINOR * 1000L + \
	 LIBXSTAT_VERSION_MICRO >= (major) * 1000000L + (minor) * 1000L + (micro))

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
/* Bits 32-55: extra results of the library's own (see the rules above). */
#define XSTAT_REQUEST_WHY_MISSING	0x100000000ULL	/* xstat_why_missing */
#define XSTAT_REQUEST_CHANGE_TOKEN	0x200000000ULL	/* xstat_change_token */
#define XSTAT_REQUEST_DV_PROMISE	0x400000000ULL	/* xstat_dv_promise */
#define XSTAT_REQUEST_FS_ID		0x800000000ULL	/* xstat_fs_id */
#define XSTAT_REQUEST_MNT_ID_REUSABLE	0x1000000000ULL	/* xstat_mnt_id_reusable */
/* The extra results: every bit above, from MNT_ID on. */
#define XSTAT_REQUEST__EXTRA_RESULTS	(XSTAT_REQUEST_MNT_ID | \
	XSTAT_REQUEST_ATTRIBUTES | XSTAT_REQUEST_DIOALIGN | \
	XSTAT_REQUEST_SUBVOL | XSTAT_REQUEST_WRITE_ATOMIC | \
	XSTAT_REQUEST_DIO_READ_ALIGN | XSTAT_REQUEST_WHY_MISSING | \
	XSTAT_REQUEST_CHANGE_TOKEN | XSTAT_REQUEST_DV_PROMISE | \
	XSTAT_REQUEST_FS_ID | XSTAT_REQUEST_MNT_ID_REUSABLE)
/* Every defined bit. */
#define XSTAT_REQUEST__ALL_STATS	(XSTAT_REQUEST__EXTENDED_STATS | \
					 XSTAT_REQUEST__EXTRA_RESULTS)

/*
 * 64-bit members are 8-byte aligned on every architecture so that the
 * structures have one layout on i386 (where long long is 4-aligned in
 * structs) and x86_64.
 */
#if defined(__GNUC__) || defined(__clang__)
#define XSTAT_ALIGN8 __attribute__((aligned(8)))
#else
#define XSTAT_ALIGN8
#endif
typedef unsigned long long xstat_u64 XSTAT_ALIGN8;
typedef long long xstat_s64 XSTAT_ALIGN8;

struct xstat_parameters {
	xstat_u64		request_mask;
};

struct xstat_dev {
	unsigned int		major;
	unsigned int		minor;
};

/* tv_sec is signed: times before 1970 are negative. */
struct xstat_time {
	xstat_s64		tv_sec;
	xstat_u64		tv_nsec;
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
	xstat_u64		st_ino;		/* inode number */
	xstat_u64		st_size;	/* file size in bytes */
	xstat_u64		st_blksize;	/* preferred I/O block size */
	xstat_u64		st_blocks;	/* 512-byte blocks allocated */
	xstat_u64		st_gen;		/* inode generation number */
	xstat_u64		st_data_version; /* data version number */
	xstat_u64		st_result_mask;	/* which fields hold values */
	/*
	 * The requested extra results (find them with xstat_extra*()).
	 * __extension__ keeps g++ -pedantic quiet about a flexible array
	 * member; clang++ needs the pragma.
	 */
#if defined(__cplusplus) && defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc99-extensions"
#endif
	__extension__ xstat_u64	st_extra_results[];
#if defined(__cplusplus) && defined(__clang__)
#pragma clang diagnostic pop
#endif
};

#define XSTAT_STRUCT_SIZE	152

/*
 * XSTAT_REQUEST_MNT_ID: the mount the file is on, by the never-reused ID
 * where the kernel has one (@unique says which kind was had).  For the ID
 * of /proc/self/mountinfo ask for XSTAT_REQUEST_MNT_ID_REUSABLE.
 */
struct xstat_mnt_id {
	xstat_u64		mnt_id;
	unsigned int		unique;	/* 1: never-reused 64-bit ID (6.8+);
					   0: the reusable ID of mountinfo */
	unsigned int		reserved;	/* 0 (was __reserved) */
};

/*
 * XSTAT_REQUEST_MNT_ID_REUSABLE: the mount ID of /proc/self/mountinfo
 * (statx(2)'s STATX_MNT_ID), which the kernel hands to a new mount once
 * this one is gone.  statx gives one kind of mount ID per call: asked
 * together with XSTAT_REQUEST_MNT_ID (or with what needs the unique ID:
 * a class (3) field, a promise, XSTAT_REQUEST_FS_ID) it costs a second
 * call on the file.  A library bit (32-55): statx has no field of its
 * own for it, only another answer of stx_mnt_id.
 */
struct xstat_mnt_id_reusable {
	xstat_u64		mnt_id;
};

/* XSTAT_REQUEST_ATTRIBUTES: which XSTAT_ATTR_* are known, which are set. */
struct xstat_attributes {
	xstat_u64		attributes;
	xstat_u64		attributes_mask;
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
	xstat_u64		subvol;
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
	unsigned int		reserved;	/* 0 (was __reserved) */
};

/*
 * XSTAT_REQUEST_WHY_MISSING: why each class (3) field of this result is
 * missing, as one XSTAT_WHY_* code per field, so that a program can tell
 * "not root" from "this filesystem has none" without the library logging
 * anything.  The reserved bytes are 0; later versions may give reasons
 * for more fields there, and may add codes: read one this header does not
 * define as XSTAT_WHY_UNKNOWN.
 */
struct xstat_why_missing {
	unsigned char		btime;
	unsigned char		gen;
	unsigned char		data_version;
	unsigned char		reserved[5];
};

#define XSTAT_WHY_PRESENT	0	/* returned: not missing */
#define XSTAT_WHY_NOT_REQUESTED	1	/* not asked for (and not given) */
#define XSTAT_WHY_UNKNOWN	2	/* missing; no reason recorded */
#define XSTAT_WHY_NO_SOURCE	3	/* the filesystem or file type has none */
#define XSTAT_WHY_PRIVILEGE	4	/* needs a privilege the caller lacks */
#define XSTAT_WHY_REFUSED	5	/* refused despite privilege (device,
					   server, sandbox, security module) */
#define XSTAT_WHY_KERNEL	6	/* the kernel lacks the interface */
#define XSTAT_WHY_NO_SYNC	7	/* would need a request AT_NO_ATTR_SYNC
					   forbids */
#define XSTAT_WHY_UNVERIFIED	8	/* read, but failed the checks that it
					   is this inode's current value */
#define XSTAT_WHY_NO_DEVICE	9	/* the filesystem's block device was
					   not found (no node in /dev, no
					   /sys): nothing to read it from */

/*
 * What a value promises about changes of the file (XSTAT_PROMISE_*): the
 * data version of a result (XSTAT_REQUEST_DV_PROMISE) and the change token
 * (XSTAT_REQUEST_CHANGE_TOKEN).  A "change" is one made after the call
 * returned (a write counts if it begins after the call: one already under
 * way may finish without moving the value; libxstat(7), "Writes in
 * progress", has a recipe for consistent copies): a write, truncate, a store into a shared mapping that faults
 * (one into a page already dirty goes unseen by every timestamp and
 * counter, and tmpfs pages stay dirty), or (with METADATA) chmod, chown,
 * utimes, an xattr set, or (with NAMES) link, unlink, rename of the file;
 * for a directory also an entry created, removed or renamed in it.  The
 * promise is per filesystem and file type: a tmpfs directory takes the
 * ctime of the entry that changed, so its token promises only TICK.
 * Flags that are clear make no claim; the weaknesses are flags too, so a
 * program can refuse a value that has one it cannot live with.  The facts
 * behind them are measured per filesystem: libxstat(7).
 */
#define XSTAT_PROMISE_EVERY_CHANGE	0x0001ULL /* every change moves it */
#define XSTAT_PROMISE_TICK		0x0002ULL /* changes within one timestamp
						     tick (up to 1 s) of the one
						     before may leave it alone */
#define XSTAT_PROMISE_MONOTONIC		0x0004ULL /* a number that never goes
						     down while mounted */
#define XSTAT_PROMISE_PERSISTENT	0x0008ULL /* kept across unmount, mount
						     and reboot (not a crash:
						     libxstat(7)) */
#define XSTAT_PROMISE_METADATA		0x0010ULL /* metadata changes move it */
#define XSTAT_PROMISE_ATIME		0x0020ULL /* so may an atime update (a
						     read): false alarms */
#define XSTAT_PROMISE_WRAP32		0x0040ULL /* 32 bits: repeats after 2^32
						     changes */
#define XSTAT_PROMISE_CLOCK		0x0080ULL /* may repeat an earlier value
						     after the clock is stepped
						     back (made from a time) */
#define XSTAT_PROMISE_LAGS		0x0100ULL /* may be older than the newest
						     value: a later call can
						     differ with no change
						     between (false alarm) */
#define XSTAT_PROMISE_NAMES		0x0200ULL /* link, unlink and rename of
						     the file move it too */

/* XSTAT_REQUEST_DV_PROMISE: what this result's st_data_version promises. */
struct xstat_dv_promise {
	xstat_u64		promise;	/* XSTAT_PROMISE_* */
};

/*
 * XSTAT_REQUEST_CHANGE_TOKEN: a value that changes when the file changes,
 * for every caller.  Compare two tokens of one file (same identity: see
 * xstat(3)) for equality only; they are not ordered.  Made from the ctime
 * this very call read (with multigrain timestamps, Linux 6.13+, that read
 * makes the next change take a new ctime) hashed with mtime, size, inode
 * number, mode, link count and owner, and with the data version too when
 * this result holds one that promises every change (ask for
 * XSTAT_REQUEST_DATA_VERSION as well; it needs root): then the changes the
 * data version counts are seen even after a backward clock step.
 * @promise says which guarantees hold.
 */
struct xstat_change_token {
	xstat_u64		token;
	xstat_u64		promise;	/* XSTAT_PROMISE_* */
	unsigned int		source;		/* XSTAT_TOKEN_FROM_* */
	unsigned int		reserved;	/* 0 */
};

#define XSTAT_TOKEN_FROM_DATA_VERSION	1	/* st_data_version, ctime and
						   attributes */
#define XSTAT_TOKEN_FROM_CTIME		2	/* ctime and attributes */

/*
 * XSTAT_REQUEST_FS_ID (since 0.3.0): the filesystem the file is on, by a
 * name that outlives the mount - unlike st_dev (a loop device or btrfs's
 * anonymous device can differ after the next mount) and the mount ID
 * (new on every mount).  Compare two of them only when @source is equal;
 * then equal @id means the same filesystem.  On btrfs the name is the
 * subvolume's (inode numbers are per subvolume).  A tmpfs is given a new
 * UUID on every mount: its files do not outlive it either.
 */
struct xstat_fs_id {
	unsigned char		id[16];
	unsigned int		source;		/* XSTAT_FS_ID_FROM_* */
	unsigned int		reserved;	/* 0 */
};

/*
 * FROM_UUID: FS_IOC_GETFSUUID, the superblock's UUID (ext4, xfs, tmpfs;
 * Linux 6.5+).  FROM_FSID: statfs(2) f_fsid, only where the filesystem
 * makes it from its UUID (btrfs: the UUID and the subvolume; ext4).
 */
#define XSTAT_FS_ID_FROM_UUID	1
#define XSTAT_FS_ID_FROM_FSID	2

/* The layout, checked at compile time wherever the language can. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define XSTAT_STATIC_ASSERT(e, m)	static_assert(e, m)
#define XSTAT_ALIGNOF(t)		alignof(t)
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && \
	__STDC_VERSION__ >= 201112L
#define XSTAT_STATIC_ASSERT(e, m)	_Static_assert(e, m)
#define XSTAT_ALIGNOF(t)		_Alignof(t)
#endif
#ifdef XSTAT_STATIC_ASSERT
XSTAT_STATIC_ASSERT(sizeof(struct xstat_parameters) == 8, "xstat_parameters");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_dev) == 8, "xstat_dev");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_time) == 16, "xstat_time");
XSTAT_STATIC_ASSERT(sizeof(struct xstat) == XSTAT_STRUCT_SIZE, "struct xstat");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_mode) == 0, "st_mode");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_nlink) == 4, "st_nlink");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_uid) == 8, "st_uid");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_gid) == 12, "st_gid");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_rdev) == 16, "st_rdev");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_dev) == 24, "st_dev");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_atim) == 32, "st_atim");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_mtim) == 48, "st_mtim");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_ctim) == 64, "st_ctim");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_btim) == 80, "st_btim");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_ino) == 96, "st_ino");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_size) == 104, "st_size");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_blksize) == 112, "st_blksize");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_blocks) == 120, "st_blocks");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_gen) == 128, "st_gen");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_data_version) == 136, "st_dv");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_result_mask) == 144, "st_rm");
XSTAT_STATIC_ASSERT(offsetof(struct xstat, st_extra_results) == 152, "extra");
XSTAT_STATIC_ASSERT(XSTAT_ALIGNOF(struct xstat) == 8, "alignment");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_mnt_id) == 16, "xstat_mnt_id");
XSTAT_STATIC_ASSERT(offsetof(struct xstat_mnt_id, unique) == 8, "mnt_id.unique");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_attributes) == 16, "xstat_attributes");
XSTAT_STATIC_ASSERT(offsetof(struct xstat_attributes, attributes_mask) == 8,
	       "attributes_mask");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_dioalign) == 8, "xstat_dioalign");
XSTAT_STATIC_ASSERT(offsetof(struct xstat_dioalign, offset_align) == 4,
	       "dioalign.offset_align");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_subvol) == 8, "xstat_subvol");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_write_atomic) == 16, "write_atomic");
XSTAT_STATIC_ASSERT(offsetof(struct xstat_write_atomic, unit_max_opt) == 12,
	       "write_atomic.unit_max_opt");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_dio_read_align) == 8, "dio_read_align");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_why_missing) == 8, "why_missing");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_dv_promise) == 8, "dv_promise");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_change_token) == 24, "change_token");
XSTAT_STATIC_ASSERT(offsetof(struct xstat_change_token, source) == 16,
		    "change_token.source");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_fs_id) == 24, "fs_id");
XSTAT_STATIC_ASSERT(sizeof(struct xstat_mnt_id_reusable) == 8,
		    "mnt_id_reusable");
XSTAT_STATIC_ASSERT(offsetof(struct xstat_fs_id, source) == 16,
		    "fs_id.source");
#endif

/*
 * xstat - get extended status of the file at @filename relative to @dfd.
 * fxstat - likewise for the open file descriptor @fd.
 *
 * Returns the size of the complete result (152 plus any extra results) and
 * copies as much of it as fits in @buflen bytes of @buffer; a NULL @buffer
 * with @buflen 0 asks only for the size.  On error returns -1 and sets
 * errno.  @params NULL means XSTAT_REQUEST__EXTENDED_STATS.
 *
 * fxstat's @fd was "unsigned" in the patch and in libxstat 0.1.0; it is
 * an int like every other descriptor, so that callers need no cast under
 * -Wsign-conversion.  The ABI is the same: int and unsigned int have one
 * size and are passed alike on every Linux ABI for every value a
 * descriptor can have, and a negative @fd (an unsigned one above INT_MAX
 * before) is EBADF.
 */
ssize_t xstat(int dfd, const char *filename, unsigned flags,
	      const struct xstat_parameters *params,
	      struct xstat *buffer, size_t buflen);

ssize_t fxstat(int fd, unsigned flags,
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

/*
 * xstat_known_mask - the request bits this library knows (since 0.2.0,
 * LIBXSTAT_1.1).  A bit of this header that is clear here is one the
 * library ignores: it is too old for it, not "the file has none".
 */
unsigned long long xstat_known_mask(void);

/*
 * Directory streams (LIBXSTAT_1.1): the entries of one directory, each
 * with its name, its type from the directory and the result xstat()
 * would give for it (lookup without following a final symlink), read in
 * batches so that what a batch shares is paid once.  See xstat_opendir(3).
 */
struct xstat_dir;

struct xstat_dirent {
	const char		*d_name;	/* NUL-terminated */
	const struct xstat	*d_xstat;	/* the result; zeroed on error */
	size_t			d_xstat_len;	/* its bytes: xstat()'s return */
	xstat_u64		d_ino;		/* inode number in the directory */
	int			d_error;	/* 0, or this entry's errno */
	unsigned char		d_type;		/* DT_* from the directory */
};

/*
 * xstat_opendir - open the directory @path relative to @dfd (with
 * AT_EMPTY_PATH and "", @dfd itself; the caller's fd is not used for
 * reading) for xstat_readdir().  @flags: AT_SYMLINK_NOFOLLOW (for @path),
 * AT_NO_AUTOMOUNT, AT_EMPTY_PATH and one sync flag (for every entry).
 * @params is copied; NULL means XSTAT_REQUEST__EXTENDED_STATS.
 * NULL and errno on error.
 */
struct xstat_dir *xstat_opendir(int dfd, const char *path, unsigned flags,
				const struct xstat_parameters *params);

/*
 * xstat_readdir - the next entry ("." and ".." are skipped), valid until
 * the next call on @dir; NULL at the end (errno unchanged) or on error
 * (errno set).
 */
const struct xstat_dirent *xstat_readdir(struct xstat_dir *dir);

/* xstat_dirfd - the stream's directory descriptor, for *at() calls. */
int xstat_dirfd(struct xstat_dir *dir);

/* xstat_closedir - close the stream and free it; 0, or -1 and errno. */
int xstat_closedir(struct xstat_dir *dir);

/*
 * xstat_compare (LIBXSTAT_1.2, since 0.3.0) - what changed between
 * @before and @after, two results for one name (each with at least
 * XSTAT_REQUEST_INO | XSTAT_REQUEST_MODE; @before_len and @after_len as
 * for xstat_extra()).  @before_taken: CLOCK_REALTIME read just before the
 * call that gave @before, or NULL if not known (then nothing is proven).
 * Returns one XSTAT_* verdict below, and in *@why (if not NULL) the
 * XSTAT_DIFF_* bits behind it; -1 and errno EINVAL or EFAULT for a
 * result that cannot be compared.  See xstat_compare(3): what each
 * verdict promises and which results to ask for.
 */
/*
 * The verdicts, in order: XSTAT_SAME, unchanged, proven by change tokens;
 * XSTAT_SAME_UNPROVEN, no field moved but nothing proves it;
 * XSTAT_CHANGED_METADATA, ctime, mode, owner or link count moved while
 * size and mtime did not: the data is unchanged unless someone set mtime
 * back; XSTAT_CHANGED_DATA, size, mtime or the data moved;
 * XSTAT_OTHER_FILE, not the same file (filesystem, inode, type,
 * generation or creation time differ).
 */
#define XSTAT_SAME		0
#define XSTAT_SAME_UNPROVEN	1
#define XSTAT_CHANGED_METADATA	2
#define XSTAT_CHANGED_DATA	3
#define XSTAT_OTHER_FILE	4

/*
 * The fields behind a verdict.  FS: XSTAT_REQUEST_FS_ID where both have
 * one from the same source, else st_dev.  TYPE: st_mode & S_IFMT; MODE:
 * the other bits.  DATA_VERSION: a data version that counts only data
 * moved; META_VERSION: one that counts metadata too.  TOKEN: the change
 * tokens differ.  The rest say why XSTAT_SAME was not proven: NO_TOKEN, a
 * token missing or the two made from different sources; WEAK, a token's
 * promise lacks EVERY_CHANGE or PERSISTENT, or has TICK; RACY, @before
 * changed within 1 s of @before_taken (or that time is unknown); MISSING,
 * a compared field is in one result only.
 */
#define XSTAT_DIFF_FS		0x00001ULL
#define XSTAT_DIFF_INO		0x00002ULL
#define XSTAT_DIFF_TYPE		0x00004ULL
#define XSTAT_DIFF_GEN		0x00008ULL
#define XSTAT_DIFF_BTIME	0x00010ULL
#define XSTAT_DIFF_SIZE		0x00020ULL
#define XSTAT_DIFF_MTIME	0x00040ULL
#define XSTAT_DIFF_DATA_VERSION	0x00080ULL
#define XSTAT_DIFF_CTIME	0x00100ULL
#define XSTAT_DIFF_MODE		0x00200ULL
#define XSTAT_DIFF_OWNER	0x00400ULL
#define XSTAT_DIFF_NLINK	0x00800ULL
#define XSTAT_DIFF_META_VERSION	0x01000ULL
#define XSTAT_DIFF_TOKEN	0x02000ULL
#define XSTAT_DIFF_NO_TOKEN	0x04000ULL
#define XSTAT_DIFF_WEAK		0x08000ULL
#define XSTAT_DIFF_RACY		0x10000ULL
#define XSTAT_DIFF_MISSING	0x20000ULL

int xstat_compare(const struct xstat *before, size_t before_len,
		  const struct xstat *after, size_t after_len,
		  const struct xstat_time *before_taken,
		  unsigned long long *why);

/*
 * The largest result a request made of this header's bits can have:
 * struct xstat and every extra result.  It grows when a header adds an
 * extra result; for a program it stays a sufficient size even with a
 * newer library, which returns only the extra results asked for.
 */
#define XSTAT_RESULT_MAX	296

/*
 * A buffer that holds any such result, aligned for the structures, in C
 * and C++ (a struct with struct xstat inside would not be: its flexible
 * array member must come last):
 *
 *	union xstat_buffer b;
 *	ssize_t n = xstat(AT_FDCWD, path, 0, &params, &b.x, sizeof(b));
 */
union xstat_buffer {
	struct xstat		x;
	xstat_u64		words[XSTAT_RESULT_MAX / 8];
	unsigned char		bytes[XSTAT_RESULT_MAX];
};

#ifdef XSTAT_STATIC_ASSERT
XSTAT_STATIC_ASSERT(sizeof(union xstat_buffer) == XSTAT_RESULT_MAX,
		    "xstat_buffer");
#endif

/*
 * Typed forms of xstat_extra(), which C++ can use without a cast.  @buflen
 * as for xstat_extra(): the smaller of the return value and the buffer's
 * size.
 */
/* A conversion that C++'s -Wold-style-cast accepts too. */
#ifdef __cplusplus
#define XSTAT_CAST(type, v)	static_cast<type>(v)
#else
#define XSTAT_CAST(type, v)	((type)(v))
#endif

static inline const struct xstat_mnt_id *xstat_extra_mnt_id(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_mnt_id *,
			      xstat_extra(x, buflen, XSTAT_REQUEST_MNT_ID));
}

static inline const struct xstat_attributes *xstat_extra_attributes(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_attributes *,
			      xstat_extra(x, buflen, XSTAT_REQUEST_ATTRIBUTES));
}

static inline const struct xstat_dioalign *xstat_extra_dioalign(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_dioalign *,
			      xstat_extra(x, buflen, XSTAT_REQUEST_DIOALIGN));
}

static inline const struct xstat_subvol *xstat_extra_subvol(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_subvol *,
			      xstat_extra(x, buflen, XSTAT_REQUEST_SUBVOL));
}

static inline const struct xstat_write_atomic *xstat_extra_write_atomic(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_write_atomic *,
			      xstat_extra(x, buflen,
					  XSTAT_REQUEST_WRITE_ATOMIC));
}

static inline const struct xstat_dio_read_align *xstat_extra_dio_read_align(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_dio_read_align *,
			      xstat_extra(x, buflen,
					  XSTAT_REQUEST_DIO_READ_ALIGN));
}

static inline const struct xstat_why_missing *xstat_extra_why_missing(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_why_missing *,
			  xstat_extra(x, buflen, XSTAT_REQUEST_WHY_MISSING));
}

static inline const struct xstat_change_token *xstat_extra_change_token(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_change_token *,
			  xstat_extra(x, buflen, XSTAT_REQUEST_CHANGE_TOKEN));
}

static inline const struct xstat_dv_promise *xstat_extra_dv_promise(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_dv_promise *,
			  xstat_extra(x, buflen, XSTAT_REQUEST_DV_PROMISE));
}

static inline const struct xstat_fs_id *xstat_extra_fs_id(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_fs_id *,
			  xstat_extra(x, buflen, XSTAT_REQUEST_FS_ID));
}

static inline const struct xstat_mnt_id_reusable *xstat_extra_mnt_id_reusable(const struct xstat *x, size_t buflen)
{
	return XSTAT_CAST(const struct xstat_mnt_id_reusable *,
			  xstat_extra(x, buflen,
				      XSTAT_REQUEST_MNT_ID_REUSABLE));
}

/*
 * Conversions to the C library's types.  They are inline because dev_t,
 * time_t, off_t, ino_t and struct stat have the sizes of the caller's
 * compilation (_FILE_OFFSET_BITS, _TIME_BITS), which no function inside
 * the library could know.  Like stat(2), they fail with EOVERFLOW where a
 * value does not fit (a 32-bit off_t, ino_t or time_t).
 */

/*
 * xstat_makedev - the dev_t for @d, as makedev(3) makes it (the encoding
 * of glibc, musl and bionic), without needing <sys/sysmacros.h>.
 */
static inline dev_t xstat_makedev(struct xstat_dev d)
{
	unsigned long long ma = d.major, mi = d.minor;

	return XSTAT_CAST(dev_t, (ma & 0xfffff000ULL) << 32 |
			  (ma & 0x00000fffULL) << 8 |
			  (mi & 0xffffff00ULL) << 12 | (mi & 0x000000ffULL));
}

/*
 * struct timespec: C11's <time.h>, or POSIX's.  glibc in strict C99 mode
 * (gcc -std=c99 without _POSIX_C_SOURCE) has none, and then
 * xstat_to_timespec() is not defined; XSTAT_HAVE_TIMESPEC says if it is.
 * <sys/stat.h> defines st_atime as a macro exactly when struct stat has
 * the POSIX.1-2008 timespec members (glibc, musl, bionic).
 */
#if defined(st_atime) || defined(__timespec_defined) || \
	(defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L) || \
	defined(__cplusplus)
#define XSTAT_HAVE_TIMESPEC	1

/*
 * xstat_to_timespec - @t as a struct timespec.  Returns 0, or -1 with
 * errno EOVERFLOW if tv_sec does not fit in time_t (*@ts is then
 * unchanged).
 */
static inline int xstat_to_timespec(const struct xstat_time *t, struct timespec *ts)
{
	time_t sec = XSTAT_CAST(time_t, t->tv_sec);

	if (XSTAT_CAST(long long, sec) != t->tv_sec) {
		errno = EOVERFLOW;
		return -1;
	}
	ts->tv_sec = sec;
	ts->tv_nsec = XSTAT_CAST(long, t->tv_nsec);	/* always below 10^9 */
	return 0;
}
#endif

/*
 * The nanoseconds of a struct stat time: POSIX.1-2008's st_atim, or in
 * glibc's strict C modes its st_atimensec (musl and bionic always have
 * st_atim).
 */
#if defined(st_atime)
#define XSTAT_SET_STAT_NSEC(sb, m, ns)	((sb)->m##tim.tv_nsec = XSTAT_CAST(long, ns))
#elif defined(__GLIBC__) && (defined(__GNUC__) || defined(__clang__))
/* Its type varies (unsigned long, or int32_t with 64-bit time_t). */
#define XSTAT_SET_STAT_NSEC(sb, m, ns) \
	((sb)->m##timensec = XSTAT_CAST(__typeof__((sb)->m##timensec), ns))
#else
#define XSTAT_SET_STAT_NSEC(sb, m, ns)	((void)(ns))
#endif

/*
 * xstat_to_stat - @x as stat(2) would have filled *@sb, in the caller's
 * struct stat.  Every field is converted whatever st_result_mask says:
 * check the mask first (XSTAT_REQUEST__BASIC_STATS for all of them), as
 * a field whose bit is clear is 0.  Returns 0, or -1 with errno EOVERFLOW
 * if the inode number, size, block count or a time does not fit (as
 * stat(2) without _FILE_OFFSET_BITS=64 or _TIME_BITS=64); *@sb is then
 * unchanged.
 */
static inline int xstat_to_stat(const struct xstat *x, struct stat *sb)
{
	struct stat r;
	time_t at = XSTAT_CAST(time_t, x->st_atim.tv_sec);
	time_t mt = XSTAT_CAST(time_t, x->st_mtim.tv_sec);
	time_t ct = XSTAT_CAST(time_t, x->st_ctim.tv_sec);
	ino_t ino = XSTAT_CAST(ino_t, x->st_ino);
	off_t size = XSTAT_CAST(off_t, x->st_size);
	blkcnt_t blocks = XSTAT_CAST(blkcnt_t, x->st_blocks);
	/* long: blksize_t is XSI-only, and long in every Linux C library */
	long blksize = XSTAT_CAST(long, x->st_blksize);

	if (XSTAT_CAST(unsigned long long, ino) != x->st_ino || size < 0 ||
	    XSTAT_CAST(unsigned long long, size) != x->st_size || blocks < 0 ||
	    XSTAT_CAST(unsigned long long, blocks) != x->st_blocks ||
	    blksize < 0 ||
	    XSTAT_CAST(unsigned long long, blksize) != x->st_blksize ||
	    XSTAT_CAST(long long, at) != x->st_atim.tv_sec ||
	    XSTAT_CAST(long long, mt) != x->st_mtim.tv_sec ||
	    XSTAT_CAST(long long, ct) != x->st_ctim.tv_sec) {
		errno = EOVERFLOW;
		return -1;
	}
	memset(&r, 0, sizeof(r));
	r.st_dev = xstat_makedev(x->st_dev);
	r.st_ino = ino;
	r.st_mode = x->st_mode;
	r.st_nlink = x->st_nlink;
	r.st_uid = x->st_uid;
	r.st_gid = x->st_gid;
	r.st_rdev = xstat_makedev(x->st_rdev);
	r.st_size = size;
	r.st_blksize = blksize;
	r.st_blocks = blocks;
	r.st_atime = at;
	r.st_mtime = mt;
	r.st_ctime = ct;
	XSTAT_SET_STAT_NSEC(&r, st_a, x->st_atim.tv_nsec);
	XSTAT_SET_STAT_NSEC(&r, st_m, x->st_mtim.tv_nsec);
	XSTAT_SET_STAT_NSEC(&r, st_c, x->st_ctim.tv_nsec);
	*sb = r;
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* XSTAT_H */
