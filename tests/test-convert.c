// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The inline conversions of <xstat.h> against the C library of the same
 * compilation: for each file named on the command line, a struct xstat
 * filled from glibc's statx() (not from libxstat, so the test needs no
 * library of this ABI), converted with xstat_to_stat(), must equal what
 * lstat() gives, field by field; where lstat() fails with EOVERFLOW (a
 * 32-bit off_t or time_t), so must xstat_to_stat().  xstat_makedev() must
 * equal makedev(3), xstat_to_timespec() must give lstat()'s times.
 *
 * tests/test-convert.sh builds this as C and C++, 64-bit and 32-bit, with
 * and without _FILE_OFFSET_BITS=64 / _TIME_BITS=64.  It prints
 * "overflow N" so that the script can check the EOVERFLOW path ran.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <xstat.h>
/*
 * A C library that declares no statx() (musl before 1.2.5): the kernel's
 * own struct statx and the raw call, the same values.
 */
#ifndef STATX_BASIC_STATS
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/stat.h>
#define statx(dfd, path, flags, mask, buf) \
	((int)syscall(SYS_statx, dfd, path, flags, mask, buf))
#endif

static int failed;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);	\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		failed = 1;						\
	}								\
} while (0)

static void from_statx(struct xstat *x, const struct statx *s)
{
	memset(x, 0, sizeof(*x));
	x->st_mode = s->stx_mode;
	x->st_nlink = s->stx_nlink;
	x->st_uid = s->stx_uid;
	x->st_gid = s->stx_gid;
	x->st_rdev.major = s->stx_rdev_major;
	x->st_rdev.minor = s->stx_rdev_minor;
	x->st_dev.major = s->stx_dev_major;
	x->st_dev.minor = s->stx_dev_minor;
	x->st_atim.tv_sec = s->stx_atime.tv_sec;
	x->st_atim.tv_nsec = s->stx_atime.tv_nsec;
	x->st_mtim.tv_sec = s->stx_mtime.tv_sec;
	x->st_mtim.tv_nsec = s->stx_mtime.tv_nsec;
	x->st_ctim.tv_sec = s->stx_ctime.tv_sec;
	x->st_ctim.tv_nsec = s->stx_ctime.tv_nsec;
	x->st_btim.tv_sec = s->stx_btime.tv_sec;
	x->st_btim.tv_nsec = s->stx_btime.tv_nsec;
	x->st_ino = s->stx_ino;
	x->st_size = s->stx_size;
	x->st_blksize = s->stx_blksize;
	x->st_blocks = s->stx_blocks;
	x->st_result_mask = XSTAT_REQUEST__BASIC_STATS;
}

static int same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

static void check_file(const char *path, int *overflows)
{
	struct statx s;
	struct xstat x;
	struct stat want, got;
	struct timespec ts;
	int r1, e1, r2, e2;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
		  &s)) {
		CHECK(0, "statx %s: %s", path, strerror(errno));
		return;
	}
	from_statx(&x, &s);

	memset(&got, 0xa5, sizeof(got));
	errno = 0;
	r1 = xstat_to_stat(&x, &got);
	e1 = errno;
	errno = 0;
	r2 = lstat(path, &want);
	e2 = errno;
	CHECK(r1 == r2, "%s: xstat_to_stat %d (%s), lstat %d (%s)", path,
	      r1, strerror(e1), r2, strerror(e2));
	if (r1 || r2) {
		CHECK(e1 == EOVERFLOW && e2 == EOVERFLOW, "%s: errno %s, %s",
		      path, strerror(e1), strerror(e2));
		if (e1 == EOVERFLOW)
			++*overflows;
		/* *sb is unchanged: every byte still 0xa5. */
		CHECK(got.st_ino == (ino_t)0xa5a5a5a5a5a5a5a5ULL,
		      "%s: *sb written on error", path);
		return;
	}
	CHECK(got.st_dev == want.st_dev, "%s: dev", path);
	CHECK(got.st_ino == want.st_ino, "%s: ino", path);
	CHECK(got.st_mode == want.st_mode, "%s: mode", path);
	CHECK(got.st_nlink == want.st_nlink, "%s: nlink", path);
	CHECK(got.st_uid == want.st_uid, "%s: uid", path);
	CHECK(got.st_gid == want.st_gid, "%s: gid", path);
	CHECK(got.st_rdev == want.st_rdev, "%s: rdev", path);
	CHECK(got.st_size == want.st_size, "%s: size", path);
	CHECK(got.st_blksize == want.st_blksize, "%s: blksize", path);
	CHECK(got.st_blocks == want.st_blocks, "%s: blocks", path);
	CHECK(same_time(&got.st_atim, &want.st_atim), "%s: atime", path);
	CHECK(same_time(&got.st_mtim, &want.st_mtim), "%s: mtime", path);
	CHECK(same_time(&got.st_ctim, &want.st_ctim), "%s: ctime", path);

	CHECK(xstat_to_timespec(&x.st_mtim, &ts) == 0 &&
	      same_time(&ts, &want.st_mtim), "%s: xstat_to_timespec", path);
	CHECK(xstat_makedev(x.st_dev) ==
	      makedev(s.stx_dev_major, s.stx_dev_minor), "%s: dev_t", path);
}

int main(int argc, char *argv[])
{
	static const unsigned int nums[] = {
		0, 1, 3, 0xff, 0x100, 0xfff, 0x1000, 0xfffff, 0x100000,
		0x12345678, 0x7fffffff, 0xffffffff,
	};
	const size_t n = sizeof(nums) / sizeof(nums[0]);
	struct xstat_time t;
	struct timespec ts;
	int overflows = 0;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			struct xstat_dev d = { nums[i], nums[j] };

			CHECK(xstat_makedev(d) == makedev(nums[i], nums[j]),
			      "makedev(%#x, %#x)", nums[i], nums[j]);
			if (sizeof(dev_t) >= 8) {
				CHECK(major(xstat_makedev(d)) == nums[i] &&
				      minor(xstat_makedev(d)) == nums[j],
				      "major/minor(%#x, %#x)", nums[i],
				      nums[j]);
			}
		}

	/* Times at and beyond a 32-bit time_t. */
	t.tv_sec = 0x7fffffffLL;
	t.tv_nsec = 999999999;
	CHECK(xstat_to_timespec(&t, &ts) == 0 && ts.tv_sec == 0x7fffffff &&
	      ts.tv_nsec == 999999999, "2038-01-19");
	t.tv_sec = -0x80000000LL;
	CHECK(xstat_to_timespec(&t, &ts) == 0 && ts.tv_sec == INT32_MIN,
	      "1901-12-13");
	t.tv_sec = 0x80000000LL;
	errno = 0;
	ts.tv_sec = 42;
	if (sizeof(time_t) < 8) {
		CHECK(xstat_to_timespec(&t, &ts) == -1 && errno == EOVERFLOW &&
		      ts.tv_sec == 42, "2038 + 1s: EOVERFLOW");
		overflows++;
	} else {
		CHECK(xstat_to_timespec(&t, &ts) == 0 &&
		      (long long)ts.tv_sec == 0x80000000LL, "2038 + 1s");
	}

	for (i = 1; i < (size_t)argc; i++)
		check_file(argv[i], &overflows);
	printf("time_t %zu off_t %zu ino_t %zu dev_t %zu overflow %d\n",
	       sizeof(time_t), sizeof(off_t), sizeof(ino_t), sizeof(dev_t),
	       overflows);
	return failed;
}
