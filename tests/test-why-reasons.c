// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * XSTAT_REQUEST_WHY_MISSING under the real conditions that make a class
 * (3) field missing, each reason held against an oracle of the test's own
 * that sees the same condition without the library:
 *  - refused: a file on an ext4 whose block device even root cannot open
 *    (a container's device cgroup, this machine's root filesystem): the
 *    oracle opens the device named by sysfs itself and gets EPERM or
 *    EACCES as root; where the node is missing there, NO_DEVICE instead;
 *  - privilege: an ext4 loop image, the file asked by nobody
 *    (setresuid in a child), whose own open of the loop device fails;
 *    as root the same data version is there;
 *  - no_device: the same image seen from a mount namespace whose /dev is
 *    an empty tmpfs (as in a bare chroot): the oracle finds no node;
 *  - kernel: statx blocked by a seccomp filter, a file on tmpfs, whose
 *    creation time statx reported before the filter (so the file has one:
 *    only the interface is missing);
 *  - no_source: tmpfs keeps no data version; an ext4 image of 128-byte
 *    inodes (dumpe2fs says so) read raw, statx blocked, as root: the inode
 *    has no room for a creation time and i_version is not kept, for a
 *    call and for each entry of a directory stream (its raw batch);
 *  - unverified: the inode's checksum spoilt through the device node
 *    (debugfs says it does not match): read, but not proven this file's.
 * Loop images, namespaces and seccomp need root and the tools: each test
 * skips with its reason when it cannot run.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <cmocka.h>
#include <xstat.h>
#include "testhelp.h"

#define NOBODY		65534
#define TMPFS_MAGIC	0x01021994

static const char *const names[] = {
	"present", "not_requested", "unknown", "no_source", "privilege",
	"refused", "kernel", "no_sync", "unverified", "no_device",
};

static const char *name_of(unsigned code)
{
	return code < sizeof(names) / sizeof(names[0]) ? names[code] : "?";
}

/*
 * The reasons for @request's class (3) fields of @path into @w; 0, or -1
 * (said on stdout).
 */
static int reasons(const char *path, unsigned long long request,
		   struct xstat_why_missing *w, unsigned long long *mask)
{
	struct xstat_parameters p = { request | XSTAT_REQUEST_WHY_MISSING };
	const struct xstat_why_missing *got;
	union xstat_buffer b;
	ssize_t n;

	n = xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p, &b.x, sizeof(b));
	if (n < 0) {
		printf("FAIL: xstat %s: %s\n", path, strerror(errno));
		return -1;
	}
	got = xstat_extra_why_missing(&b.x, (size_t)n);
	if (!got) {
		printf("FAIL: %s: no reasons in the result\n", path);
		return -1;
	}
	*w = *got;
	*mask = b.x.st_result_mask;
	printf("%s: btime %s, gen %s, data_version %s\n", path,
	       name_of(w->btime), name_of(w->gen), name_of(w->data_version));
	fflush(stdout);		/* a child exits without flushing */
	return 0;
}

/* One field's reason against the oracle's: 0, else 1 (said). */
static int expect(const char *what, unsigned got, unsigned want)
{
	if (got == want)
		return 0;
	printf("FAIL: %s: reason %s (%u), the oracle says %s (%u)\n", what,
	       name_of(got), got, name_of(want), want);
	fflush(stdout);
	return 1;
}

/* The /dev node sysfs names for the device @dev, into @node; 0 or -1. */
static int node_of(dev_t dev, char *node, size_t len)
{
	char out[256], *name;

	if (th_run(out, sizeof(out), "grep '^DEVNAME=' "
		   "/sys/dev/block/%u:%u/uevent 2>/dev/null",
		   major(dev), minor(dev)))
		return -1;
	name = out + strlen("DEVNAME=");
	th_pathf(node, len, "/dev/%s", name);
	return 0;
}

/* The type of the mount @path is on, "" if findmnt cannot tell. */
static void fs_type(const char *path, char *type, size_t len)
{
	/* The last line: the mount on top where several are stacked. */
	if (th_run(type, len, "findmnt -n -o FSTYPE -T '%s' 2>/dev/null | "
		   "tail -n 1", path))
		type[0] = '\0';
}

static char tmp[256];

/* A regular file in @dir, into @file; 0 or -1. */
static int make_file(const char *dir, char *file, size_t len)
{
	int fd;

	th_pathf(file, len, "%s/file", dir);
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "x", 1) != 1) {
		printf("FAIL: %s: %s\n", file, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * Root, a file under $TMPDIR: if that is ext4 on a device root cannot
 * open, the data version is REFUSED; if its node is not in /dev,
 * NO_DEVICE.
 */
static void test_refused(void **state)
{
	char file[300], type[64], node[300];
	struct xstat_why_missing w;
	unsigned long long mask;
	struct stat sb;
	unsigned want = 0;
	int fd;

	(void)state;
	if (geteuid() != 0)
		th_skip("not root: a refusal to root is what is tested");
	assert_int_equal(make_file(tmp, file, sizeof(file)), 0);
	fs_type(file, type, sizeof(type));
	if (strcmp(type, "ext4"))
		th_skip("$TMPDIR is on %s, not ext4", type[0] ? type : "?");
	assert_int_equal(stat(file, &sb), 0);
	if (node_of(sb.st_dev, node, sizeof(node)))
		th_skip("sysfs does not name the device of %s", file);
	fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd >= 0) {
		close(fd);
		th_skip("root opens %s here: nothing refuses it", node);
	}
	if (errno == EPERM || errno == EACCES)
		want = XSTAT_WHY_REFUSED;
	else if (errno == ENOENT)
		want = XSTAT_WHY_NO_DEVICE;
	else
		th_skip("%s: %s", node, strerror(errno));
	printf("oracle: root's open of %s: %s\n", node, strerror(errno));
	assert_int_equal(reasons(file, XSTAT_REQUEST__EXTENDED_STATS |
				 XSTAT_REQUEST_DATA_VERSION, &w, &mask), 0);
	assert_false(mask & XSTAT_REQUEST_DATA_VERSION);
	assert_int_equal(expect("data_version", w.data_version, want), 0);
}

static struct th_loop loop;
static char loop_file[300];

/* An ext4 image (256-byte inodes: i_version kept) with a file on it. */
static void mount_ext4(const char *mkfs)
{
	char parent[256];

	th_loop_mount_test(&loop, 16, mkfs, NULL);
	/* nobody reaches the file; the device is root's, as a disk is */
	th_pathf(parent, sizeof(parent), "%s", loop.mnt);
	*strrchr(parent, '/') = '\0';
	if (make_file(loop.mnt, loop_file, sizeof(loop_file)) ||
	    chmod(parent, 0711) || chmod(loop.mnt, 0755) ||
	    chmod(loop.dev, 0660))
		fail_msg("cannot make the file on the image");
}

static int as_nobody(void *arg)
{
	struct xstat_why_missing w;
	unsigned long long mask;
	int fd;

	(void)arg;
	if (setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY)) {
		fprintf(stderr, "SKIP: cannot become nobody: %s\n",
			strerror(errno));
		return TH_SKIP;
	}
	fd = open(loop.dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		close(fd);
		fprintf(stderr, "SKIP: nobody opens %s here\n", loop.dev);
		return TH_SKIP;
	}
	printf("oracle: nobody's open of %s: %s\n", loop.dev, strerror(errno));
	if (reasons(loop_file, XSTAT_REQUEST__EXTENDED_STATS |
		    XSTAT_REQUEST_DATA_VERSION, &w, &mask))
		return 1;
	if (mask & XSTAT_REQUEST_DATA_VERSION) {
		printf("FAIL: nobody got a data version\n");
		return 1;
	}
	return expect("data_version", w.data_version, XSTAT_WHY_PRIVILEGE);
}

static void test_privilege(void **state)
{
	struct xstat_why_missing w;
	unsigned long long mask;

	(void)state;
	mount_ext4("mkfs.ext4 -q -F -I 256 %s");
	/* Root reads it: the value exists, only the privilege lacks. */
	assert_int_equal(reasons(loop_file, XSTAT_REQUEST__EXTENDED_STATS |
				 XSTAT_REQUEST_DATA_VERSION, &w, &mask), 0);
	assert_true(mask & XSTAT_REQUEST_DATA_VERSION);
	assert_int_equal(w.data_version, XSTAT_WHY_PRESENT);
	th_in_child(as_nobody, NULL, "cannot test as nobody here");
	th_loop_umount(&loop);
}

/* /dev an empty tmpfs, in a mount namespace of this child's own. */
static int without_dev(void *arg)
{
	struct xstat_why_missing w;
	unsigned long long mask;
	struct stat sb;

	(void)arg;
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("none", "/dev", "tmpfs", 0, "size=64k")) {
		fprintf(stderr, "SKIP: no mount namespace with its own /dev: "
			"%s\n", strerror(errno));
		return TH_SKIP;
	}
	if (stat(loop.dev, &sb) == 0 || errno != ENOENT) {
		printf("FAIL: %s still there\n", loop.dev);
		return 1;
	}
	printf("oracle: stat %s: %s\n", loop.dev, strerror(errno));
	if (reasons(loop_file, XSTAT_REQUEST__EXTENDED_STATS |
		    XSTAT_REQUEST_DATA_VERSION, &w, &mask))
		return 1;
	if (mask & XSTAT_REQUEST_DATA_VERSION) {
		printf("FAIL: a data version without the device\n");
		return 1;
	}
	return expect("data_version", w.data_version, XSTAT_WHY_NO_DEVICE);
}

static void test_no_device(void **state)
{
	(void)state;
	mount_ext4("mkfs.ext4 -q -F -I 256 %s");
	th_in_child(without_dev, NULL, "no mount namespace here");
	th_loop_umount(&loop);
}

/* A file asked with statx blocked, and the reasons its fields must give. */
struct blocked_case {
	const char *file;
	const char *what;	/* what the file is, for the message */
	unsigned btime, data_version;
};

/* In a child: statx blocked, neither field, each with its reason. */
static int statx_blocked(void *arg)
{
	const struct blocked_case *c = arg;
	struct xstat_why_missing w;
	unsigned long long mask;
	int bad = 0;

	if (th_block_statx(ENOSYS)) {
		fprintf(stderr, "SKIP: no seccomp filter here\n");
		return TH_SKIP;
	}
	if (reasons(c->file, XSTAT_REQUEST__EXTENDED_STATS |
		    XSTAT_REQUEST_DATA_VERSION, &w, &mask))
		return 1;
	if (mask & (XSTAT_REQUEST_BTIME | XSTAT_REQUEST_DATA_VERSION)) {
		printf("FAIL: fields %s: %#llx\n", c->what, mask);
		return 1;
	}
	bad |= expect("btime", w.btime, c->btime);
	bad |= expect("data_version", w.data_version, c->data_version);
	return bad;
}

static void test_kernel(void **state)
{
	char dir[300], file[320];
	struct blocked_case c = { file, "without statx on tmpfs",
				  XSTAT_WHY_KERNEL, XSTAT_WHY_NO_SOURCE };
	struct statfs sfs;
	struct statx sx;
	int mounted = 0;

	(void)state;
	th_pathf(dir, sizeof(dir), "%s/tmpfs", tmp);
	assert_int_equal(mkdir(dir, 0755), 0);
	if (geteuid() == 0 && mount("none", dir, "tmpfs", 0, "size=64k") == 0)
		mounted = 1;
	else
		th_pathf(dir, sizeof(dir), "/dev/shm");
	if (!mounted && (statfs(dir, &sfs) || sfs.f_type != TMPFS_MAGIC ||
			 access(dir, W_OK)))
		th_skip("no tmpfs to write to (not root, /dev/shm not one "
			"or not writable)");
	th_pathf(file, sizeof(file), "%s/why-reasons.%d", dir, (int)getpid());
	if (close(open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0644)))
		fail_msg("%s: %s", file, strerror(errno));
	if (statx(AT_FDCWD, file, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) ||
	    !(sx.stx_mask & STATX_BTIME)) {
		unlink(file);
		if (mounted)
			umount(dir);
		th_skip("this kernel's statx gives no tmpfs creation time");
	}
	printf("oracle: glibc statx gives %s a creation time\n", file);
	th_in_child(statx_blocked, &c, "no seccomp filter here");
	unlink(file);
	if (mounted)
		assert_int_equal(umount(dir), 0);
}

/*
 * A directory stream of @dir (its raw batches where it reads them): each
 * entry's data version missing with the reason @want, as a call gives it
 * (files made here until there are enough for a batch).  0, else 1.
 */
static int stream_reasons(const char *dir, unsigned want)
{
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS |
				      XSTAT_REQUEST_WHY_MISSING };
	const struct xstat_why_missing *w;
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	char path[320];
	int i, bad = 0, n = 0;

	for (i = 0; i < 64; i++) {
		th_pathf(path, sizeof(path), "%s/s%d", dir, i);
		if (close(open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644)))
			return 1;
	}
	d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	if (!d) {
		printf("FAIL: xstat_opendir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((e = xstat_readdir(d))) {
		if (e->d_error)
			continue;
		w = xstat_extra_why_missing(e->d_xstat, e->d_xstat_len);
		if (!w || (e->d_xstat->st_result_mask &
			   XSTAT_REQUEST_DATA_VERSION)) {
			printf("FAIL: stream entry %s: %s\n", e->d_name,
			       w ? "a data version" : "no reasons");
			bad = 1;
			continue;
		}
		n++;
		if (w->data_version != want) {
			printf("FAIL: stream entry %s: reason %s, want %s\n",
			       e->d_name, name_of(w->data_version),
			       name_of(want));
			bad = 1;
		}
	}
	xstat_closedir(d);
	printf("stream of %s: %d entries, data_version %s\n", dir, n,
	       bad ? "wrong" : name_of(want));
	return bad || n < 64;
}

static void test_no_source_small_inodes(void **state)
{
	struct blocked_case c = { loop_file, "from a 128-byte inode",
				  XSTAT_WHY_NO_SOURCE, XSTAT_WHY_NO_SOURCE };
	char out[64];
	const char *why;
	int fd;

	(void)state;
	mount_ext4("mkfs.ext4 -q -F -I 128 %s");
	if (th_run(out, sizeof(out), "dumpe2fs -h %s 2>/dev/null | "
		   "sed -n 's/^Inode size:[[:space:]]*//p'", loop.dev) ||
	    strcmp(out, "128")) {
		th_loop_umount(&loop);
		th_skip("dumpe2fs cannot tell the inode size");
	}
	/* The raw read is possible: the reason is the inode's. */
	why = th_no_ext4_reader();
	fd = open(loop.dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (why || fd < 0) {
		th_loop_umount(&loop);
		th_skip("%s", why ? why : "root cannot open the loop device");
	}
	close(fd);
	printf("oracle: dumpe2fs: inode size 128\n");
	th_in_child(statx_blocked, &c, "no seccomp filter here");
	assert_int_equal(stream_reasons(loop.mnt, XSTAT_WHY_NO_SOURCE), 0);
	th_loop_umount(&loop);
}

/*
 * Root, ext4 with metadata_csum: the file's inode checksum spoilt through
 * the device node (the mounted ext4 keeps its in-memory inode and goes on
 * working; the raw read sees the device's page cache): the data version
 * is read but fails its checks.  Oracle: debugfs, reading the same
 * device, says the checksum does not match.  The byte is put back.
 */
static void test_unverified(void **state)
{
	char out[512], *p;
	struct xstat_why_missing w;
	unsigned long long mask, block = 0, offset = 0;
	unsigned char byte, spoilt;
	struct stat sb;
	off_t at;
	int fd, ok;

	(void)state;
	mount_ext4("mkfs.ext4 -q -F -b 4096 -I 256 -O metadata_csum %s");
	if (th_no_ext4_reader()) {
		th_loop_umount(&loop);
		th_skip("%s", th_no_ext4_reader());
	}
	assert_int_equal(stat(loop_file, &sb), 0);
	sync();
	if (th_run(out, sizeof(out), "debugfs -R 'imap <%llu>' %s 2>/dev/null",
		   (unsigned long long)sb.st_ino, loop.dev) ||
	    !(p = strstr(out, "located at block ")) ||
	    sscanf(p, "located at block %llu, offset %llx", &block,
		   &offset) != 2) {
		th_loop_umount(&loop);
		th_skip("debugfs cannot locate the inode");
	}
	/* l_i_checksum_lo (osd2): 0x7c into the inode; blocks of 4 KiB. */
	at = (off_t)(block * 4096 + offset + 0x7c);
	fd = open(loop.dev, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &byte, 1, at), 1);
	spoilt = (unsigned char)(byte ^ 0xff);
	assert_int_equal(pwrite(fd, &spoilt, 1, at), 1);
	assert_int_equal(fsync(fd), 0);
	ok = th_run(out, sizeof(out), "debugfs -R 'stat <%llu>' %s 2>&1 | "
		    "grep -ci 'checksum does not match'",
		    (unsigned long long)sb.st_ino, loop.dev) == 0;
	if (ok) {
		printf("oracle: debugfs: the inode checksum does not match\n");
		ok = reasons(loop_file, XSTAT_REQUEST__EXTENDED_STATS |
			     XSTAT_REQUEST_DATA_VERSION, &w, &mask) == 0 &&
		     !(mask & XSTAT_REQUEST_DATA_VERSION) &&
		     expect("data_version", w.data_version,
			    XSTAT_WHY_UNVERIFIED) == 0;
		if (!ok)
			printf("FAIL: data version %s\n",
			       mask & XSTAT_REQUEST_DATA_VERSION ? "returned" :
			       "missing for another reason");
	} else {
		printf("debugfs did not see the checksum spoilt: %s\n", out);
	}
	assert_int_equal(pwrite(fd, &byte, 1, at), 1);
	close(fd);
	th_loop_umount(&loop);
	assert_true(ok);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_privilege),
		cmocka_unit_test(test_no_device),
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_no_source_small_inodes),
		cmocka_unit_test(test_unverified),
	};
	char dir[300];
	int ret;

	if (!th_mkdtemp(tmp, sizeof(tmp))) {
		perror("mkdtemp");
		return 1;
	}
	ret = th_run_tests(tests);
	th_pathf(dir, sizeof(dir), "%s/tmpfs", tmp);
	umount2(dir, MNT_DETACH);	/* left by a failed test_kernel */
	th_rmrf(tmp);
	return ret;
}
