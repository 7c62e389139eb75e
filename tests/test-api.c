// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The API rules: flag validation, the buffer-size rule, NULL pointers, and
 * errors exactly as the kernel reports them (oracle: the errno of
 * fstatat(2) on the same arguments).  Runs with statx available and, via
 * XSTAT_TEST_BLOCK, with statx blocked.
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
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

static char dir[PATH_MAX], reg[PATH_MAX];

#define ALLOWED_XSTAT	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | \
			 AT_EMPTY_PATH | AT_FORCE_ATTR_SYNC | AT_NO_ATTR_SYNC)
#define ALLOWED_FXSTAT	(AT_FORCE_ATTR_SYNC | AT_NO_ATTR_SYNC)

static void expect_error(ssize_t ret, int err)
{
	assert_int_equal(ret, -1);
	assert_int_equal(errno, err);
}

static void test_unknown_flags(void **state)
{
	struct xstat x;
	unsigned bit;
	int fd = open(reg, O_RDONLY | O_CLOEXEC);

	(void)state;
	assert_true(fd >= 0);
	for (bit = 1; bit; bit <<= 1) {
		if (!(bit & ALLOWED_XSTAT))
			expect_error(xstat(AT_FDCWD, reg, bit, NULL, &x,
					   sizeof(x)), EINVAL);
		if (!(bit & ALLOWED_FXSTAT))
			expect_error(fxstat((unsigned)fd, bit, NULL, &x,
					    sizeof(x)), EINVAL);
	}
	/* The patch's AT_FORCE_ATTR_SYNC value is AT_NO_AUTOMOUNT today. */
	assert_int_equal(xstat(AT_FDCWD, reg, 0x800, NULL, &x, sizeof(x)),
			 152);
	/* Each sync flag alone is fine; both together are not. */
	assert_int_equal(xstat(AT_FDCWD, reg, AT_FORCE_ATTR_SYNC, NULL, &x,
			       sizeof(x)), 152);
	assert_int_equal(xstat(AT_FDCWD, reg, AT_NO_ATTR_SYNC, NULL, &x,
			       sizeof(x)), 152);
	assert_int_equal(fxstat((unsigned)fd, AT_FORCE_ATTR_SYNC, NULL, &x,
				sizeof(x)), 152);
	assert_int_equal(fxstat((unsigned)fd, AT_NO_ATTR_SYNC, NULL, &x,
				sizeof(x)), 152);
	expect_error(xstat(AT_FDCWD, reg, AT_FORCE_ATTR_SYNC | AT_NO_ATTR_SYNC,
			   NULL, &x, sizeof(x)), EINVAL);
	expect_error(fxstat((unsigned)fd, AT_FORCE_ATTR_SYNC | AT_NO_ATTR_SYNC,
			    NULL, &x, sizeof(x)), EINVAL);
	close(fd);
}

static void test_null_pointers(void **state)
{
	struct xstat x;

	(void)state;
	expect_error(xstat(AT_FDCWD, NULL, 0, NULL, &x, sizeof(x)), EFAULT);
	expect_error(xstat(AT_FDCWD, reg, 0, NULL, NULL, 1), EFAULT);
	expect_error(xstat(AT_FDCWD, reg, 0, NULL, NULL, sizeof(x)), EFAULT);
	/* NULL buffer of length 0: just the size, nothing written. */
	errno = 0;
	assert_int_equal(xstat(AT_FDCWD, reg, 0, NULL, NULL, 0), 152);
	assert_int_equal(errno, 0);
	{
		int fd = open(reg, O_RDONLY | O_CLOEXEC);

		assert_true(fd >= 0);
		assert_int_equal(fxstat((unsigned)fd, 0, NULL, NULL, 0), 152);
		expect_error(fxstat((unsigned)fd, 0, NULL, NULL, 152), EFAULT);
		close(fd);
	}
}

static void test_buffer_rule(void **state)
{
	static const size_t lens[] = { 0, 1, 8, 151, 152, 153, 4096 };
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS };
	unsigned char full[152], buf[4096 + 16];
	size_t i, j;

	(void)state;
	assert_int_equal(xstat(AT_FDCWD, reg, 0, &p, (struct xstat *)full,
			       sizeof(full)), 152);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		size_t len = lens[i], copied = len < 152 ? len : 152;

		memset(buf, 0xa5, sizeof(buf));
		assert_int_equal(xstat(AT_FDCWD, reg, 0, &p,
				       (struct xstat *)buf, len), 152);
		/* The copied prefix equals the full result... */
		assert_memory_equal(buf, full, copied);
		/* ...and not one byte beyond it is touched. */
		for (j = copied; j < sizeof(buf); j++)
			assert_int_equal(buf[j], 0xa5);
	}
}

static void test_undefined_request_bits(void **state)
{
	struct xstat_parameters p = { ~XSTAT_REQUEST__ALL_STATS };
	struct xstat x;

	(void)state;
	assert_int_equal(xstat(AT_FDCWD, reg, 0, &p, &x, sizeof(x)), 152);
	assert_int_equal(x.st_result_mask & ~XSTAT_REQUEST__ALL_STATS, 0);
	/* Nothing asked: the basic stats come anyway (class 1). */
	assert_true(x.st_result_mask & XSTAT_REQUEST_MODE);
	assert_true(x.st_result_mask & XSTAT_REQUEST_INO);
	assert_true(x.st_result_mask & XSTAT_REQUEST_SIZE);
	assert_int_equal(x.st_result_mask & XSTAT_REQUEST_GEN, 0);
	assert_int_equal(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION, 0);
}

/* Each call's errno must be the one fstatat() gives for the same file. */
static void expect_like_fstatat(int dfd, const char *path, unsigned flags)
{
	struct stat sb;
	struct xstat x;
	int want;

	assert_int_not_equal(fstatat(dfd, path, &sb, (int)flags), 0);
	want = errno;
	print_message("  '%.40s': %s\n", path, strerror(want));
	expect_error(xstat(dfd, path, flags, NULL, &x, sizeof(x)), want);
}

static void test_kernel_errors(void **state)
{
	char p[PATH_MAX + 64], a[PATH_MAX], b[PATH_MAX];

	(void)state;
	snprintf(p, sizeof(p), "%s/missing", dir);
	expect_like_fstatat(AT_FDCWD, p, 0);			/* ENOENT */
	assert_int_equal(errno, ENOENT);
	snprintf(p, sizeof(p), "%s/x", reg);
	expect_like_fstatat(AT_FDCWD, p, 0);			/* ENOTDIR */
	assert_int_equal(errno, ENOTDIR);

	snprintf(a, sizeof(a), "%s/loop-a", dir);
	snprintf(b, sizeof(b), "%s/loop-b", dir);
	assert_int_equal(symlink(b, a), 0);
	assert_int_equal(symlink(a, b), 0);
	expect_like_fstatat(AT_FDCWD, a, 0);			/* ELOOP */
	assert_int_equal(errno, ELOOP);

	memset(p, 'n', NAME_MAX + 1);
	p[NAME_MAX + 1] = '\0';
	expect_like_fstatat(AT_FDCWD, p, 0);		/* ENAMETOOLONG */
	assert_int_equal(errno, ENAMETOOLONG);

	expect_like_fstatat(9999, "relative", 0);		/* EBADF */
	assert_int_equal(errno, EBADF);
	expect_like_fstatat(AT_FDCWD, "", 0);		/* ENOENT */
	assert_int_equal(errno, ENOENT);
}

static void test_fxstat_errors(void **state)
{
	struct xstat x;
	int fd;

	(void)state;
	expect_error(fxstat((unsigned)-1, 0, NULL, &x, sizeof(x)), EBADF);
	/* (unsigned)AT_FDCWD must not quietly stat the cwd. */
	expect_error(fxstat((unsigned)AT_FDCWD, 0, NULL, &x, sizeof(x)),
		     EBADF);
	fd = open(reg, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);
	expect_error(fxstat((unsigned)fd, 0, NULL, &x, sizeof(x)), EBADF);
}

static void test_empty_path(void **state)
{
	struct xstat x;
	struct stat sb;
	int fd = open(reg, O_PATH | O_CLOEXEC);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(xstat(fd, "", AT_EMPTY_PATH, NULL, &x, sizeof(x)),
			 152);
	assert_int_equal(x.st_ino, sb.st_ino);
	close(fd);
	/* Relative to a directory descriptor. */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(xstat(fd, "reg", 0, NULL, &x, sizeof(x)), 152);
	assert_int_equal(x.st_ino, sb.st_ino);
	close(fd);
}

/* EACCES: search permission denied, as an unprivileged user. */
static void test_eacces(void **state)
{
	char locked[PATH_MAX + 16], inner[PATH_MAX + 32];
	pid_t pid;
	int status;

	(void)state;
	if (geteuid() != 0)
		th_skip("EACCES: not root, cannot drop to another uid");
	snprintf(locked, sizeof(locked), "%s/locked", dir);
	snprintf(inner, sizeof(inner), "%s/inner", locked);
	assert_int_equal(mkdir(locked, 0700), 0);
	assert_int_equal(mkdir(inner, 0700), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	pid = fork();
	if (pid == 0) {
		struct xstat x;
		struct stat sb;
		ssize_t r;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		if (fstatat(AT_FDCWD, inner, &sb, 0) == 0 || errno != EACCES)
			_exit(3);
		r = xstat(AT_FDCWD, inner, 0, NULL, &x, sizeof(x));
		_exit(r == -1 && errno == EACCES ? 0 : 1);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unknown_flags,
			th_fds_setup, th_fds_teardown),
		cmocka_unit_test_setup_teardown(test_null_pointers,
			th_fds_setup, th_fds_teardown),
		cmocka_unit_test_setup_teardown(test_buffer_rule,
			th_fds_setup, th_fds_teardown),
		cmocka_unit_test_setup_teardown(test_undefined_request_bits,
			th_fds_setup, th_fds_teardown),
		cmocka_unit_test_setup_teardown(test_kernel_errors,
			th_fds_setup, th_fds_teardown),
		cmocka_unit_test_setup_teardown(test_fxstat_errors,
			th_fds_setup, th_fds_teardown),
		cmocka_unit_test_setup_teardown(test_empty_path,
			th_fds_setup, th_fds_teardown),
		cmocka_unit_test_setup_teardown(test_eacces,
			th_fds_setup, th_fds_teardown),
	};
	int ret;

	if (th_dir_with_file(dir, sizeof(dir), reg, sizeof(reg)))
		return 1;
	th_block_from_env();
	ret = th_run_tests(tests);
	th_rmrf(dir);
	return ret;
}
