// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuse-bench - cost and server round trips per xstat() call on FUSE.
 *
 *   fuse-bench [-n ITERATIONS]
 *
 * Mounts countfs (tests/fuse/countfs; $COUNTFS overrides) twice: with a
 * long attribute timeout (the cache is always valid) and with none (the
 * cache is always stale), and times xstat() for each sync flag and
 * request mask, in the statx backend and in the fallback (forced with
 * LIBXSTAT_NO_STATX=1 in a child process, since the backend is chosen
 * once per process).  The kernel columns are glibc statx() with the same
 * flags (stat(2) for the fallback), the cost without libxstat.  Rows
 * marked "local" are the same file reached without FUSE, through the
 * directory countfs passes through.  Prints a Markdown table; needs root.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "xstat.h"
#include "../tests/fuse/countfs.h"

static struct cfs *mnt;
static char path[400];
static long iters = 20000;
static int kernel_is_stat;	/* compare the fallback with stat(2) */

static const struct {
	const char	*name;
	unsigned	flags;
} flagset[] = {
	{ "default", 0 },
	{ "NO_ATTR_SYNC", AT_NO_ATTR_SYNC },
	{ "FORCE_ATTR_SYNC", AT_FORCE_ATTR_SYNC },
};

static const struct {
	const char	*name;
	uint64_t	mask;
	unsigned	statx_mask;	/* the kernel-only comparison */
} maskset[] = {
	{ "BASIC", XSTAT_REQUEST__BASIC_STATS, STATX_BASIC_STATS },
	{ "MODE\\|SIZE", XSTAT_REQUEST_MODE | XSTAT_REQUEST_SIZE,
	  STATX_TYPE | STATX_MODE | STATX_SIZE },
	{ "BTIME", XSTAT_REQUEST_BTIME, STATX_BTIME },
	{ "GEN", XSTAT_REQUEST_GEN, 0 },
	{ "ALL (NULL params)", 0, STATX_BASIC_STATS | STATX_BTIME },
};

#define NFLAGS	(sizeof(flagset) / sizeof(flagset[0]))
#define NMASKS	(sizeof(maskset) / sizeof(maskset[0]))

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One cell: mean ns per call and requests per call. */
static void run(int kernel, size_t f, size_t m, long n, double *ns,
		double *req)
{
	struct xstat_parameters p = { maskset[m].mask };
	unsigned flags = flagset[f].flags;
	union {
		struct statx	x;
		struct stat	s;
	} k;
	struct xstat xs;
	uint64_t r0;
	double t0;
	long i;

	r0 = cfs_total(mnt);
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		long ret;

		if (kernel && kernel_is_stat)
			ret = stat(path, &k.s);
		else if (kernel)
			ret = statx(AT_FDCWD, path, (int)flags,
				    maskset[m].statx_mask, &k.x);
		else
			ret = xstat(AT_FDCWD, path, flags,
				    maskset[m].mask ? &p : NULL, &xs,
				    sizeof(xs));
		if (ret < 0) {
			perror("fuse-bench: call");
			exit(1);
		}
	}
	*ns = (now_ns() - t0) / (double)n;
	*req = (double)(cfs_total(mnt) - r0) / (double)n;
}

/*
 * xstat() and the kernel call in alternating chunks, keeping each one's
 * fastest chunk: this machine's noise comes in bursts and only ever adds,
 * and alternating exposes both to the same bursts.  Requests per call
 * are counted over every chunk.
 */
#define CHUNKS	10

static void pair(size_t f, size_t m, long n, double *ns, double *req,
		 double *kns, double *kreq)
{
	double t, r, rsum = 0, krsum = 0;
	long per = n / CHUNKS ? n / CHUNKS : 1;
	int c;

	*ns = *kns = 1e30;
	for (c = 0; c < CHUNKS; c++) {
		run(0, f, m, per, &t, &r);
		rsum += r;
		if (t < *ns)
			*ns = t;
		run(1, f, m, per, &t, &r);
		krsum += r;
		if (t < *kns)
			*kns = t;
	}
	*req = rsum / CHUNKS;
	*kreq = krsum / CHUNKS;
}

static void table(const char *backend, const char *cache, long n)
{
	double ns, req, kns, kreq;
	size_t f, m;

	for (f = 0; f < NFLAGS; f++) {
		for (m = 0; m < NMASKS; m++) {
			/* Warm up once: one-time probes are not per call. */
			run(0, f, m, 1, &ns, &req);
			pair(f, m, n, &ns, &req, &kns, &kreq);
			printf("| %s | %s | %s | %s | %.0f | %.2f | %.0f | "
			       "%.2f |\n", backend, cache, flagset[f].name,
			       maskset[m].name, ns, req, kns, kreq);
		}
	}
	fflush(stdout);
}

static int child(const char *backend, const char *cache, long n)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!strcmp(backend, "fallback")) {
			setenv("LIBXSTAT_NO_STATX", "1", 1);
			kernel_is_stat = 1;
		}
		table(backend, cache, n);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		return -1;
	return 0;
}

static int bench_mount(double timeout, const char *cache, const char *bin,
		       long n)
{
	struct cfs c;
	int fd, ret;

	ret = cfs_start(&c, bin, timeout, 1234567890);
	if (ret)
		return ret;
	mnt = &c;
	snprintf(path, sizeof(path), "%s/file", c.src);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/file", c.mnt);
	ret = child("statx", cache, n);
	if (!ret)
		ret = child("fallback", cache, n);
	if (!ret && timeout > 0) {
		/* The same file without FUSE: the local-filesystem cost. */
		snprintf(path, sizeof(path), "%s/file", c.src);
		ret = child("statx", "local", n);
		if (!ret)
			ret = child("fallback", "local", n);
	}
	cfs_stop(&c);
	return ret;
}

int main(int argc, char **argv)
{
	char buf[512];
	const char *bin = cfs_binary(buf, sizeof(buf));
	int ret;

	if (argc == 3 && !strcmp(argv[1], "-n"))
		iters = atol(argv[2]);
	if (iters < 1)
		iters = 1;

	printf("FUSE (countfs, FUSE_STATX served), %ld calls per cell on one "
	       "file; ns/call and server requests/call.\n\n", iters);
	printf("| backend | cache | flags | mask | xstat ns | xstat req | "
	       "kernel ns | kernel req |\n");
	printf("|---|---|---|---|---|---|---|---|\n");
	ret = bench_mount(3600.0, "valid", bin, iters);
	if (!ret)
		ret = bench_mount(0.0, "stale", bin, iters / 4 ? iters / 4 : 1);
	if (ret == 77)
		fprintf(stderr, "fuse-bench: skipped (needs root, /dev/fuse "
			"and %s)\n", bin);
	return ret == 77 ? 0 : ret ? 1 : 0;
}
