// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The only place errno is set.  Everything below the entry points returns
 * a result or -errno; the entry points turn that into libc's convention
 * here: -1 (or NULL) with errno set on failure, and on success errno as
 * the caller had it, since the library's own probes fail on the way
 * (ENOTTY, EPERM, EOVERFLOW...).
 */
#include <errno.h>
#include "internal.h"

long xs_ret(long ret, int saved)
{
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	errno = saved;
	return ret;
}

void *xs_ret_ptr(void *ptr, int err, int saved)
{
	errno = ptr ? saved : err;
	return ptr;
}
