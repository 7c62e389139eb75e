/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The record every backend and supplement fills, and the functions that
 * fill it.  A call flows one way: xstat.c validates, a backend fills the
 * basic fields, supplement.c adds what was asked for and is still missing,
 * copyout.c writes the public layout.  Internal functions return 0 or a
 * negative errno; errno is set only in xstat.c.
 */
#ifndef LIBXSTAT_INTERNAL_H
#define LIBXSTAT_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>
#include "xstat.h"

#define XS_EXPORT	__attribute__((visibility("default")))
#define XS_HIDDEN	__attribute__((visibility("hidden")))
/*
 * On the path of a call that asks for class (3) fields: kept together in
 * .text.hot, so a call touches few code pages.  With page-table isolation
 * and no PCID every system call flushes the TLB, and each page touched
 * after it costs a page walk.
 */
#define XS_HOT		__attribute__((hot))

#define XS_CLASS3	(XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN | \
			 XSTAT_REQUEST_DATA_VERSION)
#define XS_EXTRAS	XSTAT_REQUEST__EXTRA_RESULTS
/* What supplement.c can add when the backend did not. */
#define XS_SUPPLEMENTABLE (XS_CLASS3 | XSTAT_REQUEST_MNT_ID | \
			   XSTAT_REQUEST_ATTRIBUTES)

struct xs_time {
	int64_t		sec;
	uint32_t	nsec;
};

/* One file's status, kernel-kstat-like; @mask holds XSTAT_REQUEST_* bits. */
struct xs_stat {
	uint64_t	mask;
	uint32_t	mode;
	uint32_t	nlink;
	uint32_t	uid;
	uint32_t	gid;
	uint32_t	rdev_major, rdev_minor;
	uint32_t	dev_major, dev_minor;
	struct xs_time	atime, mtime, ctime, btime;
	uint64_t	ino;
	uint64_t	size;
	uint64_t	blksize;
	uint64_t	blocks;
	uint64_t	gen;
	uint64_t	data_version;
	/* extra results (class 4) */
	uint64_t	mnt_id;
	uint32_t	mnt_id_unique;
	uint32_t	mnt_tag;	/* 24-bit tag of the mount, 0: unknown */
	uint64_t	attributes;
	uint64_t	attributes_mask;
	uint32_t	dio_mem_align;
	uint32_t	dio_offset_align;
	uint64_t	subvol;
	uint32_t	awu_min;
	uint32_t	awu_max;
	uint32_t	aw_segments_max;
	uint32_t	awu_max_opt;
	uint32_t	dio_read_offset_align;
};

/*
 * The 24-bit tag of a mount the per-device cache keeps (never 0): a hash
 * of the mount ID statx gave, unique or not.
 */
static inline uint32_t xs_mnt_tag(uint64_t mnt_id, uint32_t unique)
{
	return (uint32_t)(((mnt_id + unique) * 0x9E3779B97F4A7C15ULL) >> 40) |
	       1;
}

/*
 * How to reach the file: the *at() triple.  fxstat() becomes
 * { fd, "", AT_EMPTY_PATH }, so every layer has one path to handle.
 */
struct xs_target {
	int		dfd;
	const char	*path;
	unsigned	flags;		/* AT_* lookup and sync flags */
};

/* mask.h: XSTAT_REQUEST_* <-> STATX_* translation, inline. */

/* backend selection: statx_backend.c */
enum xs_backend { XS_BACKEND_UNKNOWN, XS_BACKEND_STATX, XS_BACKEND_FALLBACK };
enum xs_backend xs_backend_current(void);

struct xs_statx;	/* the kernel's struct statx: syscall.h */
struct stat;

/*
 * statx_backend.c (per-call part inline in statx_backend.h): the kernel's
 * answer, and xs_stat_from_statx() to turn it into the record.
 */
void xs_stat_from_statx(struct xs_stat *st, const struct xs_statx *sx,
			uint64_t request);

/* fallback.c (the fstatat call inline in fallback.h): the record. */
void xs_stat_from_stat(struct xs_stat *st, const struct stat *sb);

/* fastpath.h: struct xstat straight from the kernel's answer. */

/* supplement.c: add class (3) fields that were requested and are missing. */
void xs_supplement(const struct xs_target *t, uint64_t request,
		   struct xs_stat *st);
/*
 * The same for the fast path, on the struct xstat it wrote, for the
 * fields of XS_DIRECT_SUPPLEMENTS: 1 if done (what could be had is
 * added), 0 if the general path must run instead.
 */
#define XS_DIRECT_SUPPLEMENTS	(XSTAT_REQUEST_BTIME | XSTAT_REQUEST_DATA_VERSION)
int xs_supplement_direct(uint64_t want, uint32_t mnt_tag, struct xstat *x);

/* fscache.c: per-st_dev facts, lock-free. */
#define XS_FSF_NO_GETVERSION	0x1	/* FS_IOC_GETVERSION unsupported */
#define XS_FSF_PRIV_REFUSED	0x10	/* xfs/btrfs probe ioctl: EPERM */
#define XS_FSF_NO_FSPROBE	0x20	/* no probe ioctl / btime xattr here */
uint32_t xs_fs_magic(const struct xs_target *t, const struct xs_stat *st,
		     uint32_t *fsflags);
/* Only what is cached (0 if nothing is): the fast path has no record. */
uint32_t xs_fs_magic_cached(uint32_t dev_major, uint32_t dev_minor,
			    uint32_t mnt_tag, uint32_t *fsflags);
uint32_t xs_fs_magic_refresh(const struct xs_target *t,
			     const struct xs_stat *st, uint32_t *fsflags);
void xs_fs_set_flag(const struct xs_stat *st, uint32_t flag);

/*
 * handle.c: generation from name_to_handle_at(); 0 or negative errno:
 * -EPROTO when the handle does not have the layout of @magic's filesystem
 * and -ESTALE when it names another inode (both: the magic may be stale).
 * With @with_mnt_id the same call adds the mount ID to @st (see below).
 */
int xs_handle_gen(const struct xs_target *t, uint32_t magic,
		  struct xs_stat *st, int with_mnt_id, uint64_t *gen);

/*
 * mntid.c: mount ID from name_to_handle_at(), else /proc/self/fdinfo.
 * xs_name_to_handle(): name_to_handle_at() with @t's lookup flags, 0 or
 * -errno; with @mnt, the mount ID the kernel returns (the unique one
 * where it can) is stored there and its mask bit set, also when the
 * handle did not fit (EOVERFLOW).
 */
struct file_handle;
int xs_mnt_id_get(const struct xs_target *t, struct xs_stat *st);
int xs_name_to_handle(const struct xs_target *t, struct file_handle *fh,
		      struct xs_stat *mnt);

/* attrs.c: file attributes by file_getattr(2) or FS_IOC_GETFLAGS. */
int xs_attrs_get(const struct xs_target *t, struct xs_stat *st);

/* fsioctl.c: FS_IOC_GETVERSION on a safely opened fd. */
int xs_ioctl_getversion(const struct xs_target *t, const struct xs_stat *st,
			uint64_t *gen);
int xs_ioctl_getflags(const struct xs_target *t, const struct xs_stat *st,
		      uint32_t *flags);
/* An O_PATH fd checked to be @st's file; fd or negative errno. */
int xs_open_path(const struct xs_target *t, const struct xs_stat *st,
		 int *close_it);
/* Opens the file for an ioctl only if that is safe; fd or negative errno. */
int xs_open_for_ioctl(const struct xs_target *t, const struct xs_stat *st,
		      int *close_it);

/*
 * ext4probe.c: read the raw ext4 inode of @st from its block device and
 * add BTIME, GEN and DATA_VERSION to @st where @want asks and the inode
 * can be trusted.  Never fails: what cannot be had stays cleared.
 */
void xs_ext4_probe(uint64_t want, struct xs_stat *st);
/* The same into a struct xstat (BTIME and DATA_VERSION only). */
void xs_ext4_probe_xstat(uint64_t want, struct xstat *x);

/*
 * Probes of other filesystems, same contract as the ext4 one: add what
 * @want asks and can be trusted, else leave it cleared; never fail.
 * @fsflags are xs_fs_magic()'s.
 * xfsprobe.c: BTIME and GEN by XFS_IOC_BULKSTAT (CAP_SYS_ADMIN).
 * btrfsprobe.c: BTIME, GEN and DATA_VERSION by BTRFS_IOC_TREE_SEARCH
 * (CAP_SYS_ADMIN).  xattrbtime.c: BTIME from the NTFS-3G (FUSE) or CIFS
 * creation-time xattr, and the NT time conversion (-ERANGE if invalid).
 */
void xs_xfs_probe(const struct xs_target *t, uint64_t want, uint32_t fsflags,
		  struct xs_stat *st);
void xs_btrfs_probe(const struct xs_target *t, uint64_t want,
		    uint32_t fsflags, struct xs_stat *st);
void xs_xattr_btime(const struct xs_target *t, uint32_t magic,
		    uint32_t fsflags, struct xs_stat *st);
int xs_nt_time_to_unix(uint64_t nt, struct xs_time *t);
/* fsprobefd.c: an fd on the file's filesystem (btrfs: subvolume). */
int xs_open_fs_fd(const struct xs_target *t, const struct xs_stat *st,
		  int *close_it);
int xs_fs_query(const struct xs_target *t, const struct xs_stat *st,
		int (*query)(int fd, uint64_t ino, void *out), void *out);

/* copyout.c: the public layout and the buffer-size rule. */
ssize_t xs_copyout(const struct xs_stat *st, uint64_t request,
		   struct xstat *buffer, size_t buflen);

#endif /* LIBXSTAT_INTERNAL_H */
