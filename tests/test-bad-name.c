// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A name the caller cannot read gives -1 and EFAULT, as stat(2) does,
 * never a crash: xstat(3) promises it (LTP's statx03 asks it of statx).
 * The name lies on a PROT_NONE page, placed below, inside and above the
 * result buffer (the library once measured a name below the buffer's end
 * with strlen() to see whether the two overlap), or runs off a readable
 * page into the PROT_NONE one without its NUL.  Every request class,
 * with and without AT_SYMLINK_NOFOLLOW, by AT_FDCWD and by a directory
 * descriptor, and xstat_opendir() with the same names; statx live,
 * refused (ENOSYS, EPERM) and faking success, each in a child so that a
 * crash is a failure and not the end of the test program.
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
#include <sys/mman.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

static const unsigned long long masks[] = {
	0, XSTAT_REQUEST__BASIC_STATS,
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME,
	XSTAT_REQUEST_GEN, XSTAT_REQUEST_DATA_VERSION,
	XSTAT_REQUEST__EXTENDED_STATS, XSTAT_REQUEST__ALL_STATS,
	XSTAT_REQUEST_CHANGE_TOKEN | XSTAT_REQUEST_WHY_MISSING,
};

/* One call that must fail with EFAULT: 0, or 1 (said on stderr). */
static int expect_efault(int dfd, const char *name, unsigned flags,
			 unsigned long long mask, void *buf, size_t len,
			 const char *what)
{
	struct xstat_parameters p = { mask };
	ssize_t ret;

	errno = 0;
	ret = xstat(dfd, name, flags, &p, buf, len);
	if (ret == -1 && errno == EFAULT)
		return 0;
	fprintf(stderr, "FAIL: %s, flags %#x, mask %#llx: returned %zd, "
		"errno %s\n", what, flags, mask, ret, strerror(errno));
	return 1;
}

static int check_opendir(int dfd, const char *name, const char *what)
{
	struct xstat_dir *d;

	errno = 0;
	d = xstat_opendir(dfd, name, 0, NULL);
	if (!d && errno == EFAULT)
		return 0;
	fprintf(stderr, "FAIL: xstat_opendir, %s: %s, errno %s\n", what,
		d ? "opened" : "failed", strerror(errno));
	return 1;
}

/*
 * Four pages: read-write, PROT_NONE, read-write, read-write.  @block:
 * 0 (statx live), ENOSYS or EPERM (refused), or -2 (faked success).
 */
static int run(int block)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m, *bad, *unterminated;
	struct { char *buf; size_t len; const char *where; } place[3];
	unsigned flags[] = { 0, AT_SYMLINK_NOFOLLOW };
	int dfd[2] = { AT_FDCWD, -1 };
	int failed = 0;
	size_t i, j, f, d;

	m = mmap(NULL, (size_t)pg * 4, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mprotect(m + pg, (size_t)pg, PROT_NONE))
		return 1;
	bad = m + pg + 16;
	/* readable bytes up to the PROT_NONE page, and no NUL among them */
	unterminated = m + pg - 8;
	memset(unterminated, 'a', 8);
	/* the result buffer below the name, around it, above it */
	place[0].buf = m + 2 * pg;
	place[0].len = (size_t)pg;
	place[0].where = "name below the buffer";
	place[1].buf = m;
	place[1].len = 512;
	place[1].where = "name above the buffer";
	place[2].buf = m + pg - 64;
	place[2].len = (size_t)pg * 2;
	place[2].where = "name inside the buffer";
	dfd[1] = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd[1] < 0)
		return 1;

	if (block == -2 ? th_block_statx(0) : block && th_block_statx(block))
		return TH_SKIP;
	for (d = 0; d < 2; d++) {
		for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++)
			for (f = 0; f < 2; f++) {
				for (j = 0; j < 3; j++) {
					failed |= expect_efault(dfd[d], bad,
						flags[f], masks[i], place[j].buf,
						place[j].len, place[j].where);
					failed |= expect_efault(dfd[d],
						unterminated, flags[f],
						masks[i], place[j].buf,
						place[j].len, "unterminated");
				}
				failed |= expect_efault(dfd[d], bad, flags[f],
					masks[i], NULL, 0, "size query");
			}
		failed |= check_opendir(dfd[d], bad, "PROT_NONE name");
		failed |= check_opendir(dfd[d], unterminated, "unterminated");
	}
	close(dfd[1]);
	munmap(m, (size_t)pg * 4);
	return failed;
}

static int child(void *arg)
{
	return run(*(const int *)arg);
}

static void in_child(int block)
{
	th_in_child(child, &block,
		    "seccomp is unavailable: cannot refuse statx");
}

static void test_statx_live(void **state)
{
	(void)state;
	in_child(0);
}

static void test_statx_enosys(void **state)
{
	(void)state;
	in_child(ENOSYS);
}

static void test_statx_eperm(void **state)
{
	(void)state;
	in_child(EPERM);
}

static void test_statx_faked(void **state)
{
	(void)state;
	in_child(-2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statx_live),
		cmocka_unit_test(test_statx_enosys),
		cmocka_unit_test(test_statx_eperm),
		cmocka_unit_test(test_statx_faked),
	};

	return th_run_tests(tests);
}
