/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fast path.  Most calls ask for what the kernel's answer already
 * holds, with room for the whole result and no extra result: then struct
 * xstat is written straight from the kernel's structure into the caller's
 * buffer, skipping the general path's 250-byte record and its second copy
 * (statx_backend.c or fallback.c, then copyout.c).  xs_fast_from_statx()
 * returns the class (3) bits asked for and still missing: if
 * xs_supplement_direct() cannot add them there, the general path runs.
 *
 * The rules are the general path's, written a second time for speed:
 * rdev only for device nodes whose type is known, a creation time only when
 * its bit is set, no generation or data version (they never come from the
 * kernel's answer), no extra-result bits.  tests/test-fastpath.c holds the
 * two paths to the same bytes.  Inlined into the entry points.
 */
#ifndef LIBXSTAT_FASTPATH_H
#define LIBXSTAT_FASTPATH_H

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "internal.h"
#include "mask.h"
#include "syscall.h"

#define IS_DEVNODE(mode)	(S_ISBLK(mode) || S_ISCHR(mode))

static inline void put_statx_time(struct xstat_time *out,
			   const struct xs_statx_timestamp *in)
{
	out->tv_sec = in->tv_sec;
	out->tv_nsec = in->tv_nsec;
}

static inline uint64_t xs_fast_from_statx(const struct xs_statx *sx,
					  uint64_t request, struct xstat *x)
{
	/* No extra result is asked for here: their bits are left out. */
	uint64_t mask = xs_mask_from_statx_basic(sx->stx_mask);

	x->st_mode = sx->stx_mode;
	x->st_nlink = sx->stx_nlink;
	x->st_uid = sx->stx_uid;
	x->st_gid = sx->stx_gid;
	if ((mask & XSTAT_REQUEST_MODE) && IS_DEVNODE(sx->stx_mode)) {
		x->st_rdev.major = sx->stx_rdev_major;
		x->st_rdev.minor = sx->stx_rdev_minor;
		mask |= XSTAT_REQUEST_RDEV;
	} else {
		x->st_rdev.major = 0;
		x->st_rdev.minor = 0;
	}
	x->st_dev.major = sx->stx_dev_major;
	x->st_dev.minor = sx->stx_dev_minor;
	put_statx_time(&x->st_atim, &sx->stx_atime);
	put_statx_time(&x->st_mtim, &sx->stx_mtime);
	put_statx_time(&x->st_ctim, &sx->stx_ctime);
	if (mask & XSTAT_REQUEST_BTIME) {
		put_statx_time(&x->st_btim, &sx->stx_btime);
	} else {
		x->st_btim.tv_sec = 0;
		x->st_btim.tv_nsec = 0;
	}
	x->st_ino = sx->stx_ino;
	x->st_size = sx->stx_size;
	x->st_blksize = sx->stx_blksize;
	x->st_blocks = sx->stx_blocks;
	x->st_gen = 0;
	x->st_data_version = 0;
	x->st_result_mask = mask;
	/* Class (3) fields asked for and missing: supplements must run. */
	return request & XS_CLASS3 & ~mask;
}

static inline void put_timespec(struct xstat_time *out,
				const struct timespec *in)
{
	out->tv_sec = in->tv_sec;
	out->tv_nsec = (uint64_t)in->tv_nsec;
}

/* The mount tag of statx's answer, for xs_supplement_direct(). */
static inline uint32_t xs_fast_mnt_tag(const struct xs_statx *sx)
{
	if (!(sx->stx_mask & (XS_STATX_MNT_ID | XS_STATX_MNT_ID_UNIQUE)))
		return 0;
	return xs_mnt_tag(sx->stx_mnt_id,
			  !!(sx->stx_mask & XS_STATX_MNT_ID_UNIQUE));
}

static inline void xs_fast_from_stat(const struct stat *sb, struct xstat *x)
{
	uint64_t mask = XSTAT_REQUEST__BASIC_STATS & ~XSTAT_REQUEST_RDEV;

	x->st_mode = sb->st_mode;
	x->st_nlink = (unsigned int)sb->st_nlink;
	x->st_uid = sb->st_uid;
	x->st_gid = sb->st_gid;
	if (IS_DEVNODE(sb->st_mode)) {
		x->st_rdev.major = major(sb->st_rdev);
		x->st_rdev.minor = minor(sb->st_rdev);
		mask |= XSTAT_REQUEST_RDEV;
	} else {
		x->st_rdev.major = 0;
		x->st_rdev.minor = 0;
	}
	x->st_dev.major = major(sb->st_dev);
	x->st_dev.minor = minor(sb->st_dev);
	put_timespec(&x->st_atim, &sb->st_atim);
	put_timespec(&x->st_mtim, &sb->st_mtim);
	put_timespec(&x->st_ctim, &sb->st_ctim);
	x->st_btim.tv_sec = 0;
	x->st_btim.tv_nsec = 0;
	x->st_ino = sb->st_ino;
	x->st_size = (uint64_t)sb->st_size;
	x->st_blksize = (uint64_t)sb->st_blksize;
	x->st_blocks = (uint64_t)sb->st_blocks;
	x->st_gen = 0;
	x->st_data_version = 0;
	x->st_result_mask = mask;
}

#endif /* LIBXSTAT_FASTPATH_H */
