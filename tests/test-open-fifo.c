// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Open nothing that stat(2) would not: a thread swaps a regular file and
 * a FIFO with renameat2(RENAME_EXCHANGE) while xstat() asks for the data
 * version, generation and creation time of the regular file's name.  A
 * writer blocked in open(FIFO, O_WRONLY) is released by any open of the
 * FIFO for reading: it must still be blocked at the end.  On loop-mounted
 * btrfs (the data version probe) and ext4, in the statx backend and with
 * statx blocked (EPERM).  Root and loop devices, else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define CALLS	20000

static char fpath[512], qpath[512], dpath[512];
static volatile int stop;

static void *swapper(void *arg)
{
	(void)arg;
	while (!stop)
		syscall(SYS_renameat2, AT_FDCWD, fpath, AT_FDCWD, qpath,
			2 /* RENAME_EXCHANGE */);
	return NULL;
}

/* A child blocked opening the FIFO for writing; exits when released. */
static pid_t blocked_writer(const char *fifo)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(fifo, O_WRONLY);

		_exit(fd >= 0 ? 0 : 1);
	}
	return pid;
}

static int run(const char *name, const char *dir, int block)
{
	static const uint64_t masks[] = {
		XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_DATA_VERSION,
		XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN,
		XSTAT_REQUEST__EXTENDED_STATS,
		XSTAT_REQUEST__ALL_STATS,
	};
	union { struct xstat x; unsigned char b[512]; } r;
	pthread_t th;
	pid_t w;
	int i, st, released = 0;

	th_pathf(fpath, sizeof(fpath), "%s/f", dir);
	th_pathf(qpath, sizeof(qpath), "%s/q", dir);
	th_pathf(dpath, sizeof(dpath), "%s/d", dir);
	unlink(fpath);
	unlink(qpath);
	if (close(open(fpath, O_CREAT | O_WRONLY, 0644)) || mkfifo(qpath, 0644))
		return 1;
	w = blocked_writer(qpath);
	usleep(100000);
	if (waitpid(w, &st, WNOHANG) != 0) {
		fprintf(stderr, "writer not blocked\n");
		return 1;
	}
	stop = 0;
	pthread_create(&th, NULL, swapper, NULL);
	for (i = 0; i < CALLS && !released; i++) {
		struct xstat_parameters p = { masks[i % 4] };

		xstat(AT_FDCWD, fpath, i & 4 ? AT_SYMLINK_NOFOLLOW : 0, &p,
		      &r.x, sizeof(r));
		if ((i & 255) == 0 && waitpid(w, &st, WNOHANG) == w)
			released = 1;
	}
	stop = 1;
	pthread_join(th, NULL);
	usleep(20000);
	if (!released && waitpid(w, &st, WNOHANG) == w)
		released = 1;
	fprintf(stderr, "# %s, %s: %d calls, FIFO %s\n", name,
	       block ? "statx blocked" : "statx", i,
	       released ? "OPENED" : "never opened");
	if (!released) {
		kill(w, SIGKILL);
		waitpid(w, &st, 0);
	}
	return released;
}

static int in_child(const char *name, const char *dir, int block)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		if (block && th_block_statx(EPERM))
			_exit(77);
		_exit(run(name, dir, block));
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}

struct fcase {
	const char	*fs;
	const char	*mkfs;
	unsigned	size_mb;
	int		block;
	struct th_loop	l;
};

static struct fcase cases[] = {
	{ "btrfs", "mkfs.btrfs -q -f %s", 200, 0, { "", "", "" } },
	{ "btrfs", "mkfs.btrfs -q -f %s", 200, 1, { "", "", "" } },
	{ "ext4", "mkfs.ext4 -q -F %s", 32, 0, { "", "", "" } },
	{ "ext4", "mkfs.ext4 -q -F %s", 32, 1, { "", "", "" } },
};

/* The FIFO stays unopened on a fresh image of @state's filesystem. */
static void test_fifo(void **state)
{
	struct fcase *c = *state;
	int ret;

	th_loop_mount_test(&c->l, c->size_mb, c->mkfs, NULL);
	ret = in_child(c->fs, c->l.mnt, c->block);
	if (ret == 77)
		th_skip("%s: cannot install a seccomp filter", c->fs);
	assert_int_equal(ret, 0);
}

static int umount_image(void **state)
{
	struct fcase *c = *state;

	th_loop_umount(&c->l);
	return 0;
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		{ "btrfs, statx", test_fifo, NULL, umount_image, &cases[0] },
		{ "btrfs, statx blocked", test_fifo, NULL, umount_image,
		  &cases[1] },
		{ "ext4, statx", test_fifo, NULL, umount_image, &cases[2] },
		{ "ext4, statx blocked", test_fifo, NULL, umount_image,
		  &cases[3] },
	};

	th_require_root();
	return th_run_tests(tests);
}
