// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xstat-bench: per-call cost of libxstat's xstat() against the raw statx
 * syscall, glibc statx(), fstatat() and libuv's uv_fs_stat(), and against
 * the bare syscall sequence that is the physical limit of each request.
 *
 * Every case of a phase runs in this one process, interleaved: each round
 * times one batch of every case, starting at a different case each round,
 * and a case's figure is the median over rounds.  Ratios are the medians of
 * the per-round ratios, so slow drift of the machine cancels out.
 *
 * The library reads LIBXSTAT_NO_STATX once, at its first call, so one
 * process measures one backend: -b picks it before any call is made, and
 * the default runs each backend in a child process of its own.  Besides
 * the variable, the fallback is measured where users meet it: -b enosys
 * and -b eperm install a real seccomp filter refusing statx with that
 * errno (a sandbox: the library finds out by itself), in place of the
 * variable.
 *
 *   xstat-bench [-b statx|fallback|enosys|eperm] [-r ROUNDS] [-n CALLS] [-o TSV]
 *		 [-L LABEL] [-A LIB] -f FILE	time one file, hot cache; with
 *						-A also another build's xstat()
 *						against this one's
 *   xstat-bench [-b ...] [-r ROUNDS] [-o TSV] -t TREE
 *						time a walk over TREE's files
 *   xstat-bench -G TREE [-N FILES]		generate a tree of empty files
 *   xstat-bench -b B -c CASE -n CALLS -f FILE | -t TREE
 *						run one case CALLS times in
 *						measured_loop(), for callgrind,
 *						strace -c and valgrind
 *   xstat-bench -l				list the cases
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dlfcn.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <linux/fs.h>
#include <uv.h>
#include <xstat.h>
#include "refuse-statx.h"

#define MAX_CASES	64
#define MAX_ROUNDS	401
#define EXT4_MAGIC	0xEF53

#define M_BASIC		XSTAT_REQUEST__BASIC_STATS
#define M_BTIME		(M_BASIC | XSTAT_REQUEST_BTIME)
#define M_GEN		(M_BASIC | XSTAT_REQUEST_GEN)
#define M_DV		(M_BASIC | XSTAT_REQUEST_DATA_VERSION)
/* "all" is struct xstat's whole set; the extra results are a row apart */
#define M_ALL		XSTAT_REQUEST__EXTENDED_STATS
#ifdef XSTAT_REQUEST__EXTRA_RESULTS
#define M_EXTRAS	XSTAT_REQUEST__ALL_STATS
#endif
#define M_CLASS3	(XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN | \
			 XSTAT_REQUEST_DATA_VERSION)
#ifdef XSTAT_REQUEST_CHANGE_TOKEN
#define M_TOKEN		XSTAT_REQUEST_CHANGE_TOKEN
/* What the token is made of: the statx mask the library asks for it. */
#define STATX_TOKEN	(STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_UID | \
			 STATX_GID | STATX_MTIME | STATX_CTIME | STATX_INO | \
			 STATX_SIZE | 0x4000U /* STATX_MNT_ID_UNIQUE */)
#endif

enum backend { B_STATX = 1, B_FALLBACK = 2, B_BOTH = 3 };

/* The fallback's cause: the variable (0), or a seccomp filter's errno. */
static int sandbox_err;

/* What a case needs before it can run. */
#define NEED_DEV	0x1	/* the ext4 block device, open for reading */
#define FILE_ONLY	0x2	/* not part of the walk */
#define NEED_OTHER	0x4	/* -A: another build of libxstat, dlopen'ed */
#define NEED_STATX	0x8	/* statx itself: not behind a filter */
#define NEED_REFUSED	0x10	/* an ext4 device that refuses to open */

struct bcase {
	const char	*name;
	int		(*fn)(const struct bcase *c, const char *path);
	unsigned	backends;	/* processes that run it */
	unsigned	needs;
	uint64_t	mask;		/* xstat request; 0 for the peers */
	const char	*ref;		/* the physical limit it is held to */
	const char	*ref_ext4;	/* ... on ext4, when different */
	/* filled in by a run */
	int		active;
	uint64_t	got;		/* class-3 and extra bits obtained */
	double		ns[MAX_ROUNDS];
};

/* The ext4 device and where the benchmarked file's inode lives on it. */
static int dev_fd = -1;
static char dev_path[300];	/* of dev_fd, for the open-per-call limits */
static char refused_path[300];	/* the device, where it refuses to open */
static off_t dev_off;
static size_t dev_len;
static unsigned char dev_buf[4096];

static int fs_is_ext4;
static const char *fs_label = "?";
static enum backend backend = B_BOTH;

static long raw_statx(const char *path, unsigned mask, struct statx *stx)
{
	return syscall(SYS_statx, AT_FDCWD, path, 0, mask, stx);
}

static int c_raw_statx(const struct bcase *c, const char *path)
{
	struct statx stx;

	(void)c;
	return raw_statx(path, STATX_BASIC_STATS, &stx) != 0;
}

#ifdef M_TOKEN
/* The token's bare sequence: one statx with its mask. */
static int c_raw_statx_token(const struct bcase *c, const char *path)
{
	struct statx stx;

	(void)c;
	return raw_statx(path, STATX_TOKEN, &stx) != 0;
}
#endif

static int c_glibc_statx(const struct bcase *c, const char *path)
{
	struct statx stx;

	(void)c;
	return statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx) != 0;
}

static int c_fstatat(const struct bcase *c, const char *path)
{
	struct stat sb;

	(void)c;
	return fstatat(AT_FDCWD, path, &sb, 0) != 0;
}

/* libuv in synchronous mode (no callback): what a C program would use. */
static int c_uv_stat(const struct bcase *c, const char *path)
{
	uv_fs_t req;
	int ret;

	(void)c;
	ret = uv_fs_stat(NULL, &req, path, NULL);
	uv_fs_req_cleanup(&req);
	return ret != 0;
}

static int n2h(const char *path)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[MAX_HANDLE_SZ];
	} h;
	int mount_id;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	return name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id,
				 AT_SYMLINK_FOLLOW) != 0;
}

static int dev_pread(void)
{
	return pread(dev_fd, dev_buf, dev_len, dev_off) != (ssize_t)dev_len;
}

/*
 * The inode read as the library must do it (nothing outlives the call):
 * open the device, read, close.
 */
static int dev_open_pread(void)
{
	struct stat sb;
	ssize_t n;
	int fd;

	/* the node checked to be the device first: never open a FIFO */
	if (stat(dev_path, &sb) || !S_ISBLK(sb.st_mode))
		return 1;
	fd = open(dev_path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return 1;
	n = pread(fd, dev_buf, dev_len, dev_off);
	close(fd);
	return n != (ssize_t)dev_len;
}

/* The device's open as the library tries it, refused (EPERM, EACCES). */
static int dev_open_refused(void)
{
	struct stat sb;

	if (stat(refused_path, &sb) || !S_ISBLK(sb.st_mode))
		return 1;
	return open(refused_path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
		    O_NONBLOCK) >= 0;
}

static int c_statx_opr(const struct bcase *c, const char *path)
{
	return c_raw_statx(c, path) | dev_open_pread();
}

static int c_statx_n2h_opr(const struct bcase *c, const char *path)
{
	return c_raw_statx(c, path) | n2h(path) | dev_open_pread();
}

static int c_statx_n2h(const struct bcase *c, const char *path)
{
	return c_raw_statx(c, path) | n2h(path);
}

static int c_statx_ioctl(const struct bcase *c, const char *path)
{
	long gen;
	int fd, ret;

	if (c_raw_statx(c, path))
		return 1;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	/* the cost is the point: tmpfs answers ENOTTY, as cheaply */
	ret = ioctl(fd, FS_IOC_GETVERSION, &gen);
	(void)ret;
	close(fd);
	return 0;
}

static int c_statx_pread(const struct bcase *c, const char *path)
{
	return c_raw_statx(c, path) | dev_pread();
}

static int c_statx_n2h_pread(const struct bcase *c, const char *path)
{
	return c_raw_statx(c, path) | n2h(path) | dev_pread();
}

/*
 * The anchored sequence (lib/anchor.c): the cheapest race-free way to a
 * generation that describes the inode statx described - an O_PATH open,
 * statx (or fstat) and name_to_handle_at on that descriptor, a close.
 */
static int anchor_n2h(int fd)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[MAX_HANDLE_SZ];
	} h;
	int mount_id;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	return name_to_handle_at(fd, "", &h.fh, &mount_id, AT_EMPTY_PATH) != 0;
}

/* Steps of an anchored sequence after its stat on the O_PATH descriptor. */
#define A_STATX	0x1	/* statx; else fstatat */
#define A_N2H	0x2	/* the handle (a generation) */
#define A_KEY	0x4	/* the unique mount ID alone (anchor_key()) */
#define A_PREAD	0x8	/* a pread on the held device */
#define A_OPR	0x10	/* the device opened, read and closed */

/*
 * Without statx there is no mount ID in the answer: the fallback asks the
 * anchor for the unique one (a name_to_handle_at that takes no handle),
 * the key of the per-filesystem facts a probe may trust.  Part of the
 * bare sequence of every fallback request that probes or promises.
 */
static int anchor_key(int fd)
{
	struct file_handle fh = { .handle_bytes = 0 };
	int mount_id;

	return name_to_handle_at(fd, "", &fh, &mount_id,
				 AT_EMPTY_PATH | 0x1) != 0 &&
	       errno != EOVERFLOW;
}

/*
 * The anchored raw read: the cheapest race-free way to a data version
 * (or creation time) from the raw inode - the inode is held by the O_PATH
 * descriptor while its number is read, so it cannot be freed and reused.
 */
static int anchored_seq(const char *path, unsigned steps)
{
	struct statx stx;
	struct stat sb;
	int fd = open(path, O_PATH | O_CLOEXEC), ret;

	if (fd < 0)
		return 1;
	if (steps & A_STATX)
		ret = syscall(SYS_statx, fd, "", AT_EMPTY_PATH,
			      STATX_BASIC_STATS, &stx) != 0;
	else
		ret = fstatat(fd, "", &sb, AT_EMPTY_PATH) != 0;
	if (steps & A_KEY)
		ret |= anchor_key(fd);
	if (steps & A_N2H)
		ret |= anchor_n2h(fd);
	if (steps & A_OPR)
		ret |= dev_open_pread();
	close(fd);
	if (steps & A_PREAD)
		ret |= dev_pread();
	return ret;
}

#define ANCHORED(name, steps) \
static int name(const struct bcase *c, const char *path) \
{ \
	(void)c; \
	return anchored_seq(path, steps); \
}
ANCHORED(c_opath_statx_n2h, A_STATX | A_N2H)
ANCHORED(c_opath_statx_n2h_pread, A_STATX | A_N2H | A_PREAD)
ANCHORED(c_opath_statx_opr, A_STATX | A_OPR)
ANCHORED(c_opath_statx_n2h_opr, A_STATX | A_N2H | A_OPR)
ANCHORED(c_opath_fstatat_opr, A_OPR)
ANCHORED(c_opath_fstatat_key, A_KEY)
ANCHORED(c_opath_fstatat_key_opr, A_KEY | A_OPR)
ANCHORED(c_opath_fstatat_n2h, A_N2H)
ANCHORED(c_opath_fstatat_n2h_opr, A_N2H | A_OPR)
ANCHORED(c_opath_fstatat_n2h_pread, A_N2H | A_PREAD)

static int c_opath_fstatat_key_ref(const struct bcase *c, const char *path)
{
	return c_opath_fstatat_key(c, path) | dev_open_refused();
}

static int c_opath_statx_n2h_ref(const struct bcase *c, const char *path)
{
	return c_opath_statx_n2h(c, path) | dev_open_refused();
}

static int c_fstatat_n2h(const struct bcase *c, const char *path)
{
	return c_fstatat(c, path) | n2h(path);
}

static int c_fstatat_pread(const struct bcase *c, const char *path)
{
	return c_fstatat(c, path) | dev_pread();
}

static int c_fstatat_n2h_pread(const struct bcase *c, const char *path)
{
	return c_fstatat(c, path) | n2h(path) | dev_pread();
}

static int c_fstatat_opr(const struct bcase *c, const char *path)
{
	return c_fstatat(c, path) | dev_open_pread();
}

static int c_fstatat_n2h_opr(const struct bcase *c, const char *path)
{
	return c_fstatat(c, path) | n2h(path) | dev_open_pread();
}

typedef ssize_t xstat_fn(int, const char *, unsigned,
			 const struct xstat_parameters *, struct xstat *,
			 size_t);

/*
 * One call of @fn for case @c, with room for extra results (the rows that
 * ask for them copy them).  Inlined, so the linked xstat() is called
 * directly, as a program would.
 */
static inline __attribute__((always_inline))
int run_xstat(xstat_fn *fn, const struct bcase *c, const char *path)
{
	struct xstat_parameters p = { c->mask };
#ifdef XSTAT_RESULT_MAX
	union xstat_buffer b;

	return fn(AT_FDCWD, path, 0, &p, &b.x, sizeof(b)) < 0;
#else
	struct xstat x;

	return fn(AT_FDCWD, path, 0, &p, &x, sizeof(x)) < 0;
#endif
}

static int c_xstat(const struct bcase *c, const char *path)
{
	return run_xstat(xstat, c, path);
}

/*
 * -A LIB: xstat() of another build of the library, for a change's effect
 * measured side by side with the linked build (its ratio to it is the
 * "x limit" column).  Loaded RTLD_LOCAL: its own device cache and backend
 * state, reading LIBXSTAT_NO_STATX like the linked one.
 */
static xstat_fn *other_xstat;

static int c_other(const struct bcase *c, const char *path)
{
	return run_xstat(other_xstat, c, path);
}

static void load_other(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);

	if (!h || !(*(void **)&other_xstat = dlsym(h, "xstat"))) {
		fprintf(stderr, "%s: %s\n", lib, dlerror());
		exit(2);
	}
}

#define S	B_STATX
#define F	B_FALLBACK
#define PEER(n, f, b, nd)	{ .name = n, .fn = f, .backends = b, .needs = nd }
#define XS(n, b, m, r, r4)	{ .name = n, .fn = c_xstat, .backends = b, \
				  .mask = m, .ref = r, .ref_ext4 = r4 }
#define XO(n, b, m, r, nd)	{ .name = n, .fn = c_other, .backends = b, \
				  .mask = m, .ref = r, \
				  .needs = NEED_OTHER | FILE_ONLY | (nd) }
static struct bcase cases[] = {
	PEER("raw-statx", c_raw_statx, S | F, NEED_STATX),
	PEER("glibc-statx", c_glibc_statx, S, 0),
#ifdef M_TOKEN
	PEER("raw-statx-token", c_raw_statx_token, S, 0),
#endif
	PEER("fstatat", c_fstatat, S | F, 0),
	PEER("uv_fs_stat", c_uv_stat, S, 0),
	PEER("statx+n2h", c_statx_n2h, S, FILE_ONLY),
	PEER("statx+open+ioctl+close", c_statx_ioctl, S, FILE_ONLY),
	PEER("statx+pread", c_statx_pread, S, NEED_DEV | FILE_ONLY),
	PEER("statx+n2h+pread", c_statx_n2h_pread, S, NEED_DEV | FILE_ONLY),
	/* the device opened and closed in each call: the limits since #16 */
	PEER("statx+opr", c_statx_opr, S, NEED_DEV | FILE_ONLY),
	PEER("statx+n2h+opr", c_statx_n2h_opr, S, NEED_DEV | FILE_ONLY),
	PEER("opath+statx+n2h", c_opath_statx_n2h, S, FILE_ONLY),
	PEER("opath+statx+opr", c_opath_statx_opr, S, NEED_DEV | FILE_ONLY),
	PEER("opath+fstatat+opr", c_opath_fstatat_opr, F,
	     NEED_DEV | FILE_ONLY),
	PEER("opath+statx+n2h+pread", c_opath_statx_n2h_pread, S,
	     NEED_DEV | FILE_ONLY),
	PEER("opath+statx+n2h+opr", c_opath_statx_n2h_opr, S,
	     NEED_DEV | FILE_ONLY),
	PEER("opath+fstatat+n2h+opr", c_opath_fstatat_n2h_opr, F,
	     NEED_DEV | FILE_ONLY),
	PEER("opath+fstatat+key", c_opath_fstatat_key, F, FILE_ONLY),
	PEER("opath+fstatat+key+opr", c_opath_fstatat_key_opr, F,
	     NEED_DEV | FILE_ONLY),
	PEER("fstatat+n2h", c_fstatat_n2h, F, FILE_ONLY),
	/* a device that refuses: the library tries it once per call */
	PEER("opath+statx+n2h+refused", c_opath_statx_n2h_ref, S,
	     NEED_REFUSED | FILE_ONLY),
	PEER("opath+fstatat+key+refused", c_opath_fstatat_key_ref, F,
	     NEED_REFUSED | FILE_ONLY),
	PEER("opath+fstatat+n2h", c_opath_fstatat_n2h, F, FILE_ONLY),
	PEER("opath+fstatat+n2h+pread", c_opath_fstatat_n2h_pread, F,
	     NEED_DEV | FILE_ONLY),
	PEER("fstatat+pread", c_fstatat_pread, F, NEED_DEV | FILE_ONLY),
	PEER("fstatat+n2h+pread", c_fstatat_n2h_pread, F,
	     NEED_DEV | FILE_ONLY),
	PEER("fstatat+opr", c_fstatat_opr, F, NEED_DEV | FILE_ONLY),
	PEER("fstatat+n2h+opr", c_fstatat_n2h_opr, F, NEED_DEV | FILE_ONLY),
	/* statx backend: the limits are statx plus what each extra costs */
	XS("xstat:basic", S, M_BASIC, "raw-statx", NULL),
	XS("xstat:+btime", S, M_BTIME, "raw-statx", NULL),
	/* a generation is anchored: the limit is the anchored sequence */
	XS("xstat:+gen", S, M_GEN, "opath+statx+n2h", NULL),
	/* so is a raw read (ext4): the limit is the anchored read */
	XS("xstat:+dv", S, M_DV, "raw-statx", "opath+statx+opr"),
	XS("xstat:all", S, M_ALL, "opath+statx+n2h", "opath+statx+n2h+opr"),
#ifdef M_EXTRAS
	XS("xstat:all+extras", S, M_EXTRAS, "opath+statx+n2h",
	   "opath+statx+n2h+opr"),
#endif
#ifdef M_TOKEN
	/* the change token: one statx with its mask, the hash in userspace */
	XS("xstat:token", S, M_TOKEN, "raw-statx-token", NULL),
	XS("xstat:basic+token", S, M_BASIC | M_TOKEN, "raw-statx-token", NULL),
	/* with the data version: the +dv row's sequence */
	XS("xstat:+dv+token", S, M_DV | M_TOKEN, "raw-statx-token",
	   "opath+statx+opr"),
#endif
	/* fallback backend: fstatat plus the same extras */
	XS("xstat-fb:basic", F, M_BASIC, "fstatat", NULL),
	XS("xstat-fb:+btime", F, M_BTIME, "opath+fstatat+key",
	   "opath+fstatat+key+opr"),
	XS("xstat-fb:+gen", F, M_GEN, "opath+fstatat+n2h", NULL),
	XS("xstat-fb:+dv", F, M_DV, "opath+fstatat+key",
	   "opath+fstatat+key+opr"),
#ifdef M_TOKEN
	XS("xstat-fb:token", F, M_TOKEN, "opath+fstatat+key", NULL),
#endif
	XS("xstat-fb:all", F, M_ALL, "opath+fstatat+n2h",
	   "opath+fstatat+n2h+opr"),
#ifdef M_EXTRAS
	XS("xstat-fb:all+extras", F, M_EXTRAS, "opath+fstatat+n2h",
	   "opath+fstatat+n2h+opr"),
#endif
	/* -A: the other build, held to this one */
	XO("other:basic", S, M_BASIC, "xstat:basic", 0),
	XO("other:+gen", S, M_GEN, "xstat:+gen", 0),
	XO("other:+dv", S, M_DV, "xstat:+dv", NEED_DEV),
#ifdef M_TOKEN
	XO("other:token", S, M_TOKEN, "xstat:token", 0),
#endif
	XO("other-fb:basic", F, M_BASIC, "xstat-fb:basic", 0),
	XO("other-fb:+btime", F, M_BTIME, "xstat-fb:+btime", NEED_DEV),
};
#undef S
#undef F

#define NCASES	(sizeof(cases) / sizeof(cases[0]))

static struct bcase *find_case(const char *name)
{
	size_t i;

	for (i = 0; i < NCASES; i++)
		if (strcmp(cases[i].name, name) == 0)
			return &cases[i];
	return NULL;
}

static const char *ref_of(const struct bcase *c)
{
	if (fs_is_ext4 && c->ref_ext4 && find_case(c->ref_ext4)->active)
		return c->ref_ext4;
	return c->ref;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/*
 * The loops.  measured_loop() is what callgrind's --toggle-collect names;
 * bench_loop() does the timing and the warming up, so that one-time work
 * (backend probe, device cache) is never counted in measured_loop().
 */
__attribute__((noinline)) int
bench_loop(const struct bcase *c, char **paths, size_t npaths, long reps)
{
	int err = 0;
	long r;
	size_t i;

	for (r = 0; r < reps; r++)
		for (i = 0; i < npaths; i++)
			err |= c->fn(c, paths[i]);
	return err;
}

__attribute__((noinline)) int
measured_loop(const struct bcase *c, char **paths, size_t npaths, long reps)
{
	int err = 0;
	long r;
	size_t i;

	for (r = 0; r < reps; r++)
		for (i = 0; i < npaths; i++)
			err |= c->fn(c, paths[i]);
	return err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double tmp[MAX_ROUNDS];

	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* Ratio a/b as the median of per-round ratios. */
static double paired_ratio(const struct bcase *a, const struct bcase *b,
			   int rounds)
{
	double r[MAX_ROUNDS];
	int i;

	for (i = 0; i < rounds; i++)
		r[i] = a->ns[i] / b->ns[i];
	return median(r, rounds);
}

/*
 * Where the inode of @st lives on its ext4 device: superblock, then the
 * group descriptor, then the inode table.  Only to give the pread baseline
 * the same offset and length as a prober's read.
 */
static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static int locate_inode(int fd, uint64_t ino)
{
	unsigned char sb[1024], gd[64];
	uint32_t bsize, ipg, group, first, dsize;
	uint64_t table;
	uint16_t isize;

	if (pread(fd, sb, sizeof(sb), 1024) != (ssize_t)sizeof(sb) ||
	    le16(sb + 56) != EXT4_MAGIC)
		return -1;
	bsize = 1024U << le32(sb + 24);
	first = le32(sb + 20);
	ipg = le32(sb + 40);
	isize = le16(sb + 88);
	dsize = (le32(sb + 96) & 0x80) ? le16(sb + 254) : 32;
	if (!ipg || !isize || dsize < 32 || dsize > sizeof(gd) ||
	    isize > sizeof(dev_buf))
		return -1;
	group = (uint32_t)((ino - 1) / ipg);
	if (pread(fd, gd, dsize, (off_t)(first + 1) * bsize +
		  (off_t)group * dsize) != (ssize_t)dsize)
		return -1;
	table = le32(gd + 8);
	if (dsize >= 64)
		table |= (uint64_t)le32(gd + 0x28) << 32;
	dev_off = (off_t)(table * bsize + ((ino - 1) % ipg) * isize);
	dev_len = isize;
	return 0;
}

/* Open the block device under @path if it is ext4 and we may read it. */
static void open_device(const char *path)
{
	char sys[64], line[256], dev[300];
	struct statfs sfs;
	struct stat sb;
	FILE *f;
	int fd;

	if (stat(path, &sb) || statfs(path, &sfs))
		die(path);
	fs_is_ext4 = sfs.f_type == EXT4_MAGIC;
	if (!fs_is_ext4)
		return;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/uevent",
		 major(sb.st_dev), minor(sb.st_dev));
	f = fopen(sys, "r");
	if (!f)
		return;
	dev[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "DEVNAME=", 8) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(dev, sizeof(dev), "/dev/%s", line + 8);
		}
	fclose(f);
	fd = dev[0] ? open(dev, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0) {
		/* a container's disk: the library's try is part of its floor */
		if (dev[0] && (errno == EPERM || errno == EACCES))
			snprintf(refused_path, sizeof(refused_path), "%s", dev);
		return;
	}
	if (locate_inode(fd, sb.st_ino)) {
		close(fd);
		return;
	}
	dev_fd = fd;
	snprintf(dev_path, sizeof(dev_path), "%s", dev);
}

static int case_runs(const struct bcase *c, int walk)
{
	if (!(c->backends & backend))
		return 0;
	if ((c->needs & NEED_DEV) && dev_fd < 0)
		return 0;
	if ((c->needs & NEED_OTHER) && !other_xstat)
		return 0;
	if ((c->needs & NEED_STATX) && sandbox_err)
		return 0;
	if ((c->needs & NEED_REFUSED) && !refused_path[0])
		return 0;
	if (walk && (c->needs & FILE_ONLY))
		return 0;
	return 1;
}

/* Activate the cases of this process, warm them up, note what they get. */
static void setup_cases(char **paths, size_t npaths, int walk)
{
	size_t i;

	for (i = 0; i < NCASES; i++) {
		struct bcase *c = &cases[i];

		c->active = case_runs(c, walk);
		if (!c->active)
			continue;
		if (bench_loop(c, paths, npaths > 1000 ? 1000 : npaths,
			       walk ? 1 : 200)) {
			fprintf(stderr, "%s fails on %s\n", c->name, paths[0]);
			exit(2);
		}
		if (c->mask) {
			struct xstat_parameters p = { c->mask };
			struct xstat x;

			if (xstat(AT_FDCWD, paths[0], 0, &p, &x, sizeof(x)) < 0)
				die("xstat");
			/* the token bit too: it is in the mask, not in x */
			c->got = x.st_result_mask & (M_CLASS3 |
						     XSTAT_REQUEST__EXTRA_RESULTS);
		}
	}
}

static const char *bits(uint64_t req, uint64_t got, char *buf)
{
	static const struct { uint64_t bit; const char *name; } b[] = {
		{ XSTAT_REQUEST_BTIME, "btime" },
		{ XSTAT_REQUEST_GEN, "gen" },
		{ XSTAT_REQUEST_DATA_VERSION, "dv" },
	};
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < 3; i++) {
		if (!(req & b[i].bit))
			continue;
		if (buf[0])
			strcat(buf, ",");
		if (!(got & b[i].bit))
			strcat(buf, "!");	/* asked, not obtained */
		strcat(buf, b[i].name);
	}
	if (!buf[0])
		strcpy(buf, "-");
	return buf;
}

static const char *backend_name(void)
{
	if (backend == B_STATX)
		return "statx";
	return sandbox_err == ENOSYS ? "fallback, seccomp ENOSYS" :
	       sandbox_err == EPERM ? "fallback, seccomp EPERM" : "fallback";
}

static int target_fails;

static void check(const char *what, double value, double limit, int upper,
		  const char *na)
{
	const char *verdict;

	if (na)
		verdict = "N/A ";
	else if (upper ? value <= limit : value >= limit)
		verdict = "PASS";
	else
		verdict = "FAIL";
	if (!na && verdict[0] == 'F')
		target_fails++;
	printf("  %s  [%s, %s] %-44s %6.3f %s %.2f%s%s\n", verdict,
	       fs_label, backend_name(), what, value, upper ? "<=" : ">=",
	       limit, na ? "  " : "", na ? na : "");
}

#ifdef M_TOKEN
static const char *token_na(const struct bcase *c)
{
	return (c->got & M_TOKEN) ? NULL : "(no token here)";
}
#endif

static void file_summary(int rounds)
{
	struct bcase *raw = find_case("raw-statx");
	const char *dv_na = NULL, *bt_na = NULL, *gen_na = NULL;
	struct bcase *c, *ref;

	if (backend == B_STATX) {
		c = find_case("xstat:basic");
		check("basic: xstat / raw statx (time)",
		      paired_ratio(c, raw, rounds), 1.05, 1, NULL);
		c = find_case("xstat:+gen");
		if (!(c->got & XSTAT_REQUEST_GEN))
			gen_na = "(gen not obtained here)";
		check("+gen: xstat / O_PATH+statx+n2h",
		      paired_ratio(c, find_case("opath+statx+n2h"), rounds),
		      1.05, 1, gen_na);
		if (fs_is_ext4) {
			c = find_case("xstat:+dv");
			ref = find_case("opath+statx+opr");
			if (!ref->active)
				dv_na = "(no readable ext4 device)";
			else if (!(c->got & XSTAT_REQUEST_DATA_VERSION))
				dv_na = "(dv not obtained: no ext4 prober)";
			check("+dv: xstat / O_PATH+statx+open+pread+close",
			      ref->active ? paired_ratio(c, ref, rounds) : 0,
			      1.05, 1, dv_na);
		}
		if (refused_path[0])
			check("all: xstat / O_PATH+statx+n2h+refused open",
			      paired_ratio(find_case("xstat:all"),
					   find_case("opath+statx+n2h+refused"),
					   rounds), 1.05, 1, NULL);
#ifdef M_TOKEN
		c = find_case("xstat:token");
		check("token: xstat / statx with the token's mask",
		      paired_ratio(c, find_case("raw-statx-token"), rounds),
		      1.05, 1, token_na(c));
#endif
		return;
	}
	c = find_case("xstat-fb:basic");
	check("basic: xstat / fstatat",
	      paired_ratio(c, find_case("fstatat"), rounds), 1.05, 1, NULL);
	c = find_case("xstat-fb:+gen");
	check("+gen: xstat / O_PATH+fstatat+n2h",
	      paired_ratio(c, find_case("opath+fstatat+n2h"), rounds), 1.05, 1,
	      (c->got & XSTAT_REQUEST_GEN) ? NULL : "(gen not obtained here)");
	if (fs_is_ext4) {
		c = find_case("xstat-fb:+btime");
		ref = find_case("opath+fstatat+key+opr");
		if (!ref->active)
			bt_na = "(no readable ext4 device)";
		else if (!(c->got & XSTAT_REQUEST_BTIME))
			bt_na = "(btime not obtained: no ext4 prober)";
		check("+btime: xstat / O_PATH+fstatat+key+open+pread+close",
		      ref->active ? paired_ratio(c, ref, rounds) : 0, 1.05, 1,
		      bt_na);
	}
	if (refused_path[0])
		check("+btime: xstat / O_PATH+fstatat+key+refused open",
		      paired_ratio(find_case("xstat-fb:+btime"),
				   find_case("opath+fstatat+key+refused"),
				   rounds), 1.05, 1, NULL);
#ifdef M_TOKEN
	c = find_case("xstat-fb:token");
	check("token: xstat / O_PATH+fstatat+key",
	      paired_ratio(c, find_case("opath+fstatat+key"), rounds), 1.05, 1,
	      token_na(c));
#endif
}

static void emit_rows(FILE *tsv, const char *phase, int rounds, double scale)
{
	/* behind a filter the raw syscall is fstatat */
	struct bcase *raw = find_case(sandbox_err ? "fstatat" : "raw-statx");
	char buf[32];
	size_t i;

	printf("%-24s %10s %8s %8s  %-20s %s\n", "case",
	       scale > 1 ? "ns/file" : "ns/call", "x raw", "x limit", "limit",
	       "class-3 bits");
	for (i = 0; i < NCASES; i++) {
		struct bcase *c = &cases[i];
		const char *ref = c->mask ? ref_of(c) : NULL;

		/* the walk has no n2h/pread pairs: no limit to show */
		if (ref && !find_case(ref)->active)
			ref = NULL;
		double med = median(c->ns, rounds) / scale;
		double rr = paired_ratio(c, raw, rounds), rl = 0;

		if (!c->active)
			continue;
		if (ref)
			rl = paired_ratio(c, find_case(ref), rounds);
		printf("%-24s %10.1f %8.3f ", c->name, med, rr);
		if (ref)
			printf("%8.3f  %-20s ", rl, ref);
		else
			printf("%8s  %-20s ", "", "");
		printf("%s\n", bits(c->mask, c->got, buf));
		if (tsv)
			fprintf(tsv, "%s\t%s\t%s\t%s\t%.1f\t%.4f\t%.4f\t%s\t%s\n",
				phase, fs_label, backend_name(), c->name, med,
				rr, rl, ref ? ref : "-",
				bits(c->mask, c->got, buf));
	}
}

static void time_rounds(char **paths, size_t npaths, long reps, int rounds)
{
	struct bcase *act[MAX_CASES];
	int nact = 0, r, k;
	size_t i;

	for (i = 0; i < NCASES; i++)
		if (cases[i].active)
			act[nact++] = &cases[i];
	for (r = 0; r < rounds; r++) {
		/* rotate the order so no case always follows the same one */
		for (k = 0; k < nact; k++) {
			struct bcase *c = act[(k + r) % nact];
			double t0 = now_ns();

			if (bench_loop(c, paths, npaths, reps))
				die(c->name);
			c->ns[r] = (now_ns() - t0) / (reps * (double)npaths);
		}
	}
}

static void run_file(const char *file, long reps, int rounds, FILE *tsv)
{
	char *paths[1] = { (char *)file };

	open_device(file);
	setup_cases(paths, 1, 0);
	time_rounds(paths, 1, reps, rounds);
	printf("\n== one file, hot cache: %s (%s), %s backend, %d rounds x "
	       "%ld calls\n", file, fs_label, backend_name(), rounds, reps);
	emit_rows(tsv, "file", rounds, 1);
	printf("targets:\n");
	file_summary(rounds);
}

/* The walk: every file of the tree once per pass, full paths. */
static char **tree_paths;
static size_t tree_n;

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_tree(const char *root)
{
	size_t cap = 1024;
	char line[4096];
	FILE *f;

	snprintf(line, sizeof(line), "find '%s' -type f", root);
	f = popen(line, "r");
	if (!f)
		die("find");
	tree_paths = malloc(cap * sizeof(*tree_paths));
	while (tree_paths && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (tree_n == cap)
			tree_paths = realloc(tree_paths,
					     (cap *= 2) * sizeof(*tree_paths));
		if (!tree_paths || !(tree_paths[tree_n++] = strdup(line)))
			die("malloc");
	}
	pclose(f);
	if (!tree_paths || tree_n == 0) {
		fprintf(stderr, "no files under %s\n", root);
		exit(2);
	}
	/* directory order, as a walker would see it */
	qsort(tree_paths, tree_n, sizeof(*tree_paths), name_cmp);
}

struct walker {
	const struct bcase	*c;
	char			**paths;
	size_t			n;
	pthread_barrier_t	*start;
	int			err;
};

static void *walk_thread(void *arg)
{
	struct walker *w = arg;

	pthread_barrier_wait(w->start);
	w->err = bench_loop(w->c, w->paths, w->n, 1);
	return NULL;
}

/* Wall time of @nthreads walking disjoint shares of the tree at once. */
static double walk_parallel(const struct bcase *c, int nthreads)
{
	pthread_t tid[2];
	struct walker w[2];
	pthread_barrier_t start;
	size_t share = tree_n / nthreads;
	double t0;
	int i;

	pthread_barrier_init(&start, NULL, nthreads + 1);
	for (i = 0; i < nthreads; i++) {
		w[i] = (struct walker){ c, tree_paths + i * share,
				       i == nthreads - 1 ?
				       tree_n - i * share : share, &start, 0 };
		if (pthread_create(&tid[i], NULL, walk_thread, &w[i]))
			die("pthread_create");
	}
	pthread_barrier_wait(&start);
	t0 = now_ns();
	for (i = 0; i < nthreads; i++) {
		pthread_join(tid[i], NULL);
		if (w[i].err)
			die(c->name);
	}
	t0 = now_ns() - t0;
	pthread_barrier_destroy(&start);
	return t0;
}

static void run_walk(const char *root, int rounds, FILE *tsv)
{
	int sx = backend == B_STATX;
	struct bcase *raw = find_case(sx ? "raw-statx" : "fstatat");
	struct bcase *xs = find_case(sx ? "xstat:basic" : "xstat-fb:basic");
	char what[96];
	double t1[2][MAX_ROUNDS], t2[2][MAX_ROUNDS], rel[MAX_ROUNDS];
	struct bcase *pair[2] = { raw, xs };
	double scale[2];
	int r, k;

	open_device(root);
	load_tree(root);
	setup_cases(tree_paths, tree_n, 1);
	time_rounds(tree_paths, tree_n, 1, rounds);
	printf("\n== walk over %zu files under %s (%s), %s backend, %d "
	       "rounds\n", tree_n, root, fs_label, backend_name(), rounds);
	emit_rows(tsv, "walk", rounds, 1);

	/* threads: one walker over all, then two over halves, interleaved */
	for (r = 0; r < rounds; r++)
		for (k = 0; k < 2; k++) {
			t1[k][r] = walk_parallel(pair[k], 1);
			t2[k][r] = walk_parallel(pair[k], 2);
		}
	printf("threads    %-16s %12s %12s %8s\n", "case", "1T files/s",
	       "2T files/s", "scaling");
	for (k = 0; k < 2; k++) {
		double s[MAX_ROUNDS];

		for (r = 0; r < rounds; r++)
			s[r] = t1[k][r] / t2[k][r];
		scale[k] = median(s, rounds);
		printf("threads    %-16s %12.0f %12.0f %8.3f\n", pair[k]->name,
		       tree_n / median(t1[k], rounds) * 1e9,
		       tree_n / median(t2[k], rounds) * 1e9, scale[k]);
		if (tsv)
			fprintf(tsv, "threads\t%s\t%s\t%s\t%.0f\t%.0f\t%.4f\t"
				"-\t-\n", fs_label, backend_name(),
				pair[k]->name,
				tree_n / median(t1[k], rounds) * 1e9,
				tree_n / median(t2[k], rounds) * 1e9,
				scale[k]);
	}
	printf("targets:\n");
	for (r = 0; r < rounds; r++)
		rel[r] = raw->ns[r] / xs->ns[r];
	snprintf(what, sizeof(what), "walk: xstat throughput / %s's",
		 raw->name);
	check(what, median(rel, rounds), 0.95, 0, NULL);
	snprintf(what, sizeof(what), "walk: xstat 2-thread scaling / %s's",
		 raw->name);
	check(what, scale[1] / scale[0], 0.95, 0, NULL);
}

/* -G: 100 directories of N/100 empty files. */
static void generate(const char *root, long n)
{
	char path[4096];
	long d, i, per = n / 100 ? n / 100 : 1;
	double t0 = now_ns();
	int fd;

	if (mkdir(root, 0755) && errno != EEXIST)
		die(root);
	for (d = 0; d * per < n; d++) {
		snprintf(path, sizeof(path), "%s/d%03ld", root, d);
		if (mkdir(path, 0755) && errno != EEXIST)
			die(path);
		for (i = 0; i < per && d * per + i < n; i++) {
			snprintf(path, sizeof(path), "%s/d%03ld/f%05ld", root,
				 d, i);
			fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			if (fd < 0)
				die(path);
			close(fd);
		}
	}
	printf("generated %ld files under %s in %.1f s\n", n, root,
	       (now_ns() - t0) / 1e9);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: xstat-bench [-b statx|fallback] [-r rounds] "
		"[-n calls] [-o tsv] [-L label] [-A LIB] -f FILE | -t TREE\n"
		"       xstat-bench -b B -c CASE -n calls -f FILE | -t TREE\n"
		"       xstat-bench -G TREE [-N files]\n"
		"       xstat-bench -l\n");
	exit(2);
}

struct opts {
	const char	*file, *tree, *gen, *one, *tsv, *label;
	long		calls, nfiles;
	int		rounds;
};

/* -c: one case, for the instruction, syscall and heap counters. */
static int run_one(const struct opts *o)
{
	struct bcase *c = find_case(o->one);
	char *single[1] = { (char *)o->file };
	char **paths = single;
	size_t n = 1;

	if (!c || !(c->backends & backend)) {
		fprintf(stderr, "no case %s in the %s backend\n", o->one,
			backend_name());
		return 2;
	}
	open_device(o->file ? o->file : o->tree);
	if (o->tree) {
		load_tree(o->tree);
		paths = tree_paths;
		n = tree_n;
	}
	if (!case_runs(c, o->tree != NULL)) {
		fprintf(stderr, "%s cannot run here\n", c->name);
		return 2;
	}
	/* same warm-up as the timed runs, then only the counted loop */
	if (bench_loop(c, paths, n > 1000 ? 1000 : n, o->tree ? 1 : 200))
		die(c->name);
	if (measured_loop(c, paths, n, o->tree ? 1 : o->calls))
		die(c->name);
	return 0;
}

static int run_backend(const struct opts *o)
{
	FILE *tsv = NULL;

	if (backend == B_FALLBACK && !sandbox_err)
		setenv("LIBXSTAT_NO_STATX", "1", 1);
	else
		unsetenv("LIBXSTAT_NO_STATX");
	if (sandbox_err)
		if (bench_refuse_statx(sandbox_err) < 0)
			die("seccomp");
	if (o->one)
		return run_one(o);
	if (o->tsv && !(tsv = fopen(o->tsv, "a")))
		die(o->tsv);
	if (o->file)
		run_file(o->file, o->calls, o->rounds, tsv);
	if (o->tree)
		run_walk(o->tree, o->rounds, tsv);
	if (tsv)
		fclose(tsv);
	fflush(stdout);
	return target_fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .calls = 500, .nfiles = 100000, .rounds = 201 };
	int opt, status, fails = 0;
	size_t i;

	while ((opt = getopt(argc, argv, "A:b:c:f:t:G:N:n:r:o:L:l")) != -1) {
		switch (opt) {
		case 'A': load_other(optarg); break;
		case 'b':
			if (strcmp(optarg, "statx") == 0)
				backend = B_STATX;
			else if (strcmp(optarg, "fallback") == 0)
				backend = B_FALLBACK;
			else if (strcmp(optarg, "enosys") == 0)
				backend = B_FALLBACK, sandbox_err = ENOSYS;
			else if (strcmp(optarg, "eperm") == 0)
				backend = B_FALLBACK, sandbox_err = EPERM;
			else
				usage();
			break;
		case 'c': o.one = optarg; break;
		case 'f': o.file = optarg; break;
		case 't': o.tree = optarg; break;
		case 'G': o.gen = optarg; break;
		case 'N': o.nfiles = atol(optarg); break;
		case 'n': o.calls = atol(optarg); break;
		case 'r': o.rounds = atoi(optarg); break;
		case 'o': o.tsv = optarg; break;
		case 'L': o.label = optarg; break;
		case 'l':
			for (i = 0; i < NCASES; i++)
				printf("%s %s\n", cases[i].name,
				       cases[i].backends == 3 ? "statx,fallback"
				       : cases[i].backends == 1 ? "statx"
				       : "fallback");
			return 0;
		default:
			usage();
		}
	}
	if (o.gen) {
		generate(o.gen, o.nfiles);
		return 0;
	}
	if ((!o.file && !o.tree) || o.rounds < 1 || o.rounds > MAX_ROUNDS ||
	    o.calls < 0 || (o.one && o.file && o.tree))
		usage();
	if (o.label)
		fs_label = o.label;
	if (backend != B_BOTH)
		return run_backend(&o);

	/*
	 * Each backend in a process of its own: statx, the fallback by the
	 * variable, and by a seccomp filter refusing statx with ENOSYS and
	 * with EPERM.
	 */
	for (i = 0; i < 4; i++) {
		static const int errs[4] = { 0, 0, ENOSYS, EPERM };
		pid_t pid;

		backend = i == 0 ? B_STATX : B_FALLBACK;
		sandbox_err = errs[i];

		fflush(stdout);
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0)
			exit(run_backend(&o));
		if (waitpid(pid, &status, 0) < 0)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) > 1)
			return 2;
		fails |= WEXITSTATUS(status);
	}
	return fails;
}
