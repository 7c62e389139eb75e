// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The directory-stream walk of the test helpers.  In a file of its own:
 * the only helper that calls the library, so that a program linked with
 * the other helpers and not with libxstat (test-dlopen-signal) still links.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "xstat.h"
#include "testhelp.h"

int th_check_stream(const char *dir, const struct xstat_parameters *p,
		    th_result_check *check, size_t expect)
{
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	char path[PATH_MAX];
	size_t seen = 0;
	int failed = 0;

	d = xstat_opendir(AT_FDCWD, dir, 0, p);
	if (!d) {
		fprintf(stderr, "FAIL: stream %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((e = xstat_readdir(d))) {
		th_pathf(path, sizeof(path), "%s/%s", dir, e->d_name);
		seen++;
		if (e->d_error) {
			fprintf(stderr, "FAIL: stream %s: %s\n", path,
				strerror(e->d_error));
			failed = 1;
			continue;
		}
		failed |= check(e->d_xstat, (ssize_t)e->d_xstat_len, path,
				"stream");
	}
	xstat_closedir(d);
	if (expect && seen != expect) {
		fprintf(stderr, "FAIL: stream %s: %zu entries, not %zu\n", dir,
			seen, expect);
		failed = 1;
	}
	return failed;
}
