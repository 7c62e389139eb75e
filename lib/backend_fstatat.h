/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The per-call part of the fallback backend, inlined into the entry
 * points like backend_statx.h: one fstatat(2) with the caller's lookup
 * flags.  Filling the record from its answer is backend_fstatat.c's.
 */
#ifndef LIBXSTAT_BACKEND_FSTATAT_H
#define LIBXSTAT_BACKEND_FSTATAT_H

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "internal.h"
#include "rawsys.h"

#define XS_LOOKUP_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH)

/* 0 or -errno. */
static inline int xs_fstatat(const struct xs_target *t, struct stat *sb)
{
	return xs_raw_fstatat(t->dfd, t->path, sb,
			      (int)(t->flags & XS_LOOKUP_FLAGS));
}

/*
 * backend_fstatat.c (the fstatat call inline in backend_fstatat.h): the
 * record.
 */
void xs_stat_from_stat(struct xs_stat *st, const struct stat *sb);

#endif /* LIBXSTAT_BACKEND_FSTATAT_H */
