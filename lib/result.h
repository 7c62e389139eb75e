/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What is added to the record once the kernel has answered, and how it
 * leaves: the supplements (class (3) fields and extra results), the
 * promises, the reasons for what is missing, the copy out.  pipeline.h
 * strings them together.
 */
#ifndef LIBXSTAT_RESULT_H
#define LIBXSTAT_RESULT_H

#include "internal.h"
#include "fscache.h"

/*
 * supplement.c: add what @want asks (class (3) fields, extra results
 * the backend did not give; not 0) and set st->fs_key.
 */
void xs_supplement_want(const struct xs_target *t, uint64_t want,
			struct xs_stat *st);

/*
 * Add what was requested and is missing, and set fscache.c's key, which
 * the promises and probes read.  Nothing to add (a change token alone):
 * the key only, with no frame of supplement.c's.
 */
static inline void xs_supplement(const struct xs_target *t, uint64_t request,
				 struct xs_stat *st)
{
	uint64_t want = request & XS_SUPPLEMENTABLE & ~st->mask;

	if (want)
		xs_supplement_want(t, want, st);
	else
		st->fs_key = xs_fs_key(t, st);
}


/*
 * promise.c: the change token and the data version's promise into @st,
 * where @request asks, from the filesystem's row (fs.h); @t is the
 * anchored target or NULL (then only what is cached or needs no
 * descriptor is looked up).  Called only by xs_deliver() (pipeline.h),
 * and only for a request with one of XS_PROMISE_EXTRAS.
 */

void xs_promise_fill(const struct xs_target *t, uint64_t request,
		     struct xs_stat *st);

/*
 * fsid.c: XSTAT_REQUEST_FS_ID.  xs_fs_id_cached(): from what is known of
 * @st's mount, without a descriptor (the stream and the unanchored path),
 * on the record as the backend left it (no fs_key yet).
 * xs_fs_id_get(): the same, else probed through the anchored @t.  Both
 * set the field and its bit, or leave them; 0 or -errno.
 */
int xs_fs_id_cached(struct xs_stat *st);
int xs_fs_id_get(const struct xs_target *t, struct xs_stat *st);


/*
 * why.c: the XSTAT_WHY_* reasons for the class (3) fields @missing, which
 * @st lacks, into @st, where the library knows them; @t as for
 * xs_promise_fill(), @from_statx: the kernel's answer came from statx.
 */
void xs_why_fill_missing(const struct xs_target *t, uint64_t missing,
			 int from_statx, struct xs_stat *st);

/*
 * The same for what @request asked and @st lacks.  Inline: a result that
 * lacks none of them (the usual one) costs a test, not a call.
 */
static inline void xs_why_fill(const struct xs_target *t, uint64_t request,
			       int from_statx, struct xs_stat *st)
{
	uint64_t missing = request & XS_CLASS3 & ~st->mask;

	if ((request & XSTAT_REQUEST_WHY_MISSING) && missing)
		xs_why_fill_missing(t, missing, from_statx, st);
}

/*
 * why.c, for supplement.c: the notes (why.h) for @fields after @fs's own
 * probe (its row's ->probe) returned @err (nothing if @err >= 0: inline,
 * a probe that succeeded costs no call).
 */
struct xs_fs;
void xs_why_probe_note(struct xs_stat *st, const struct xs_fs *fs,
		      uint64_t fields, int err);

static inline void xs_why_probe_failed(struct xs_stat *st,
				       const struct xs_fs *fs,
				       uint64_t fields, int err)
{
	if (err < 0)
		xs_why_probe_note(st, fs, fields, err);
}


/*
 * copyout.c: the public layout and the buffer-size rule, in two
 * functions: a result with extra results, and one of struct xstat alone,
 * which pays for no register of the other.  The choice is made here,
 * inline, where the request's extras are often known at compile time:
 * one frame of copyout.c's per result.
 */
ssize_t xs_copyout_extras(const struct xs_stat *st, uint64_t request,
			  struct xstat *buffer, size_t buflen);
ssize_t xs_copyout_plain(const struct xs_stat *st, uint64_t request,
			 struct xstat *buffer, size_t buflen);

static inline ssize_t xs_copyout(const struct xs_stat *st, uint64_t request,
				 struct xstat *buffer, size_t buflen)
{
	if ((st->mask | request) & XS_EXTRAS)
		return xs_copyout_extras(st, request, buffer, buflen);
	return xs_copyout_plain(st, request, buffer, buflen);
}

#endif /* LIBXSTAT_RESULT_H */
