// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public entry points: validate the arguments, run a backend into the
 * record, add what was requested and is missing - on the anchored inode
 * (anchor.h) - and let copyout.c write the result; ret.h sets errno
 * from the -errno this returns.  Directory streams run each entry through
 * xs_stat_target() too.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include "anchor.h"
#include "cmtime.h"
#include "ret.h"
#include "internal.h"
#include "backend_fstatat.h"
#include "backend_statx.h"
#include "syscall.h"
#include "pipeline.h"


/* The kernel's answer, from statx or from fstatat. */
union xs_kernel_stat {
	struct xs_statx	sx;
	struct stat	sb;
};

/*
 * The times a call's answer from statx drops (cmtime.h): a data version
 * or change token asked statx for the ctime, and the caller for neither.
 * Dropped in the tail, after the supplements, which need the ctime.
 */
static inline int cmtime_dropped(uint64_t request)
{
	return (request & (XSTAT_REQUEST_DATA_VERSION | XS_PROMISE_EXTRAS)) &&
	       xs_cmtime_unasked(request);
}

/* The tail of a call's result; its times dropped as cmtime_dropped() says. */
static inline ssize_t deliver(const struct xs_target *t, uint64_t request,
			      int from_statx, struct xs_stat *st,
			      struct xstat *buffer, size_t buflen)
{
	return xs_deliver(t, request, from_statx,
			  from_statx && cmtime_dropped(request), st, buffer,
			  buflen);
}

/* The kernel's answer in the record; extras only when requested. */
static inline __attribute__((always_inline)) void
record(struct xs_stat *st, uint64_t request, const union xs_kernel_stat *k,
       int from_statx)
{
	xs_stat_clear_rest(st);
	if (from_statx)
		xs_stat_from_statx(st, &k->sx, request);
	else
		xs_stat_from_stat(st, &k->sb);
	/* Known for the mount already: no anchor needed for it. */
	if (request & XSTAT_REQUEST_FS_ID)
		xs_fs_id_cached(st);
}

/*
 * The one place that decides which backend answers a call or a stream
 * entry (xs_kernel_ident() asks statx or fstatat only for an identity
 * check): the kernel's answer for @t from statx, or, when
 * statx cannot serve a call of this shape in this thread
 * (backend_statx.h), from fstatat.  1 from statx, 0 from fstatat, or
 * -errno; with @no_fallback, -ENOSYS where fstatat would have been asked
 * (the caller has a better way than fstatat by path).
 */
static inline __attribute__((always_inline)) int
kernel_stat(const struct xs_target *t, uint64_t request,
	    union xs_kernel_stat *k, int no_fallback)
{
	int ret = xs_statx_call(t, request, &k->sx);

	if (ret == 0)
		return 1;
	if (ret != -ENOSYS || no_fallback)
		return ret;
	ret = xs_fstatat(t, &k->sb);
	return ret ? ret : 0;
}

/*
 * A request of classes (0) to (2) and the promise's extra results only
 * (a change token, a data version's promise): PROMISE_ALONE() says so,
 * and PROMISE_PLAIN() is the same value with every other supplement and
 * extra bit known to be zero, so that the compiler drops their rules.
 */
#define NOT_PROMISE	((XS_SUPPLEMENTABLE | XS_EXTRAS) & ~XS_PROMISE_EXTRAS)
#define PROMISE_ALONE(request)	(!((request) & NOT_PROMISE))
#define PROMISE_PLAIN(request)	((request) & ~NOT_PROMISE)

static inline __attribute__((always_inline)) int
stat_record(const struct xs_target *t, uint64_t ask, uint64_t request,
	    struct xs_stat *st)
{
	union xs_kernel_stat k;
	int from_statx = kernel_stat(t, ask, &k, 0);

	if (from_statx >= 0)
		record(st, request, &k, from_statx);
	return from_statx;
}

int xs_stat_record(const struct xs_target *t, uint64_t ask, uint64_t request,
		   struct xs_stat *st)
{
	/*
	 * No extra result, a raw batch's usual request (@ask holds
	 * @request): the same values masked, so that the compiler drops the
	 * extras' rules, as for xstat()'s plain call (stat_request()).
	 */
	if (!(ask & XS_EXTRAS))
		return stat_record(t, ask & ~XS_EXTRAS, request & ~XS_EXTRAS,
				   st);
	return stat_record(t, ask, request, st);
}

int xs_stat_record_by_name(const struct xs_target *t, uint64_t request,
			   struct xs_stat *st)
{
	if (PROMISE_ALONE(request))
		return stat_record(t, PROMISE_PLAIN(request),
				   PROMISE_PLAIN(request), st);
	/* Any other request: a batch's own steps, not a copy of them here. */
	return xs_stat_record(t, request, request, st);
}

/*
 * Might the anchor have stopped at an automount point statx would mount?
 * The answer's own test first: it fails for nearly every file.
 */
static inline int may_automount(const struct xs_target *t,
				const union xs_kernel_stat *k, int from_statx)
{
	/* fstatat cannot tell: any directory may be one. */
	if (from_statx ? !(k->sx.stx_attributes & XSTAT_ATTR_AUTOMOUNT) :
			 !S_ISDIR(k->sb.st_mode))
		return 0;
	return !(t->flags & AT_NO_AUTOMOUNT);
}

/*
 * Class (3) work: anchor the inode (anchor.h), take the kernel's answer
 * from the anchor, and let every supplement work on that inode only.
 * @k: the answer already taken by path (the general path's), or NULL.
 * It is kept when the target is the caller's descriptor, which is its
 * own anchor; else the anchor is asked again, with AT_STATX_DONT_SYNC
 * (the sync the caller asked for was done by that first call, and a
 * second one would be a second request to a network or FUSE server).
 * Without an anchor (EMFILE, say) the answer is taken by path and only
 * what needs no descriptor is added.  The anchor is closed before return.
 */
static inline __attribute__((always_inline)) ssize_t
anchor_steps(const struct xs_target *t, uint64_t request,
	     const union xs_kernel_stat *k, int k_from_statx,
	     struct xstat *buffer, size_t buflen)
{
	union xs_kernel_stat own;
	struct xs_anchor a;
	struct xs_stat st;
	ssize_t ret = 0;
	int from_statx;

	if (xs_anchor_open(t, &a) == 0) {
		if (k && !a.owned) {
			from_statx = k_from_statx;
		} else {
			int again = k != NULL;

			if (again)
				a.at.flags = (a.at.flags & ~XS_SYNC_FLAGS) |
					     AT_NO_ATTR_SYNC;
			k = &own;
			from_statx = kernel_stat(&a.at, request, &own, 0);
			if (from_statx >= 0 &&
			    may_automount(t, &own, from_statx) && a.owned &&
			    xs_anchor_automount(t, &a) == 0)
				from_statx = kernel_stat(&a.at, request, &own,
							 0);
			/* The supplements sync as the caller asked. */
			if (again)
				a.at.flags = (a.at.flags & ~XS_SYNC_FLAGS) |
					     (t->flags & XS_SYNC_FLAGS);
		}
		if (from_statx >= 0) {
			record(&st, request, k, from_statx);
			xs_supplement(&a.at, request, &st);
			ret = deliver(&a.at, request, from_statx, &st, buffer,
				      buflen);
		}
		xs_anchor_close(&a);
		return from_statx < 0 ? from_statx : ret;
	} else {
		if (!k) {
			k = &own;
			from_statx = kernel_stat(t, request, &own, 0);
			if (from_statx < 0)
				return from_statx;
		} else {
			from_statx = k_from_statx;
		}
		record(&st, request, k, from_statx);
		xs_supplement(NULL, request, &st);
		return deliver(NULL, request, from_statx, &st, buffer, buflen);
	}
}

/*
 * anchor_steps() in four frames, each with what its callers know: the
 * compiler drops the rules that cannot apply.  stat_by_anchor(): after a
 * kernel answer taken by path.  The others anchor from the start (no
 * answer by path before): stat_anchored() for any request,
 * stat_anchored_plain() for one with no extra result (a generation, a
 * data version, btime where statx cannot serve), stat_anchored_promise()
 * for the promise's extras alone (PROMISE_PLAIN()).
 */
static ssize_t stat_by_anchor(const struct xs_target *t, uint64_t request,
			      const union xs_kernel_stat *k, int k_from_statx,
			      struct xstat *buffer, size_t buflen)
{
	return anchor_steps(t, request, k, k_from_statx, buffer, buflen);
}

static ssize_t stat_anchored(const struct xs_target *t, uint64_t request,
			     struct xstat *buffer, size_t buflen)
{
	return anchor_steps(t, request, NULL, 0, buffer, buflen);
}

static ssize_t stat_anchored_plain(const struct xs_target *t,
				   uint64_t request, struct xstat *buffer,
				   size_t buflen)
{
	/*
	 * Each caller's branch has a class (3) field: the compiler, told,
	 * drops the tests for a request with none.
	 */
	if (!(request & XS_CLASS3))
		__builtin_unreachable();
	return anchor_steps(t, request & ~XS_EXTRAS, NULL, 0, buffer, buflen);
}

static ssize_t stat_anchored_promise(const struct xs_target *t,
				     uint64_t request, struct xstat *buffer,
				     size_t buflen)
{
	/*
	 * Its caller's branch has a promise.  The bit or'ed in is one the
	 * request holds already: the compiler, which does not carry a
	 * "some bit of these is set" hint through, then drops the tests of
	 * the tail for a request without an extra result.
	 */
	if (request & XSTAT_REQUEST_CHANGE_TOKEN)
		return anchor_steps(t, PROMISE_PLAIN(request) |
				    XSTAT_REQUEST_CHANGE_TOKEN, NULL, 0,
				    buffer, buflen);
	return anchor_steps(t, PROMISE_PLAIN(request) |
			    XSTAT_REQUEST_DV_PROMISE, NULL, 0, buffer, buflen);
}

/*
 * The kernel's answer is in: record it, then either copy it out or, when
 * a class (3) field or extra result is still missing, take the anchored
 * path.
 */
static inline __attribute__((always_inline)) ssize_t
supplement_or_deliver(const struct xs_target *t, uint64_t request,
		      const union xs_kernel_stat *k, int from_statx,
		      struct xstat *buffer, size_t buflen)
{
	struct xs_stat st;

	record(&st, request, k, from_statx);
	/*
	 * The promises need the filesystem's type: without statx's unique
	 * mount ID only the anchor can name the filesystem for fscache.c.
	 */
	if ((request & XS_SUPPLEMENTABLE & ~st.mask) ||
	    ((request & XS_PROMISE_EXTRAS) && !st.mnt_id_unique))
		return stat_by_anchor(t, request, k, from_statx, buffer,
				      buflen);
	return deliver(NULL, request, from_statx, &st, buffer, buflen);
}

/*
 * xs_stat_target()'s work, inline in the entry points: a call of the
 * library's own less on every call.  @request: the caller's, its
 * undefined bits cleared.
 */
static inline __attribute__((always_inline)) ssize_t
stat_request(const struct xs_target *t, uint64_t request,
	     struct xstat *buffer, size_t buflen)
{
	union xs_kernel_stat k;
	int anchor_else, ret;

	/*
	 * Classes (0) to (2) alone, the usual call, and with btime: the
	 * steps below with every rule about the rest known not to apply, so
	 * that the compiler drops their tests.  The request passed on is the
	 * same value, masked so that the compiler knows its zero bits.
	 */
	if (!(request & (XS_SUPPLEMENTABLE | XS_EXTRAS))) {
		uint64_t plain = request & ~(XS_SUPPLEMENTABLE | XS_EXTRAS);

		ret = kernel_stat(t, plain, &k, 0);
		if (ret < 0)
			return ret;
		return supplement_or_deliver(t, plain, &k, ret, buffer,
					     buflen);
	}
	if (!(request & (XS_SUPPLEMENTABLE | XS_EXTRAS) &
	      ~XSTAT_REQUEST_BTIME)) {
		uint64_t plain = request & ~((XS_SUPPLEMENTABLE | XS_EXTRAS) &
					     ~XSTAT_REQUEST_BTIME);

		/* anchor_else below: btime is class (3) */
		ret = kernel_stat(t, plain, &k, 1);
		if (ret == -ENOSYS)
			return stat_anchored_plain(t, plain, buffer, buflen);
		if (ret < 0)
			return ret;
		return supplement_or_deliver(t, plain, &k, ret, buffer,
					     buflen);
	}
	/*
	 * A change token or a data version's promise, with nothing else
	 * beyond classes (0) to (2): the next most usual request (a
	 * watcher's), with the rules about the other extras dropped as for
	 * the plain call.  Anchored at once where statx cannot serve, as
	 * below.
	 */
	if (PROMISE_ALONE(request)) {
		uint64_t plain = PROMISE_PLAIN(request);

		ret = kernel_stat(t, plain, &k, 1);
		if (ret == -ENOSYS)
			return stat_anchored_promise(t, plain, buffer, buflen);
		if (ret < 0)
			return ret;
		return supplement_or_deliver(t, plain, &k, ret, buffer,
					     buflen);
	}
	/*
	 * No kernel answer holds a generation or a data version: anchor
	 * first, so the call is the anchor's open, its statx, the probe and
	 * the close, with no statx by path before.
	 */
	if (request & (XSTAT_REQUEST_GEN | XSTAT_REQUEST_DATA_VERSION))
		return (request & XS_EXTRAS) ?
		       stat_anchored(t, request, buffer, buflen) :
		       stat_anchored_plain(t, request, buffer, buflen);

	/*
	 * fstatat has no class (3) field and no mount ID: where statx cannot
	 * serve, either asked for (a promise needs the mount) is anchored
	 * work from the start, with no fstatat by path before.
	 */
	anchor_else = !!(request & (XS_CLASS3 | XS_PROMISE_EXTRAS));
	ret = kernel_stat(t, request, &k, anchor_else);
	if (ret == -ENOSYS && anchor_else)
		return stat_anchored(t, request, buffer, buflen);
	if (ret < 0)
		return ret;
	return supplement_or_deliver(t, request, &k, ret, buffer, buflen);
}

/*
 * The checks of xstat()'s and fxstat()'s arguments they share, the call,
 * and libc's convention for its result (ret.h).  Classes (0) to (2)
 * alone are answered by raw system calls only (statx, else fstatat), so
 * only the other requests, whose supplements call libc, save errno to put
 * it back.
 */
static inline __attribute__((always_inline)) ssize_t
stat_target(const struct xs_target *t, const struct xstat_parameters *params,
	    struct xstat *buffer, size_t buflen)
{
	uint64_t request;
	int saved;

	if ((t->flags & XS_SYNC_FLAGS) == XS_SYNC_FLAGS)
		return xs_ret_raw(-EINVAL);
	if (!buffer && buflen)
		return xs_ret_raw(-EFAULT);
	/* Undefined request bits are ignored, as in the patch. */
	request = params ? params->request_mask & XSTAT_REQUEST__ALL_STATS :
			   XSTAT_REQUEST__EXTENDED_STATS;
	if (!(request & (XS_SUPPLEMENTABLE | XS_EXTRAS)))
		return xs_ret_raw(stat_request(t, request, buffer, buflen));
	saved = errno;
	return xs_ret(stat_request(t, request, buffer, buflen), saved);
}

ssize_t xs_stat_target(const struct xs_target *t, uint64_t request,
		       struct xstat *buffer, size_t buflen)
{
	return stat_request(t, request, buffer, buflen);
}

XS_EXPORT ssize_t xstat(int dfd, const char *filename, unsigned flags,
			const struct xstat_parameters *params,
			struct xstat *buffer, size_t buflen)
{
	unsigned refused = 0;
	struct xs_target t = { .dfd = dfd, .path = filename, .flags = flags,
			       .refused = &refused };

	if (flags & ~XS_CALL_FLAGS)
		return xs_ret_raw(-EINVAL);
	if (!filename)
		return xs_ret_raw(-EFAULT);
	/*
	 * The name may lie in the result buffer (nothing is restrict): it
	 * is read only by system calls, which reject a bad pointer with
	 * EFAULT, and all of them are made before xs_copyout() writes the
	 * buffer, so it needs no copy of its own.
	 */
	return stat_target(&t, params, buffer, buflen);
}

XS_EXPORT ssize_t fxstat(int fd, unsigned flags,
			 const struct xstat_parameters *params,
			 struct xstat *buffer, size_t buflen)
{
	unsigned refused = 0;
	struct xs_target t = { .dfd = fd, .path = "",
			       .flags = AT_EMPTY_PATH | flags, .is_fd = 1,
			       .refused = &refused };

	if (flags & ~XS_SYNC_FLAGS)
		return xs_ret_raw(-EINVAL);
	/*
	 * "" with AT_EMPTY_PATH on AT_FDCWD would stat the cwd: refuse every
	 * negative fd (0.1.0's unsigned fd above INT_MAX: the same bits).
	 */
	if (fd < 0)
		return xs_ret_raw(-EBADF);
	return stat_target(&t, params, buffer, buflen);
}
