// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fallback backend for kernels or sandboxes without statx(2):
 * fstatat(2) with the caller's lookup flags (the call itself is inline in
 * backend_fstatat.h).  fxstat() arrives here as { fd, "", AT_EMPTY_PATH },
 * which is what fstat() does.  The sync flags have no fstatat equivalent:
 * stat(2) behaves as AT_STATX_SYNC_AS_STAT.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "internal.h"
#include "mask.h"

/* mask.h's nanosecond rule, as in the statx backend. */
static void fill_time(struct xs_stat *st, struct xs_time *t,
		      const struct timespec *ts, uint64_t bit)
{
	if (!XS_NSEC_VALID(ts->tv_nsec)) {
		st->mask &= ~bit;
		return;
	}
	t->sec = ts->tv_sec;
	t->nsec = (uint32_t)ts->tv_nsec;
}

void xs_stat_from_stat(struct xs_stat *st, const struct stat *sb)
{
	st->mask = XSTAT_REQUEST__BASIC_STATS & ~XSTAT_REQUEST_RDEV;
	st->mode = sb->st_mode;
	st->nlink = (uint32_t)sb->st_nlink;
	st->uid = sb->st_uid;
	st->gid = sb->st_gid;
	st->dev_major = major(sb->st_dev);
	st->dev_minor = minor(sb->st_dev);
	fill_time(st, &st->atime, &sb->st_atim, XSTAT_REQUEST_ATIME);
	fill_time(st, &st->mtime, &sb->st_mtim, XSTAT_REQUEST_MTIME);
	fill_time(st, &st->ctime, &sb->st_ctim, XSTAT_REQUEST_CTIME);
	st->ino = sb->st_ino;
	st->size = (uint64_t)sb->st_size;
	st->blksize = (uint64_t)sb->st_blksize;
	st->blocks = (uint64_t)sb->st_blocks;
	if (S_ISBLK(sb->st_mode) || S_ISCHR(sb->st_mode)) {
		st->rdev_major = major(sb->st_rdev);
		st->rdev_minor = minor(sb->st_rdev);
		st->mask |= XSTAT_REQUEST_RDEV;
	}
}
