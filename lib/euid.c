// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The effective uid for the ext4 device cache, without a system call on
 * every probe.  geteuid() is a system call, as costly as the pread of the
 * inode where page-table isolation flushes the TLB on each one, so the
 * uid is re-read at most every EUID_RECHECK_NS (and at once in a child
 * after fork(): ext4dev.c calls xs_euid_forget()).
 *
 * Even asking the clock costs a vDSO code page and its data page after
 * each system call.  On x86 the time stamp counter answers "has less
 * than half the interval passed since the uid was read?" in one
 * instruction: the counter's rate is measured between two reads of the
 * uid (at least half the interval apart on CLOCK_MONOTONIC).  Until it
 * is known the clock decides as before; once it is, the uid is read again
 * whenever the counter says half the interval has passed (or went
 * backwards).  Halving leaves room for a rate measured up to twice too
 * fast.  Where reading the counter is itself slow (trapped by a
 * hypervisor) it is not used.
 */
#include <time.h>
#include <unistd.h>
#include "ext4dev.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#define EUID_RECHECK_NS	10000000LL

static int64_t euid_read_at;	/* atomic; CLOCK_MONOTONIC ns + 1, 0: never */
static uid_t euid_known;	/* atomic */
#ifdef HAVE_TSC
static uint64_t euid_tsc;	/* atomic; the counter when the uid was read */
static uint64_t tsc_window;	/* atomic; ticks in EUID_RECHECK_NS / 2 */
#endif

static int64_t clock_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + 1;
}

#ifdef HAVE_TSC
/*
 * Some hypervisors trap the instruction (a VM exit: several hundred ns to
 * microseconds each): there the coarse clock is the cheaper question.
 * Native and KVM guests answer in about 10 ns, valgrind in about 150.  A
 * preemption inside the loop only makes the counter look slow, which
 * leaves the clock in charge: the safe side.
 */
#define TSC_READS	16
#define TSC_SLOW_NS	250

static int tsc_is_cheap(void)
{
	uint64_t sum = 0;
	int64_t t0 = clock_ns(), t1;
	int i;

	for (i = 0; i < TSC_READS; i++)
		sum += __rdtsc();
	t1 = clock_ns();
	return sum && t0 && t1 - t0 < TSC_READS * TSC_SLOW_NS;
}

/* The counter's ticks in half the interval, from two reads of the uid. */
static void measure_rate(int64_t last, int64_t now, uint64_t last_tsc,
			 uint64_t tsc)
{
	double ticks_per_ns;
	uint64_t window = 0;

	if (!last || !last_tsc || now - last < EUID_RECHECK_NS / 2 ||
	    tsc <= last_tsc)
		return;
	ticks_per_ns = (double)(tsc - last_tsc) / (double)(now - last);
	if (tsc_is_cheap())
		window = (uint64_t)(ticks_per_ns * (EUID_RECHECK_NS / 2));
	__atomic_store_n(&tsc_window, window, __ATOMIC_RELAXED);
}
#endif

/*
 * The uid again if the interval has passed by the clock, or at once if
 * @lapsed (the counter's half interval has).
 */
static __attribute__((noinline))
uid_t euid_by_clock(int64_t *nowp, int lapsed)
{
	int64_t last = __atomic_load_n(&euid_read_at, __ATOMIC_ACQUIRE);
	int64_t now = clock_ns();
	uid_t euid;
#ifdef HAVE_TSC
	uint64_t last_tsc = __atomic_load_n(&euid_tsc, __ATOMIC_RELAXED);
	uint64_t tsc = __rdtsc();
#endif

	*nowp = now;
	if (!lapsed && now && last && now - last >= 0 &&
	    now - last < EUID_RECHECK_NS)
		return __atomic_load_n(&euid_known, __ATOMIC_RELAXED);
	euid = geteuid();
	__atomic_store_n(&euid_known, euid, __ATOMIC_RELAXED);
#ifdef HAVE_TSC
	measure_rate(last, now, last_tsc, tsc);
	__atomic_store_n(&euid_tsc, tsc, __ATOMIC_RELEASE);
#endif
	__atomic_store_n(&euid_read_at, now, __ATOMIC_RELEASE);
	return euid;
}

XS_HOT
uid_t xs_euid_current(int64_t *nowp)
{
#ifdef HAVE_TSC
	uint64_t window = __atomic_load_n(&tsc_window, __ATOMIC_RELAXED);
	uint64_t read_tsc = __atomic_load_n(&euid_tsc, __ATOMIC_ACQUIRE);

	/* Unsigned: a counter behind the stored one is a huge difference. */
	if (window && read_tsc && __rdtsc() - read_tsc < window) {
		*nowp = __atomic_load_n(&euid_read_at, __ATOMIC_RELAXED);
		return __atomic_load_n(&euid_known, __ATOMIC_RELAXED);
	}
	return euid_by_clock(nowp, window && read_tsc);
#else
	return euid_by_clock(nowp, 0);
#endif
}

void xs_euid_forget(void)
{
#ifdef HAVE_TSC
	__atomic_store_n(&euid_tsc, 0, __ATOMIC_RELAXED);
#endif
	__atomic_store_n(&euid_read_at, 0, __ATOMIC_RELAXED);
}
