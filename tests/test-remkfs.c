// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A filesystem re-made on the same device, in one long-lived process:
 * ext4 on a loop device, probed; unmounted; mkfs.xfs on the same loop
 * device (same dev_t); mounted.  The creation time of a file on the new
 * XFS must come through (bulkstat), as for a process that never saw the
 * ext4: nothing cached for the old filesystem may apply to the new one.
 * With statx blocked in the calling thread (per-thread seccomp), so the
 * probes answer; the oracle is statx in an unfiltered thread.  Root, loop
 * devices, mkfs.ext4 and mkfs.xfs, else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

struct job {
	const char	*path;
	int		ret;
	struct xstat	x;	/* last: it ends in a flexible array */
};

static void *filtered(void *arg)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS |
				      XSTAT_REQUEST_BTIME };
	struct job *j = arg;

	if (th_block_statx(EPERM)) {
		j->ret = 77;
		return NULL;
	}
	j->ret = xstat(AT_FDCWD, j->path, 0, &p, &j->x, sizeof(j->x)) == 152
		 ? 0 : 1;
	return NULL;
}

/* xstat() of @path in a thread with statx blocked, against statx. */
static int check(const char *fs, const char *path)
{
	struct job j = { path, 0, { 0 } };
	struct statx sx;
	pthread_t t;

	if (statx(AT_FDCWD, path, 0, STATX_BTIME, &sx) ||
	    !(sx.stx_mask & STATX_BTIME))
		return 77;
	pthread_create(&t, NULL, filtered, &j);
	pthread_join(t, NULL);
	if (j.ret)
		return j.ret;
	fprintf(stderr, "# %s: creation time %s\n", fs,
		(j.x.st_result_mask & XSTAT_REQUEST_BTIME) ? "present" :
		"MISSING");
	if (!(j.x.st_result_mask & XSTAT_REQUEST_BTIME) ||
	    j.x.st_btim.tv_sec != sx.stx_btime.tv_sec ||
	    j.x.st_btim.tv_nsec != sx.stx_btime.tv_nsec)
		return 1;
	return 0;
}

/* The image on its loop device: the tests make its filesystems. */
static struct th_loop loop;
static char *const mnt = loop.mnt, *const dev = loop.dev;
static int ext4_probed;

/* check() in a cmocka test: 0 passes, 77 skips, anything else fails. */
static void check_test(const char *fs, const char *path)
{
	int ret = check(fs, path);

	if (ret == 77)
		th_skip("%s: no creation time from statx, or no seccomp to "
			"block it", fs);
	assert_int_equal(ret, 0);
}

static void test_ext4(void **state)
{
	char f[400];
	int fd;

	(void)state;
	if (th_no_ext4_reader())
		th_skip("ext4: %s", th_no_ext4_reader());
	assert_int_equal(th_run(NULL, 0, "mkfs.ext4 -q -F '%s' && "
				"mount '%s' '%s'", dev, dev, mnt), 0);
	th_pathf(f, sizeof(f), "%s/on-ext4", mnt);
	fd = open(f, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	ext4_probed = 1;
	check_test("ext4", f);
}

/* The same device re-made as XFS, after ext4 was probed there. */
static void test_xfs_same_device(void **state)
{
	char f[400];
	int fd;

	(void)state;
	if (th_no_ext4_reader())
		th_skip("xfs after ext4: %s", th_no_ext4_reader());
	/* Without the ext4 probed first, there is nothing to test. */
	assert_true(ext4_probed);
	assert_int_equal(umount(mnt), 0);
	assert_int_equal(th_run(NULL, 0, "mkfs.xfs -q -f '%s' && "
				"mount '%s' '%s'", dev, dev, mnt), 0);
	th_pathf(f, sizeof(f), "%s/on-xfs", mnt);
	fd = open(f, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	check_test("xfs on the same device", f);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ext4),
		cmocka_unit_test(test_xfs_same_device),
	};
	int ret;

	th_require_root();
	if (th_run(NULL, 0, "command -v mkfs.xfs >/dev/null && "
		   "command -v mkfs.ext4 >/dev/null && "
		   "command -v losetup >/dev/null")) {
		fprintf(stderr, "SKIP: mkfs.xfs, mkfs.ext4 or losetup missing\n");
		return TH_SKIP;
	}
	ret = th_loop_attach(&loop, 320, NULL);
	if (ret) {
		/* Any failure here is the machine's, as a missing device. */
		if (ret != TH_SKIP)
			fprintf(stderr, "SKIP: no loop device\n");
		return TH_SKIP;
	}
	ret = th_run_tests(tests);
	th_loop_umount(&loop);
	return ret;
}
