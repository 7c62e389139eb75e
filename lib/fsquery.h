/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_FSQUERY_H
#define LIBXSTAT_FSQUERY_H

#include "internal.h"

/*
 * probe_fsquery.c: @query on a directory of the file's st_dev (anchor.c),
 * its answer: 0 or -errno (-EPERM: not allowed now); nothing recorded.
 * xs_fs_query_allowed(): may this thread run it now (CAP_SYS_ADMIN)?
 */
int xs_fs_query_allowed(void);
int xs_fs_query(const struct xs_target *t, const struct xs_stat *st,
		int (*query)(int fd, uint64_t ino, void *out), void *out);

#endif /* LIBXSTAT_FSQUERY_H */
