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
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "identity-race.h"

#define DV_MASK		(XSTAT_REQUEST__BASIC_STATS | \
			 XSTAT_REQUEST_DATA_VERSION)

struct rec {
	uint64_t	seq;	/* + 1, written last; 0: not yet */
	uint64_t	ino;
	uint64_t	dv;
};

/* The record of file number @s (its slot: numbers wrap the table). */
static struct rec *slot(uint64_t s)
{
	return (struct rec *)ir_recs + (s & (IR_SLOTS - 1));
}

static void *replacer(void *arg)
{
	struct xstat_parameters p = { DV_MASK };
	struct xstat x;
	uint64_t s;
	unsigned n;
	int fd;

	(void)arg;
	for (s = 1; !ir_stop; s++) {
		struct timespec ts[2] = { { 0, UTIME_OMIT }, { (time_t)s, 0 } };
		struct rec *r = slot(s);

		fd = open(ir_tpath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
			  0644);
		if (fd < 0)
			break;
		if (futimens(fd, ts))
			break;
		for (n = 0; n < s % 5; n++)
			if (fchmod(fd, 0644))
				break;
		__atomic_store_n(&r->seq, 0, __ATOMIC_SEQ_CST);
		if (rename(ir_tpath, ir_fpath) ||
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
	ir_stop = 2;
	return NULL;
}

/* with[0]: answers with a data version. */
static void check(struct ir_tally *t)
{
	struct xstat_parameters p = { DV_MASK };
	struct xstat x;
	struct rec *r, c;
	unsigned spins;
	uint64_t s;

	if (xstat(AT_FDCWD, ir_fpath, 0, &p, &x, sizeof(x)) != 152)
		return;		/* ENOENT before the first rename */
	/* Reached as it was being unlinked: its own changes. */
	if (!(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION) || !x.st_nlink)
		return;
	t->with[0]++;
	s = (uint64_t)x.st_mtim.tv_sec;
	r = slot(s);
	/* The replacer records it right after its rename. */
	for (spins = 0; spins < 1000 && ir_stop != 2 &&
	     __atomic_load_n(&r->seq, __ATOMIC_SEQ_CST) != s + 1; spins++)
		sched_yield();
	if (__atomic_load_n(&r->seq, __ATOMIC_SEQ_CST) != s + 1) {
		t->unknown++;
		return;
	}
	c = *r;
	if (__atomic_load_n(&r->seq, __ATOMIC_SEQ_CST) != s + 1) {
		t->unknown++;
		return;
	}
	if (c.ino != x.st_ino || c.dv != x.st_data_version) {
		if (t->mismatch < 5)
			fprintf(stderr, "file %llu: inode %llu data version "
				"%llu, recorded %llu %llu\n",
				(unsigned long long)s,
				(unsigned long long)x.st_ino,
				(unsigned long long)x.st_data_version,
				(unsigned long long)c.ino,
				(unsigned long long)c.dv);
		t->mismatch++;
	}
}

static int judge(const struct ir_tally *t)
{
	/* The replacer must not have given up before the checker. */
	if (t->calls < IR_CALLS)
		return 1;
	/* The checks must have checked something. */
	if (t->with[0] < t->calls / 4 || t->unknown > t->with[0] / 2)
		return 1;
	return 0;
}

static const struct ir_race race = {
	.rec_size = sizeof(struct rec),
	.fresh = 1,
	.with = { "DV", NULL },
	.replacer = replacer,
	.check = check,
	.judge = judge,
};

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statx_backend),
		cmocka_unit_test(test_statx_blocked),
	};
	int ret = ir_setup(&race);

	if (ret)
		return ret;
	ret = th_run_tests(tests);
	ir_teardown();
	return ret;
}
