/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_FSQUERY_H
#define LIBXSTAT_FSQUERY_H

#include <sys/stat.h>
#include "internal.h"

/*
 * probe_fsquery.c: @query on a directory of the file's st_dev (anchor.c),
 * its answer: 0 or -errno (-EPERM: not allowed now); nothing recorded.
 * xs_fs_query_allowed(): may this thread run it now (CAP_SYS_ADMIN)?
 */
int xs_fs_query_allowed(void);
int xs_fs_query(const struct xs_target *t, const struct xs_stat *st,
		int (*query)(int fd, uint64_t ino, void *out), void *out);

/*
 * Is the record a query found (@mode, @gen: the filesystem's own) the
 * file @st was stat'ed as?  The query looks the inode number up again,
 * which a new file may have taken since: the same file type, and where
 * @st already holds a generation (the handle's), the same one - or its
 * low 32 bits, all that some handles carry.  The one check of XFS's and
 * btrfs's probes.
 */
static inline int xs_record_is(const struct xs_stat *st, uint32_t mode,
			       uint64_t gen)
{
	if ((mode & S_IFMT) != (st->mode & S_IFMT))
		return 0;
	return !(st->mask & XSTAT_REQUEST_GEN) || st->gen == gen ||
	       st->gen == (uint32_t)gen;
}

#endif /* LIBXSTAT_FSQUERY_H */
