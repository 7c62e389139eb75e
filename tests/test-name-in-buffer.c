// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The caller's name lives in the result buffer (legal: the prototype has
 * no restrict, and the system calls copy the name first).  A result
 * written before the name is read again puts st_mode over the name; for a 0644 regular file its first bytes
 * spell "\xa4\x81", where a FIFO with a blocked writer is planted.  A
 * request that then needs the general path (the data version on tmpfs,
 * where nothing gives it) must still answer for "f", and the FIFO must
 * stay unopened.  Both backends (statx blocked in a child).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

static int run(int block)
{
	static const unsigned long long masks[] = {
		XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_DATA_VERSION,
		XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME,
		XSTAT_REQUEST__EXTENDED_STATS,
	};
	union { struct xstat x; char name[512]; } u;
	struct stat sb;
	unsigned i;

	if (block && th_block_statx(EPERM))
		return 77;
	if (lstat("f", &sb))
		return 1;
	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		struct xstat_parameters p = { masks[i] };

		strcpy(u.name, "f");
		if (xstat(AT_FDCWD, u.name, 0, &p, &u.x, sizeof(u.x)) != 152) {
			fprintf(stderr, "mask %#llx: %s\n", masks[i],
				strerror(errno));
			return 1;
		}
		if (u.x.st_ino != sb.st_ino || !S_ISREG(u.x.st_mode)) {
			fprintf(stderr, "mask %#llx: not f's answer\n",
				masks[i]);
			return 1;
		}
	}
	return 0;
}

static pid_t writer;

static int child(void *block)
{
	return run(*(const int *)block);
}

/*
 * run(@block) in a child (the seccomp filter stays there): it must exit
 * 0; 77 (no seccomp to block statx) skips.
 */
static void run_in_child(int block)
{
	th_in_child(child, &block,
		    "seccomp is unavailable: cannot block statx");
}

TH_STATX_TESTS(run_in_child)

/* After both: the FIFO named by st_mode's bytes was never opened. */
static void test_fifo_unopened(void **state)
{
	int st, released = 0;

	(void)state;
	usleep(20000);
	if (waitpid(writer, &st, WNOHANG) == writer)
		released = 1;
	else {
		kill(writer, SIGKILL);
		waitpid(writer, &st, 0);
	}
	if (released)
		fprintf(stderr, "the FIFO named by st_mode's bytes was opened\n");
	assert_false(released);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statx_backend),
		cmocka_unit_test(test_statx_blocked),
		cmocka_unit_test(test_fifo_unopened),
	};
	char dir[256], planted[4] = { (char)0xa4, (char)0x81, 0, 0 };
	int fd, ret;

	if (!th_mkdtemp(dir, sizeof(dir)) || chdir(dir))
		return 1;
	fd = open("f", O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || fchmod(fd, 0644))
		return 1;
	close(fd);
	if (mkfifo(planted, 0644))
		return 1;
	writer = fork();
	if (writer < 0)
		return 1;
	if (writer == 0)
		_exit(open(planted, O_WRONLY) >= 0 ? 0 : 1);
	usleep(100000);
	ret = th_run_tests(tests);
	if (chdir("/"))
		return 1;
	th_rmrf(dir);
	return ret;
}
