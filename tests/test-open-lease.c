// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * No lease broken: another process holds a write lease (F_SETLEASE
 * F_WRLCK) on a file, which any other open of the file breaks with a
 * SIGIO to the holder.  xstat() of that file, for every request, by path
 * and by an O_PATH descriptor, in the statx backend and with statx
 * blocked, must send none.  On loop-mounted btrfs (its data version
 * probe), ext4 and XFS.  Root and loop devices, else 77.
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
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

static volatile sig_atomic_t broken;

static void on_sigio(int sig)
{
	(void)sig;
	broken = 1;
}

/*
 * The lease holder: takes the lease, says so on @ready, then waits for a
 * byte on @done and answers whether the lease was broken.
 */
static void holder(const char *path, int ready, int done)
{
	struct sigaction sa;
	char c = 0;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigio;
	sigaction(SIGIO, &sa, NULL);
	fd = open(path, O_RDWR);
	if (fd < 0 || fcntl(fd, F_SETLEASE, F_WRLCK)) {
		perror("F_SETLEASE");
		c = 2;
	}
	if (write(ready, &c, 1) != 1 || c)
		_exit(2);
	while (read(done, &c, 1) < 0 && errno == EINTR)
		;
	c = broken;
	if (write(ready, &c, 1) != 1)
		_exit(2);
	_exit(0);
}

static int calls(const char *path, int block)
{
	static const uint64_t masks[] = {
		XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_DATA_VERSION,
		XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN,
		XSTAT_REQUEST_BTIME, XSTAT_REQUEST__EXTENDED_STATS,
		XSTAT_REQUEST__ALL_STATS,
	};
	union { struct xstat x; unsigned char b[512]; } r;
	unsigned i;
	int fd;

	if (block && th_block_statx(EPERM))
		return 77;
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return 1;
	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		struct xstat_parameters p = { masks[i] };

		if (xstat(AT_FDCWD, path, 0, &p, &r.x, sizeof(r)) < 0 ||
		    fxstat((unsigned)fd, 0, &p, &r.x, sizeof(r)) < 0)
			return 1;
	}
	close(fd);
	return 0;
}

static int run(const char *name, const char *dir, int block)
{
	char path[512], c;
	int ready[2], done[2], st, ret;
	const char *why;
	pid_t h, x;

	th_pathf(path, sizeof(path), "%s/leased-%d", dir, block);
	if (close(open(path, O_CREAT | O_WRONLY, 0644)) ||
	    pipe(ready) || pipe(done))
		return 1;
	/*
	 * Where this program cannot read the kernel's file handles (qemu-user
	 * of the other byte order), the generation comes from reopening the
	 * file, which xstat(3) says breaks a lease: nothing to hold it to.
	 */
	why = th_no_native_handles(path);
	if (why) {
		fprintf(stderr, "SKIP: %s: %s\n", name, why);
		close(ready[0]);
		close(ready[1]);
		close(done[0]);
		close(done[1]);
		return 77;
	}
	h = fork();
	if (h == 0)
		holder(path, ready[1], done[0]);
	if (read(ready[0], &c, 1) != 1 || c) {
		fprintf(stderr, "%s: no lease could be taken\n", name);
		kill(h, SIGKILL);
		waitpid(h, &st, 0);
		return 77;
	}
	x = fork();
	if (x == 0)
		_exit(calls(path, block));
	waitpid(x, &st, 0);
	ret = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	if (write(done[1], "x", 1) != 1 || read(ready[0], &c, 1) != 1)
		return 1;
	waitpid(h, &st, 0);
	fprintf(stderr, "# %s, %s: lease %s\n", name,
		block ? "statx blocked" : "statx", c ? "BROKEN" : "kept");
	close(ready[0]);
	close(ready[1]);
	close(done[0]);
	close(done[1]);
	if (ret)
		return ret;
	return c ? 1 : 0;
}

struct lcase {
	const char	*fs;
	const char	*mkfs;
	unsigned	size_mb;
	int		block;
	struct th_loop	l;
};

static struct lcase cases[] = {
	{ "btrfs", "mkfs.btrfs -q -f %s", 200, 0, { "", "", "" } },
	{ "btrfs", "mkfs.btrfs -q -f %s", 200, 1, { "", "", "" } },
	{ "ext4", "mkfs.ext4 -q -F %s", 32, 0, { "", "", "" } },
	{ "ext4", "mkfs.ext4 -q -F %s", 32, 1, { "", "", "" } },
	{ "xfs", "mkfs.xfs -q -f %s", 320, 0, { "", "", "" } },
	{ "xfs", "mkfs.xfs -q -f %s", 320, 1, { "", "", "" } },
};

/* No lease broken on a fresh image of @state's filesystem. */
static void test_lease(void **state)
{
	struct lcase *c = *state;
	int ret;

	th_loop_mount_test(&c->l, c->size_mb, c->mkfs, NULL);
	ret = run(c->fs, c->l.mnt, c->block);
	if (ret == 77)
		th_skip("%s: no lease could be taken, or no seccomp filter",
			c->fs);
	assert_int_equal(ret, 0);
}

static int umount_image(void **state)
{
	struct lcase *c = *state;

	th_loop_umount(&c->l);
	return 0;
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		{ "btrfs, statx", test_lease, NULL, umount_image, &cases[0] },
		{ "btrfs, statx blocked", test_lease, NULL, umount_image,
		  &cases[1] },
		{ "ext4, statx", test_lease, NULL, umount_image, &cases[2] },
		{ "ext4, statx blocked", test_lease, NULL, umount_image,
		  &cases[3] },
		{ "xfs, statx", test_lease, NULL, umount_image, &cases[4] },
		{ "xfs, statx blocked", test_lease, NULL, umount_image,
		  &cases[5] },
	};

	th_require_root();
	return th_run_tests(tests);
}
