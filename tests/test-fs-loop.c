// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Filesystems other than ext4 - tmpfs, xfs and btrfs (loop images made
 * here) - in either backend: creation time exactly statx's or cleared,
 * generation exactly FS_IOC_GETVERSION's (lsattr -v) where the filesystem
 * has the ioctl, data version never invented.  Root only (exit 77
 * otherwise).  The oracles are taken before XSTAT_TEST_BLOCK blocks statx.
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
#include <sys/mount.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define FILES	8

struct fs_case {
	const char	*name;
	const char	*mkfs;		/* NULL: tmpfs */
	unsigned	size_mb;
	int		has_getversion;
	struct th_loop	loop;
	int		mounted;
	int		skipped;	/* the machine cannot make this one */
	char		paths[FILES][PATH_MAX];
	struct statx	sx[FILES];
	unsigned long long gen[FILES];
};

static struct fs_case cases[] = {
	{ .name = "tmpfs" },
	{ .name = "xfs", .mkfs = "mkfs.xfs -q -f %s", .size_mb = 320,
	  .has_getversion = 1 },
	{ .name = "btrfs", .mkfs = "mkfs.btrfs -q -f %s", .size_mb = 256,
	  .has_getversion = 1 },
};

#define NCASES	(sizeof(cases) / sizeof(cases[0]))

static int prepare(struct fs_case *c)
{
	char out[PATH_MAX + 64];
	int i, fd;

	if (c->mkfs) {
		int ret = th_loop_mount(&c->loop, c->size_mb, c->mkfs, NULL);

		if (ret)
			return ret;
	} else {
		if (!th_mkdtemp(c->loop.mnt, sizeof(c->loop.mnt)) ||
		    mount("tmpfs", c->loop.mnt, "tmpfs", 0, "size=4m"))
			return -1;
	}
	c->mounted = 1;
	for (i = 0; i < FILES; i++) {
		snprintf(c->paths[i], PATH_MAX, "%s/f%d", c->loop.mnt, i);
		if (i == FILES - 1) {
			snprintf(c->paths[i], PATH_MAX, "%s/d", c->loop.mnt);
			if (mkdir(c->paths[i], 0755))
				return -1;
		} else {
			fd = open(c->paths[i], O_CREAT | O_WRONLY | O_CLOEXEC,
				  0644);
			if (fd < 0 || write(fd, "data", 4) != 4)
				return -1;
			close(fd);
		}
		if (statx(AT_FDCWD, c->paths[i], 0,
			  STATX_BASIC_STATS | STATX_BTIME, &c->sx[i]))
			return -1;
		if (c->has_getversion) {
			if (th_run(out, sizeof(out), "lsattr -dv '%s'",
				   c->paths[i]) ||
			    sscanf(out, "%llu", &c->gen[i]) != 1)
				return -1;
		}
	}
	return 0;
}

static void release(struct fs_case *c)
{
	if (!c->mounted)
		return;
	if (c->mkfs) {
		th_loop_umount(&c->loop);
	} else {
		umount(c->loop.mnt);
		rmdir(c->loop.mnt);
	}
	c->mounted = 0;
}

static void run_case(void **state)
{
	struct fs_case *c = *state;
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };
	int i;

	if (c->skipped)
		th_skip("%s: no image (%s)", c->name, c->mkfs);
	for (i = 0; i < FILES; i++) {
		const char *why;
		struct xstat x;

		assert_int_equal(xstat(AT_FDCWD, c->paths[i], 0, &p, &x,
				       sizeof(x)), 152);
		print_message("  %s %s: mask %#llx gen %llu\n", c->name,
			      c->paths[i], x.st_result_mask, x.st_gen);
		assert_int_equal(x.st_ino, c->sx[i].stx_ino);
		if (x.st_result_mask & XSTAT_REQUEST_BTIME) {
			assert_true(c->sx[i].stx_mask & STATX_BTIME);
			assert_int_equal(x.st_btim.tv_sec,
					 c->sx[i].stx_btime.tv_sec);
			assert_int_equal(x.st_btim.tv_nsec,
					 c->sx[i].stx_btime.tv_nsec);
		} else {
			assert_int_equal(x.st_btim.tv_sec, 0);
			assert_int_equal(x.st_btim.tv_nsec, 0);
		}
		/*
		 * No data version source exists for tmpfs and xfs; btrfs's
		 * (root only) is checked against dump-tree in test-otherfs.
		 */
		if (strcmp(c->name, "btrfs")) {
			assert_false(x.st_result_mask &
				     XSTAT_REQUEST_DATA_VERSION);
			assert_int_equal(x.st_data_version, 0);
		}
		/*
		 * The generation is always there, from handles - which
		 * this program must be able to read (not so under an
		 * emulator of the other byte order).
		 */
		if (!(x.st_result_mask & XSTAT_REQUEST_GEN) &&
		    (why = th_no_native_handles(c->paths[i])))
			th_skip("%s: %s", c->name, why);
		assert_true(x.st_result_mask & XSTAT_REQUEST_GEN);
		if (c->has_getversion)
			assert_int_equal(x.st_gen, c->gen[i]);
	}
}

/*
 * th_block_from_env() exits 77 where no filter can be installed (the
 * .eperm variant under qemu-user): the mounts go with the process.  Not
 * in a child that calls exit().
 */
static pid_t owner;

static void release_at_exit(void)
{
	size_t i;

	if (getpid() != owner)
		return;
	for (i = 0; i < NCASES; i++)
		release(&cases[i]);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		{ "tmpfs", run_case, NULL, NULL, &cases[0] },
		{ "xfs", run_case, NULL, NULL, &cases[1] },
		{ "btrfs", run_case, NULL, NULL, &cases[2] },
	};
	size_t i;
	int ret;

	th_require_root();
	if (access("/dev/loop-control", F_OK)) {
		fprintf(stderr, "SKIP: no loop devices\n");
		return TH_SKIP;
	}
	for (i = 0; i < NCASES; i++) {
		ret = prepare(&cases[i]);
		if (ret == TH_SKIP) {
			/* A missing mkfs tool: that case skips, not all. */
			release(&cases[i]);
			cases[i].skipped = 1;
		} else if (ret) {
			fprintf(stderr, "%s: could not prepare the image\n",
				cases[i].name);
			release(&cases[i]);
			while (i--)
				release(&cases[i]);
			return 1;
		}
	}
	owner = getpid();
	atexit(release_at_exit);
	th_block_from_env();
	ret = th_run_tests(tests);
	for (i = 0; i < NCASES; i++)
		release(&cases[i]);
	return ret;
}
