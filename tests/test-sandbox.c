// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A sandbox that refuses statx is learned once per thread.  A real
 * seccomp filter traps statx (SECCOMP_RET_TRAP): the SIGSYS handler
 * counts the attempt in the trapping thread and makes the call return
 * ENOSYS, EPERM, or a faked success (0, nothing written).  The first
 * refused call and its probe teach the thread that shape of call (dirfd
 * AT_FDCWD or not, and the flags); a sweep of every request class, by
 * path, by descriptor and through a directory stream, learns each other
 * shape it meets with at most one call and one probe, and a second sweep
 * must make no statx at all.  Every answer is the fallback's, checked
 * against lstat() (newfstatat, which the filter lets through).
 *
 * Also: a thread without the filter keeps statx's answer (the creation
 * time, where only statx has it); a filter installed after statx worked
 * is learned at the next call; a filter that inspects the arguments
 * (refusing only requests with STATX_BTIME) gives each call one backend's
 * whole answer, never a creation time that is not the file's.  Each case
 * in a child.  Every ABI of seccomp-arch.h (the handler sets the return
 * register); exit 77 where no filter can be installed.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#include "seccomp-arch.h"

#define STATX_BTIME_	0x800U
#define FAKE		(-1)	/* a success that writes nothing */

static char dir[300];
static const char *const names[] = { "f", "d", "l", "p" };
#define NNAMES	(sizeof(names) / sizeof(names[0]))

static int refusal;			/* errno the handler returns, or FAKE */
static __thread unsigned long trapped;	/* statx attempts in this thread */

#if defined(SA_SIGSYS_RET) && defined(SA_NR_STATX)
static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	trapped++;
	SA_SIGSYS_RET(uc, refusal == FAKE ? 0 : -refusal);
}

/* Trap statx in this thread; @btime_only: only requests with BTIME. */
static int trap_statx(int btime_only)
{
	return th_trap_syscall(SA_NR_STATX, btime_only ? 3 : -1, STATX_BTIME_,
			       STATX_BTIME_, on_sigsys);
}
#else
static int trap_statx(int btime_only)
{
	(void)btime_only;
	return -1;
}
#endif

static const unsigned long long masks[] = {
	0, XSTAT_REQUEST__BASIC_STATS,
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME,
	XSTAT_REQUEST_GEN, XSTAT_REQUEST__EXTENDED_STATS,
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_CHANGE_TOKEN,
	XSTAT_REQUEST__ALL_STATS,
};
#define NMASKS	(sizeof(masks) / sizeof(masks[0]))

/* Each field the result claims is lstat()'s: 0, or 1 (said). */
static int matches(const struct xstat *x, ssize_t len, const char *path,
		   const char *how)
{
	unsigned long long m = x->st_result_mask;
	struct stat sb;

	if (len < (ssize_t)sizeof(*x) || lstat(path, &sb)) {
		/* A short result sets no errno: say so, not strerror(0). */
		fprintf(stderr, "FAIL: %s %s: %zd (%s)\n", how, path, len,
			len < 0 || len >= (ssize_t)sizeof(*x) ? strerror(errno) :
			"short result");
		return 1;
	}
	if (!(m & XSTAT_REQUEST_INO) || x->st_ino != sb.st_ino ||
	    !(m & XSTAT_REQUEST_MODE) || x->st_mode != sb.st_mode ||
	    ((m & XSTAT_REQUEST_NLINK) && x->st_nlink != sb.st_nlink) ||
	    ((m & XSTAT_REQUEST_SIZE) &&
	     x->st_size != (unsigned long long)sb.st_size) ||
	    ((m & XSTAT_REQUEST_MTIME) &&
	     x->st_mtim.tv_sec != sb.st_mtim.tv_sec)) {
		fprintf(stderr, "FAIL: %s %s: mask %#llx, ino %llu/%llu, "
			"mode %o/%o\n", how, path, m,
			(unsigned long long)x->st_ino,
			(unsigned long long)sb.st_ino, (unsigned)x->st_mode,
			(unsigned)sb.st_mode);
		return 1;
	}
	return 0;
}

/* Every name, mask and way of asking once: 0, or 1. */
static int sweep(void)
{
	union xstat_buffer b;
	char path[400];
	size_t i, n;
	int failed = 0, fd;

	for (n = 0; n < NNAMES; n++) {
		th_pathf(path, sizeof(path), "%s/%s", dir, names[n]);
		for (i = 0; i < NMASKS; i++) {
			struct xstat_parameters p = { masks[i] };
			ssize_t r;

			r = xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p,
				  &b.x, sizeof(b));
			failed |= matches(&b.x, r, path, "xstat");
			fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				return 1;
			r = fxstat(fd, 0, &p, &b.x, sizeof(b));
			close(fd);
			failed |= matches(&b.x, r, path, "fxstat");
		}
	}
	for (i = 0; i < NMASKS; i++) {
		struct xstat_parameters p = { masks[i] };

		failed |= th_check_stream(dir, &p, matches, NNAMES);
	}
	return failed;
}

static int basic_call(void)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS };
	struct xstat x;
	char path[400];

	th_pathf(path, sizeof(path), "%s/f", dir);
	return matches(&x, xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x)), path,
		       "first call");
}

/*
 * @late: statx works for one call first.  Then one call learns the
 * refusal of its shape, a first sweep the other shapes (a call and a
 * probe each, of the few shapes a sweep makes), and a second sweep must
 * make no statx.
 */
#define SWEEP_SHAPES	8

static int refused_once(int late)
{
	unsigned long first, learning;

	if (late && (basic_call() || trapped))
		return 1;
	if (trap_statx(0))
		return TH_SKIP;
	if (basic_call())
		return 1;
	first = trapped;
	trapped = 0;
	if (sweep())
		return 1;
	learning = trapped;
	trapped = 0;
	if (sweep())
		return 1;
	fprintf(stderr, "refusal %d%s: %lu statx to learn it, %lu in the "
		"first sweep, %lu in the second\n", refusal,
		late ? " (late filter)" : "", first, learning, trapped);
	return first < 1 || first > 2 || learning > 2 * SWEEP_SHAPES ||
	       trapped != 0;
}

static int run_refused(void *arg)
{
	refusal = ((const int *)arg)[0];
	return refused_once(((const int *)arg)[1]);
}

static void check_refused(int err, int late)
{
	int arg[2] = { err, late };

	th_in_child(run_refused, arg, "seccomp is unavailable here");
}

static void test_enosys(void **state)
{
	(void)state;
	check_refused(ENOSYS, 0);
}

static void test_eperm(void **state)
{
	(void)state;
	check_refused(EPERM, 0);
}

static void test_faked(void **state)
{
	(void)state;
	check_refused(FAKE, 0);
}

static void test_late_filter(void **state)
{
	(void)state;
	check_refused(EPERM, 1);
}

/* The creation time of @path by statx in a thread without a filter. */
static int btime_of(const char *path, struct xstat_time *t)
{
	struct xstat_parameters p = { XSTAT_REQUEST_BTIME };
	struct xstat x;

	if (xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x)) < 0 ||
	    !(x.st_result_mask & XSTAT_REQUEST_BTIME))
		return -1;
	*t = x.st_btim;
	return 0;
}

static pthread_barrier_t bar;
static struct xstat_time other_btime;
static int other_failed;

/* Waits until the main thread is refused, then asks statx. */
static void *unfiltered(void *arg)
{
	char path[400];

	(void)arg;
	pthread_barrier_wait(&bar);
	th_pathf(path, sizeof(path), "%s/f", dir);
	trapped = 0;
	other_failed = btime_of(path, &other_btime) || trapped != 0;
	return NULL;
}

/*
 * A filter that refuses only requests with the creation time, and a
 * thread without any filter beside it.
 */
static int run_inspecting(void *arg)
{
	union xstat_buffer b;
	struct xstat_time bt;
	pthread_t th;
	char path[400];
	unsigned long long m;
	int failed = 0;
	size_t i;

	(void)arg;
	refusal = EPERM;
	th_pathf(path, sizeof(path), "%s/f", dir);
	/* the filter is per thread: the other one is started without it */
	if (btime_of(path, &bt) ||
	    pthread_barrier_init(&bar, NULL, 2) ||
	    pthread_create(&th, NULL, unfiltered, NULL))
		return TH_SKIP;	/* no creation time here: nothing to see */
	if (trap_statx(1)) {
		pthread_barrier_wait(&bar);
		pthread_join(th, NULL);
		return TH_SKIP;
	}
	failed |= basic_call() || trapped != 0;	/* allowed: statx */
	for (i = 0; i < NMASKS; i++) {
		struct xstat_parameters p = { masks[i] };
		ssize_t r = xstat(AT_FDCWD, path, 0, &p, &b.x, sizeof(b));

		failed |= matches(&b.x, r, path, "inspected");
		m = b.x.st_result_mask;
		/* a creation time only if it is the file's */
		if (r >= 0 && (m & XSTAT_REQUEST_BTIME) &&
		    (b.x.st_btim.tv_sec != bt.tv_sec ||
		     b.x.st_btim.tv_nsec != bt.tv_nsec)) {
			fprintf(stderr, "FAIL: mask %#llx: a creation time "
				"not the file's\n", masks[i]);
			failed = 1;
		}
	}
	pthread_barrier_wait(&bar);
	pthread_join(th, NULL);
	if (other_failed ||
	    other_btime.tv_sec != bt.tv_sec ||
	    other_btime.tv_nsec != bt.tv_nsec) {
		fprintf(stderr, "FAIL: the unfiltered thread lost statx\n");
		failed = 1;
	}
	fprintf(stderr, "inspecting filter: %lu statx trapped\n", trapped);
	/* the requests with the creation time met the filter */
	if (!trapped) {
		fprintf(stderr, "FAIL: the filter refused no request\n");
		failed = 1;
	}
	return failed;
}

static void test_inspecting_filter(void **state)
{
	(void)state;
	th_in_child(run_inspecting, NULL,
		    "seccomp unavailable, or no creation time from statx");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enosys),
		cmocka_unit_test(test_eperm),
		cmocka_unit_test(test_faked),
		cmocka_unit_test(test_late_filter),
		cmocka_unit_test(test_inspecting_filter),
	};
	int ret;

	if (!th_mkdtemp(dir, sizeof(dir)) || th_make_types(dir)) {
		perror("scratch directory");
		return 1;
	}
	ret = th_run_tests(tests);
	th_rmrf(dir);
	return ret;
}
