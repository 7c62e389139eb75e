// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * XSTAT_REQUEST_GEN: the inode generation, against `lsattr -v`
 * (FS_IOC_GETVERSION, e2fsprogs) on ext4 and on a loop-mounted xfs image,
 * and by behaviour on tmpfs, which has no such ioctl: a file deleted and
 * re-created under the same name gets a new generation, a renamed file
 * keeps its own.  Symlinks, FIFOs and device nodes get theirs from file
 * handles without ever being opened.
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
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define TMPFS_MAGIC	0x01021994
#define EXT4_MAGIC	0xEF53


static int gen_of(const char *path, unsigned flags, unsigned long long *gen)
{
	struct xstat_parameters p = { XSTAT_REQUEST_GEN };
	struct xstat x;

	assert_int_equal(xstat(AT_FDCWD, path, flags, &p, &x, sizeof(x)), 152);
	*gen = x.st_gen;
	if (!(x.st_result_mask & XSTAT_REQUEST_GEN)) {
		assert_int_equal(x.st_gen, 0);
		return 0;
	}
	return 1;
}

static void create(const char *path)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	close(fd);
}

/* `lsattr -dv PATH` prints "GEN FLAGS PATH"; the oracle's generation. */
static unsigned long long lsattr_gen(const char *path)
{
	char out[PATH_MAX + 64];
	unsigned long long g;

	assert_int_equal(th_run(out, sizeof(out), "lsattr -dv '%s'", path), 0);
	assert_int_equal(sscanf(out, "%llu", &g), 1);
	return g;
}

static void check_against_lsattr(const char *dir)
{
	char path[PATH_MAX];
	unsigned long long g;
	int i;

	for (i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		create(path);
		assert_true(gen_of(path, 0, &g));
		assert_int_equal(g, lsattr_gen(path));
	}
	snprintf(path, sizeof(path), "%s/d", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_true(gen_of(path, 0, &g));
	assert_int_equal(g, lsattr_gen(path));

	/* fxstat() agrees with xstat(). */
	{
		struct xstat_parameters p = { XSTAT_REQUEST_GEN };
		struct xstat x;
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		assert_true(fd >= 0);
		assert_int_equal(fxstat((unsigned)fd, 0, &p, &x, sizeof(x)),
				 152);
		close(fd);
		assert_true(x.st_result_mask & XSTAT_REQUEST_GEN);
		assert_int_equal(x.st_gen, g);
	}
}

/* The generation debugfs reads from the raw inode of @path on @dev. */
static unsigned long long debugfs_gen(const char *path, const char *dev)
{
	char out[4096];
	unsigned long long g;
	const char *p;
	struct stat sb;

	assert_int_equal(lstat(path, &sb), 0);
	assert_int_equal(th_run(out, sizeof(out),
		"debugfs -R 'stat <%llu>' %s 2>/dev/null",
		(unsigned long long)sb.st_ino, dev), 0);
	p = strstr(out, "Generation:");
	assert_non_null(p);
	assert_int_equal(sscanf(p, "Generation: %llu", &g), 1);
	return g;
}

/*
 * A symlink, a FIFO and a device node have a generation too, from the
 * file handle.  A symlink's is its own, not its target's: check it with
 * debugfs where it is available (root, ext4), else that it differs from
 * the target's.
 */
static void check_special_files(const char *dir, int ext4_dev_known,
				const char *dev)
{
	char link[PATH_MAX], fifo[PATH_MAX], node[PATH_MAX], target[PATH_MAX];
	unsigned long long gl, gt, gf, gn;

	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(node, sizeof(node), "%s/null", dir);
	create(target);
	assert_int_equal(symlink("target", link), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);

	assert_true(gen_of(target, 0, &gt));
	assert_true(gen_of(link, AT_SYMLINK_NOFOLLOW, &gl));
	assert_true(gen_of(link, 0, &gf));
	assert_int_equal(gf, gt);	/* followed: the target's */
	/* A FIFO with no writer: opening it would block; GEN must not. */
	assert_true(gen_of(fifo, AT_SYMLINK_NOFOLLOW, &gf));
	if (geteuid() == 0 &&
	    mknod(node, S_IFCHR | 0600, makedev(1, 3)) == 0)
		assert_true(gen_of(node, AT_SYMLINK_NOFOLLOW, &gn));

	if (ext4_dev_known) {
		assert_int_equal(gl, debugfs_gen(link, dev));
		assert_int_equal(gf, debugfs_gen(fifo, dev));
	}
}

/* The special files' generations come from file handles alone. */
static void skip_without_handles(struct th_loop *l)
{
	const char *why = th_no_native_handles(l->mnt);

	if (why) {
		th_loop_umount(l);
		th_skip("symlinks, FIFOs, device nodes: %s", why);
	}
}

static void test_ext4(void **state)
{
	struct th_loop l;

	(void)state;
	th_loop_mount_test(&l, 64, "mkfs.ext4 -q -F %s", NULL);
	check_against_lsattr(l.mnt);
	skip_without_handles(&l);
	check_special_files(l.mnt, 1, l.dev);
	th_loop_umount(&l);
}

static void test_xfs(void **state)
{
	struct th_loop l;

	(void)state;
	th_loop_mount_test(&l, 320, "mkfs.xfs -q -f %s", NULL);
	check_against_lsattr(l.mnt);
	skip_without_handles(&l);
	check_special_files(l.mnt, 0, NULL);
	th_loop_umount(&l);
}

static void test_tmpfs(void **state)
{
	char dir[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	unsigned long long g1, g2, g3;
	struct statfs sfs;
	const char *why;
	int mounted = 0;

	(void)state;
	assert_non_null(th_mkdtemp(dir, sizeof(dir)));
	if (geteuid() == 0 && mount("tmpfs", dir, "tmpfs", 0, "size=1m") == 0) {
		mounted = 1;
	} else if (statfs(dir, &sfs) == 0 && sfs.f_type == TMPFS_MAGIC) {
		;	/* $TMPDIR is on tmpfs itself */
	} else if (statfs("/dev/shm", &sfs) == 0 &&
		   sfs.f_type == TMPFS_MAGIC) {
		/* A directory of our own there, if /dev/shm is writable. */
		char shm[] = "/dev/shm/xstat-gen.XXXXXX";

		if (mkdtemp(shm)) {
			th_rmrf(dir);
			snprintf(dir, sizeof(dir), "%s", shm);
		}
	}
	assert_int_equal(statfs(dir, &sfs), 0);
	if (sfs.f_type != TMPFS_MAGIC) {
		th_rmrf(dir);
		th_skip("no writable tmpfs: not root, $TMPDIR not on tmpfs, "
			"/dev/shm not writable");
	}
	snprintf(a, sizeof(a), "%s/xstat-gen-a.%d", dir, (int)getpid());
	snprintf(b, sizeof(b), "%s/xstat-gen-b.%d", dir, (int)getpid());

	create(a);
	why = th_no_native_handles(a);
	if (why) {
		unlink(a);
		if (mounted)
			umount(dir);
		th_rmrf(dir);
		th_skip("tmpfs: its generation is in file handles: %s", why);
	}
	assert_true(gen_of(a, 0, &g1));
	/* tmpfs has no FS_IOC_GETVERSION: lsattr -v cannot be the oracle. */
	assert_int_not_equal(th_run(NULL, 0, "lsattr -dv '%s' 2>/dev/null", a),
			     0);
	assert_int_equal(rename(a, b), 0);
	assert_true(gen_of(b, 0, &g2));
	assert_int_equal(g1, g2);		/* renamed: the same inode */
	assert_int_equal(unlink(b), 0);
	create(b);
	assert_true(gen_of(b, 0, &g3));
	assert_int_not_equal(g2, g3);		/* re-created: a new one */
	unlink(b);
	if (mounted)
		umount(dir);
	th_rmrf(dir);
}

/*
 * Anonymous device numbers are reused: unmount a ramfs (no generation at
 * all) and mount a tmpfs in its place, and the new mount gets the same
 * st_dev.  What the library learned of the ramfs must not hide the tmpfs
 * generation (statx's mount ID tells the mounts apart).
 */
static void test_dev_reuse(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX + 8];
	unsigned long long g;
	struct stat a, b;
	const char *why;
	int blocked = getenv("XSTAT_TEST_BLOCK") != NULL;

	(void)state;
	assert_non_null(th_mkdtemp(dir, sizeof(dir)));
	snprintf(file, sizeof(file), "%s/f", dir);
	assert_int_equal(mount("ramfs", dir, "ramfs", 0, NULL), 0);
	create(file);
	assert_int_equal(stat(file, &a), 0);
	assert_false(gen_of(file, 0, &g));	/* ramfs: none */
	assert_int_equal(umount(dir), 0);
	assert_int_equal(mount("tmpfs", dir, "tmpfs", 0, "size=1m"), 0);
	create(file);
	assert_int_equal(stat(file, &b), 0);
	print_message("  ramfs dev %u:%u, then tmpfs dev %u:%u\n",
		      major(a.st_dev), minor(a.st_dev), major(b.st_dev),
		      minor(b.st_dev));
	why = th_no_native_handles(file);
	if (why) {
		umount(dir);
		th_rmrf(dir);
		th_skip("tmpfs: its generation is in file handles: %s", why);
	}
	if (a.st_dev == b.st_dev && blocked)
		print_message("  (fallback: no mount ID to tell them apart)\n");
	else
		assert_true(gen_of(file, 0, &g));
	umount(dir);
	th_rmrf(dir);
}

static void test_root_fs(void **state)
{
	char dir[PATH_MAX];
	struct statfs sfs;

	(void)state;
	assert_non_null(th_mkdtemp(dir, sizeof(dir)));
	assert_int_equal(statfs(dir, &sfs), 0);
	if (sfs.f_type != EXT4_MAGIC) {
		th_rmrf(dir);
		th_skip("$TMPDIR is not on ext4");
	}
	check_against_lsattr(dir);
	th_rmrf(dir);
}

/*
 * Without arguments: the root filesystem and tmpfs, as any user.  With
 * --loop: loop-mounted ext4 and xfs images, which need root (else 77).
 */
int main(int argc, char **argv)
{
	const struct CMUnitTest local[] = {
		cmocka_unit_test_setup_teardown(test_root_fs,
			th_fds_setup, th_fds_teardown),
		cmocka_unit_test_setup_teardown(test_tmpfs,
			th_fds_setup, th_fds_teardown),
	};
	const struct CMUnitTest loop[] = {
		cmocka_unit_test_setup_teardown(test_ext4,
			th_fds_setup, th_fds_teardown),
		cmocka_unit_test_setup_teardown(test_xfs,
			th_fds_setup, th_fds_teardown),
		cmocka_unit_test_setup_teardown(test_dev_reuse,
			th_fds_setup, th_fds_teardown),
	};

	if (th_run(NULL, 0, "command -v lsattr >/dev/null") != 0) {
		fprintf(stderr, "SKIP: lsattr (e2fsprogs) is missing\n");
		return TH_SKIP;
	}
	if (argc > 1 && !strcmp(argv[1], "--loop")) {
		th_require_root();
		if (access("/dev/loop-control", F_OK)) {
			fprintf(stderr, "SKIP: no loop devices\n");
			return TH_SKIP;
		}
		th_block_from_env();
		return th_run_tests(loop);
	}
	th_block_from_env();
	return th_run_tests(local);
}
