// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The data version never misses a change (ext4, loop images; root needed,
 * exit 77 without).  XSTAT_TEST_BLOCK=ENOSYS or EPERM runs it with statx
 * blocked: the fallback backend.
 *
 * Sequential: every kind of change (append, same-size overwrite, mmap
 * store + msync, chmod, setxattr, utimensat, truncate) alternates with a
 * call, for every mask that includes DATA_VERSION, through xstat() and
 * fxstat(): each answer must carry a data version greater than the one
 * before.  Concurrent: a writer thread changes the file and counts the
 * changes completed; the reader records the count before and after each
 * call; whenever a change completed between two calls, their data
 * versions must differ (and never go backwards), on ext4 with 4 KiB and
 * 1 KiB blocks, with and without a journal.  The oracle is the writer's
 * own count of completed changes.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "changes.h"

#define DV	XSTAT_REQUEST_DATA_VERSION
/*
 * Rounds of the sequential test and calls of the concurrent one: sampled
 * in make check, in full under XSTAT_CHECK_FULL=1 (th_rounds()).
 */
#define SEQ_ROUNDS	th_rounds(60, 300)
#define CONC_CALLS	((int)th_rounds(10000, 40000))

static const uint64_t masks[] = {
	DV,
	DV | XSTAT_REQUEST_SIZE,
	DV | XSTAT_REQUEST_GEN,
	DV | XSTAT_REQUEST_BTIME,
	DV | XSTAT_REQUEST__BASIC_STATS,
	XSTAT_REQUEST__EXTENDED_STATS,
};
#define NMASKS	(sizeof(masks) / sizeof(masks[0]))

/*
 * The changes a data version must see (chown, link and rename, which
 * the change token's test makes too, are not asked of it).
 */
static const enum chg_kind changes[] = {
	CHG_APPEND, CHG_OVERWRITE, CHG_MMAP_STORE, CHG_CHMOD, CHG_SETXATTR,
	CHG_UTIMENSAT, CHG_TRUNCATE,
};
#define NCHANGES	(sizeof(changes) / sizeof(changes[0]))

/* The data version now: 0 and *dv, or -1 (failed or not given). */
static int dv_now(const struct chg_target *t, uint64_t mask, int by_fd,
		  uint64_t *dv)
{
	struct xstat_parameters p = { mask };
	struct xstat x;
	ssize_t ret;

	ret = by_fd ? fxstat((unsigned int)t->fd, 0, &p, &x, sizeof(x))
		    : xstat(AT_FDCWD, t->path, 0, &p, &x, sizeof(x));
	if (ret != XSTAT_STRUCT_SIZE || !(x.st_result_mask & DV))
		return -1;
	*dv = x.st_data_version;
	return 0;
}

/* Change @c alternating with calls, for every mask, by path and by fd. */
static int sequential(const char *mnt, enum chg_kind c)
{
	struct chg_target t;
	uint64_t prev, dv;
	int failed = 0, by_fd, i;
	size_t m;

	for (m = 0; m < NMASKS; m++)
		for (by_fd = 0; by_fd < 2; by_fd++) {
			int missed = 0, back = 0, none = 0;

			if (chg_open(&t, mnt, "seq", 0644))
				return 1;
			if (dv_now(&t, masks[m], by_fd, &prev)) {
				none++;
				prev = 0;
			}
			for (i = 0; i < (int)SEQ_ROUNDS; i++) {
				if (chg_make(&t, c, i)) {
					fprintf(stderr, "change %s: %s\n",
						chg_name[c],
						strerror(errno));
					return 1;
				}
				if (dv_now(&t, masks[m], by_fd, &dv)) {
					none++;
					continue;
				}
				missed += dv == prev;
				back += dv < prev;
				prev = dv;
			}
			chg_close(&t);
			if (missed || back || none) {
				fprintf(stderr, "FAIL: %s, mask 0x%llx, "
					"%s: %d missed, %d backwards, "
					"%d without a data version, "
					"of %d\n", chg_name[c],
					(unsigned long long)masks[m],
					by_fd ? "fxstat" : "xstat",
					missed, back, none, (int)SEQ_ROUNDS);
				failed = 1;
			}
		}
	return failed;
}

/* The concurrent test: the writer's count of completed changes. */
static struct chg_target conc;
static unsigned long started, completed;	/* atomic */
static int stop;		/* atomic */

static void *writer(void *arg)
{
	char b[16];
	int i = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		memset(b, 'a' + i % 26, sizeof(b));
		__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
		/* Mostly same-size overwrites: nothing but i_version moves. */
		if (i % 16 == 15 ? pwrite(conc.fd, b, 1, 8192 + i % 4096) != 1
				 : pwrite(conc.fd, b, sizeof(b), 0) !=
				   sizeof(b))
			break;
		__atomic_add_fetch(&completed, 1, __ATOMIC_SEQ_CST);
		i++;
	}
	return NULL;
}

/*
 * For every call B and every earlier call A such that a change started
 * after A returned and completed before B started: DV(B) > DV(A).  The
 * writer's changes are serial, so that is "changes completed when B
 * started > changes started when A returned".  Data versions never
 * decrease, so checking the latest such A is enough: a ring of the last
 * calls' (changes started after them, data version).
 */
#define RING	256

static int concurrent(const char *mnt, const char *label)
{
	unsigned long before, after, ring_after[RING];
	uint64_t dv, prev = 0, ring_dv[RING];
	long violations = 0, backwards = 0, none = 0, checked = 0;
	pthread_t w;
	int i, k, n = 0;

	if (chg_open(&conc, mnt, "conc", 0644))
		return 1;
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&completed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&started, 0, __ATOMIC_RELAXED);
	if (pthread_create(&w, NULL, writer, NULL))
		return 1;
	for (i = 0; i < CONC_CALLS; i++) {
		before = __atomic_load_n(&completed, __ATOMIC_SEQ_CST);
		if (dv_now(&conc, DV, i % 2, &dv)) {
			none++;
			continue;
		}
		after = __atomic_load_n(&started, __ATOMIC_SEQ_CST);
		backwards += n && dv < prev;
		/* The latest call that ended before a change that ended now. */
		for (k = n - 1; k >= 0 && k >= n - RING; k--)
			if (ring_after[k % RING] < before) {
				checked++;
				violations += dv <= ring_dv[k % RING];
				break;
			}
		ring_after[n % RING] = after;
		ring_dv[n % RING] = dv;
		n++;
		prev = dv;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(w, NULL);
	chg_close(&conc);
	fprintf(stderr, "%s: %d calls, %lu changes, %ld calls checked "
		"against an earlier one, %ld violations, %ld backwards, %ld "
		"without a data version\n", label, CONC_CALLS,
		__atomic_load_n(&completed, __ATOMIC_RELAXED), checked,
		violations, backwards, none);
	/*
	 * A call may clear the field when the inode changed under each of
	 * its reads (the writer makes about ten changes per call): honest,
	 * and rare.  The bound catches a broken retry, not the scheduler:
	 * 0.2% was seen on a loaded 2-core machine (1k blocks, no journal).
	 */
	return violations || backwards || none > CONC_CALLS / 100 ||
	       checked < CONC_CALLS / 10;
}

static const char *const layouts[] = {
	"mkfs.ext4 -q -F %s",
	"mkfs.ext4 -q -F -b 1024 %s",
	"mkfs.ext4 -q -F -O ^has_journal %s",
	"mkfs.ext4 -q -F -b 1024 -O ^has_journal %s",
};

#define NLAYOUTS	(sizeof(layouts) / sizeof(layouts[0]))

static struct th_loop l[NLAYOUTS];

/* The whole sequential matrix once, on the first layout: one change. */
static void test_sequential(void **state)
{
	const enum chg_kind *c = *state;

	assert_int_equal(sequential(l[0].mnt, *c), 0);
}

/*
 * The runs of this program (statx, .enosys, .eperm) share the layouts of
 * the concurrent test between them in make check (th_sampled()).
 */
#define NSHARES	3

/* The concurrent test on each layout of this run's share. */
static void test_concurrent(void **state)
{
	const char *const *layout = *state;
	size_t i = (size_t)(layout - layouts);

	if (!th_sampled((unsigned)i, NSHARES)) {
		fprintf(stderr, "# %s: in another run's share of the sample "
			"(XSTAT_CHECK_FULL=1 runs it here too)\n", layouts[i]);
		return;
	}
	assert_int_equal(concurrent(l[i].mnt, layouts[i]), 0);
}

#define SEQ(i)	{ NULL, test_sequential, NULL, NULL, (void *)&changes[i] }
#define CONC(i)	{ NULL, test_concurrent, NULL, NULL, (void *)&layouts[i] }

int main(void)
{
	struct CMUnitTest tests[] = {
		SEQ(0), SEQ(1), SEQ(2), SEQ(3), SEQ(4), SEQ(5), SEQ(6),
		CONC(0), CONC(1), CONC(2), CONC(3),
	};
	int ret;
	size_t i;

	_Static_assert(sizeof(tests) / sizeof(tests[0]) ==
		       NCHANGES + NLAYOUTS, "one test per change and layout");
	for (i = 0; i < NCHANGES; i++)
		tests[i].name = chg_name[changes[i]];
	for (i = 0; i < NLAYOUTS; i++)
		tests[NCHANGES + i].name = layouts[i];
	th_require_root();
	ret = th_loop_check(&l[0], "mkfs.ext4 -q -F %s");
	if (ret)
		return ret;
	th_loop_umount(&l[0]);
	/*
	 * Everything mounted before statx is blocked (mount may use it): the
	 * first layout (the sequential tests) and this run's share.
	 */
	for (i = 0; i < NLAYOUTS; i++) {
		if (i && !th_sampled((unsigned)i, NSHARES))
			continue;
		if (th_loop_mount(&l[i], 64, layouts[i], NULL)) {
			fprintf(stderr, "cannot mount %s\n", layouts[i]);
			while (i--)
				th_loop_umount(&l[i]);
			return 1;
		}
	}
	th_block_from_env();
	ret = th_run_tests(tests);
	for (i = 0; i < NLAYOUTS; i++)
		th_loop_umount(&l[i]);
	return ret;
}
