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
#include <stddef.h>
#include <string.h>
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
 * The three times by mask.h's rule, one at a time: the bits of the times
 * not reported.  Out of line: only an invalid time comes here.
 */
static __attribute__((noinline, cold, unused)) uint64_t
xs_stat_times(struct xs_stat *st, const struct stat *sb)
{
	return xs_stat_time(&st->atime, &sb->st_atim, XSTAT_REQUEST_ATIME) |
	       xs_stat_time(&st->mtime, &sb->st_mtim, XSTAT_REQUEST_MTIME) |
	       xs_stat_time(&st->ctime, &sb->st_ctim, XSTAT_REQUEST_CTIME);
}

/*
 * Where struct timespec is laid out as struct xs_time (64-bit seconds
 * and nanoseconds: LP64, x32), a valid time is copied whole.
 */
#define XS_TIMESPEC_IS_XS_TIME						\
	(sizeof(struct timespec) == sizeof(struct xs_time) &&		\
	 offsetof(struct timespec, tv_sec) == offsetof(struct xs_time, sec) && \
	 sizeof(((struct timespec *)0)->tv_sec) == sizeof(int64_t) &&	\
	 offsetof(struct timespec, tv_nsec) ==				\
	 offsetof(struct xs_time, nsec) &&				\
	 sizeof(((struct timespec *)0)->tv_nsec) == sizeof(uint64_t))

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
	/*
	 * The kernel encodes st_dev with new_encode_dev(): a major below
	 * 2^12 and a minor below 2^20, in the low 32 bits, which is all
	 * major() and minor() find there (their high words stay zero).
	 */
	st->dev_major = (uint32_t)(sb->st_dev >> 8) & 0xfff;
	st->dev_minor = ((uint32_t)sb->st_dev & 0xff) |
			((uint32_t)(sb->st_dev >> 12) & 0xfff00);
	/*
	 * The usual answer, every nanosecond count valid, copied as it is;
	 * else each time by mask.h's rule.
	 */
	if (XS_TIMESPEC_IS_XS_TIME &&
	    __builtin_expect(XS_NSEC_VALID(sb->st_atim.tv_nsec) &&
			     XS_NSEC_VALID(sb->st_mtim.tv_nsec) &&
			     XS_NSEC_VALID(sb->st_ctim.tv_nsec), 1)) {
		memcpy(&st->atime, &sb->st_atim, sizeof(st->atime));
		memcpy(&st->mtime, &sb->st_mtim, sizeof(st->mtime));
		memcpy(&st->ctime, &sb->st_ctim, sizeof(st->ctime));
	} else {
		mask &= ~xs_stat_times(st, sb);
	}
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
