// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ext2 driver keeps no i_version: on a filesystem it mounts, neither
 * xstat() nor a directory stream (xstat_opendir(3)) may report a data
 * version, while both report the generation (debugfs is the oracle).  The
 * same image mounted by the ext4 driver (mount -t ext4) must give the data
 * version in both, so the test can tell.  Which driver mounted it is told
 * by /sys/fs/ext4/DEV (the ext4 driver registers every superblock there,
 * also one it serves as "ext2"), not by mountinfo.  In the statx backend
 * and with statx blocked.  The /sys/fs/ext4/DEV it trusts must be sysfs:
 * in a private mount namespace with a tmpfs over /sys/fs holding
 * ext4/DEV, neither mount may report a data version (the ext2 driver's
 * would be one it never keeps; the ext4 driver's cannot be told apart,
 * so the answer is the conservative one).  Root, loop devices,
 * mkfs.ext2, debugfs and the ext2 driver, else 77.
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
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "ext4-oracle.h"

#define NFILES	8
#define MASK	(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN | \
		 XSTAT_REQUEST_DATA_VERSION)

static int fails;

static void check(const char *what, const char *name, const struct xstat *x,
		  const char *dev, int want_dv)
{
	struct ext4_oracle o;
	int dv = !!(x->st_result_mask & XSTAT_REQUEST_DATA_VERSION);

	if (ext4_oracle_stat(dev, x->st_ino, &o)) {
		fails++;
		return;
	}
	if (!(x->st_result_mask & XSTAT_REQUEST_GEN) ||
	    x->st_gen != o.generation) {
		fprintf(stderr, "%s: %s: generation %s %llu, debugfs %u\n",
			what, name,
			(x->st_result_mask & XSTAT_REQUEST_GEN) ? "" : "MISSING",
			(unsigned long long)x->st_gen, o.generation);
		fails++;
	}
	if (dv != want_dv ||
	    (dv && (!o.has_version || x->st_data_version != o.version))) {
		fprintf(stderr, "%s: %s: data version %s %llu (debugfs %llu)"
			", expected %s\n", what, name, dv ? "present" : "absent",
			(unsigned long long)x->st_data_version,
			(unsigned long long)o.version,
			want_dv ? "present" : "absent");
		fails++;
	}
}

/* Both paths over the files of @mnt. */
static void run(const char *what, const char *mnt, const char *dev,
		int want_dv)
{
	struct xstat_parameters p = { MASK };
	const struct xstat_dirent *e;
	union xstat_buffer b;
	struct xstat_dir *d;
	char f[400], label[128];
	int i, n = 0;

	snprintf(label, sizeof(label), "%s, xstat()", what);
	for (i = 0; i < NFILES; i++) {
		th_pathf(f, sizeof(f), "%s/f%d", mnt, i);
		if (xstat(AT_FDCWD, f, 0, &p, &b.x, sizeof(b)) < 152) {
			perror(f);
			fails++;
			continue;
		}
		check(label, f, &b.x, dev, want_dv);
	}
	snprintf(label, sizeof(label), "%s, directory stream", what);
	d = xstat_opendir(AT_FDCWD, mnt, 0, &p);
	if (!d) {
		perror(mnt);
		fails++;
		return;
	}
	while ((e = xstat_readdir(d))) {
		if (strncmp(e->d_name, "f", 1))
			continue;	/* lost+found */
		n++;
		if (e->d_error) {
			fprintf(stderr, "%s: %s: %s\n", label, e->d_name,
				strerror(e->d_error));
			fails++;
			continue;
		}
		check(label, e->d_name, e->d_xstat, dev, want_dv);
	}
	xstat_closedir(d);
	if (n != NFILES) {
		fprintf(stderr, "%s: %d entries\n", label, n);
		fails++;
	}
	fprintf(stderr, "# %s: checked\n", what);
}

/* Mount @dev with @type; 1 if the ext4 driver serves it, 0 if not, -1. */
static int mount_as(const char *type, const char *dev, const char *mnt)
{
	char sys[128];
	struct stat sb;

	if (th_run(NULL, 0, "mount -t %s '%s' '%s' 2>/dev/null", type, dev,
		   mnt))
		return -1;
	th_pathf(sys, sizeof(sys), "/sys/fs/ext4/%s", dev + 5);
	return stat(sys, &sb) == 0;
}

/* The image on its loop device: mounted by mount_driver(). */
static struct th_loop loop;
static char *const mnt = loop.mnt, *const dev = loop.dev;
static int mounted;	/* 0, 2 (as ext2) or 4 (as ext4) */
static int ext2_by_ext4;	/* the ext4 driver serves ext2 here */

struct dcase {
	int	type;		/* 2: the ext2 driver, 4: the ext4 driver */
	int	block;		/* statx blocked */
	int	planted;	/* a tmpfs /sys/fs in a mount namespace */
};

/*
 * In a child, in a mount namespace of its own: a tmpfs over /sys/fs with
 * ext4/DEV in it, then no data version in either backend.  Runs first on
 * each mount, so no fact the parent learned is inherited.
 */
static int planted_sys(const char *what)
{
	char sys[128], label[128];

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", "/sys/fs", "tmpfs", 0, NULL)) {
		fprintf(stderr, "# %s: no private mount namespace: %s\n",
			what, strerror(errno));
		return 77;
	}
	th_pathf(sys, sizeof(sys), "/sys/fs/ext4/%s", dev + 5);
	if (mkdir("/sys/fs/ext4", 0755) || mkdir(sys, 0755))
		return 1;
	fails = 0;
	snprintf(label, sizeof(label), "%s, planted /sys", what);
	run(label, mnt, dev, 0);
	if (th_block_statx(EPERM))
		return fails ? 1 : 77;
	snprintf(label, sizeof(label), "%s, planted /sys, statx blocked",
		 what);
	run(label, mnt, dev, 0);
	return fails ? 1 : 0;
}

/* Have @dev mounted with the driver of @type. */
static void mount_driver(int type)
{
	int drv;

	if (mounted == type)
		return;
	if (mounted) {
		umount(mnt);
		mounted = 0;
	}
	drv = mount_as(type == 2 ? "ext2" : "ext4", dev, mnt);
	if (drv >= 0)
		mounted = type;
	if (type == 4 && drv != 1)
		fail_msg("cannot mount %s as ext4", dev);
	if (drv < 0)
		fail_msg("cannot mount %s as ext2", dev);
	if (type == 2)
		ext2_by_ext4 = drv;
}

/* The ext4 driver's /sys planted in a child: its own mount namespace. */
static int planted_child(void *what)
{
	return planted_sys(what);
}

/* run() with statx blocked, in a child: the filter cannot be taken back. */
static int blocked_child(void *p)
{
	const struct dcase *c = p;
	char label[128];

	if (th_block_statx(EPERM))
		return 77;
	snprintf(label, sizeof(label), "%s, statx blocked",
		 c->type == 2 ? "ext2 driver" : "ext4 driver");
	run(label, mnt, dev, c->type == 4);
	return fails ? 1 : 0;
}

/* Both paths with one driver, in one backend (statx blocked: a child). */
static void test_driver(void **state)
{
	const struct dcase *c = *state;
	const char *what = c->type == 2 ? "ext2 driver" : "ext4 driver";

	mount_driver(c->type);
	if (c->type == 2 && ext2_by_ext4)
		th_skip("ext2 is served by the ext4 driver here");
	fails = 0;
	if (c->planted) {
		th_in_child(planted_child, (void *)what,
			    "no private mount namespace or seccomp");
		return;
	}
	if (!c->block) {
		run(what, mnt, dev, c->type == 4);
		assert_int_equal(fails, 0);
		return;
	}
	th_in_child(blocked_child, (void *)c,
		    "cannot install a seccomp filter");
}

int main(void)
{
	/* Each driver's planted case first on its mount: see planted_sys(). */
	static const struct dcase cases[] = {
		{ 2, 0, 1 }, { 2, 0, 0 }, { 2, 1, 0 },
		{ 4, 0, 1 }, { 4, 0, 0 }, { 4, 1, 0 },
	};
	static const struct CMUnitTest tests[] = {
		{ "ext2 driver, planted /sys", test_driver, NULL, NULL,
		  (void *)&cases[0] },
		{ "ext2 driver, statx", test_driver, NULL, NULL,
		  (void *)&cases[1] },
		{ "ext2 driver, statx blocked", test_driver, NULL, NULL,
		  (void *)&cases[2] },
		{ "ext4 driver, planted /sys", test_driver, NULL, NULL,
		  (void *)&cases[3] },
		{ "ext4 driver, statx", test_driver, NULL, NULL,
		  (void *)&cases[4] },
		{ "ext4 driver, statx blocked", test_driver, NULL, NULL,
		  (void *)&cases[5] },
	};
	char f[400];
	int i, fd, ret;

	th_require_root();
	if (!ext4_oracle_available() ||
	    th_run(NULL, 0, "command -v mkfs.ext2 >/dev/null && "
		   "command -v losetup >/dev/null && "
		   "grep -qw ext2 /proc/filesystems")) {
		fprintf(stderr, "SKIP: mkfs.ext2, debugfs, losetup or the "
			"ext2 filesystem type missing\n");
		return TH_SKIP;
	}
	ret = th_loop_attach(&loop, 32, "mkfs.ext2 -q -F -I 256 %s");
	if (ret) {
		/* Any failure here is the machine's, as a missing device. */
		if (ret != TH_SKIP)
			fprintf(stderr, "SKIP: no loop device\n");
		return TH_SKIP;
	}
	ret = 1;
	/* The files, written through the ext2 mount. */
	ext2_by_ext4 = mount_as("ext2", dev, mnt);
	if (ext2_by_ext4 < 0) {
		fprintf(stderr, "cannot mount %s as ext2\n", dev);
		goto out;
	}
	mounted = 2;
	for (i = 0; i < NFILES; i++) {
		th_pathf(f, sizeof(f), "%s/f%d", mnt, i);
		fd = open(f, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, "x", 1) != 1 || close(fd)) {
			fprintf(stderr, "%s: %s\n", f, strerror(errno));
			goto out;
		}
	}
	th_run(NULL, 0, "sync -f '%s'", mnt);
	if (ext2_by_ext4)
		fprintf(stderr, "# ext2 is served by the ext4 driver here\n");
	ret = th_run_tests(tests);
out:
	th_loop_umount(&loop);
	return ret;
}
