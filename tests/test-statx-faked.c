// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A seccomp filter that answers statx with SECCOMP_RET_ERRNO and 0: the
 * call "succeeds" and writes nothing (some sandboxes "allow" a system
 * call they do not want that way).  The library must not take the
 * stale bytes for an answer: xstat(), fxstat() and every entry of a
 * directory stream must give the fallback's results, which are checked
 * field by field against lstat() (newfstatat, which the filter lets
 * through).  The filter is installed before the first call, and between
 * calls (after statx has been seen to work).  Needs seccomp, else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define ALWAYS	(XSTAT_REQUEST_MODE | XSTAT_REQUEST_NLINK | XSTAT_REQUEST_UID | \
		 XSTAT_REQUEST_GID | XSTAT_REQUEST_INO | XSTAT_REQUEST_SIZE)

static char dir[300];
static const char *const names[] = { "f", "d", "l", "p" };
#define NNAMES	(sizeof(names) / sizeof(names[0]))

static const unsigned long long masks[] = {
	0, XSTAT_REQUEST__BASIC_STATS,
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME,
	XSTAT_REQUEST__EXTENDED_STATS,
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_CHANGE_TOKEN,
};

/* Every basic field the result claims equals lstat()'s: 0, or 1. */
static int same_as_lstat(const struct xstat *x, ssize_t len,
			 const char *path, const char *what)
{
	struct stat sb;
	unsigned long long m = x->st_result_mask;

	if (len < (ssize_t)sizeof(*x) || lstat(path, &sb)) {
		/* A short result sets no errno: say so, not strerror(0). */
		fprintf(stderr, "FAIL: %s %s: returned %zd (%s)\n", what, path,
			len, len < 0 || len >= (ssize_t)sizeof(*x) ?
			strerror(errno) : "short result");
		return 1;
	}
	/*
	 * What the fallback always has (the times follow the request as
	 * statx's would), no rdev (class 2), and every field claimed equal
	 * to lstat()'s, never stale bytes.
	 */
	if ((m & ALWAYS) != ALWAYS || (m & XSTAT_REQUEST_RDEV) ||
	    x->st_ino != sb.st_ino || x->st_mode != sb.st_mode ||
	    x->st_nlink != sb.st_nlink || x->st_uid != sb.st_uid ||
	    x->st_gid != sb.st_gid ||
	    x->st_size != (unsigned long long)sb.st_size ||
	    ((m & XSTAT_REQUEST_MTIME) &&
	     (x->st_mtim.tv_sec != sb.st_mtim.tv_sec ||
	      x->st_mtim.tv_nsec != (unsigned long)sb.st_mtim.tv_nsec))) {
		fprintf(stderr, "FAIL: %s %s: mask %#llx, ino %llu (%llu), "
			"mode %o (%o), size %llu (%lld)\n", what, path, m,
			(unsigned long long)x->st_ino,
			(unsigned long long)sb.st_ino, (unsigned)x->st_mode,
			(unsigned)sb.st_mode,
			(unsigned long long)x->st_size, (long long)sb.st_size);
		return 1;
	}
	return 0;
}

static int check_calls(void)
{
	union xstat_buffer b;
	char path[400];
	int failed = 0, fd;
	size_t i, n;

	for (n = 0; n < NNAMES; n++) {
		th_pathf(path, sizeof(path), "%s/%s", dir, names[n]);
		for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
			struct xstat_parameters p = { masks[i] };
			ssize_t ret;

			memset(&b, 0xa5, sizeof(b));
			ret = xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p,
				    &b.x, sizeof(b));
			failed |= same_as_lstat(&b.x, ret, path, "xstat");
			fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				return 1;
			memset(&b, 0x5a, sizeof(b));
			ret = fxstat(fd, 0, &p, &b.x, sizeof(b));
			close(fd);
			failed |= same_as_lstat(&b.x, ret, path, "fxstat");
		}
	}
	return failed;
}

static int check_stream(void)
{
	int failed = 0;
	size_t i;

	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		struct xstat_parameters p = { masks[i] };

		failed |= th_check_stream(dir, &p, same_as_lstat, NNAMES);
	}
	return failed;
}

/* @late: one round with statx working before the filter arrives. */
static int run(void *arg)
{
	int late = *(const int *)arg, failed = 0;

	if (late)
		failed |= check_calls() | check_stream();
	if (th_block_statx(0))
		return TH_SKIP;
	failed |= check_calls();
	failed |= check_stream();
	return failed;
}

static void test_faked_from_start(void **state)
{
	int late = 0;

	(void)state;
	th_in_child(run, &late, "seccomp is unavailable");
}

static void test_faked_between_calls(void **state)
{
	int late = 1;

	(void)state;
	th_in_child(run, &late, "seccomp is unavailable");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_faked_from_start),
		cmocka_unit_test(test_faked_between_calls),
	};

	int ret;

	if (!th_mkdtemp(dir, sizeof(dir)) || th_make_types(dir)) {
		perror("scratch directory");
		return 1;
	}
	ret = th_run_tests(tests);
	th_rmrf(dir);
	return ret;
}
