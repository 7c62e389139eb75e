// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * LD_PRELOAD shim for tests/check-promises-unmeasured.sh: after every
 * ftruncate(), the coarse realtime clock reads one tick later than it
 * did, and stays that much ahead.  xstat --check-promises reads that
 * clock before its call and after its change; ftruncate() is the
 * "truncate" change alone, so every round of the truncate cells straddles
 * a tick and is discarded, as every round of a throttled writer's is,
 * while the other cells are measured as usual.  The clock only moves
 * forward, so nothing that orders by it goes backwards.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static long ahead_ns;		/* the ticks added so far */

static long tick_ns(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_REALTIME_COARSE, &res) ||
	    (!res.tv_sec && !res.tv_nsec))
		return 4000000;
	return (long)res.tv_sec * 1000000000L + res.tv_nsec;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	int (*real)(clockid_t, struct timespec *) =
		(int (*)(clockid_t, struct timespec *))
		dlsym(RTLD_NEXT, "clock_gettime");
	long ahead = __atomic_load_n(&ahead_ns, __ATOMIC_RELAXED), ns;
	int ret = real(id, ts);

	if (ret || id != CLOCK_REALTIME_COARSE || !ahead)
		return ret;
	ns = ts->tv_nsec + ahead;
	ts->tv_sec += ns / 1000000000L;
	ts->tv_nsec = ns % 1000000000L;
	return 0;
}

static void step(void)
{
	__atomic_add_fetch(&ahead_ns, tick_ns(), __ATOMIC_RELAXED);
}

int ftruncate(int fd, off_t len)
{
	int (*real)(int, off_t) =
		(int (*)(int, off_t))dlsym(RTLD_NEXT, "ftruncate");
	int ret = real(fd, len);

	step();
	return ret;
}

int ftruncate64(int fd, off64_t len)
{
	int (*real)(int, off64_t) =
		(int (*)(int, off64_t))dlsym(RTLD_NEXT, "ftruncate64");
	int ret = real(fd, len);

	step();
	return ret;
}
