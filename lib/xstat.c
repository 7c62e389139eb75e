// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public entry points: validate the arguments, run a backend, then
 * either write the result directly (fastpath.h) or build the record, add
 * what was requested and is missing, and copy out.  The only place errno
 * is set.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include "internal.h"
#include "fallback.h"
#include "fastpath.h"
#include "statx_backend.h"
#include "syscall.h"

#define SYNC_FLAGS	(AT_FORCE_ATTR_SYNC | AT_NO_ATTR_SYNC)
#define XSTAT_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | \
			 AT_EMPTY_PATH | SYNC_FLAGS)

static ssize_t fail(int err)
{
	errno = err;
	return -1;
}

/* The kernel's answer, from statx or from fstatat. */
union xs_kernel_stat {
	struct xs_statx	sx;
	struct stat	sb;
};

/*
 * The general path: the internal record, the supplements for what was
 * asked for and is still missing, and copyout.c's layout and size rule.
 * Kept out of line so the fast path carries none of its frame.
 */
static __attribute__((noinline)) XS_HOT
ssize_t general(const struct xs_target *t, uint64_t request,
		const union xs_kernel_stat *k, int from_statx,
		struct xstat *buffer, size_t buflen)
{
	struct xs_stat st;

	memset(&st, 0, sizeof(st));
	if (from_statx)
		xs_stat_from_statx(&st, &k->sx, request);
	else
		xs_stat_from_stat(&st, &k->sb);
	/* Class (4): an extra result is returned only when requested. */
	st.mask &= ~XS_EXTRAS | request;

	if (request & XS_SUPPLEMENTABLE & ~st.mask)
		xs_supplement(t, request, &st);

	return xs_copyout(&st, request, buffer, buflen);
}

/* Inlined into both entry points: one call less on every call. */
static inline __attribute__((always_inline))
ssize_t do_xstat(const struct xs_target *t,
			const struct xstat_parameters *params,
			struct xstat *buffer, size_t buflen)
{
	union xs_kernel_stat k;
	uint64_t request, missing;
	int direct, ret;

	if ((t->flags & SYNC_FLAGS) == SYNC_FLAGS)
		return fail(EINVAL);
	if (!buffer && buflen)
		return fail(EFAULT);

	/* Undefined request bits are ignored, as in the patch. */
	request = params ? params->request_mask & XSTAT_REQUEST__ALL_STATS
			 : XSTAT_REQUEST__EXTENDED_STATS;
	/* Room for the whole and no extra result: fastpath.h may answer. */
	direct = buflen >= sizeof(struct xstat) && !(request & XS_EXTRAS);

	ret = xs_statx_call(t, request, &k.sx);
	if (ret == 0) {
		if (direct) {
			missing = xs_fast_from_statx(&k.sx, request, buffer);
			if (!missing ||
			    xs_supplement_direct(missing,
						 xs_fast_mnt_tag(&k.sx), buffer))
				return sizeof(struct xstat);
		}
		return general(t, request, &k, 1, buffer, buflen);
	}
	if (ret != -ENOSYS)
		return fail(-ret);

	ret = xs_fstatat(t, &k.sb);
	if (ret)
		return fail(-ret);
	/* fstatat has no class (3) field: any asked for needs supplements. */
	if (direct) {
		xs_fast_from_stat(&k.sb, buffer);
		missing = request & XS_CLASS3;
		if (!missing || xs_supplement_direct(missing, 0, buffer))
			return sizeof(struct xstat);
	}
	return general(t, request, &k, 0, buffer, buflen);
}

XS_EXPORT XS_HOT ssize_t xstat(int dfd, const char *filename, unsigned flags,
			const struct xstat_parameters *params,
			struct xstat *buffer, size_t buflen)
{
	struct xs_target t = { dfd, filename, flags };

	if (flags & ~XSTAT_FLAGS)
		return fail(EINVAL);
	if (!filename)
		return fail(EFAULT);
	return do_xstat(&t, params, buffer, buflen);
}

XS_EXPORT XS_HOT ssize_t fxstat(unsigned fd, unsigned flags,
			 const struct xstat_parameters *params,
			 struct xstat *buffer, size_t buflen)
{
	struct xs_target t = { (int)fd, "", AT_EMPTY_PATH | flags };

	if (flags & ~SYNC_FLAGS)
		return fail(EINVAL);
	/* "" with AT_EMPTY_PATH on AT_FDCWD would stat the cwd: refuse. */
	if (fd > INT_MAX)
		return fail(EBADF);
	return do_xstat(&t, params, buffer, buflen);
}
