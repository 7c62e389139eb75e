// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The only code that knows the public layout of struct xstat.  Builds the
 * whole result, then copies min(buflen, size) bytes: a short buffer gets a
 * partial result and the return value says how much room the whole needs.
 */
#include <string.h>
#include "internal.h"

static void put_time(struct xstat_time *out, const struct xs_time *in)
{
	out->tv_sec = in->sec;
	out->tv_nsec = in->nsec;
}

ssize_t xs_copyout(const struct xs_stat *st, uint64_t request,
		   struct xstat *buffer, size_t buflen)
{
	struct xstat x;
	size_t size = sizeof(x);

	(void)request;	/* no extra results are defined yet */

	memset(&x, 0, sizeof(x));
	x.st_mode = st->mode;
	x.st_nlink = st->nlink;
	x.st_uid = st->uid;
	x.st_gid = st->gid;
	if (st->mask & XSTAT_REQUEST_RDEV) {
		x.st_rdev.major = st->rdev_major;
		x.st_rdev.minor = st->rdev_minor;
	}
	x.st_dev.major = st->dev_major;
	x.st_dev.minor = st->dev_minor;
	put_time(&x.st_atim, &st->atime);
	put_time(&x.st_mtim, &st->mtime);
	put_time(&x.st_ctim, &st->ctime);
	if (st->mask & XSTAT_REQUEST_BTIME)
		put_time(&x.st_btim, &st->btime);
	x.st_ino = st->ino;
	x.st_size = st->size;
	x.st_blksize = st->blksize;
	x.st_blocks = st->blocks;
	if (st->mask & XSTAT_REQUEST_GEN)
		x.st_gen = st->gen;
	if (st->mask & XSTAT_REQUEST_DATA_VERSION)
		x.st_data_version = st->data_version;
	x.st_result_mask = st->mask;

	if (buflen)
		memcpy(buffer, &x, buflen < size ? buflen : size);
	return (ssize_t)size;
}
