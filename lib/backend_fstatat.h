/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fallback backend for kernels or sandboxes without statx(2), all of
 * it per call and inlined into the entry points: one fstatat(2) with the
 * caller's lookup flags, and its answer into the record.  fxstat()
 * arrives here as { fd, "", AT_EMPTY_PATH }, which is what fstat() does.
 */
#ifndef LIBXSTAT_BACKEND_FSTATAT_H
#define LIBXSTAT_BACKEND_FSTATAT_H

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "internal.h"
#include "mask.h"
#include "rawsys.h"

#define XS_LOOKUP_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH)

/* 0 or -errno. */
static inline int xs_fstatat(const struct xs_target *t, struct stat *sb)
{
	return xs_raw_fstatat(t->dfd, t->path, sb,
			      (int)(t->flags & XS_LOOKUP_FLAGS));
}

/* mask.h's nanosecond rule, as in the statx backend: @bit if invalid. */
static inline uint64_t xs_stat_time(struct xs_time *t,
				    const struct timespec *ts, uint64_t bit)
{
	if (__builtin_expect(!XS_NSEC_VALID(ts->tv_nsec), 0)) {
		t->sec = 0;
		t->nsec = 0;
		return bit;
	}
	t->sec = ts->tv_sec;
	t->nsec = (uint64_t)ts->tv_nsec;
	return 0;
}

/*
 * fstatat's answer into the record: every member of the kernel's part of
 * @st (internal.h), as statx's.  The sync flags have no fstatat
 * equivalent: stat(2) behaves as AT_STATX_SYNC_AS_STAT.  Inline: the
 * fallback is all per call.
 */
static inline __attribute__((always_inline)) void
xs_stat_from_stat(struct xs_stat *st, const struct stat *sb)
{
	uint64_t mask = XSTAT_REQUEST__BASIC_STATS & ~XSTAT_REQUEST_RDEV;

	st->mode = sb->st_mode;
	st->nlink = (uint32_t)sb->st_nlink;
	st->uid = sb->st_uid;
	st->gid = sb->st_gid;
	/* Class (2), read only with its bit (internal.h). */
	if (S_ISBLK(sb->st_mode) || S_ISCHR(sb->st_mode)) {
		st->rdev_major = major(sb->st_rdev);
		st->rdev_minor = minor(sb->st_rdev);
		mask |= XSTAT_REQUEST_RDEV;
	}
	st->dev_major = major(sb->st_dev);
	st->dev_minor = minor(sb->st_dev);
	mask &= ~(xs_stat_time(&st->atime, &sb->st_atim,
			       XSTAT_REQUEST_ATIME) |
		  xs_stat_time(&st->mtime, &sb->st_mtim,
			       XSTAT_REQUEST_MTIME) |
		  xs_stat_time(&st->ctime, &sb->st_ctim,
			       XSTAT_REQUEST_CTIME));
	st->btime.sec = 0;
	st->btime.nsec = 0;
	st->ino = sb->st_ino;
	st->size = (uint64_t)sb->st_size;
	st->blksize = (uint64_t)sb->st_blksize;
	st->blocks = (uint64_t)sb->st_blocks;
	st->mnt_id = 0;
	st->mnt_id_unique = 0;
	st->attributes = 0;
	st->attributes_mask = 0;
	st->mask = mask;
}

#endif /* LIBXSTAT_BACKEND_FSTATAT_H */
