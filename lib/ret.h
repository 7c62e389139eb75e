/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The only place errno is set for the caller (rawsys.h only puts back
 * what a raw system call clobbered).  Everything below the entry points
 * returns a result or -errno; the entry points (xstat.c, bulk.c,
 * compare.c) turn that into libc's convention here: -1 (or NULL) with
 * errno set on failure, and on success errno as the caller had it.  Work
 * that calls libc saves it first, since the library's own probes fail on
 * the way (ENOTTY, EPERM, EOVERFLOW...): xs_ret().  Work made of raw
 * system calls alone never changes it: xs_ret_raw().  Inline: it is on
 * every call.
 */
#ifndef LIBXSTAT_RET_H
#define LIBXSTAT_RET_H

#include <errno.h>

/* @ret (>= 0) with errno restored to @saved, or -1 with errno -@ret. */
static inline long xs_ret(long ret, int saved)
{
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	errno = saved;
	return ret;
}

/*
 * @ret after work made of raw system calls alone (rawsys.h): -1 with errno
 * -@ret, or @ret with errno never changed, so nothing to put back.
 */
static inline long xs_ret_raw(long ret)
{
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/* @ptr with errno restored to @saved, or NULL with errno @err. */
static inline void *xs_ret_ptr(void *ptr, int err, int saved)
{
	errno = ptr ? saved : err;
	return ptr;
}

#endif /* LIBXSTAT_RET_H */
