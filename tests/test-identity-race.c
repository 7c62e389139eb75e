// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One answer, one inode.  A replacer thread creates a file, records its
 * generation (FS_IOC_GETVERSION on its own descriptor), inode number and
 * creation time (statx on that descriptor), and renames it over the path
 * - so inode numbers are freed and reused all the time.  A checker thread
 * calls xstat(path, BASIC | BTIME | GEN) at least 100,000 times; every
 * result with a generation must match a record with that inode number
 * and, when the creation time is there, that creation time.  On a loop
 * ext4, in the statx backend and with statx blocked in the checker thread
 * only (seccomp filters are per thread; the creation time then comes from
 * the raw inode).  Root and loop devices, else 77.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "identity-race.h"

#define FS_IOC_GETVERSION_	_IOR('v', 1, long)

struct rec {
	uint32_t	gen;	/* written last */
	uint32_t	pad;
	uint64_t	ino;
	int64_t		bsec;
	uint32_t	bnsec;
};

/* The record of generation @gen (its slot: generations wrap the table). */
static struct rec *slot(uint32_t gen)
{
	return (struct rec *)ir_recs + (gen & (IR_SLOTS - 1));
}

static void *replacer(void *arg)
{
	struct statx sx;
	unsigned gen;
	int fd;

	(void)arg;
	while (!ir_stop) {
		struct rec *r;

		fd = open(ir_tpath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
			  0644);
		if (fd < 0)
			break;
		if (ioctl(fd, FS_IOC_GETVERSION_, &gen) ||
		    statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS |
			  STATX_BTIME, &sx)) {
			close(fd);
			break;
		}
		r = slot(gen);
		__atomic_store_n(&r->gen, 0, __ATOMIC_SEQ_CST);
		r->ino = sx.stx_ino;
		r->bsec = sx.stx_btime.tv_sec;
		r->bnsec = sx.stx_btime.tv_nsec;
		__atomic_store_n(&r->gen, gen, __ATOMIC_SEQ_CST);
		close(fd);
		if (rename(ir_tpath, ir_fpath))
			break;
	}
	return NULL;
}

/* with[0]: answers with GEN, with[1]: of those, with BTIME too. */
static void check(struct ir_tally *t)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS |
				      XSTAT_REQUEST_BTIME |
				      XSTAT_REQUEST_GEN };
	struct xstat x;
	struct rec *r, c;

	if (xstat(AT_FDCWD, ir_fpath, 0, &p, &x, sizeof(x)) != 152)
		return;		/* ENOENT before the first rename */
	if (!(x.st_result_mask & XSTAT_REQUEST_GEN))
		return;
	t->with[0]++;
	r = slot((uint32_t)x.st_gen);
	if (__atomic_load_n(&r->gen, __ATOMIC_SEQ_CST) != (uint32_t)x.st_gen) {
		t->unknown++;
		return;
	}
	c = *r;
	if (__atomic_load_n(&r->gen, __ATOMIC_SEQ_CST) != (uint32_t)x.st_gen) {
		t->unknown++;
		return;
	}
	if (c.ino != x.st_ino) {
		t->mismatch++;
		return;
	}
	if (!(x.st_result_mask & XSTAT_REQUEST_BTIME))
		return;
	t->with[1]++;
	if (c.bsec != (int64_t)x.st_btim.tv_sec ||
	    c.bnsec != x.st_btim.tv_nsec)
		t->mismatch++;
}

/* The checks must have checked something. */
static int judge(const struct ir_tally *t)
{
	if (t->with[0] < t->calls / 2 || t->unknown > t->with[0] / 5)
		return 1;
	return 0;
}

static const struct ir_race race = {
	.rec_size = sizeof(struct rec),
	.with = { "GEN", "BTIME" },
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
