// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bulk-bench - directory streams (xstat_opendir(3)) against the loops
 * they replace, on one directory, hot cache.
 *
 *   bulk-bench -M N DIR      create N empty files f0000000.. in DIR
 *   bulk-bench [-r ROUNDS] DIR
 *                            time one pass over DIR per case per round
 *   bulk-bench -c [-r ROUNDS] DIR
 *                            the same cold: the page cache dropped before
 *                            each case, wall time, the cases marked (c)
 *   bulk-bench -m DIR        peak memory of one xstat_opendir scan
 *   bulk-bench -T [-r ROUNDS] TREE
 *                            hot, every case over every directory of TREE
 *                            (not following symlinks; those all may read),
 *                            one pass each: a
 *                            tree's many small directories, where what a
 *                            stream pays per directory weighs
 *
 * Cases (ns per entry):
 *   readdir+statx     glibc readdir() + raw statx(dirfd, name, NOFOLLOW,
 *                     BASIC_STATS): the raw-statx loop over the same
 *                     names, in readdir order (c)
 *   names+statx       raw statx over the names listed beforehand
 *   readdir+xstat:M   readdir() + xstat() per name, mask M
 *   bulk:M            xstat_opendir() with mask M (c: basic, extended)
 *   inode+statx       raw statx over the names in inode order (c)
 *   ring+statx        io_uring statx over the names in inode order, 128
 *                     in flight, answers kept: what a read-ahead that
 *                     used its answers could reach (c; with liburing)
 *   inode+opath+gen   opath+gen over the names in inode order, as a
 *                     stream hands them out
 *   opath+gen         per entry: O_PATH open, statx(fd), name_to_handle_at
 *                     (fd, AT_EMPTY_PATH), close - the race-free GEN
 *                     sequence without privilege (issue 17)
 *   inode+statx+gen+statx
 *                     per entry, in inode order: statx, name_to_handle_at
 *                     and statx again by name, inode and ctime compared -
 *                     a shorter sequence that is not race-free
 * BULK_BENCH_CASES, a comma-separated list of case names, times only
 * those (and prints the ratios among them).
 * Each round times every case once, starting at a different case; the
 * figure is the median over rounds, a ratio the median of the per-round
 * ratios.  Hot, times are the thread's CPU time (user + system), so that
 * other load on the machine does not count as ours; cold, they are wall
 * time, since waiting for the disk is what a cold scan costs.  As root the cases also run in a child that has dropped to
 * uid 65534 (the "nobody" rows).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif
#include "xstat.h"

#define MAX_CASES	16
#define BASIC		XSTAT_REQUEST__BASIC_STATS
#define EXT		XSTAT_REQUEST__EXTENDED_STATS

static const char *dir_path;
static int cold;
static char **names;
static char **by_ino;		/* names in inode order */
static size_t nnames;
static volatile unsigned long long sink;

/* -T: each directory of the tree, with its names, as list_names() made */
struct dirset {
	char	*path;
	char	**names, **by_ino;
	size_t	n;
};
static struct dirset *sets;
static size_t nsets, nentries;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(cold ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

struct ino_name {
	ino_t	ino;
	char	*name;
};

static int cmp_ino(const void *a, const void *b)
{
	const struct ino_name *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static void list_names(void)
{
	DIR *d = opendir(dir_path);
	struct dirent *de;
	struct ino_name *in;
	size_t cap = 1024, i;

	if (!d)
		die(dir_path);
	names = malloc(cap * sizeof(*names));
	in = malloc(cap * sizeof(*in));
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (nnames == cap) {
			cap *= 2;
			names = realloc(names, cap * sizeof(*names));
			in = realloc(in, cap * sizeof(*in));
		}
		in[nnames].ino = de->d_ino;
		in[nnames].name = names[nnames] = strdup(de->d_name);
		nnames++;
	}
	closedir(d);
	qsort(in, nnames, sizeof(*in), cmp_ino);
	by_ino = malloc((nnames ? nnames : 1) * sizeof(*by_ino));
	for (i = 0; i < nnames; i++)
		by_ino[i] = in[i].name;
	free(in);
}

static void use_set(size_t j)
{
	dir_path = sets[j].path;
	names = sets[j].names;
	by_ino = sets[j].by_ino;
	nnames = sets[j].n;
}

static int add_set(const char *path, const struct stat *sb, int type,
		   struct FTW *ftw)
{
	static size_t cap;

	(void)ftw;
	if (type != FTW_D)
		return FTW_CONTINUE;
	/* the same directories for root and nobody: lost+found is neither */
	if ((sb->st_mode & 0005) != 0005)
		return FTW_SKIP_SUBTREE;
	if (nsets == cap) {
		cap = cap ? 2 * cap : 1024;
		sets = realloc(sets, cap * sizeof(*sets));
		if (!sets)
			die("realloc");
	}
	dir_path = strdup(path);
	names = by_ino = NULL;
	nnames = 0;
	list_names();
	sets[nsets].path = (char *)dir_path;
	sets[nsets].names = names;
	sets[nsets].by_ino = by_ino;
	sets[nsets].n = nnames;
	nentries += nnames;
	nsets++;
	return FTW_CONTINUE;
}

static size_t run_readdir_statx(unsigned long long mask)
{
	DIR *d = opendir(dir_path);
	struct dirent *de;
	struct statx sx;
	size_t n = 0;

	(void)mask;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] ||
		    (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (syscall(SYS_statx, dirfd(d), de->d_name,
			    AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) == 0)
			sink += sx.stx_ino;
		n++;
	}
	closedir(d);
	return n;
}

static size_t statx_list(char **list)
{
	int fd = open(dir_path, O_RDONLY | O_DIRECTORY);
	struct statx sx;
	size_t i;

	for (i = 0; i < nnames; i++)
		if (syscall(SYS_statx, fd, list[i], AT_SYMLINK_NOFOLLOW,
			    STATX_BASIC_STATS, &sx) == 0)
			sink += sx.stx_ino;
	close(fd);
	return nnames;
}

/* Cold, the names are read from the directory as the other cases do. */
static void relist(void)
{
	DIR *d;

	if (!cold)
		return;
	d = opendir(dir_path);
	if (!d)
		die(dir_path);
	while (readdir(d))
		;
	closedir(d);
}

static size_t run_names_statx(unsigned long long mask)
{
	(void)mask;
	return statx_list(names);
}

static size_t run_inode_statx(unsigned long long mask)
{
	(void)mask;
	relist();
	return statx_list(by_ino);
}

#ifdef HAVE_LIBURING
#define RING_DEPTH	128

static size_t run_ring_statx(unsigned long long mask)
{
	static struct statx sx[RING_DEPTH];
	int fd = open(dir_path, O_RDONLY | O_DIRECTORY);
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	size_t i = 0, inflight = 0, free_slot[RING_DEPTH], nfree;

	(void)mask;
	/* answers complete in any order: a slot is reused once answered */
	for (nfree = 0; nfree < RING_DEPTH; nfree++)
		free_slot[nfree] = nfree;
	relist();
	if (io_uring_queue_init(RING_DEPTH, &ring, 0))
		die("io_uring_queue_init");
	while (i < nnames || inflight) {
		while (i < nnames && inflight < RING_DEPTH) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			size_t slot = free_slot[--nfree];

			io_uring_prep_statx(sqe, fd, by_ino[i],
					    AT_SYMLINK_NOFOLLOW,
					    STATX_BASIC_STATS, &sx[slot]);
			io_uring_sqe_set_data64(sqe, slot);
			inflight++;
			i++;
		}
		io_uring_submit(&ring);
		if (io_uring_wait_cqe(&ring, &cqe))
			die("io_uring_wait_cqe");
		if (cqe->res == 0)
			sink += sx[io_uring_cqe_get_data64(cqe)].stx_ino;
		free_slot[nfree++] = (size_t)io_uring_cqe_get_data64(cqe);
		io_uring_cqe_seen(&ring, cqe);
		inflight--;
	}
	io_uring_queue_exit(&ring);
	close(fd);
	return nnames;
}
#endif

static size_t run_readdir_xstat(unsigned long long mask)
{
	struct xstat_parameters p = { mask };
	DIR *d = opendir(dir_path);
	struct dirent *de;
	struct xstat x;
	size_t n = 0;

	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] ||
		    (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (xstat(dirfd(d), de->d_name, AT_SYMLINK_NOFOLLOW, &p, &x,
			  sizeof(x)) > 0)
			sink += x.st_gen + x.st_data_version;
		n++;
	}
	closedir(d);
	return n;
}

static size_t run_bulk(unsigned long long mask)
{
	struct xstat_parameters p = { mask };
	struct xstat_dir *d = xstat_opendir(AT_FDCWD, dir_path, 0, &p);
	const struct xstat_dirent *e;
	size_t n = 0;

	if (!d)
		die("xstat_opendir");
	while ((e = xstat_readdir(d))) {
		sink += e->d_xstat->st_gen + e->d_xstat->st_data_version;
		n++;
	}
	xstat_closedir(d);
	return n;
}

/* The race-free GEN sequence without privilege, for one name. */
static void opath_gen(int dfd, const char *name)
{
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + 128];
	} h;
	struct statx sx;
	int fd, mnt;

	fd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx);
	h.fh.handle_bytes = 128;
	if (name_to_handle_at(fd, "", &h.fh, &mnt, AT_EMPTY_PATH) == 0)
		sink += h.fh.handle_bytes;
	close(fd);
}

static size_t run_opath_gen(unsigned long long mask)
{
	DIR *d = opendir(dir_path);
	struct dirent *de;
	size_t n = 0;

	(void)mask;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] ||
		    (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		opath_gen(dirfd(d), de->d_name);
		n++;
	}
	closedir(d);
	return n;
}

/* The same over the names in inode order, the order a stream gives. */
static size_t run_opath_gen_ino(unsigned long long mask)
{
	int dfd = open(dir_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t i;

	(void)mask;
	for (i = 0; i < nnames; i++)
		opath_gen(dfd, by_ino[i]);
	close(dfd);
	return nnames;
}

/*
 * A sequence without the O_PATH pin, for comparison only: statx by name,
 * the handle by name, statx by name again, the two answers' inode and
 * ctime compared.  Not race-free (see bench/RESULTS.md): a file replaced
 * by one made alike in the same clock tick, reusing the inode number,
 * passes the check with the other file's generation.
 */
static void statx_gen_statx(int dfd, const char *name)
{
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + 128];
	} h;
	struct statx a, b;
	int mnt;

	if (syscall(SYS_statx, dfd, name, AT_SYMLINK_NOFOLLOW,
		    STATX_BASIC_STATS, &a))
		return;
	h.fh.handle_bytes = 128;
	if (name_to_handle_at(dfd, name, &h.fh, &mnt, 0))
		return;
	if (syscall(SYS_statx, dfd, name, AT_SYMLINK_NOFOLLOW,
		    STATX_BASIC_STATS, &b))
		return;
	if (a.stx_ino == b.stx_ino && a.stx_ctime.tv_sec == b.stx_ctime.tv_sec &&
	    a.stx_ctime.tv_nsec == b.stx_ctime.tv_nsec)
		sink += h.fh.handle_bytes;
}

static size_t run_statx_gen_statx_ino(unsigned long long mask)
{
	int dfd = open(dir_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t i;

	(void)mask;
	for (i = 0; i < nnames; i++)
		statx_gen_statx(dfd, by_ino[i]);
	close(dfd);
	return nnames;
}

struct bcase {
	const char		*name;
	size_t			(*run)(unsigned long long mask);
	unsigned long long	mask;
	int			cold;	/* also timed cold */
};

static const struct bcase cases[] = {
	{ "readdir+statx", run_readdir_statx, 0, 1 },
	{ "names+statx", run_names_statx, 0, 0 },
	{ "bulk:basic", run_bulk, BASIC, 1 },
	{ "bulk:+gen", run_bulk, BASIC | XSTAT_REQUEST_GEN, 0 },
	{ "bulk:+dv", run_bulk, BASIC | XSTAT_REQUEST_DATA_VERSION, 0 },
	{ "bulk:extended", run_bulk, EXT, 1 },
	{ "readdir+xstat:basic", run_readdir_xstat, BASIC, 0 },
	{ "readdir+xstat:+gen", run_readdir_xstat, BASIC | XSTAT_REQUEST_GEN,
	  0 },
	{ "readdir+xstat:extended", run_readdir_xstat, EXT, 0 },
	{ "opath+gen", run_opath_gen, 0, 0 },
	{ "bulk:all", run_bulk, XSTAT_REQUEST__ALL_STATS, 0 },
	{ "inode+statx", run_inode_statx, 0, 1 },
	{ "inode+opath+gen", run_opath_gen_ino, 0, 0 },
	{ "inode+statx+gen+statx", run_statx_gen_statx_ino, 0, 0 },
#ifdef HAVE_LIBURING
	{ "ring+statx", run_ring_statx, 0, 1 },
#endif
};
#define NCASES	(sizeof(cases) / sizeof(cases[0]))

/* Ratios printed: case / base. */
static const struct { int c, base; } ratios[] = {
	{ 2, 0 }, { 2, 1 }, { 5, 0 }, { 5, 1 }, { 3, 0 }, { 4, 0 },
	{ 8, 0 }, { 5, 8 }, { 3, 9 }, { 7, 9 }, { 10, 0 }, { 10, 5 },
	{ 11, 0 }, { 3, 12 }, { 12, 9 }, { 13, 12 },
#ifdef HAVE_LIBURING
	{ 14, 0 },
#endif
};

/* Cold: everything the scan reads comes from the disk again. */
static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);

	sync();
	if (fd < 0 || write(fd, "3", 1) != 1)
		die("/proc/sys/vm/drop_caches (cold needs root)");
	close(fd);
}

/* BULK_BENCH_CASES="a,b,...": only those cases (a quicker look). */
static int selected(size_t c)
{
	const char *sel = getenv("BULK_BENCH_CASES"), *p;
	size_t len = strlen(cases[c].name);

	if (!sel || !*sel)
		return 1;
	for (p = sel; (p = strstr(p, cases[c].name)); p += len)
		if ((p == sel || p[-1] == ',') && (!p[len] || p[len] == ','))
			return 1;
	return 0;
}

static int timed(size_t c)
{
	if (!selected(c))
		return 0;
#ifdef HAVE_LIBURING
	/*
	 * A ring per directory of a tree: thousands set up and torn down,
	 * whose memory is freed later, which runs an unprivileged user out
	 * of locked memory; and no floor of a tree's walk anyway.
	 */
	if (nsets && cases[c].run == run_ring_statx)
		return 0;
#endif
	return !cold || cases[c].cold;
}

/* One pass of case @c over the directory, or over every one of the tree. */
static size_t run_case(size_t c)
{
	size_t j, n = 0;

	if (!nsets)
		return cases[c].run(cases[c].mask);
	for (j = 0; j < nsets; j++) {
		use_set(j);
		n += cases[c].run(cases[c].mask);
	}
	return n;
}

static void bench(const char *who, int rounds)
{
	static double t[NCASES][1024], r[sizeof(ratios) / sizeof(ratios[0])]
					    [1024];
	double per[NCASES];
	size_t c, k, n;
	int i;

	if (rounds > 1024)
		rounds = 1024;
	for (c = 0; c < NCASES; c++)	/* warm up */
		if (timed(c))
			run_case(c);
	for (i = 0; i < rounds; i++) {
		for (k = 0; k < NCASES; k++) {
			double t0;

			c = (k + (size_t)i) % NCASES;
			if (!timed(c))
				continue;
			if (cold)
				drop_caches();
			t0 = now_ns();
			n = run_case(c);
			per[c] = (now_ns() - t0) / (double)(n ? n : 1);
			t[c][i] = per[c];
		}
		for (k = 0; k < sizeof(ratios) / sizeof(ratios[0]); k++)
			if (timed((size_t)ratios[k].c) &&
			    timed((size_t)ratios[k].base))
				r[k][i] = per[ratios[k].c] /
					  per[ratios[k].base];
	}
	if (nsets)
		printf("## %s: %zu entries in %zu directories, %d rounds, ns "
		       "per entry (median)\n", who, nentries, nsets, rounds);
	else
		printf("## %s%s: %zu entries, %d rounds, ns per entry "
		       "(median)\n", who, cold ? ", cold, wall time" : "",
		       nnames, rounds);
	for (c = 0; c < NCASES; c++)
		if (timed(c))
			printf("%-24s %8.1f\n", cases[c].name,
			       median(t[c], rounds));
	for (k = 0; k < sizeof(ratios) / sizeof(ratios[0]); k++)
		if (timed((size_t)ratios[k].c) &&
		    timed((size_t)ratios[k].base))
			printf("ratio %-22s / %-22s %6.3f\n",
			       cases[ratios[k].c].name,
			       cases[ratios[k].base].name,
			       median(r[k], rounds));
	fflush(stdout);
}

static long status_kib(const char *field)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field)))
			v = atol(line + strlen(field));
	fclose(f);
	return v;
}

static void memory(void)
{
	long before = status_kib("VmHWM:"), rss = status_kib("VmRSS:");
	size_t n = run_bulk(EXT);

	printf("memory: %zu entries, VmRSS before %ld KiB, VmHWM after "
	       "%ld KiB (peak growth %ld KiB)\n", n, rss,
	       status_kib("VmHWM:"), status_kib("VmHWM:") -
	       (before > rss ? before : rss));
}

static void make_files(long n)
{
	char p[4096];
	long i;
	int fd;

	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/f%07ld", dir_path, i);
		fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0)
			die(p);
		close(fd);
	}
}

int main(int argc, char **argv)
{
	int opt, rounds = 11, mem = 0, tree = 0, status;
	long make = 0;
	pid_t pid;

	while ((opt = getopt(argc, argv, "M:r:mcT")) != -1) {
		switch (opt) {
		case 'M':
			make = atol(optarg);
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'm':
			mem = 1;
			break;
		case 'c':
			cold = 1;
			break;
		case 'T':
			tree = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-M N] [-r ROUNDS] [-c] [-m] "
				"[-T] DIR\n", argv[0]);
			return 2;
		}
	}
	if (optind + 1 != argc)
		return 2;
	dir_path = argv[optind];
	if (make) {
		make_files(make);
		return 0;
	}
	if (mem) {
		memory();
		return 0;
	}
	if (tree && cold) {
		fprintf(stderr, "-T is hot only\n");
		return 2;
	}
	if (tree) {
		if (nftw(dir_path, add_set, 64, FTW_PHYS | FTW_ACTIONRETVAL))
			die(dir_path);
	} else {
		list_names();
	}
	bench(geteuid() == 0 ? "root" : "user", rounds);
	if (geteuid() != 0 || cold)
		return 0;
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			die("dropping to nobody");
		bench("nobody", rounds);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return 0;
}
