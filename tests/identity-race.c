// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The harness of the identity races (tests/identity-race.h): both
 * programs mount, run and judge their race alike, only what the replacer
 * records and the checker compares is their own.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "testhelp.h"
#include "identity-race.h"

void *ir_recs;
char ir_fpath[400], ir_tpath[400];
volatile int ir_stop;

static const struct ir_race *race;
static struct th_loop l;
static int block;

static void *checker(void *arg)
{
	struct ir_tally *t = arg;

	if (block && th_block_statx(EPERM)) {
		t->calls = -1;
		return NULL;
	}
	for (t->calls = 0; t->calls < IR_CALLS && ir_stop != 2; t->calls++)
		race->check(t);
	return NULL;
}

static int run(const char *mnt)
{
	struct ir_tally t;
	pthread_t r, c;
	int i;

	memset(ir_recs, 0, IR_SLOTS * race->rec_size);
	memset(&t, 0, sizeof(t));
	th_pathf(ir_fpath, sizeof(ir_fpath), "%s/f", mnt);
	th_pathf(ir_tpath, sizeof(ir_tpath), "%s/tmp", mnt);
	unlink(ir_tpath);
	if (race->fresh)
		unlink(ir_fpath);
	ir_stop = 0;
	pthread_create(&r, NULL, race->replacer, NULL);
	pthread_create(&c, NULL, checker, &t);
	pthread_join(c, NULL);
	if (!ir_stop)
		ir_stop = 1;
	pthread_join(r, NULL);
	if (t.calls < 0)
		return 77;
	fprintf(stderr, "# %s: %ld calls", block ? "statx blocked" : "statx",
		t.calls);
	for (i = 0; i < 2; i++)
		if (race->with[i])
			fprintf(stderr, ", %ld with %s", t.with[i],
				race->with[i]);
	fprintf(stderr, ", %ld not in the records, %ld MISMATCHED\n",
		t.unknown, t.mismatch);
	if (t.mismatch)
		return 1;
	return race->judge(&t);
}

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

void test_statx_backend(void **state)
{
	(void)state;
	run_blocked(0);
}

void test_statx_blocked(void **state)
{
	(void)state;
	run_blocked(1);
}

int ir_setup(const struct ir_race *r)
{
	int ret;

	race = r;
	th_require_root();
	ir_recs = calloc(IR_SLOTS, race->rec_size);
	if (!ir_recs)
		return 1;
	ret = th_loop_mount(&l, 64, "mkfs.ext4 -q -F %s", NULL);
	if (ret == TH_SKIP) {
		fprintf(stderr, "SKIP: no loop device or mkfs.ext4\n");
		return TH_SKIP;
	}
	return ret ? 1 : 0;
}

void ir_teardown(void)
{
	th_loop_umount(&l);
	free(ir_recs);
}
