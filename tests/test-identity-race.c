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
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define FS_IOC_GETVERSION_	_IOR('v', 1, long)
#define CALLS		100000
#define SLOTS		(1u << 20)

struct rec {
	uint32_t	gen;	/* written last */
	uint32_t	pad;
	uint64_t	ino;
	int64_t		bsec;
	uint32_t	bnsec;
};

static struct rec *recs;
static char fpath[400], tpath[400];
static volatile int stop;
static int block;

static void *replacer(void *arg)
{
	struct statx sx;
	unsigned gen;
	int fd;

	(void)arg;
	while (!stop) {
		struct rec *r;

		fd = open(tpath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
			  0644);
		if (fd < 0)
			break;
		if (ioctl(fd, FS_IOC_GETVERSION_, &gen) ||
		    statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS |
			  STATX_BTIME, &sx)) {
			close(fd);
			break;
		}
		r = &recs[gen & (SLOTS - 1)];
		__atomic_store_n(&r->gen, 0, __ATOMIC_SEQ_CST);
		r->ino = sx.stx_ino;
		r->bsec = sx.stx_btime.tv_sec;
		r->bnsec = sx.stx_btime.tv_nsec;
		__atomic_store_n(&r->gen, gen, __ATOMIC_SEQ_CST);
		close(fd);
		if (rename(tpath, fpath))
			break;
	}
	return NULL;
}

struct tally {
	long	calls, with_gen, with_btime, unknown, mismatch;
};

static void *checker(void *arg)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS |
				      XSTAT_REQUEST_BTIME |
				      XSTAT_REQUEST_GEN };
	struct tally *t = arg;
	struct xstat x;

	if (block && th_block_statx(EPERM)) {
		t->calls = -1;
		return NULL;
	}
	for (t->calls = 0; t->calls < CALLS; t->calls++) {
		struct rec *r, c;

		if (xstat(AT_FDCWD, fpath, 0, &p, &x, sizeof(x)) != 152)
			continue;	/* ENOENT before the first rename */
		if (!(x.st_result_mask & XSTAT_REQUEST_GEN))
			continue;
		t->with_gen++;
		r = &recs[x.st_gen & (SLOTS - 1)];
		if (__atomic_load_n(&r->gen, __ATOMIC_SEQ_CST) !=
		    (uint32_t)x.st_gen) {
			t->unknown++;
			continue;
		}
		c = *r;
		if (__atomic_load_n(&r->gen, __ATOMIC_SEQ_CST) !=
		    (uint32_t)x.st_gen) {
			t->unknown++;
			continue;
		}
		if (c.ino != x.st_ino) {
			t->mismatch++;
			continue;
		}
		if (!(x.st_result_mask & XSTAT_REQUEST_BTIME))
			continue;
		t->with_btime++;
		if (c.bsec != (int64_t)x.st_btim.tv_sec ||
		    c.bnsec != x.st_btim.tv_nsec)
			t->mismatch++;
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
	stop = 0;
	pthread_create(&r, NULL, replacer, NULL);
	pthread_create(&c, NULL, checker, &t);
	pthread_join(c, NULL);
	stop = 1;
	pthread_join(r, NULL);
	if (t.calls < 0)
		return 77;
	fprintf(stderr, "# %s: %ld calls, %ld with GEN, %ld with BTIME, "
		"%ld not in the records, %ld MISMATCHED\n",
		block ? "statx blocked" : "statx", t.calls, t.with_gen,
		t.with_btime, t.unknown, t.mismatch);
	if (t.mismatch)
		return 1;
	/* The checks must have checked something. */
	if (t.with_gen < t.calls / 2 || t.unknown > t.with_gen / 5)
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
