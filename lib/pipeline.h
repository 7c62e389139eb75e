/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One path from the kernel's answer to the caller's buffer, for xstat(),
 * fxstat() and every directory-stream entry.
 */
#ifndef LIBXSTAT_PIPELINE_H
#define LIBXSTAT_PIPELINE_H

#include "result.h"

/*
 * The requests whose tail (xs_deliver()) reads the filesystem's row and
 * fscache.c's verdicts in the record: the promises and the reasons.
 */
#define XS_DELIVER_READS_ROW	(XS_PROMISE_EXTRAS | XSTAT_REQUEST_WHY_MISSING)

/*
 * The tail every result goes through (xstat.c's calls, bulk_entry.c's
 * entries), once the kernel's answer and the supplements are in @st: the
 * promises, the reasons for what is missing, the times the caller did not
 * ask for dropped (@drop_cmtime), the copy out.  @t: the anchored target,
 * or NULL.  Inline: a plain result pays only for the tests.
 */
static inline ssize_t xs_deliver(const struct xs_target *t, uint64_t request,
				 int from_statx, int drop_cmtime,
				 struct xs_stat *st, struct xstat *buffer,
				 size_t buflen)
{
	if (request & XS_EXTRAS) {
		if (request & XS_PROMISE_EXTRAS)
			xs_promise_fill(t, request, st);
		if (request & XSTAT_REQUEST_WHY_MISSING)
			xs_why_fill(t, request, from_statx, st);
	}
	if (drop_cmtime)
		xs_stat_drop_cmtime(st);
	return xs_copyout(st, request, buffer, buflen);
}


/*
 * xstat.c: the kernel's answer for @t, asked with @ask, recorded in @st
 * for a caller who asked @request: 1 from statx, 0 from fstatat, or
 * -errno.  A directory stream's batch asks more than its caller: @ask
 * holds every bit of @request.
 */
int xs_stat_record(const struct xs_target *t, uint64_t ask, uint64_t request,
		   struct xs_stat *st);

/*
 * xstat.c: the same for a stream's entry stat'ed by name, asked what its
 * caller asked: a change token's request (bulk_window.c's by_name()) has
 * the steps of xstat()'s branch for it.
 */
int xs_stat_record_by_name(const struct xs_target *t, uint64_t request,
			   struct xs_stat *st);

/*
 * xstat.c: xstat()'s work for @t once its arguments are checked (the
 * flags, the buffer) and its request's undefined bits cleared
 * (xstat_opendir() does both once for a stream): the result's size, or
 * -errno (errno untouched).
 */
ssize_t xs_stat_target(const struct xs_target *t, uint64_t request,
		       struct xstat *buffer, size_t buflen);

#endif /* LIBXSTAT_PIPELINE_H */
