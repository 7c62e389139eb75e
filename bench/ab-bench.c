// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ab-bench - two builds of libxstat side by side in one process, for the
 * effect of one change: build A, a control A' (the same code, or A's
 * source with dead code that moves its functions: bench/ab-run.sh) whose
 * ratio to A is the run's own spread, and build B, each loaded with
 * dlopen (RTLD_LOCAL: its own caches and backend state).
 *
 *   ab-bench -a LIB -c COPY -b LIB [-r ROUNDS] [-n CALLS] [-s] -f FILE
 *	per call: xstat() of FILE with the masks basic, +btime, +gen, +dv
 *	and extended, CALLS calls a batch
 *   ab-bench -a LIB -c COPY -b LIB [-r ROUNDS] [-s] -t DIR
 *	per directory stream: every directory under DIR read with
 *	xstat_opendir()/xstat_readdir(), masks basic and extended
 *
 * -s: statx refused by a seccomp filter (EPERM), as in a sandbox: the
 * fallback backend.  Each round times every case with every build, the
 * order of the builds rotating from round to round; times are the
 * thread's CPU time (other load on the machine does not count).  Printed
 * per case: the median time of each build, and the median of the
 * per-round ratios B/A and A'/A with their 10th-90th percentile range.
 * A difference counts only where B/A lies outside what A'/A shows.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "xstat.h"
#include "refuse-statx.h"

#define MAX_ROUNDS	1001
#define MAX_DIRS	65536
#define NBUILDS		3
#define BASIC		XSTAT_REQUEST__BASIC_STATS
#define EXT		XSTAT_REQUEST__EXTENDED_STATS

struct build {
	const char	*path;
	ssize_t		(*xstat)(int, const char *, unsigned,
				 struct xstat_parameters *, struct xstat *,
				 size_t);
	struct xstat_dir *(*opendir)(int, const char *, unsigned,
				     const struct xstat_parameters *);
	const struct xstat_dirent *(*readdir)(struct xstat_dir *);
	int		(*closedir)(struct xstat_dir *);
};

struct acase {
	const char		*name;
	unsigned long long	mask;
	double			ns[NBUILDS][MAX_ROUNDS];
};

static struct build builds[NBUILDS];	/* A, A's copy, B */
static const char *build_name[NBUILDS] = { "A", "A'", "B" };
static volatile unsigned long long sink;
static char *dirs[MAX_DIRS];
static size_t ndirs;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *sym(void *h, const char *lib, const char *name)
{
	void *p = dlsym(h, name);

	if (!p) {
		fprintf(stderr, "%s: %s\n", lib, dlerror());
		exit(2);
	}
	return p;
}

static void load(struct build *b, const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "%s: %s\n", lib, dlerror());
		exit(2);
	}
	b->path = lib;
	*(void **)&b->xstat = sym(h, lib, "xstat");
	*(void **)&b->opendir = sym(h, lib, "xstat_opendir");
	*(void **)&b->readdir = sym(h, lib, "xstat_readdir");
	*(void **)&b->closedir = sym(h, lib, "xstat_closedir");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The @p-th percentile (0-100) of @v, sorted in place. */
static double pct(double *v, int n, int p)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[(n - 1) * p / 100];
}

/* Per call: @calls calls of xstat() on @path; 0, or -1 on a failure. */
static int run_calls(const struct build *b, unsigned long long mask,
		     const char *path, int calls)
{
	struct xstat_parameters p = { mask };
	struct xstat x;
	int i;

	for (i = 0; i < calls; i++) {
		if (b->xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x)) < 0)
			return -1;
		sink += x.st_ino;
	}
	return 0;
}

/* Every directory under @path, itself first, by full path. */
static void list_dirs(const char *path)
{
	struct xstat_parameters p = { BASIC };
	struct xstat_dir *d;
	const struct xstat_dirent *e;

	if (ndirs == MAX_DIRS) {
		fprintf(stderr, "more than %d directories\n", MAX_DIRS);
		exit(2);
	}
	dirs[ndirs++] = strdup(path);
	d = builds[0].opendir(AT_FDCWD, path, 0, &p);
	if (!d)
		die(path);
	while ((e = builds[0].readdir(d))) {
		char *sub;

		if (e->d_type != DT_DIR && (e->d_type != DT_UNKNOWN ||
		    (e->d_xstat->st_mode & 0170000) != 0040000))
			continue;
		if (asprintf(&sub, "%s/%s", path, e->d_name) < 0)
			die("asprintf");
		list_dirs(sub);
		free(sub);
	}
	builds[0].closedir(d);
}

/* Per stream: every listed directory read once; the entries read. */
static size_t run_streams(const struct build *b, unsigned long long mask)
{
	struct xstat_parameters p = { mask };
	const struct xstat_dirent *e;
	size_t i, n = 0;

	for (i = 0; i < ndirs; i++) {
		struct xstat_dir *d = b->opendir(AT_FDCWD, dirs[i], 0, &p);

		if (!d)
			die(dirs[i]);
		while ((e = b->readdir(d))) {
			sink += e->d_xstat->st_ino + e->d_xstat->st_gen;
			n++;
		}
		b->closedir(d);
	}
	return n;
}

static void report(struct acase *cases, int ncases, int rounds,
		   const char *unit)
{
	static double r[MAX_ROUNDS];
	int c, k, i;

	printf("%-16s %10s %10s %10s   %-22s %-22s\n", "case",
	       "A", "A'", "B", "B/A median [p10 p90]",
	       "A'/A median [p10 p90]");
	for (c = 0; c < ncases; c++) {
		struct acase *a = &cases[c];
		double med[NBUILDS];

		printf("%-16s", a->name);
		for (k = 0; k < NBUILDS; k++) {
			memcpy(r, a->ns[k], rounds * sizeof(*r));
			med[k] = pct(r, rounds, 50);
			printf(" %10.1f", med[k]);
		}
		for (k = 2; k >= 1; k--) {
			double lo, mid, hi;

			for (i = 0; i < rounds; i++)
				r[i] = a->ns[k][i] / a->ns[0][i];
			lo = pct(r, rounds, 10);
			mid = pct(r, rounds, 50);
			hi = pct(r, rounds, 90);
			printf("   %.3f [%.3f %.3f]  ", mid, lo, hi);
		}
		printf("\n");
	}
	printf("(%s; %d rounds)\n", unit, rounds);
}

int main(int argc, char **argv)
{
	static struct acase per_call[] = {
		{ .name = "xstat:basic", .mask = BASIC },
		{ .name = "xstat:+btime",
		  .mask = BASIC | XSTAT_REQUEST_BTIME },
		{ .name = "xstat:+gen", .mask = BASIC | XSTAT_REQUEST_GEN },
		{ .name = "xstat:+dv",
		  .mask = BASIC | XSTAT_REQUEST_DATA_VERSION },
		{ .name = "xstat:extended", .mask = EXT },
	};
	static struct acase per_stream[] = {
		{ .name = "stream:basic", .mask = BASIC },
		{ .name = "stream:extended", .mask = EXT },
	};
	const char *lib[NBUILDS] = { NULL }, *file = NULL, *tree = NULL;
	int opt, rounds = 51, calls = 200, sandbox = 0, i, c, k, ncases;
	struct acase *cases;
	size_t entries = 0;

	while ((opt = getopt(argc, argv, "a:c:b:r:n:sf:t:")) != -1) {
		switch (opt) {
		case 'a': lib[0] = optarg; break;
		case 'c': lib[1] = optarg; break;
		case 'b': lib[2] = optarg; break;
		case 'r': rounds = atoi(optarg); break;
		case 'n': calls = atoi(optarg); break;
		case 's': sandbox = 1; break;
		case 'f': file = optarg; break;
		case 't': tree = optarg; break;
		default: goto usage;
		}
	}
	if (!lib[0] || !lib[1] || !lib[2] || !file == !tree ||
	    rounds < 1 || rounds > MAX_ROUNDS || calls < 1)
		goto usage;
	for (k = 0; k < NBUILDS; k++)
		load(&builds[k], lib[k]);
	if (sandbox)
		if (bench_refuse_statx(EPERM) < 0)
			die("seccomp");
	cases = file ? per_call : per_stream;
	ncases = file ? 5 : 2;
	if (tree)
		list_dirs(tree);
	/* warm up: every build's caches filled, the files' inodes hot */
	for (c = 0; c < ncases; c++)
		for (k = 0; k < NBUILDS; k++) {
			if (file && run_calls(&builds[k], cases[c].mask,
					      file, calls))
				die(file);
			if (tree)
				entries = run_streams(&builds[k],
						      cases[c].mask);
		}
	for (i = 0; i < rounds; i++)
		for (c = 0; c < ncases; c++)
			for (k = 0; k < NBUILDS; k++) {
				int b = (k + i + c) % NBUILDS;
				double t0 = now_ns(), n = calls;

				if (file)
					run_calls(&builds[b], cases[c].mask,
						  file, calls);
				else
					n = (double)run_streams(&builds[b],
								cases[c].mask);
				cases[c].ns[b][i] = (now_ns() - t0) / n;
			}
	for (k = 0; k < NBUILDS; k++)
		printf("# %-2s %s\n", build_name[k], lib[k]);
	if (file)
		printf("# per call: %s, %d calls a batch, %s\n", file, calls,
		       sandbox ? "statx refused (seccomp EPERM)" : "statx");
	else
		printf("# per stream: %zu directories, %zu entries under %s, "
		       "%s\n", ndirs, entries, tree,
		       sandbox ? "statx refused (seccomp EPERM)" : "statx");
	report(cases, ncases, rounds, file ? "ns per call, thread CPU time"
				       : "ns per entry, thread CPU time");
	return 0;
usage:
	fprintf(stderr, "usage: %s -a LIB -c COPY -b LIB [-r ROUNDS] "
		"[-n CALLS] [-s] -f FILE | -t DIR\n", argv[0]);
	return 2;
}
