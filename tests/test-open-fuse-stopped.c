// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * With AT_NO_ATTR_SYNC no request reaches a FUSE server that the
 * kernel's own statx with the same flags would not send: with the
 * server stopped (SIGSTOP) and its attributes cached, every request mask
 * must return at once, by path and by descriptor, in the statx backend
 * and with statx blocked, as statx(AT_STATX_DONT_SYNC) does.  A call
 * that waits for the server is killed by an alarm and fails the test.
 * Root, /dev/fuse and countfs, else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "fuse/countfs.h"

const char *cfs_binary(char *buf, size_t len);

static int calls(const char *path, int block)
{
	static const uint64_t masks[] = {
		XSTAT_REQUEST__BASIC_STATS, XSTAT_REQUEST_GEN,
		XSTAT_REQUEST_BTIME, XSTAT_REQUEST_DATA_VERSION,
		XSTAT_REQUEST__EXTENDED_STATS, XSTAT_REQUEST__ALL_STATS,
		XSTAT_REQUEST_MNT_ID, XSTAT_REQUEST_ATTRIBUTES,
	};
	union { struct xstat x; unsigned char b[512]; } r;
	struct timespec t0, t1;
	unsigned i;
	int fd;

	if (block && th_block_statx(EPERM))
		return 77;
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return 1;
	alarm(10);
	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		struct xstat_parameters p = { masks[i] };

		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (xstat(AT_FDCWD, path, AT_NO_ATTR_SYNC, &p, &r.x,
			  sizeof(r)) < 0 ||
		    fxstat((unsigned)fd, AT_NO_ATTR_SYNC, &p, &r.x,
			   sizeof(r)) < 0) {
			perror("xstat");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (t1.tv_sec - t0.tv_sec > 2) {
			fprintf(stderr, "mask %#llx took %ld s\n",
				(unsigned long long)masks[i],
				(long)(t1.tv_sec - t0.tv_sec));
			return 1;
		}
	}
	alarm(0);
	return 0;
}

static char path[400];
static struct cfs c;

/* calls() in a child: its seccomp filter must not outlive the test. */
static int calls_child(void *block)
{
	return calls(path, *(const int *)block);
}

/*
 * Every request returns at once with the server stopped, statx blocked
 * if @block (in the children only).
 */
static void server_stopped(int block)
{
	struct stat sb;
	int st, stopped, ret;
	pid_t pid;

	/* Warm the caches with the server running. */
	stat(path, &sb);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct xstat_parameters p = { XSTAT_REQUEST__ALL_STATS };
		union { struct xstat x; unsigned char b[512]; } r;

		if (block && th_block_statx(EPERM))
			_exit(77);
		xstat(AT_FDCWD, path, 0, &p, &r.x, sizeof(r));
		_exit(0);
	}
	waitpid(pid, &st, 0);
	stopped = kill(c.pid, SIGSTOP) == 0;
	assert_true(stopped);
	ret = th_child(calls_child, &block);
	kill(c.pid, SIGCONT);
	fprintf(stderr, "# %s, server stopped: %s\n",
		block ? "statx blocked" : "statx",
		ret == 0 ? "every call returned" :
		ret == 77 ? "skipped" : "a call WAITED");
	if (ret == 77)
		th_skip("cannot install a seccomp filter");
	assert_int_equal(ret, 0);
}

TH_STATX_TESTS(server_stopped)

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statx_backend),
		cmocka_unit_test(test_statx_blocked),
	};
	char bin[512];
	int fd, ret;

	th_require_root();
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "SKIP: no /dev/fuse: %s\n", strerror(errno));
		return TH_SKIP;
	}
	close(fd);
	cfs_binary(bin, sizeof(bin));
	if (access(bin, X_OK)) {
		fprintf(stderr, "SKIP: no countfs: %s\n", bin);
		return TH_SKIP;
	}
	memset(&c, 0, sizeof(c));
	ret = cfs_start(&c, bin, 60.0, 0);
	if (ret)
		return ret == 77 ? TH_SKIP : 1;
	snprintf(path, sizeof(path), "%s/f", c.mnt);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0) {
		cfs_stop(&c);
		return 1;
	}
	close(fd);
	ret = th_run_tests(tests);
	cfs_stop(&c);
	return ret;
}
