// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Server round trips per xstat()/fxstat() call on a FUSE mount (countfs),
 * which caches attributes the way NFS and CIFS clients do.
 *
 *   test-fuse statx      the statx backend
 *   test-fuse fallback   run under "seccomp-run -s statx": the fallback
 *
 * The oracle for every count is the kernel itself: the same call made
 * with glibc's statx() (or fstatat() where statx is blocked) on a twin
 * file with the same history.  The counts are also checked against the
 * numbers the sync flags promise, and the values against what was written
 * into the directory under the mount (chmod behind the cache's back).
 *
 * A directory stream (xstat_opendir()) is measured on a mount without an
 * attribute cache against xstat() per name: it never reads ahead through
 * io_uring on FUSE, so it costs the server no more than the loop does.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "fuse/countfs.h"

#define ATTR_TIMEOUT	1.0	/* seconds: the attribute cache lifetime */
#define SERVER_BTIME	1234567890LL
#define GETVERSION	0x80087601UL	/* FS_IOC_GETVERSION, _IOR('v',1,long) */
#define OP_FORGET	2
#define OP_RELEASEDIR	29
#define OP_INTERRUPT	36
#define OP_BATCH_FORGET	42

static int fallback;		/* statx is blocked: the fstatat backend */
static char countfs_bin[512];

struct fsctx {
	struct cfs	cfs;
	int64_t		btime;	/* 0: server answers FUSE_STATX with ENOSYS */
	int		seq;	/* file name counter */
	int		wide_ino;	/* countfs --wide-ino */
};

/* ------------------------------------------------------------------ */
/* counting */

/*
 * Requests a call waits for.  Left out: STATFS (libxstat's once per
 * filesystem type lookup, counted on its own) and what the kernel sends
 * asynchronously after a call returned (RELEASE, FORGET, INTERRUPT).
 */
struct snap {
	uint64_t	attr;		/* GETATTR + STATX */
	uint64_t	cost;		/* every synchronous request */
	uint64_t	statfs;
};

/* What the kernel sends on its own after a call returned. */
static const unsigned async_ops[] = {
	CFS_RELEASE, OP_RELEASEDIR, OP_FORGET, OP_BATCH_FORGET, OP_INTERRUPT,
};
#define NR_ASYNC_OPS	(sizeof(async_ops) / sizeof(async_ops[0]))

static struct snap snap(const struct cfs *c)
{
	struct snap s;
	size_t i;

	s.attr = cfs_attr_requests(c);
	s.statfs = cfs_count(c, CFS_STATFS);
	s.cost = cfs_total(c) - s.statfs;
	for (i = 0; i < NR_ASYNC_OPS; i++)
		s.cost -= cfs_count(c, async_ops[i]);
	return s;
}

static struct snap delta(const struct cfs *c, struct snap before)
{
	struct snap now = snap(c);

	now.attr -= before.attr;
	now.cost -= before.cost;
	now.statfs -= before.statfs;
	return now;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s,
			       (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Let the attribute cache of everything looked up so far run out. */
static void expire(void)
{
	sleep_s(ATTR_TIMEOUT + 0.3);
}

/* ------------------------------------------------------------------ */
/* files and oracles */

/* A new file in the passed-through directory, looked up via the mount. */
static void new_file(struct fsctx *fx, char *mpath, size_t len, mode_t mode)
{
	char spath[400];
	struct stat sb;
	int fd;

	snprintf(spath, sizeof(spath), "%s/f%d", fx->cfs.src, fx->seq);
	snprintf(mpath, len, "%s/f%d", fx->cfs.mnt, fx->seq);
	fx->seq++;
	fd = open(spath, O_CREAT | O_WRONLY | O_CLOEXEC, mode);
	assert_true(fd >= 0);
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
	assert_int_equal(lstat(mpath, &sb), 0);		/* LOOKUP */
}

/* The source path behind a mount path. */
static void src_of(const struct fsctx *fx, const char *mpath, char *spath,
		   size_t len)
{
	snprintf(spath, len, "%s%s", fx->cfs.src,
		 mpath + strlen(fx->cfs.mnt));
}

/* The test's own XSTAT -> STATX table (statx(2) bit values). */
static unsigned statx_mask_of(uint64_t m)
{
	return ((m & XSTAT_REQUEST_MODE) ? 0x3u : 0) |
	       (unsigned)((m & 0xe) << 1) | (unsigned)(m & 0xfe0);
}

/*
 * What the kernel does for this call without libxstat: glibc statx(), or
 * fstatat() where statx is blocked (the sync flags do not exist there).
 * Returns 0 or an errno; *mode gets the file's mode.
 */
static int oracle(int dfd, const char *path, unsigned flags, uint64_t mask,
		  unsigned *mode, int64_t *btime)
{
	struct statx sx;
	struct stat sb;

	if (!fallback) {
		if (statx(dfd, path, (int)flags, statx_mask_of(mask), &sx))
			return errno;
		*mode = sx.stx_mode;
		if (btime)
			*btime = (sx.stx_mask & STATX_BTIME) ?
				 sx.stx_btime.tv_sec : -1;
		return 0;
	}
	if (fstatat(dfd, path, &sb,
		    (int)(flags & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))))
		return errno;
	*mode = sb.st_mode;
	if (btime)
		*btime = -1;
	return 0;
}

static int call_xstat(int dfd, const char *path, unsigned flags,
		      uint64_t mask, struct xstat *xs)
{
	struct xstat_parameters p = { .request_mask = mask };
	ssize_t ret;

	memset(xs, 0xa5, sizeof(*xs));
	if (path)
		ret = xstat(dfd, path, flags, &p, xs, sizeof(*xs));
	else
		ret = fxstat((unsigned)dfd, flags, &p, xs, sizeof(*xs));
	if (ret < 0)
		return errno;
	assert_int_equal(ret, sizeof(*xs));
	return 0;
}

/* ------------------------------------------------------------------ */
/* the flag x mask matrix */

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
} maskset[] = {
	{ "BASIC", XSTAT_REQUEST__BASIC_STATS },
	{ "MODE|SIZE", XSTAT_REQUEST_MODE | XSTAT_REQUEST_SIZE },
	{ "RDEV", XSTAT_REQUEST_RDEV },		/* no statx bit at all */
	{ "BTIME", XSTAT_REQUEST_BTIME },
	{ "BASIC|BTIME", XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME },
};

#define NFLAGS	(sizeof(flagset) / sizeof(flagset[0]))
#define NMASKS	(sizeof(maskset) / sizeof(maskset[0]))
#define NCOMBO	(NFLAGS * NMASKS)

/*
 * Round trips the flags promise for a request that needs attributes
 * from the kernel (no BTIME: whether BTIME needs one is the kernel's
 * business, checked against the oracle only).
 */
static int promised(unsigned flags, uint64_t mask, int expired)
{
	if (!statx_mask_of(mask) && !fallback)
		return 0;	/* nothing asked of the kernel: no sync */
	if (fallback)		/* stat(2) semantics whatever the flags */
		return expired;
	if (flags & AT_FORCE_ATTR_SYNC)
		return 1;
	if (flags & AT_NO_ATTR_SYNC)
		return 0;
	return expired;
}

struct twin {
	char	a[400], b[400];	/* a: oracle, b: xstat */
	int	fa, fb;		/* open fds, for fxstat */
};

static void measure(struct fsctx *fx, struct twin *t, size_t i, int use_fd,
		    int expired)
{
	unsigned flags = flagset[i / NMASKS].flags, mode;
	uint64_t mask = maskset[i % NMASKS].mask;
	struct snap s, ro, rx;
	struct xstat xs;
	int e;

	s = snap(&fx->cfs);
	e = use_fd ? oracle(t->fa, "", flags | AT_EMPTY_PATH, mask, &mode,
			    NULL)
		   : oracle(AT_FDCWD, t->a, flags, mask, &mode, NULL);
	ro = delta(&fx->cfs, s);
	assert_int_equal(e, 0);

	s = snap(&fx->cfs);
	e = use_fd ? call_xstat(t->fb, NULL, flags, mask, &xs)
		   : call_xstat(AT_FDCWD, t->b, flags, mask, &xs);
	rx = delta(&fx->cfs, s);
	assert_int_equal(e, 0);

	printf("# %s %-8s %-15s %-11s kernel %" PRIu64 "/%" PRIu64
	       " xstat %" PRIu64 "/%" PRIu64 " statfs %" PRIu64 "\n",
	       use_fd ? "fxstat" : "xstat ", expired ? "expired" : "valid",
	       flagset[i / NMASKS].name, maskset[i % NMASKS].name,
	       ro.attr, ro.cost, rx.attr, rx.cost, rx.statfs);
	/* Never more than the kernel needs for the same call... */
	assert_int_equal(rx.attr, ro.attr);
	assert_int_equal(rx.cost, ro.cost);
	/* ...and exactly what the flags promise. */
	if (!(mask & XSTAT_REQUEST_BTIME))
		assert_int_equal(rx.attr, promised(flags, mask, expired));
}

static void matrix(struct fsctx *fx, int use_fd)
{
	struct twin t[NCOMBO];
	double start;
	size_t i;

	/*
	 * Valid cache: each twin pair is looked up (and opened) just before
	 * it is measured, so a slow machine cannot outlive the timeout.
	 */
	for (i = 0; i < NCOMBO; i++) {
		start = now_s();
		new_file(fx, t[i].a, sizeof(t[i].a), 0644);
		new_file(fx, t[i].b, sizeof(t[i].b), 0644);
		t[i].fa = t[i].fb = -1;
		if (use_fd) {
			t[i].fa = open(t[i].a, O_RDONLY | O_CLOEXEC);
			t[i].fb = open(t[i].b, O_RDONLY | O_CLOEXEC);
			assert_true(t[i].fa >= 0 && t[i].fb >= 0);
		}
		measure(fx, &t[i], i, use_fd, 0);
		if (now_s() - start > ATTR_TIMEOUT / 2)
			fail_msg("too slow to measure within the timeout");
	}

	/* Expired cache: each twin expires, then one call each. */
	expire();
	for (i = 0; i < NCOMBO; i++)
		measure(fx, &t[i], i, use_fd, 1);

	for (i = 0; i < NCOMBO; i++) {
		if (use_fd) {
			close(t[i].fa);
			close(t[i].fb);
		}
	}
}

/*
 * The kernel tries FUSE_STATX once per connection and, on ENOSYS, never
 * again; and libxstat looks the filesystem type up once.  Both happen
 * here, before the twins are compared, and are reported.
 */
static void warm_up(struct fsctx *fx)
{
	char p[400];
	struct snap s;
	struct statx sx;
	struct xstat xs;
	struct stat sb;

	new_file(fx, p, sizeof(p), 0644);
	s = snap(&fx->cfs);
	if (!fallback)
		assert_int_equal(statx(AT_FDCWD, p, AT_STATX_FORCE_SYNC,
				       STATX_BASIC_STATS | STATX_BTIME, &sx),
				 0);
	else
		assert_int_equal(stat(p, &sb), 0);
	s = delta(&fx->cfs, s);
	printf("# warm-up: kernel BTIME probe: %" PRIu64 " attribute "
	       "requests (STATX %s)\n", s.attr,
	       fx->btime ? "served" : "answered ENOSYS");

	new_file(fx, p, sizeof(p), 0644);
	s = snap(&fx->cfs);
	assert_int_equal(call_xstat(AT_FDCWD, p, 0, XSTAT_REQUEST__BASIC_STATS |
				    XSTAT_REQUEST_BTIME, &xs), 0);
	s = delta(&fx->cfs, s);
	printf("# warm-up: first xstat(BTIME): %" PRIu64 " STATFS, %" PRIu64
	       " other requests\n", s.statfs, s.cost);
	/* At most one STATFS per filesystem, ever. */
	assert_true(s.statfs <= 1);
}

static void test_matrix_path(void **state)
{
	struct fsctx *fx = *state;

	warm_up(fx);
	matrix(fx, 0);
}

static void test_matrix_fd(void **state)
{
	matrix(*state, 1);
}

/* ------------------------------------------------------------------ */
/* fresh values: FORCE_ATTR_SYNC sees a change the cache does not */

static void check_mode(struct fsctx *fx, const char *p, unsigned flags,
		       unsigned want, const char *why)
{
	struct xstat xs;
	unsigned omode;

	assert_int_equal(call_xstat(AT_FDCWD, p, flags, XSTAT_REQUEST_MODE,
				    &xs), 0);
	assert_int_equal(oracle(AT_FDCWD, p, flags, XSTAT_REQUEST_MODE,
				&omode, NULL), 0);
	printf("# %-28s mode %04o (kernel %04o, expected %04o)\n", why,
	       xs.st_mode & 07777, omode & 07777, want);
	assert_true(xs.st_result_mask & XSTAT_REQUEST_MODE);
	assert_int_equal(xs.st_mode & 07777, want);
	assert_int_equal(omode & 07777, want);
	(void)fx;
}

static void test_values(void **state)
{
	struct fsctx *fx = *state;
	char p[400], s[400];
	struct stat sb;

	new_file(fx, p, sizeof(p), 0644);
	src_of(fx, p, s, sizeof(s));
	/* Behind the cache's back: the server has 0600, the cache 0644. */
	assert_int_equal(chmod(s, 0600), 0);
	assert_int_equal(lstat(s, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);

	check_mode(fx, p, AT_NO_ATTR_SYNC, 0644, "valid, NO_ATTR_SYNC");
	check_mode(fx, p, 0, 0644, "valid, default");
	/* The fallback cannot force: stat(2) trusts a valid cache. */
	check_mode(fx, p, AT_FORCE_ATTR_SYNC, fallback ? 0644 : 0600,
		   "valid, FORCE_ATTR_SYNC");

	assert_int_equal(chmod(s, 0640), 0);
	expire();
	/* The fallback cannot refrain: stat(2) refreshes a stale cache. */
	check_mode(fx, p, AT_NO_ATTR_SYNC, fallback ? 0640 : 0600,
		   "expired, NO_ATTR_SYNC");
	check_mode(fx, p, 0, 0640, "expired, default");
}

/* ------------------------------------------------------------------ */
/* GEN: FUSE has no generation; asking for one must cost nothing lasting */

static void test_gen(void **state)
{
	struct fsctx *fx = *state;
	char p[400], q[400];
	struct snap s, ro, rx;
	struct xstat xs;
	unsigned mode, v;
	int i, fd;
	uint64_t m = XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN;

	new_file(fx, p, sizeof(p), 0644);
	new_file(fx, q, sizeof(q), 0644);

	/* Oracle: the filesystem has no FS_IOC_GETVERSION. */
	fd = open(q, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(ioctl(fd, GETVERSION, &v), -1);
	assert_int_equal(errno, ENOTTY);
	close(fd);

	for (i = 0; i < 4; i++) {
		uint64_t op0 = cfs_count(&fx->cfs, CFS_OPEN);
		uint64_t io0 = cfs_count(&fx->cfs, CFS_IOCTL);
		uint64_t fl0 = cfs_count(&fx->cfs, CFS_FLUSH);

		s = snap(&fx->cfs);
		assert_int_equal(oracle(AT_FDCWD, q, 0, m, &mode, NULL), 0);
		ro = delta(&fx->cfs, s);
		s = snap(&fx->cfs);
		assert_int_equal(call_xstat(AT_FDCWD, p, 0, m, &xs), 0);
		rx = delta(&fx->cfs, s);
		printf("# GEN call %d: kernel %" PRIu64 " requests, xstat %"
		       PRIu64 " (OPEN %" PRIu64 ", IOCTL %" PRIu64
		       ", FLUSH %" PRIu64 ", STATFS %" PRIu64 ")\n", i + 1,
		       ro.cost, rx.cost, cfs_count(&fx->cfs, CFS_OPEN) - op0,
		       cfs_count(&fx->cfs, CFS_IOCTL) - io0,
		       cfs_count(&fx->cfs, CFS_FLUSH) - fl0, rx.statfs);
		/* No generation over FUSE: never claimed. */
		assert_false(xs.st_result_mask & XSTAT_REQUEST_GEN);
		assert_int_equal(rx.attr, ro.attr);
		/* After the first call libxstat knows: nothing extra. */
		if (i > 0)
			assert_int_equal(rx.cost, ro.cost);
		else
			assert_true(rx.cost <= ro.cost + 3);
	}

	/* fxstat() on an open fd: the same. */
	fd = open(p, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	s = snap(&fx->cfs);
	assert_int_equal(call_xstat(fd, NULL, 0, m, &xs), 0);
	rx = delta(&fx->cfs, s);
	close(fd);
	printf("# GEN fxstat: %" PRIu64 " requests\n", rx.cost);
	assert_int_equal(rx.cost, 0);
	assert_false(xs.st_result_mask & XSTAT_REQUEST_GEN);
}

/* ------------------------------------------------------------------ */
/* BTIME served by the filesystem */

static void test_btime(void **state)
{
	struct fsctx *fx = *state;
	char p[400];
	struct xstat xs;
	unsigned mode;
	int64_t obt;

	new_file(fx, p, sizeof(p), 0644);
	assert_int_equal(call_xstat(AT_FDCWD, p, AT_FORCE_ATTR_SYNC,
				    XSTAT_REQUEST_BTIME, &xs), 0);
	assert_int_equal(oracle(AT_FDCWD, p, AT_FORCE_ATTR_SYNC,
				XSTAT_REQUEST_BTIME, &mode, &obt), 0);
	printf("# BTIME: result %s, %lld (server %lld, kernel %lld)\n",
	       (xs.st_result_mask & XSTAT_REQUEST_BTIME) ? "set" : "clear",
	       (long long)xs.st_btim.tv_sec, (long long)fx->btime,
	       (long long)obt);
	if (fallback || !fx->btime) {
		/* fstatat has no btime; a server without statx neither. */
		assert_false(xs.st_result_mask & XSTAT_REQUEST_BTIME);
		assert_int_equal(xs.st_btim.tv_sec, 0);
		assert_int_equal(obt, -1);
	} else {
		assert_true(xs.st_result_mask & XSTAT_REQUEST_BTIME);
		assert_int_equal(xs.st_btim.tv_sec, fx->btime);
		assert_int_equal(obt, fx->btime);
	}
}

/* ------------------------------------------------------------------ */
/* a dead server: the kernel's error, at once */

static void on_alarm(int sig)
{
	static const char msg[] = "test-fuse: call hung on a dead server\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(99);
	_exit(99);
}

struct dead_call {
	const char	*name;
	int		use_fd;
	unsigned	flags;
	const char	*path;
};

static void dead_check(struct fsctx *fx, const struct dead_call *dc, int fd,
		       int must_fail)
{
	struct xstat xs;
	unsigned mode;
	double t0, t;
	int ex, eo;

	(void)fx;
	alarm(5);
	t0 = now_s();
	ex = dc->use_fd ? call_xstat(fd, NULL, dc->flags,
				     XSTAT_REQUEST__BASIC_STATS, &xs)
			: call_xstat(AT_FDCWD, dc->path, dc->flags,
				     XSTAT_REQUEST__BASIC_STATS, &xs);
	t = now_s() - t0;
	alarm(0);
	eo = dc->use_fd ? oracle(fd, "", dc->flags | AT_EMPTY_PATH,
				 XSTAT_REQUEST__BASIC_STATS, &mode, NULL)
			: oracle(AT_FDCWD, dc->path, dc->flags,
				 XSTAT_REQUEST__BASIC_STATS, &mode, NULL);
	printf("# dead server: %-28s xstat %s, kernel %s, %.3f s\n", dc->name,
	       ex ? strerror(ex) : "ok", eo ? strerror(eo) : "ok", t);
	assert_int_equal(ex, eo);
	assert_true(t < 2.0);
	if (must_fail)
		assert_int_equal(ex, ENOTCONN);
}

static void test_dead_server(void **state)
{
	struct fsctx *fx = *state;
	char p[400], gone[400];
	int fd, st;

	new_file(fx, p, sizeof(p), 0644);
	snprintf(gone, sizeof(gone), "%s/never-looked-up", fx->cfs.mnt);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	signal(SIGALRM, on_alarm);

	assert_int_equal(kill(fx->cfs.pid, SIGKILL), 0);
	assert_int_equal(waitpid(fx->cfs.pid, &st, 0), fx->cfs.pid);
	fx->cfs.pid = 0;

	{
		const struct dead_call valid[] = {
			{ "valid, default", 0, 0, p },
			{ "valid, NO_ATTR_SYNC", 0, AT_NO_ATTR_SYNC, p },
			{ "valid, FORCE_ATTR_SYNC", 0, AT_FORCE_ATTR_SYNC, p },
			{ "valid, fd, FORCE_ATTR_SYNC", 1, AT_FORCE_ATTR_SYNC,
			  NULL },
			{ "lookup of a new name", 0, 0, gone },
		};
		size_t i;

		for (i = 0; i < sizeof(valid) / sizeof(valid[0]); i++)
			dead_check(fx, &valid[i], fd,
				   valid[i].path == gone ||
				   (!fallback && (valid[i].flags &
						  AT_FORCE_ATTR_SYNC)));
	}

	expire();
	{
		const struct dead_call stale[] = {
			{ "expired, default", 0, 0, p },
			{ "expired, NO_ATTR_SYNC", 0, AT_NO_ATTR_SYNC, p },
			{ "expired, fd, default", 1, 0, NULL },
			{ "expired, fd, NO_ATTR_SYNC", 1, AT_NO_ATTR_SYNC, NULL },
		};
		size_t i;

		for (i = 0; i < sizeof(stale) / sizeof(stale[0]); i++)
			dead_check(fx, &stale[i], fd,
				   fallback || !(stale[i].flags &
						 AT_NO_ATTR_SYNC));
	}
	close(fd);
}

/* ------------------------------------------------------------------ */
/*
 * A directory stream on FUSE: never an io_uring read-ahead (issue 23).
 *
 * On a remote filesystem every statx may be a request to the server, so
 * a read-ahead there doubles the requests and shares nothing: bulk.c
 * marks the stream remote and bulk_window.c never turns the ring on for
 * it.  With attr_timeout 0 every statx is a GETATTR (or STATX), so the
 * server counts exactly the statx calls made, ring ones included.  One
 * stream pass over a directory must then cost the server what xstat()
 * per name costs, plus only the reading of the directory itself.
 *
 * A stream decides about the ring in two ways, and both are covered: by
 * default it times its first URING_SAMPLE calls of each batch and turns
 * the ring on when they wait (a FUSE round trip usually takes longer than
 * bulk_uring.c's 20 us, but that is the machine's say); with
 * LIBXSTAT_URING=always from the first batch on, whatever the timing.
 * That choice is read once per process, so each pass runs in a child of
 * its own, and this process never opens a stream itself.  Where the
 * library has no liburing, or the fallback backend runs, there is no
 * ring to refuse and the relation holds all the same.
 */

#define STREAM_FILES	3000	/* six BULK_SMALL batches of 512 */
#define STREAM_PASS_S	60	/* a child still running is hung */

/* The directory reading a stream does and the per-name loop does not. */
#define OP_READDIR	28
#define OP_READDIRPLUS	44

struct ops {
	uint64_t	op[CFS_NOPS];
};

static struct ops ops_now(const struct cfs *c)
{
	struct ops o;
	unsigned i;

	for (i = 0; i < CFS_NOPS; i++)
		o.op[i] = cfs_count(c, i);
	return o;
}

/* Synchronous requests since @b by opcode (as snap(): async ones out). */
static struct ops ops_since(const struct cfs *c, const struct ops *b)
{
	struct ops o = ops_now(c);
	size_t i;

	for (i = 0; i < CFS_NOPS; i++)
		o.op[i] -= b->op[i];
	for (i = 0; i < NR_ASYNC_OPS; i++)
		o.op[async_ops[i]] = 0;
	return o;
}

static uint64_t ops_attr(const struct ops *o)
{
	return o->op[CFS_GETATTR] + o->op[CFS_STATX];
}

static void ops_print(const char *what, const struct ops *o)
{
	char line[512];
	size_t used;
	unsigned i;

	used = (size_t)snprintf(line, sizeof(line), "# %-26s", what);
	for (i = 0; i < CFS_NOPS && used < sizeof(line); i++)
		if (o->op[i])
			used += (size_t)snprintf(line + used,
						 sizeof(line) - used,
						 " op%u=%" PRIu64, i, o->op[i]);
	printf("%s\n", line);
}

struct stream_ent {
	int		seen;		/* times the stream gave this name */
	int		err;		/* its d_error */
	size_t		len;		/* its d_xstat_len */
	struct xstat	xs;
};

/* One stream pass, made by a child; shared with this process. */
struct stream_pass {
	char			dir[400];
	uint64_t		mask;
	int			forced;	/* LIBXSTAT_URING=always */
	int			err;	/* errno of opendir/readdir */
	size_t			others;	/* names that are not ours */
	struct stream_ent	ent[STREAM_FILES];
	size_t			falls;	/* d_ino below the one before */
};

/* Entry "f<i>" of the test directory: i, or -1 for any other name. */
static int file_index(const char *name)
{
	char *end;
	unsigned long i;

	if (name[0] != 'f' || name[1] < '0' || name[1] > '9')
		return -1;
	i = strtoul(name + 1, &end, 10);
	return *end || i >= STREAM_FILES ? -1 : (int)i;
}

/* In the child: no cmocka here, only what the parent checks. */
static int stream_child(void *arg)
{
	struct stream_pass *sp = arg;
	struct xstat_parameters p = { .request_mask = sp->mask };
	const struct xstat_dirent *de;
	struct xstat_dir *d;
	uint64_t last = 0;
	int i;

	if (sp->forced)
		setenv("LIBXSTAT_URING", "always", 1);
	else
		unsetenv("LIBXSTAT_URING");
	d = xstat_opendir(AT_FDCWD, sp->dir, 0, &p);
	if (!d) {
		sp->err = errno;
		return 1;
	}
	errno = 0;
	while ((de = xstat_readdir(d))) {
		sp->falls += de->d_ino < last;
		last = de->d_ino;
		i = file_index(de->d_name);
		if (i < 0) {
			sp->others++;
			continue;
		}
		sp->ent[i].seen++;
		sp->ent[i].err = de->d_error;
		sp->ent[i].len = de->d_xstat_len;
		memcpy(&sp->ent[i].xs, de->d_xstat, sizeof(struct xstat));
	}
	sp->err = errno;
	xstat_closedir(d);
	return sp->err ? 1 : 0;
}

static void assert_same_basic(const struct xstat *s, const struct xstat *x,
			      int i)
{
	if ((s->st_result_mask ^ x->st_result_mask) &
	    XSTAT_REQUEST__BASIC_STATS ||
	    s->st_mode != x->st_mode || s->st_nlink != x->st_nlink ||
	    s->st_uid != x->st_uid || s->st_gid != x->st_gid ||
	    s->st_rdev.major != x->st_rdev.major ||
	    s->st_rdev.minor != x->st_rdev.minor ||
	    s->st_dev.major != x->st_dev.major ||
	    s->st_dev.minor != x->st_dev.minor ||
	    memcmp(&s->st_atim, &x->st_atim, sizeof(s->st_atim)) ||
	    memcmp(&s->st_mtim, &x->st_mtim, sizeof(s->st_mtim)) ||
	    memcmp(&s->st_ctim, &x->st_ctim, sizeof(s->st_ctim)) ||
	    s->st_ino != x->st_ino || s->st_size != x->st_size ||
	    s->st_blocks != x->st_blocks)
		fail_msg("f%d: the stream's result is not xstat()'s (mask "
			 "%#llx/%#llx, mode %o/%o, ino %llu/%llu, size "
			 "%llu/%llu)", i, s->st_result_mask, x->st_result_mask,
			 s->st_mode, x->st_mode, s->st_ino, x->st_ino,
			 s->st_size, x->st_size);
}

/*
 * Files f0..f<STREAM_FILES-1> in a fresh directory, each looked up once
 * and held by an O_PATH descriptor in @pin (no FUSE request): neither the
 * loop nor the stream then pays a LOOKUP the other got for free, even
 * when another process's memory pressure or drop_caches (a cold-cache
 * benchmark) empties the dentry cache while the test runs.
 */
static void stream_dir(struct fsctx *fx, const char *sub, char *mdir,
		       size_t len, int *pin)
{
	char sdir[400], p[480];
	struct rlimit rl;
	int i, fd;

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_cur < STREAM_FILES + 64) {
		rl.rlim_cur = STREAM_FILES + 64;
		if (rl.rlim_max < rl.rlim_cur)
			rl.rlim_max = rl.rlim_cur;	/* root may */
		assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	}
	snprintf(sdir, sizeof(sdir), "%s/%s", fx->cfs.src, sub);
	snprintf(mdir, len, "%s/%s", fx->cfs.mnt, sub);
	assert_int_equal(mkdir(sdir, 0755), 0);
	for (i = 0; i < STREAM_FILES; i++) {
		/* sizes and modes that differ, so results can differ */
		snprintf(p, sizeof(p), "%s/f%d", sdir, i);
		fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC,
			  0600 | (mode_t)(i % 8) << 3);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, p, (size_t)(i % 13)), i % 13);
		close(fd);
	}
	for (i = 0; i < STREAM_FILES; i++) {
		snprintf(p, sizeof(p), "%s/f%d", mdir, i);
		pin[i] = open(p, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		assert_true(pin[i] >= 0);
	}
}

static void unpin(int *pin)
{
	int i;

	for (i = 0; i < STREAM_FILES; i++)
		if (pin[i] >= 0)
			close(pin[i]);
	free(pin);
}

/*
 * The exact relation: a stream pass costs request for request what the
 * per-name loop costs, plus the directory's own: OPENDIR, its READDIRs,
 * and, where the stream asks for the directory's filesystem
 * (bulk_dir_fs(): one statx of the directory, once per stream), one
 * attribute request and at most one STATFS (none where fscache.c knows
 * the mount or statmount(2) names its type: no request to the server).
 * A stream asks for them only on
 * first need: a batch that may read raw inodes (a class (3) field
 * requested), a read-ahead decision.  A plain stream's read-ahead
 * decision rests on how long its sampled calls took (bulk_uring_cold()),
 * a time: whether it asks depends on the machine's load, so @dir_facts
 * is 1 where the stream must ask, -1 where it may (once, both requests,
 * or neither).  A read-ahead would add an attribute request per entry it
 * read, and one per batch for the statx that allows it.  Returns the
 * opcodes that differ, each said on stdout.
 */
static int stream_excess(const char *what, const struct ops *stream,
			 const struct ops *loop, int dir_facts)
{
	uint64_t own, s, l, facts = 1;
	int i, bad = 0;

	if (dir_facts < 0) {
		s = ops_attr(stream);
		l = ops_attr(loop);
		facts = s > l;	/* the check below says how many */
		printf("# %s the directory's filesystem %sasked\n", what,
		       facts ? "" : "not ");
	}
	for (i = 0; i < CFS_NOPS; i++) {
		if (i == CFS_STATX)
			continue;	/* with GETATTR */
		s = stream->op[i];
		l = loop->op[i];
		own = 0;
		if (i == CFS_GETATTR) {
			s = ops_attr(stream);
			l = ops_attr(loop);
			own = facts;
		} else if (i == CFS_STATFS) {
			if (s >= l && s - l <= facts)
				continue;
			own = facts;
		} else if (i == CFS_OPENDIR) {
			own = 1;
		} else if (i == OP_READDIR || i == OP_READDIRPLUS) {
			own = s;	/* as many as the directory needs */
		}
		if (s != l + own) {
			printf("# %s opcode %d%s: %" PRIu64 " requests, "
			       "expected %" PRIu64 " + %" PRIu64 "\n", what, i,
			       i == CFS_GETATTR ? " (+STATX)" : "", s, l, own);
			bad++;
		}
	}
	if (!stream->op[OP_READDIR] && !stream->op[OP_READDIRPLUS]) {
		printf("# %s: the directory was never read\n", what);
		bad++;
	}
	return bad;
}

static void stream_vs_names(struct fsctx *fx, const char *sub, uint64_t mask,
			    const char *mname)
{
	struct xstat_parameters p = { .request_mask = mask };
	struct stream_pass *sp;
	struct xstat *per_name;
	struct ops b, loop, stream;
	int *pin;
	char dir[400], name[16], what[64];
	double t0, us;
	int i, dfd, forced, bad = 0;
#ifdef HAVE_LIBURING
	const int have_uring = 1;
#else
	const int have_uring = 0;
#endif

	pin = malloc(STREAM_FILES * sizeof(*pin));
	assert_non_null(pin);
	memset(pin, 0xff, STREAM_FILES * sizeof(*pin));	/* all -1 */
	stream_dir(fx, sub, dir, sizeof(dir), pin);
	per_name = calloc(STREAM_FILES, sizeof(*per_name));
	assert_non_null(per_name);
	sp = mmap(NULL, sizeof(*sp), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(sp != MAP_FAILED);

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	/* What libxstat learns once per filesystem, learned before. */
	assert_int_equal(xstat(dfd, "f0", AT_SYMLINK_NOFOLLOW, &p,
			       &per_name[0], sizeof(per_name[0])),
			 sizeof(per_name[0]));

	/* The per-name loop, over the same names, with the same mask. */
	b = ops_now(&fx->cfs);
	t0 = now_s();
	for (i = 0; i < STREAM_FILES; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		assert_int_equal(xstat(dfd, name, AT_SYMLINK_NOFOLLOW, &p,
				       &per_name[i], sizeof(per_name[i])),
				 sizeof(per_name[i]));
	}
	us = (now_s() - t0) * 1e6 / STREAM_FILES;
	loop = ops_since(&fx->cfs, &b);
	close(dfd);
	snprintf(what, sizeof(what), "%s xstat() per name:", mname);
	ops_print(what, &loop);
	/* A stream turns the ring on above 20 us a call (bulk_uring.c). */
	printf("# %s: %d names, %.1f us per xstat()\n", mname, STREAM_FILES,
	       us);
	/*
	 * With attr_timeout 0 every name costs at least one attribute
	 * request (the fallback backend makes two for EXTENDED; the
	 * stream must match whatever the loop costs).
	 */
	assert_true(ops_attr(&loop) >= STREAM_FILES);
	if (fx->wide_ino) {
		uint64_t any = 0, all = UINT64_MAX;

		for (i = 0; i < STREAM_FILES; i++) {
			any |= per_name[i].st_ino;
			all &= per_name[i].st_ino;
		}
		/* What the group is for: numbers that differ above bit 51. */
		assert_true((any & ~all) >> 51);
	}

	for (forced = 0; forced < 2; forced++) {
		memset(sp, 0, sizeof(*sp));
		snprintf(sp->dir, sizeof(sp->dir), "%s", dir);
		sp->mask = mask;
		sp->forced = forced;

		b = ops_now(&fx->cfs);
		i = th_child_within(stream_child, sp, STREAM_PASS_S);
		stream = ops_since(&fx->cfs, &b);
		snprintf(what, sizeof(what), "%s stream (%s):", mname,
			 forced ? "URING=always" : "sampled");
		ops_print(what, &stream);
		if (i)
			fail_msg("stream child: status %d, %s", i,
				 strerror(sp->err));
		assert_int_equal(sp->others, 0);
		/*
		 * Ascending inode numbers within each batch of at most 512
		 * (xstat_opendir(3)): a few falls, where the directory's
		 * order would give about half of them one.
		 */
		printf("# %s %zu of %d entries below the one before\n", what,
		       sp->falls, STREAM_FILES);
		if (sp->falls > STREAM_FILES / 16) {
			printf("# %s not in ascending order within batches\n",
			       what);
			bad++;
		}

		/*
		 * A read-ahead, forced, or a class (3) field asks for the
		 * filesystem; a plain sampled pass asks if a sample was slow,
		 * and a build without io_uring has no read-ahead to force.
		 */
		bad += stream_excess(what, &stream, &loop,
				     (forced && have_uring) ||
				     (mask & ~XSTAT_REQUEST__BASIC_STATS) ? 1 : -1);

		for (i = 0; i < STREAM_FILES; i++) {
			assert_int_equal(sp->ent[i].seen, 1);
			assert_int_equal(sp->ent[i].err, 0);
			assert_int_equal(sp->ent[i].len, sizeof(struct xstat));
			assert_same_basic(&sp->ent[i].xs, &per_name[i], i);
		}
	}
	munmap(sp, sizeof(*sp));
	free(per_name);
	unpin(pin);
	/* Both passes are reported before either fails the test. */
	assert_int_equal(bad, 0);
}

static void test_stream_basic(void **state)
{
	stream_vs_names(*state, "basic", XSTAT_REQUEST__BASIC_STATS, "BASIC");
}

static void test_stream_extended(void **state)
{
	stream_vs_names(*state, "extended", XSTAT_REQUEST__EXTENDED_STATS,
			"EXTENDED");
}

/*
 * Inode numbers that do not fit a window's radix keys beside their index
 * (countfs --wide-ino): the window sorted by comparison, each entry's
 * result still its own name's.
 */
static void test_stream_wide_ino(void **state)
{
	stream_vs_names(*state, "wide", XSTAT_REQUEST__BASIC_STATS,
			"BASIC, wide inode numbers");
}

/* ------------------------------------------------------------------ */

static int setup_server(void **state, double attr_timeout, int64_t btime,
			int wide_ino)
{
	struct fsctx *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	fx->btime = btime;
	fx->wide_ino = wide_ino;
	if (cfs_start_opt(&fx->cfs, countfs_bin, attr_timeout, btime,
			  wide_ino ? "--wide-ino" : NULL)) {
		free(fx);
		return -1;
	}
	printf("# countfs on %s, attr timeout %.1f s, FUSE_STATX %s, "
	       "backend %s%s\n", fx->cfs.mnt, attr_timeout,
	       btime ? "served" : "ENOSYS", fallback ? "fallback" : "statx",
	       wide_ino ? ", wide inode numbers" : "");
	*state = fx;
	return 0;
}

static int setup_timeout(void **state, double attr_timeout, int64_t btime)
{
	return setup_server(state, attr_timeout, btime, 0);
}

static int setup_getattr(void **state)
{
	return setup_timeout(state, ATTR_TIMEOUT, 0);
}

static int setup_statx(void **state)
{
	return setup_timeout(state, ATTR_TIMEOUT, SERVER_BTIME);
}

/* No attribute cache: every statx is a request the server counts. */
static int setup_nocache_getattr(void **state)
{
	return setup_timeout(state, 0.0, 0);
}

static int setup_nocache_wide(void **state)
{
	return setup_server(state, 0.0, 0, 1);
}

static int setup_nocache_statx(void **state)
{
	return setup_timeout(state, 0.0, SERVER_BTIME);
}

static int teardown(void **state)
{
	struct fsctx *fx = *state;

	cfs_stop(&fx->cfs);
	free(fx);
	return 0;
}

/* Is statx(2) really there (statx mode) or really blocked (fallback)? */
static int statx_works(void)
{
	struct statx sx;

	return syscall(SYS_statx, AT_FDCWD, "/", 0, STATX_BASIC_STATS,
		       &sx) == 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_path),
		cmocka_unit_test(test_matrix_fd),
		cmocka_unit_test(test_gen),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_btime),
	};
	const struct CMUnitTest stream[] = {
		cmocka_unit_test(test_stream_basic),
		cmocka_unit_test(test_stream_extended),
	};
	const struct CMUnitTest wide[] = {
		cmocka_unit_test(test_stream_wide_ino),
	};
	const struct CMUnitTest dead[] = {
		cmocka_unit_test(test_dead_server),
	};
	int fails = 0, fd;

	if (argc != 2 || (strcmp(argv[1], "statx") &&
			  strcmp(argv[1], "fallback"))) {
		fprintf(stderr, "usage: test-fuse statx|fallback\n");
		return 2;
	}
	fallback = !strcmp(argv[1], "fallback");
	th_require_root();
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "SKIP: /dev/fuse: %s\n", strerror(errno));
		return TH_SKIP;
	}
	close(fd);
	cfs_binary(countfs_bin, sizeof(countfs_bin));
	if (access(countfs_bin, X_OK)) {
		fprintf(stderr, "SKIP: %s: %s\n", countfs_bin,
			strerror(errno));
		return TH_SKIP;
	}
	if (statx_works() == fallback) {
		fprintf(stderr, "statx is %s, but mode is %s\n",
			fallback ? "available" : "blocked", argv[1]);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	fails += cmocka_run_group_tests_name("fuse-getattr-server", tests,
					     setup_getattr, teardown);
	fails += cmocka_run_group_tests_name("fuse-statx-server", tests,
					     setup_statx, teardown);
	fails += cmocka_run_group_tests_name("fuse-stream-getattr-server",
					     stream, setup_nocache_getattr,
					     teardown);
	fails += cmocka_run_group_tests_name("fuse-stream-statx-server",
					     stream, setup_nocache_statx,
					     teardown);
	fails += cmocka_run_group_tests_name("fuse-stream-wide-ino", wide,
					     setup_nocache_wide, teardown);
	fails += cmocka_run_group_tests_name("fuse-dead-server", dead,
					     setup_getattr, teardown);
	return fails ? 1 : 0;
}
