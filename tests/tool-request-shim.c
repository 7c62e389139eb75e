// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * LD_PRELOAD shim for tests/tool-request.sh: logs the request mask of
 * each xstat(), fxstat() and xstat_opendir() call the tool makes, one
 * line each ("xstat PATH 0xMASK") to $XSTAT_REQUEST_LOG, and calls the
 * library.  It sees what the tool asks for, before the library adds
 * anything of its own.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "xstat.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void log_call(const char *what, const char *path,
		     const struct xstat_parameters *params)
{
	const char *name = getenv("XSTAT_REQUEST_LOG");
	FILE *f;

	if (!name)
		return;
	pthread_mutex_lock(&lock);
	f = fopen(name, "a");
	if (f) {
		fprintf(f, "%s %s %#llx\n", what, path ? path : "-",
			params ? (unsigned long long)params->request_mask :
				 0x3fffULL);
		fclose(f);
	}
	pthread_mutex_unlock(&lock);
}

ssize_t xstat(int dfd, const char *filename, unsigned flags,
	      const struct xstat_parameters *params, struct xstat *buffer,
	      size_t buflen)
{
	ssize_t (*real)(int, const char *, unsigned,
			const struct xstat_parameters *, struct xstat *,
			size_t) = (ssize_t (*)(int, const char *, unsigned,
					       const struct xstat_parameters *,
					       struct xstat *, size_t))
		dlsym(RTLD_NEXT, "xstat");

	log_call("xstat", filename, params);
	return real(dfd, filename, flags, params, buffer, buflen);
}

ssize_t fxstat(int fd, unsigned flags, const struct xstat_parameters *params,
	       struct xstat *buffer, size_t buflen)
{
	ssize_t (*real)(int, unsigned, const struct xstat_parameters *,
			struct xstat *, size_t) =
		(ssize_t (*)(int, unsigned, const struct xstat_parameters *,
			     struct xstat *, size_t))dlsym(RTLD_NEXT, "fxstat");

	log_call("fxstat", "-", params);
	return real(fd, flags, params, buffer, buflen);
}

struct xstat_dir *xstat_opendir(int dfd, const char *path, unsigned flags,
				const struct xstat_parameters *params)
{
	struct xstat_dir *(*real)(int, const char *, unsigned,
				  const struct xstat_parameters *) =
		(struct xstat_dir *(*)(int, const char *, unsigned,
				       const struct xstat_parameters *))
		dlsym(RTLD_NEXT, "xstat_opendir");

	log_call("opendir", path, params);
	return real(dfd, path, flags, params);
}
