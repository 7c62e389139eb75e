// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NTFS-3G's creation time (lib/probe_xattr.c) on an image made by mkntfs
 * and mounted by ntfs-3g (FUSE).  The oracle is attr's getfattr reading
 * "system.ntfs_crtime_be" - the same instant, big-endian, a name the
 * library never asks for - decoded here with the test's own arithmetic,
 * and the wall clock around each file's creation.  Regular file,
 * directory, symlink (not followed) and FIFO, by path and by descriptor,
 * as root and as nobody (the xattr needs no privilege), statx available
 * or blocked (XSTAT_TEST_BLOCK); with AT_NO_ATTR_SYNC the bit is cleared,
 * as reading the attribute costs a server round trip.  Root, /dev/fuse, mkntfs, ntfs-3g and
 * getfattr, else exit 77; 77 too where the attribute the library reads is
 * not in this program's byte order (no_native_crtime()).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define NFILES	4

struct file {
	char		path[PATH_MAX];
	int		reg;
	long long	sec;		/* oracle */
	unsigned long	nsec;
};

static char top[PATH_MAX], image[PATH_MAX], mnt[PATH_MAX];
static struct file files[NFILES];
static int mounted;

static int make(int i, const char *name)
{
	struct file *f = &files[i];
	struct timespec before, after;
	int fd, ret = 0;

	snprintf(f->path, sizeof(f->path), "%s/%s", mnt, name);
	clock_gettime(CLOCK_REALTIME, &before);
	switch (i) {
	case 0:
		f->reg = 1;
		fd = open(f->path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
			  0644);
		if (fd < 0)
			return -1;
		close(fd);
		break;
	case 1:
		ret = mkdir(f->path, 0755);
		break;
	case 2:
		ret = symlink("f", f->path);
		break;
	case 3:
		ret = mkfifo(f->path, 0644);
		break;
	}
	clock_gettime(CLOCK_REALTIME, &after);
	if (ret || th_ntfs_crtime(f->path, &f->sec, &f->nsec))
		return -1;
	/* The oracle is the creation instant, to the clock's coarseness. */
	if (f->sec < before.tv_sec - 1 || f->sec > after.tv_sec + 1)
		return -1;
	return 0;
}

static void cleanup(void)
{
	if (mounted)
		th_run(NULL, 0, "umount '%s' 2>/dev/null || umount -l '%s'",
		       mnt, mnt);
	mounted = 0;
	if (top[0])
		th_rmrf(top);
	top[0] = '\0';
}

static int prepare(void)
{
	static const char *names[NFILES] = { "f", "d", "l", "p" };
	int i;

	if (!th_mkdtemp(top, sizeof(top)) || chmod(top, 0755))
		return -1;
	snprintf(image, sizeof(image), "%s/image", top);
	snprintf(mnt, sizeof(mnt), "%s/mnt", top);
	if (mkdir(mnt, 0755) ||
	    th_run(NULL, 0, "truncate -s 16M '%s' && mkntfs -Q -F '%s' "
		   ">/dev/null 2>&1", image, image))
		return -1;
	/* FUSE may be missing or refused (containers): a skip. */
	if (th_run(NULL, 0, "ntfs-3g '%s' '%s' >/dev/null 2>&1", image, mnt))
		return TH_SKIP;
	mounted = 1;
	for (i = 0; i < NFILES; i++)
		if (make(i, names[i]))
			return -1;
	return 0;
}

static int check(const struct xstat *x, const struct file *f)
{
	return (x->st_result_mask & XSTAT_REQUEST_BTIME) &&
	       x->st_btim.tv_sec == f->sec &&
	       x->st_btim.tv_nsec == f->nsec &&
	       !(x->st_result_mask & XSTAT_REQUEST_DATA_VERSION) &&
	       x->st_data_version == 0;
}

/* 0, or the index + 1 of the first file whose creation time is wrong. */
static int run_all(void)
{
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };
	int i, fd, fds = th_count_fds();
	struct xstat x;

	for (i = 0; i < NFILES; i++) {
		memset(&x, 0xa5, sizeof(x));
		if (xstat(AT_FDCWD, files[i].path, AT_SYMLINK_NOFOLLOW, &p,
			  &x, sizeof(x)) != 152 || !check(&x, &files[i]))
			return i + 1;
		/* By descriptor: an open file, and an O_PATH one. */
		fd = open(files[i].path, (files[i].reg ? O_RDONLY : O_PATH) |
			  O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return 100 + i;
		memset(&x, 0xa5, sizeof(x));
		if (fxstat((unsigned)fd, 0, &p, &x, sizeof(x)) != 152 ||
		    !check(&x, &files[i])) {
			close(fd);
			return 110 + i;
		}
		close(fd);
	}
	/* The xattr is a server round trip, which AT_NO_ATTR_SYNC forbids. */
	memset(&x, 0xa5, sizeof(x));
	if (xstat(AT_FDCWD, files[0].path, AT_NO_ATTR_SYNC, &p, &x,
		  sizeof(x)) != 152 ||
	    (x.st_result_mask & XSTAT_REQUEST_BTIME) || x.st_btim.tv_sec)
		return 130;
	return th_count_fds() == fds ? 0 : 120;
}

static void as_root(void **state)
{
	(void)state;
	assert_int_equal(run_all(), 0);
}

static void as_nobody(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(99);
		_exit(run_all());
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * "system.ntfs_crtime" is in the byte order of the NTFS-3G server, the
 * library's source, which it reads in its own: the same where both run on
 * one machine.  NULL where this program reads @f's as the big-endian
 * attribute (the oracle) says, else why not (a server of the other byte
 * order, as under a user-mode emulator of another byte order: no source).
 */
static const char *no_native_crtime(const struct file *f)
{
	static char why[PATH_MAX + 200];
	unsigned long long want, v = 0;

	want = (unsigned long long)(f->sec + 11644473600LL) * 10000000ULL +
	       f->nsec / 100;
	if (lgetxattr(f->path, "system.ntfs_crtime", &v, sizeof(v)) !=
	    (ssize_t)sizeof(v))
		snprintf(why, sizeof(why), "no 8-byte system.ntfs_crtime of "
			 "%s: %s", f->path, strerror(errno));
	else if (v != want)
		snprintf(why, sizeof(why), "system.ntfs_crtime of %s reads "
			 "%#llx here, system.ntfs_crtime_be %#llx%s", f->path,
			 v, want, __builtin_bswap64(v) == want ? ": the "
			 "NTFS-3G server is of the other byte order than this "
			 "program" : "");
	else
		return NULL;
	return why;
}

/*
 * th_block_from_env() exits 77 where no filter can be installed (the
 * .eperm variant under qemu-user): the mount goes with the process.  Not
 * in a child that calls exit().
 */
static pid_t owner;

static void cleanup_at_exit(void)
{
	if (getpid() == owner)
		cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(as_root),
		cmocka_unit_test(as_nobody),
	};
	const char *why;
	int ret;

	th_require_root();
	if (access("/dev/fuse", R_OK | W_OK) ||
	    th_run(NULL, 0, "command -v mkntfs && command -v ntfs-3g && "
		   "command -v getfattr") != 0) {
		fprintf(stderr, "SKIP: no FUSE, ntfs-3g, mkntfs or getfattr\n");
		return TH_SKIP;
	}
	ret = prepare();
	if (ret) {
		fprintf(stderr, "%s\n", ret == TH_SKIP ?
			"SKIP: ntfs-3g cannot mount here" :
			"could not prepare the NTFS image");
		cleanup();
		return ret == TH_SKIP ? TH_SKIP : 1;
	}
	owner = getpid();
	atexit(cleanup_at_exit);
	why = no_native_crtime(&files[0]);
	if (why) {
		fprintf(stderr, "SKIP: %s\n", why);
		return TH_SKIP;
	}
	th_block_from_env();
	ret = th_run_tests(tests);
	cleanup();
	return ret;
}
