/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One examined file, as every output form (format, layout, JSON, patch)
 * receives it.  A recursive walk fills one per entry, with @dfd its
 * directory; a new result (a new extra) is one more lookup here.
 */
#ifndef XSTAT_TOOL_RESULT_H
#define XSTAT_TOOL_RESULT_H

#include <stdbool.h>
#include <sys/types.h>
#include "xstat.h"

struct file_result {
	const char *name;	/* as the user gave it ("-": standard input) */
	int dfd;		/* @path is relative to it (AT_FDCWD) */
	const char *path;	/* NULL for a descriptor (standard input) */
	bool follow;		/* a final symlink was followed (-L) */
	ssize_t ret;		/* xstat()'s return value; -1: failed */
	int err;		/* errno of the failure */
	const struct xstat *x;	/* the result, @buflen bytes of it */
	size_t buflen;
};

/* The field of @bit holds a value. */
static inline bool have(const struct file_result *r, unsigned long long bit)
{
	return (r->x->st_result_mask & bit) != 0;
}

/* The extra result @bit, or NULL if it was not produced. */
static inline const void *extra(const struct file_result *r,
				unsigned long long bit)
{
	return xstat_extra(r->x, r->buflen, bit);
}

#endif
