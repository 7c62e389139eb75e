// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Sandboxes whose seccomp filter looks at statx's arguments.  Two real
 * filters, each in a child of its own:
 *
 *   sync:  EPERM only when the flags have AT_STATX_FORCE_SYNC;
 *   dirfd: ENOSYS only when dirfd is not AT_FDCWD.
 *
 * Under each, xstat() by path and by directory descriptor, fxstat() and
 * a directory stream (pinned to its plain system calls: a ring's statx
 * passes no filter), with and without AT_FORCE_ATTR_SYNC, twice over.
 * Every call must succeed (a refused shape gets the fallback's answer,
 * never the refusal's errno) with the fields of glibc's statx() taken
 * without a filter; a shape the filter allows must keep statx's answer,
 * the creation time included, also after refusals of other shapes.
 * Where the test can count (SECCOMP_RET_TRAP with a handler that sets
 * the return register: x86_64, i386), the second round must make no
 * refused statx at all.  On tmpfs as root (a mount of its own), else in
 * $TMPDIR; exit 77 without seccomp or a creation time from statx.
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
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/ucontext.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#if defined(__x86_64__) && !defined(__ILP32__)
#define RET_REG		REG_RAX
#elif defined(__i386__)
#define RET_REG		REG_EAX
#endif

#define REQUEST		(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME)
#define ORACLE_MASK	(STATX_BASIC_STATS | STATX_BTIME)

static char base[256], dir[300];
static int mounted;
static const char *const names[] = { "f", "d", "l" };
#define NNAMES	(sizeof(names) / sizeof(names[0]))
static struct statx oracle[NNAMES];

struct filter {
	const char		*name;
	struct th_arg_rule	rule;
	int			err;
	/* does this filter let a call of this shape through? */
	int			(*allows)(int at_fdcwd, unsigned flags);
};

static int sync_allows(int at_fdcwd, unsigned flags)
{
	(void)at_fdcwd;
	return !(flags & AT_FORCE_ATTR_SYNC);
}

static int dirfd_allows(int at_fdcwd, unsigned flags)
{
	(void)flags;
	return at_fdcwd;
}

static const struct filter filters[] = {
	{ "sync", { 2, AT_STATX_FORCE_SYNC, AT_STATX_FORCE_SYNC, 1 }, EPERM,
	  sync_allows },
	{ "dirfd", { 0, 0xffffffffU, (uint32_t)AT_FDCWD, 0 }, ENOSYS,
	  dirfd_allows },
};

static const struct filter *cur;
static volatile unsigned long trapped;	/* refused statx (trap mode) */

#ifdef RET_REG
static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	trapped++;
	uc->uc_mcontext.gregs[RET_REG] = -cur->err;
}
#endif

static int same_time(const struct xstat_time *a,
		     const struct statx_timestamp *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/*
 * One answer against the unfiltered oracle of names[@i]: 0, or 1 (said).
 * @allowed: the filter let this shape through, so statx's creation time
 * must be there.
 */
static int check(const struct xstat *x, ssize_t len, size_t i, int allowed,
		 const char *how, unsigned flags)
{
	const struct statx *o = &oracle[i];
	unsigned long long m;

	if (len < 0) {
		fprintf(stderr, "FAIL: %s %s, flags %#x: %s\n", how, names[i],
			flags, strerror(errno));
		return 1;
	}
	m = x->st_result_mask;
	if (!(m & XSTAT_REQUEST_INO) || x->st_ino != o->stx_ino ||
	    !(m & XSTAT_REQUEST_MODE) || x->st_mode != o->stx_mode ||
	    !(m & XSTAT_REQUEST_NLINK) || x->st_nlink != o->stx_nlink ||
	    !(m & XSTAT_REQUEST_SIZE) || x->st_size != o->stx_size ||
	    x->st_uid != o->stx_uid || x->st_gid != o->stx_gid ||
	    !(m & XSTAT_REQUEST_MTIME) ||
	    !same_time(&x->st_mtim, &o->stx_mtime)) {
		fprintf(stderr, "FAIL: %s %s, flags %#x: mask %#llx, ino "
			"%llu/%llu, mode %o/%o, size %llu/%llu\n", how,
			names[i], flags, m, (unsigned long long)x->st_ino,
			(unsigned long long)o->stx_ino, (unsigned)x->st_mode,
			(unsigned)o->stx_mode, (unsigned long long)x->st_size,
			(unsigned long long)o->stx_size);
		return 1;
	}
	if ((m & XSTAT_REQUEST_BTIME) ?
	    !same_time(&x->st_btim, &o->stx_btime) : allowed) {
		fprintf(stderr, "FAIL: %s %s, flags %#x (%s): %s\n", how,
			names[i], flags, allowed ? "allowed" : "refused",
			m & XSTAT_REQUEST_BTIME ? "a creation time not the "
			"file's" : "statx's creation time lost");
		return 1;
	}
	return 0;
}

static int by_path(unsigned flags, size_t i)
{
	struct xstat_parameters p = { REQUEST };
	union xstat_buffer b;
	char path[400];

	th_pathf(path, sizeof(path), "%s/%s", dir, names[i]);
	return check(&b.x, xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW | flags,
				 &p, &b.x, sizeof(b)),
		     i, cur->allows(1, flags), "xstat(AT_FDCWD)", flags);
}

static int by_dirfd(unsigned flags, size_t i, int dfd)
{
	struct xstat_parameters p = { REQUEST };
	union xstat_buffer b;

	return check(&b.x, xstat(dfd, names[i], AT_SYMLINK_NOFOLLOW | flags,
				 &p, &b.x, sizeof(b)),
		     i, cur->allows(0, flags), "xstat(dirfd)", flags);
}

static int by_fd(unsigned flags, size_t i)
{
	struct xstat_parameters p = { REQUEST };
	union xstat_buffer b;
	char path[400];
	ssize_t r;
	int fd;

	th_pathf(path, sizeof(path), "%s/%s", dir, names[i]);
	fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "FAIL: open %s: %s\n", path, strerror(errno));
		return 1;
	}
	r = fxstat(fd, flags, &p, &b.x, sizeof(b));
	close(fd);
	return check(&b.x, r, i, cur->allows(0, flags), "fxstat", flags);
}

static int stream(unsigned flags)
{
	struct xstat_parameters p = { REQUEST };
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	size_t i, seen = 0;
	int failed = 0;

	d = xstat_opendir(AT_FDCWD, dir, flags, &p);
	if (!d) {
		fprintf(stderr, "FAIL: stream, flags %#x: %s\n", flags,
			strerror(errno));
		return 1;
	}
	while ((e = xstat_readdir(d))) {
		for (i = 0; i < NNAMES; i++)
			if (!strcmp(e->d_name, names[i]))
				break;
		if (i == NNAMES)
			continue;
		seen++;
		if (e->d_error) {
			errno = e->d_error;
			failed |= check(NULL, -1, i, 0, "stream", flags);
			continue;
		}
		failed |= check(e->d_xstat, (ssize_t)e->d_xstat_len, i,
				cur->allows(0, flags), "stream", flags);
	}
	xstat_closedir(d);
	if (seen != NNAMES) {
		fprintf(stderr, "FAIL: stream, flags %#x: %zu entries\n",
			flags, seen);
		failed = 1;
	}
	return failed;
}

/* Every way of asking, refused shapes first: 0, or 1. */
static int round_of_calls(int dfd)
{
	static const unsigned sync[] = { AT_FORCE_ATTR_SYNC, 0 };
	int failed = 0;
	size_t s, i;

	for (s = 0; s < 2; s++) {
		for (i = 0; i < NNAMES; i++) {
			failed |= by_fd(sync[s], i);
			failed |= by_dirfd(sync[s], i, dfd);
		}
		failed |= stream(sync[s]);
		for (i = 0; i < NNAMES; i++)
			failed |= by_path(sync[s], i);
	}
	return failed;
}

/* In a child: arg[0] the filter, arg[1] 1 to count by trapping. */
static int run_filter(void *arg)
{
	const int *a = arg;
	unsigned long learn;
	int failed, dfd;

	cur = &filters[a[0]];
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 1;
#ifdef RET_REG
	if (th_refuse_statx_when(&cur->rule, cur->err,
				 a[1] ? on_sigsys : NULL))
		return TH_SKIP;
#else
	if (a[1] || th_refuse_statx_when(&cur->rule, cur->err, NULL))
		return TH_SKIP;
#endif
	failed = round_of_calls(dfd);
	learn = trapped;
	trapped = 0;
	failed |= round_of_calls(dfd);
	close(dfd);
	if (!a[1])
		return failed;
	fprintf(stderr, "%s filter: %lu refused statx in the first round, "
		"%lu in the second\n", cur->name, learn, trapped);
	if (!learn) {
		fprintf(stderr, "FAIL: the filter refused nothing\n");
		failed = 1;
	}
	if (trapped) {
		fprintf(stderr, "FAIL: refused statx in the steady state\n");
		failed = 1;
	}
	return failed;
}

static void check_filter(int which, int count)
{
	int arg[2] = { which, count };

	th_in_child(run_filter, arg, count ?
		    "no seccomp, or no SIGSYS return register here" :
		    "seccomp is unavailable here");
}

static void test_sync_filter(void **state)
{
	(void)state;
	check_filter(0, 0);
}

static void test_dirfd_filter(void **state)
{
	(void)state;
	check_filter(1, 0);
}

static void test_sync_filter_count(void **state)
{
	(void)state;
	check_filter(0, 1);
}

static void test_dirfd_filter_count(void **state)
{
	(void)state;
	check_filter(1, 1);
}

/* Scratch files, on a tmpfs of their own where this may mount. */
static int setup_files(void)
{
	char path[400];
	size_t i;
	int fd;

	if (!th_mkdtemp(base, sizeof(base)))
		return -1;
	th_pathf(dir, sizeof(dir), "%s/t", base);
	if (mkdir(dir, 0755))
		return -1;
	if (geteuid() == 0 &&
	    mount("tmpfs", dir, "tmpfs", 0, "size=1m,mode=0755") == 0)
		mounted = 1;
	fprintf(stderr, "files on %s\n", mounted ? "a tmpfs" : "$TMPDIR");
	th_pathf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	if (fd < 0 || write(fd, "0123456789", 10) != 10)
		return -1;
	close(fd);
	th_pathf(path, sizeof(path), "%s/d", dir);
	if (mkdir(path, 0750))
		return -1;
	th_pathf(path, sizeof(path), "%s/l", dir);
	if (symlink("f", path))
		return -1;
	for (i = 0; i < NNAMES; i++) {
		th_pathf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, ORACLE_MASK,
			  &oracle[i]))
			return -1;
		if ((oracle[i].stx_mask & ORACLE_MASK) != ORACLE_MASK)
			return TH_SKIP;
	}
	return 0;
}

static void cleanup(void)
{
	if (mounted)
		umount2(dir, MNT_DETACH);
	th_rmrf(base);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_filter),
		cmocka_unit_test(test_dirfd_filter),
		cmocka_unit_test(test_sync_filter_count),
		cmocka_unit_test(test_dirfd_filter_count),
	};
	int ret;

	/*
	 * A stream's entries by plain system calls only: a ring's statx
	 * is seen by no filter, so a stream that read ahead through one
	 * would test nothing here.
	 */
	if (setenv("LIBXSTAT_URING", "never", 1))
		return 1;
	ret = setup_files();
	if (ret) {
		if (ret == TH_SKIP)
			fprintf(stderr, "SKIP: no creation time from statx "
				"here\n");
		else
			perror("scratch files");
		cleanup();
		return ret == TH_SKIP ? TH_SKIP : 1;
	}
	ret = th_run_tests(tests);
	cleanup();
	return ret;
}
