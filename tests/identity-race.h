/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The harness of the "one answer, one inode" races (issue 17),
 * tests/test-identity-race.c and tests/test-identity-race-dv.c: a loop
 * ext4, a replacer thread that renames fresh files over one path and
 * records each in a table, a checker thread that xstat()s the path and
 * compares the answers with the table, once in the statx backend and once
 * with statx blocked in the checker thread only (seccomp filters are per
 * thread).  Each program brings what it records and checks.
 */
#ifndef XSTAT_TESTS_IDENTITY_RACE_H
#define XSTAT_TESTS_IDENTITY_RACE_H

#include <stddef.h>
#include "testhelp.h"

/* Calls of the checker: sampled in make check, in full under
 * XSTAT_CHECK_FULL=1 (th_rounds()). */
#define IR_CALLS	((long)th_rounds(25000, 100000))
#define IR_SLOTS	(1u << 20)

/* What the checker counted; with[] are the answers that could be checked. */
struct ir_tally {
	long	calls, with[2], unknown, mismatch;
};

struct ir_race {
	size_t		rec_size;	/* of one slot of the table */
	int		fresh;		/* unlink the path before each run */
	/* What with[i] counts (as "GEN"), or NULL. */
	const char	*with[2];
	/* The replacer thread: runs until ir_stop, or sets it to 2. */
	void		*(*replacer)(void *arg);
	/* One xstat() of ir_fpath by the checker, counted in @t. */
	void		(*check)(struct ir_tally *t);
	/* 0 if the checks checked enough (mismatches fail anyway). */
	int		(*judge)(const struct ir_tally *t);
};

/* The table (IR_SLOTS slots of rec_size), the path, its temporary name. */
extern void *ir_recs;
extern char ir_fpath[400], ir_tpath[400];
/* 0: go on; 1: the checker is done; 2: the replacer stopped. */
extern volatile int ir_stop;

/*
 * For main(): root (else exit 77), the table, the loop ext4.  0: run the
 * tests, then ir_teardown(); TH_SKIP (said why) or 1: return that.
 */
int ir_setup(const struct ir_race *race);
void ir_teardown(void);

/* The two cmocka tests. */
void test_statx_backend(void **state);
void test_statx_blocked(void **state);

#endif
