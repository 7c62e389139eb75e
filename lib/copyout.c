// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The only code that knows the public layout of struct xstat.  Builds the
 * whole result, then copies min(buflen, size) bytes: a short buffer gets a
 * partial result and the return value says how much room the whole needs.
 * A buffer with room for the whole (the usual case) is written directly,
 * with no staging copy: this runs on every call.
 */
#include <string.h>
#include "internal.h"

/* Every byte is written below, so struct xstat must have no padding. */
_Static_assert(sizeof(struct xstat) == 4 * 4 + 2 * 8 + 4 * 16 + 7 * 8,
	       "struct xstat has no holes");

static void put_time(struct xstat_time *out, const struct xs_time *in)
{
	out->tv_sec = in->sec;
	out->tv_nsec = in->nsec;
}

/* Write all of *x; fields not obtained are zero. */
static void fill(struct xstat *x, const struct xs_stat *st)
{
	static const struct xs_time zero_time;
	uint64_t mask = st->mask;
	int rdev = !!(mask & XSTAT_REQUEST_RDEV);

	x->st_mode = st->mode;
	x->st_nlink = st->nlink;
	x->st_uid = st->uid;
	x->st_gid = st->gid;
	x->st_rdev.major = rdev ? st->rdev_major : 0;
	x->st_rdev.minor = rdev ? st->rdev_minor : 0;
	x->st_dev.major = st->dev_major;
	x->st_dev.minor = st->dev_minor;
	put_time(&x->st_atim, &st->atime);
	put_time(&x->st_mtim, &st->mtime);
	put_time(&x->st_ctim, &st->ctime);
	put_time(&x->st_btim, (mask & XSTAT_REQUEST_BTIME) ? &st->btime
							    : &zero_time);
	x->st_ino = st->ino;
	x->st_size = st->size;
	x->st_blksize = st->blksize;
	x->st_blocks = st->blocks;
	x->st_gen = (mask & XSTAT_REQUEST_GEN) ? st->gen : 0;
	x->st_data_version = (mask & XSTAT_REQUEST_DATA_VERSION) ?
			     st->data_version : 0;
	x->st_result_mask = mask;
}

ssize_t xs_copyout(const struct xs_stat *st, uint64_t request,
		   struct xstat *buffer, size_t buflen)
{
	struct xstat x;
	size_t size = sizeof(x);

	(void)request;	/* no extra results are defined yet */

	if (buflen >= size) {
		fill(buffer, st);
	} else if (buflen) {
		fill(&x, st);
		memcpy(buffer, &x, buflen);
	}
	return (ssize_t)size;
}
