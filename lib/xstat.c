// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public entry points: validate the arguments, run a backend, add the
 * requested extras, copy out.  The only place errno is set.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include "internal.h"

#define SYNC_FLAGS	(AT_FORCE_ATTR_SYNC | AT_NO_ATTR_SYNC)
#define XSTAT_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | \
			 AT_EMPTY_PATH | SYNC_FLAGS)

static ssize_t fail(int err)
{
	errno = err;
	return -1;
}

/* Inlined into both entry points: one call less on every call. */
static inline __attribute__((always_inline))
ssize_t do_xstat(const struct xs_target *t,
			const struct xstat_parameters *params,
			struct xstat *buffer, size_t buflen)
{
	struct xs_stat st;
	uint64_t request;
	int ret;

	if ((t->flags & SYNC_FLAGS) == SYNC_FLAGS)
		return fail(EINVAL);
	if (!buffer && buflen)
		return fail(EFAULT);

	/* Undefined request bits are ignored, as in the patch. */
	request = params ? params->request_mask & XSTAT_REQUEST__ALL_STATS
			 : XSTAT_REQUEST__EXTENDED_STATS;

	memset(&st, 0, sizeof(st));
	ret = xs_statx_stat(t, request, &st);
	if (ret == -ENOSYS)
		ret = xs_fallback_stat(t, &st);
	if (ret)
		return fail(-ret);
	/* Class (4): an extra result is returned only when requested. */
	st.mask &= ~XS_EXTRAS | request;

	if (request & XS_SUPPLEMENTABLE & ~st.mask)
		xs_supplement(t, request, &st);

	return xs_copyout(&st, request, buffer, buflen);
}

XS_EXPORT ssize_t xstat(int dfd, const char *filename, unsigned flags,
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

XS_EXPORT ssize_t fxstat(unsigned fd, unsigned flags,
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
