// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One answer, one inode, for requests without GEN (the data version
 * from the raw ext4 inode).  A replacer thread creates file
 * number s with mtime s and a data version of its own (s % 5 metadata
 * changes more than its neighbours), renames it over the path and then
 * records its inode number and data version - taken with fxstat() on its
 * own descriptor, which holds the inode - so inode numbers are freed and
 * reused all the time.  A checker thread calls xstat(path, BASIC | DV) at
 * least 100,000 times; every result with a data version whose mtime names
 * a recorded file must have that file's inode number and data version.
 * On a loop ext4, in the statx backend and with statx blocked in the
 * checker thread only.  Root and loop devices, else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define CALLS		100000
#define SLOTS		(1u << 20)
#define DV_MASK		(XSTAT_REQUEST__BASIC_STATS | \
			 XSTAT_REQUEST_DATA_VERSION)

struct rec {
	uint64_t	seq;	/* + 1, written last; 0: not yet */
	uint64_t	ino;
	uint64_t	dv;
};

static struct rec *recs;
static char fpath[400], tpath[400];
static volatile int stop;
static int block;

static void *replacer(void *arg)
{
	struct xstat_parameters p = { DV_MASK };
	struct xstat x;
	uint64_t s;
	unsigned n;
	int fd;

	(void)arg;
	for (s = 1; !stop; s++) {
		struct timespec ts[2] = { { 0, UTIME_OMIT }, { (time_t)s, 0 } };
		struct rec *r = &recs[s & (SLOTS - 1)];

		fd = open(tpath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
			  0644);
		if (fd < 0)
			break;
		if (futimens(fd, ts))
			break;
		for (n = 0; n < s % 5; n++)
			if (fchmod(fd, 0644))
				break;
		__atomic_store_n(&r->seq, 0, __ATOMIC_SEQ_CST);
		if (rename(tpath, fpath) ||
		    fxstat(fd, 0, &p, &x, sizeof(x)) != 152 ||
		    !(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)) {
			close(fd);
			break;
		}
		r->ino = x.st_ino;
		r->dv = x.st_data_version;
		__atomic_store_n(&r->seq, s + 1, __ATOMIC_SEQ_CST);
		close(fd);
	}
	stop = 2;
	return NULL;
}

struct tally {
	long	calls, with_dv, unknown, mismatch;
};

static void *checker(void *arg)
{
	struct xstat_parameters p = { DV_MASK };
	struct tally *t = arg;
	struct xstat x;

	if (block && th_block_statx(EPERM)) {
		t->calls = -1;
		return NULL;
	}
	for (t->calls = 0; t->calls < CALLS && stop != 2; t->calls++) {
		struct rec *r, c;
		unsigned spins;
		uint64_t s;

		if (xstat(AT_FDCWD, fpath, 0, &p, &x, sizeof(x)) != 152)
			continue;	/* ENOENT before the first rename */
		/* Reached as it was being unlinked: its own changes. */
		if (!(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION) ||
		    !x.st_nlink)
			continue;
		t->with_dv++;
		s = (uint64_t)x.st_mtim.tv_sec;
		r = &recs[s & (SLOTS - 1)];
		/* The replacer records it right after its rename. */
		for (spins = 0; spins < 1000 && stop != 2 &&
		     __atomic_load_n(&r->seq, __ATOMIC_SEQ_CST) != s + 1;
		     spins++)
			sched_yield();
		if (__atomic_load_n(&r->seq, __ATOMIC_SEQ_CST) != s + 1) {
			t->unknown++;
			continue;
		}
		c = *r;
		if (__atomic_load_n(&r->seq, __ATOMIC_SEQ_CST) != s + 1) {
			t->unknown++;
			continue;
		}
		if (c.ino != x.st_ino || c.dv != x.st_data_version) {
			if (t->mismatch < 5)
				fprintf(stderr, "file %llu: inode %llu data "
					"version %llu, recorded %llu %llu\n",
					(unsigned long long)s,
					(unsigned long long)x.st_ino,
					(unsigned long long)x.st_data_version,
					(unsigned long long)c.ino,
					(unsigned long long)c.dv);
			t->mismatch++;
		}
	}
	return NULL;
}

static int run(const char *mnt)
{
	struct tally t;
	pthread_t r, c;

	memset(recs, 0, SLOTS * sizeof(*recs));
	memset(&t, 0, sizeof(t));
	th_pathf(fpath, sizeof(fpath), "%s/f", mnt);
	th_pathf(tpath, sizeof(tpath), "%s/tmp", mnt);
	unlink(tpath);
	unlink(fpath);
	stop = 0;
	pthread_create(&r, NULL, replacer, NULL);
	pthread_create(&c, NULL, checker, &t);
	pthread_join(c, NULL);
	if (!stop)
		stop = 1;
	pthread_join(r, NULL);
	if (t.calls < 0)
		return 77;
	fprintf(stderr, "# %s: %ld calls, %ld with DV, %ld not in the "
		"records, %ld MISMATCHED\n",
		block ? "statx blocked" : "statx", t.calls, t.with_dv,
		t.unknown, t.mismatch);
	if (t.mismatch || t.calls < CALLS)
		return 1;
	/* The checks must have checked something. */
	if (t.with_dv < t.calls / 4 || t.unknown > t.with_dv / 2)
		return 1;
	return 0;
}

static struct th_loop l;

/* run() with statx blocked in the checker thread if @blocked. */
static void run_blocked(int blocked)
{
	int ret;

	block = blocked;
	ret = run(l.mnt);
	if (ret == 77)
		th_skip("cannot install a seccomp filter");
	assert_int_equal(ret, 0);
}

static void test_statx_backend(void **state)
{
	(void)state;
	run_blocked(0);
}

static void test_statx_blocked(void **state)
{
	(void)state;
	run_blocked(1);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statx_backend),
		cmocka_unit_test(test_statx_blocked),
	};
	int ret;

	th_require_root();
	recs = calloc(SLOTS, sizeof(*recs));
	if (!recs)
		return 1;
	ret = th_loop_mount(&l, 64, "mkfs.ext4 -q -F %s", NULL);
	if (ret == TH_SKIP) {
		fprintf(stderr, "SKIP: no loop device or mkfs.ext4\n");
		return TH_SKIP;
	}
	if (ret)
		return 1;
	ret = th_run_tests(tests);
	th_loop_umount(&l);
	free(recs);
	return ret;
}
