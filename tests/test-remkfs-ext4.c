// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ext4 re-made on the same loop device, in one long-lived process.  Each
 * round: mkfs.ext4 with another geometry (metadata_csum or not, 1 KiB or
 * 4 KiB blocks, 128- or 256-byte inodes, with or without the resize
 * inode, which moves the inode table), mount, create many files of the
 * same mode and owner (so that an inode read at a stale offset is another
 * file that passes every check but the generation), and xstat() them with
 * BTIME, GEN and DATA_VERSION in several masks (with and without GEN:
 * only GEN lets the raw-inode check tell two such files apart), in the
 * statx backend and with statx blocked in a thread (the raw inode then
 * gives the creation time too).  Every value reported must be debugfs's
 * (the oracle) for that round's filesystem.  Root, loop devices, mkfs.ext4
 * and debugfs, else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "ext4-oracle.h"

#define FILES		300	/* more than one inode table shift */
#define CHECKED		24	/* the first ones: their stale twins exist */

static const struct round {
	const char	*what;
	const char	*opts;
	int		big;	/* inodes with room for i_version_hi, crtime */
} rounds[] = {
	{ "4k, 256-byte inodes, no csum",
	  "-O ^metadata_csum -b 4096 -I 256", 1 },
	{ "the same without the resize inode",
	  "-O ^metadata_csum,^resize_inode -b 4096 -I 256", 1 },
	{ "1k, 128-byte inodes, csum", "-O metadata_csum -b 1024 -I 128", 0 },
	{ "4k, 256-byte inodes, csum", "-O metadata_csum -b 4096 -I 256", 1 },
	{ "1k, 256-byte inodes, no csum",
	  "-O ^metadata_csum -b 1024 -I 256", 1 },
	{ "4k, 128-byte inodes, no csum",
	  "-O ^metadata_csum -b 4096 -I 128", 0 },
};

/* Without GEN first: a GEN request would notice a stale geometry. */
static const uint64_t masks[] = {
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_DATA_VERSION,
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME |
		XSTAT_REQUEST_DATA_VERSION,
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME |
		XSTAT_REQUEST_GEN | XSTAT_REQUEST_DATA_VERSION,
};
#define NMASKS	(sizeof(masks) / sizeof(masks[0]))

struct job {
	const char	*dir;
	int		block;
	int		ret;
	struct xstat	x[CHECKED][NMASKS];
};

static void *run_job(void *arg)
{
	struct job *j = arg;
	char f[400];
	unsigned i, m;

	if (j->block && th_block_statx(EPERM)) {
		j->ret = 77;
		return NULL;
	}
	for (i = 0; i < CHECKED; i++) {
		th_pathf(f, sizeof(f), "%s/f%03u", j->dir, i);
		for (m = 0; m < NMASKS; m++) {
			struct xstat_parameters p = { masks[m] };

			if (xstat(AT_FDCWD, f, 0, &p, &j->x[i][m],
				  sizeof(j->x[i][m])) != 152) {
				perror(f);
				j->ret = 1;
				return NULL;
			}
		}
	}
	return NULL;
}

/* One result against debugfs: 0, or 1 and why. */
static int compare(const char *what, unsigned i, uint64_t mask,
		   const struct xstat *x, const struct ext4_oracle *o,
		   long *dv_seen, long *btime_seen)
{
	uint64_t got = x->st_result_mask;

	if ((got & XSTAT_REQUEST_GEN) && x->st_gen != o->generation) {
		fprintf(stderr, "%s: f%03u mask %#" PRIx64 ": generation %"
			PRIu64 ", debugfs %u\n", what, i, mask,
			(uint64_t)x->st_gen,
			o->generation);
		return 1;
	}
	if (got & XSTAT_REQUEST_BTIME) {
		(*btime_seen)++;
		if (!o->has_crtime || x->st_btim.tv_sec != o->crtime_sec ||
		    x->st_btim.tv_nsec != o->crtime_nsec) {
			fprintf(stderr, "%s: f%03u mask %#" PRIx64 ": btime "
				"%" PRId64 ".%09u, debugfs %s%" PRId64
				".%09u\n", what, i, mask,
				(int64_t)x->st_btim.tv_sec,
				(unsigned)x->st_btim.tv_nsec,
				o->has_crtime ? "" : "none ", o->crtime_sec,
				o->crtime_nsec);
			return 1;
		}
	}
	if (got & XSTAT_REQUEST_DATA_VERSION) {
		(*dv_seen)++;
		if (!o->has_version || x->st_data_version != o->version) {
			fprintf(stderr, "%s: f%03u mask %#" PRIx64 ": data "
				"version %#" PRIx64 ", debugfs %s%#" PRIx64
				"\n", what, i, mask,
				(uint64_t)x->st_data_version,
				o->has_version ? "" : "none ", o->version);
			return 1;
		}
	}
	return 0;
}

static int make_files(const char *mnt)
{
	char f[400];
	unsigned i, n;
	int fd;

	for (i = 0; i < FILES; i++) {
		th_pathf(f, sizeof(f), "%s/f%03u", mnt, i);
		fd = open(f, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0) {
			perror(f);
			return 1;
		}
		/*
		 * Data versions that differ between near files (i % 5 more
		 * changes; 5 divides no inode table shift of 16 inodes a block).
		 */
		for (n = 0; n < i % 5; n++)
			if (fchmod(fd, n & 1 ? 0644 : 0640)) {
				perror(f);
				return 1;
			}
		if (fchmod(fd, 0644) || close(fd)) {
			perror(f);
			return 1;
		}
	}
	/* debugfs reads the device: the inodes must be there. */
	return th_run(NULL, 0, "sync -f '%s'", mnt) ? 1 : 0;
}

static int round_check(const struct round *r, const char *dev,
		       const char *mnt)
{
	static struct job j;
	static struct ext4_oracle o[CHECKED];
	uint64_t inos[CHECKED];
	long dv_seen, btime_seen, gen_seen;
	int fails = 0, block;
	unsigned i, m;
	pthread_t t;

	for (block = 0; block < 2; block++) {
		char what[160];

		dv_seen = btime_seen = gen_seen = 0;
		memset(&j, 0, sizeof(j));
		j.dir = mnt;
		j.block = block;
		pthread_create(&t, NULL, run_job, &j);
		pthread_join(t, NULL);
		if (j.ret == 77) {
			fprintf(stderr, "# %s: no seccomp filter, statx "
				"blocked skipped\n", r->what);
			continue;
		}
		if (j.ret)
			return 1;
		snprintf(what, sizeof(what), "%s (%s)", r->what,
			 block ? "statx blocked" : "statx");
		for (i = 0; i < CHECKED; i++)
			inos[i] = j.x[i][0].st_ino;
		if (ext4_oracle_stat_many(dev, inos, CHECKED, o))
			return 1;
		for (i = 0; i < CHECKED; i++) {
			for (m = 0; m < NMASKS; m++) {
				gen_seen += !!(j.x[i][m].st_result_mask &
					       XSTAT_REQUEST_GEN);
				fails += compare(what, i, masks[m], &j.x[i][m],
						 &o[i], &dv_seen, &btime_seen);
			}
		}
		fprintf(stderr, "# %s: %ld generations, %ld creation times, "
			"%ld data versions checked, %d wrong\n", what,
			gen_seen, btime_seen, dv_seen, fails);
		/* The checks must have checked something. */
		/* 128-byte inodes: whole-second ctimes, no data version. */
		if (!gen_seen || (r->big && !dv_seen) || (!r->big && dv_seen))
			fails++;
	}
	return fails;
}

/* The image on its loop device: each round makes its filesystem. */
static struct th_loop loop;
static char *const mnt = loop.mnt, *const dev = loop.dev;
static int mounted;

/*
 * One round, after the previous ones on the same device (in order):
 * mkfs.ext4 with its geometry, mount, files, both backends against
 * debugfs, unmount.
 */
static void test_round(void **state)
{
	const struct round *r = *state;
	char out[1024];

	if (th_run(out, sizeof(out), "mkfs.ext4 -q -F -E nodiscard %s '%s' "
		   "2>&1 && mount '%s' '%s' 2>&1", r->opts, dev, dev, mnt))
		fail_msg("cannot make or mount: %s: %s", r->opts, out);
	mounted = 1;
	assert_int_equal(make_files(mnt), 0);
	assert_int_equal(round_check(r, dev, mnt), 0);
	if (umount(mnt))
		perror("umount");
	else
		mounted = 0;
	assert_false(mounted);
}

static int umount_round(void **state)
{
	(void)state;
	if (mounted && umount(mnt) == 0)
		mounted = 0;
	return 0;
}

#define ROUND(i)	{ NULL, test_round, NULL, umount_round, \
			  (void *)&rounds[i] }

int main(void)
{
	struct CMUnitTest tests[] = {
		ROUND(0), ROUND(1), ROUND(2), ROUND(3), ROUND(4), ROUND(5),
	};
	unsigned r;
	int ret;

	_Static_assert(sizeof(tests) / sizeof(tests[0]) ==
		       sizeof(rounds) / sizeof(rounds[0]), "one test a round");
	for (r = 0; r < sizeof(rounds) / sizeof(rounds[0]); r++)
		tests[r].name = rounds[r].what;
	th_require_root();
	if (!ext4_oracle_available() ||
	    th_run(NULL, 0, "command -v losetup >/dev/null")) {
		fprintf(stderr, "SKIP: mkfs.ext4, debugfs or losetup missing\n");
		return TH_SKIP;
	}
	if (th_no_ext4_reader()) {
		fprintf(stderr, "SKIP: %s\n", th_no_ext4_reader());
		return TH_SKIP;
	}
	ret = th_loop_attach(&loop, 64, NULL);
	if (ret) {
		/* Any failure here is the machine's, as a missing device. */
		if (ret != TH_SKIP)
			fprintf(stderr, "SKIP: no loop device\n");
		return TH_SKIP;
	}
	ret = th_run_tests(tests);
	th_loop_umount(&loop);
	return ret;
}
