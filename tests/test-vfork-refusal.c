// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A child made by vfork(), or by clone(CLONE_VM | CLONE_VFORK), runs on
 * its parent's memory, thread-local storage included, but has a seccomp
 * filter of its own.  Such a child installs a filter refusing statx
 * (EPERM), calls xstat() and exits; the parent, which has no filter,
 * must then get the answers it got before, which are glibc's statx()
 * and an unfiltered process's: the creation time included (tmpfs as
 * root, a mount of its own; else $TMPDIR), by path, by descriptor and
 * through a directory stream.  Exit 77 without seccomp or a creation
 * time from statx, and under a sanitizer, which does not model vfork.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define SANITIZED	1
#endif
#endif

#define REQUEST		(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME)

static char base[256], dir[300], path[400];
static int mounted;
static struct statx oracle;		/* glibc, no filter */
static struct xstat before;		/* this process, before any child */

/* What the child tells: 0 answered, 2 no filter could be installed. */
enum { CHILD_OK, CHILD_FAILED, CHILD_NO_SECCOMP };

/*
 * The child's work, on its parent's memory: a filter refusing every
 * statx, then the calls (@calls of them: by path, then by descriptor).
 * Nothing but system calls and the library: no stdio, no exit().
 */
static int filtered_calls(int calls)
{
	static const struct th_arg_rule every = { 0, 0, 0, 1 };
	struct xstat_parameters p = { REQUEST };
	struct xstat x;
	int fd, ok = 1;

	if (th_refuse_statx_when(&every, EPERM, NULL))
		return CHILD_NO_SECCOMP;
	ok &= xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x)) >= 0 &&
	      x.st_ino == oracle.stx_ino;
	if (calls > 1) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ok &= fd >= 0 && fxstat(fd, 0, &p, &x, sizeof(x)) >= 0 &&
		      x.st_ino == oracle.stx_ino;
		ok &= xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x)) >= 0;
		if (fd >= 0)
			close(fd);
	}
	return ok ? CHILD_OK : CHILD_FAILED;
}

static int child_status(pid_t pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, __WALL) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int same_time(const struct xstat_time *a,
		     const struct statx_timestamp *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* One answer of the parent's against before and the oracle: 0, or 1. */
static int check(const struct xstat *x, ssize_t len, const char *how)
{
	if (len < 0) {
		fprintf(stderr, "FAIL: parent's %s: %s\n", how,
			strerror(errno));
		return 1;
	}
	if (x->st_result_mask != before.st_result_mask ||
	    x->st_ino != oracle.stx_ino || x->st_mode != oracle.stx_mode ||
	    !(x->st_result_mask & XSTAT_REQUEST_BTIME) ||
	    !same_time(&x->st_btim, &oracle.stx_btime)) {
		fprintf(stderr, "FAIL: parent's %s after the child: mask "
			"%#llx (before %#llx), %s\n", how,
			(unsigned long long)x->st_result_mask,
			(unsigned long long)before.st_result_mask,
			x->st_result_mask & XSTAT_REQUEST_BTIME ?
			"a creation time not the file's" :
			"no creation time");
		return 1;
	}
	return 0;
}

/* The parent's answers, after the child, by path, fd and stream. */
static int parent_unchanged(void)
{
	struct xstat_parameters p = { REQUEST };
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	struct xstat x;
	int failed, fd, seen = 0;

	failed = check(&x, xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x)),
		       "xstat");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	failed |= check(&x, fxstat(fd, 0, &p, &x, sizeof(x)), "fxstat");
	close(fd);
	d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	if (!d)
		return 1;
	while ((e = xstat_readdir(d)))
		if (!strcmp(e->d_name, "f")) {
			seen = 1;
			errno = e->d_error;
			failed |= check(e->d_xstat, e->d_error ? -1 :
					(ssize_t)e->d_xstat_len, "stream");
		}
	xstat_closedir(d);
	return failed || !seen;
}

static void verdict(int child)
{
	if (child == CHILD_NO_SECCOMP)
		th_skip("cannot install a seccomp filter");
	if (child != CHILD_OK)
		fprintf(stderr, "FAIL: the filtered child's xstat(): %d\n",
			child);
	assert_int_equal(child, CHILD_OK);
	assert_int_equal(parent_unchanged(), 0);
}

static void test_vfork(void **state)
{
	pid_t pid;

	(void)state;
	pid = vfork();
	if (pid == 0)
		_exit(filtered_calls(1));
	verdict(child_status(pid));
}

static int clone_child(void *arg)
{
	(void)arg;
	_exit(filtered_calls(3));
}

static void test_clone_vm_vfork(void **state)
{
	static char stack[256 * 1024] __attribute__((aligned(16)));
	pid_t pid;

	(void)state;
	pid = clone(clone_child, stack + sizeof(stack),
		    CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	verdict(child_status(pid));
}

static int setup(void)
{
	struct xstat_parameters p = { REQUEST };
	int fd;

	if (!th_mkdtemp(base, sizeof(base)))
		return -1;
	th_pathf(dir, sizeof(dir), "%s/t", base);
	if (mkdir(dir, 0755))
		return -1;
	if (geteuid() == 0 &&
	    mount("tmpfs", dir, "tmpfs", 0, "size=1m,mode=0755") == 0)
		mounted = 1;
	fprintf(stderr, "file on %s\n", mounted ? "a tmpfs" : "$TMPDIR");
	th_pathf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	if (statx(AT_FDCWD, path, 0, STATX_BASIC_STATS | STATX_BTIME,
		  &oracle) || !(oracle.stx_mask & STATX_BTIME))
		return TH_SKIP;
	/* statx known to work in this process before any child runs */
	if (xstat(AT_FDCWD, path, 0, &p, &before, sizeof(before)) < 0 ||
	    !(before.st_result_mask & XSTAT_REQUEST_BTIME))
		return -1;
	return 0;
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vfork),
		cmocka_unit_test(test_clone_vm_vfork),
	};
	int ret;

#ifdef SANITIZED
	fprintf(stderr, "SKIP: a sanitizer does not model vfork\n");
	return TH_SKIP;
#endif
	ret = setup();
	if (ret == 0)
		ret = th_run_tests(tests);
	else if (ret == TH_SKIP)
		fprintf(stderr, "SKIP: no creation time from statx here\n");
	else
		perror("scratch file");
	if (mounted)
		umount2(dir, MNT_DETACH);
	th_rmrf(base);
	return ret < 0 ? 1 : ret;
}
