// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every file type - regular, directory, symlink (followed and not), a
 * character device, a block device, a FIFO and a unix socket - through
 * xstat() and fxstat(), compared field by field with glibc's statx() and
 * lstat()/stat(), which share no code with libxstat.
 *
 * The oracle values are gathered first; then, if XSTAT_TEST_BLOCK is set,
 * statx is blocked with seccomp (ENOSYS or EPERM), so the same checks prove
 * the fallback backend.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

enum { F_REG, F_DIR, F_LINK_NOFOLLOW, F_LINK_FOLLOW, F_CHR, F_BLK, F_FIFO,
       F_SOCK, F_COUNT };

struct fixture {
	const char	*name;
	char		path[PATH_MAX];
	unsigned	flags;		/* AT_SYMLINK_NOFOLLOW or 0 */
	struct statx	sx;		/* oracle 1: glibc statx() */
	struct stat	sb;		/* oracle 2: lstat() or stat() */
};

static struct fixture fx[F_COUNT];
static char tmpdir[PATH_MAX];
static int blocked;		/* errno statx is blocked with, or 0 */
static int quiet;		/* check_against_oracles() prints nothing */

static void find_block_device(char *out, size_t len)
{
	DIR *d = opendir("/dev");
	struct dirent *e;
	struct stat sb;
	char p[PATH_MAX];

	out[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d))) {
		snprintf(p, sizeof(p), "/dev/%s", e->d_name);
		if (lstat(p, &sb) == 0 && S_ISBLK(sb.st_mode)) {
			snprintf(out, len, "%s", p);
			break;
		}
	}
	closedir(d);
}

static int make_fixtures(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char p[PATH_MAX];
	int fd, i;

	if (!th_mkdtemp(tmpdir, sizeof(tmpdir)))
		return -1;
	snprintf(p, sizeof(p), "%s/reg", tmpdir);
	fd = open(p, O_CREAT | O_WRONLY, 0640);
	/*
	 * fsync: with delayed allocation, st_blocks can change while
	 * writeback runs, and the tests below compare calls byte for byte.
	 */
	if (fd < 0 || write(fd, "hello, xstat\n", 13) != 13 || fsync(fd) ||
	    close(fd))
		return -1;
	fx[F_REG] = (struct fixture){ .name = "regular" };
	snprintf(fx[F_REG].path, PATH_MAX, "%s", p);

	fx[F_DIR] = (struct fixture){ .name = "directory" };
	snprintf(fx[F_DIR].path, PATH_MAX, "%s/dir", tmpdir);
	if (mkdir(fx[F_DIR].path, 0750))
		return -1;

	snprintf(p, sizeof(p), "%s/link", tmpdir);
	if (symlink("reg", p))
		return -1;
	fx[F_LINK_NOFOLLOW] = (struct fixture){ .name = "symlink",
		.flags = AT_SYMLINK_NOFOLLOW };
	snprintf(fx[F_LINK_NOFOLLOW].path, PATH_MAX, "%s", p);
	fx[F_LINK_FOLLOW] = (struct fixture){ .name = "symlink followed" };
	snprintf(fx[F_LINK_FOLLOW].path, PATH_MAX, "%s", p);

	fx[F_CHR] = (struct fixture){ .name = "char device",
		.path = "/dev/null", .flags = AT_SYMLINK_NOFOLLOW };
	fx[F_BLK] = (struct fixture){ .name = "block device",
		.flags = AT_SYMLINK_NOFOLLOW };
	find_block_device(fx[F_BLK].path, PATH_MAX);

	fx[F_FIFO] = (struct fixture){ .name = "fifo",
		.flags = AT_SYMLINK_NOFOLLOW };
	snprintf(fx[F_FIFO].path, PATH_MAX, "%s/fifo", tmpdir);
	if (mkfifo(fx[F_FIFO].path, 0600))
		return -1;

	fx[F_SOCK] = (struct fixture){ .name = "socket",
		.flags = AT_SYMLINK_NOFOLLOW };
	snprintf(fx[F_SOCK].path, PATH_MAX, "%s/sock", tmpdir);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", fx[F_SOCK].path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof(sun)))
		return -1;
	close(fd);

	/*
	 * Following a symlink updates its atime under relatime while the
	 * atime is not newer than its ctime.  Set it an hour ahead so the
	 * oracles stay true however often the tests follow the link.
	 */
	{
		struct timespec ts[2];

		clock_gettime(CLOCK_REALTIME, &ts[0]);
		ts[0].tv_sec += 3600;
		ts[1].tv_nsec = UTIME_OMIT;
		if (utimensat(AT_FDCWD, fx[F_LINK_NOFOLLOW].path, ts,
			      AT_SYMLINK_NOFOLLOW))
			return -1;
	}

	for (i = 0; i < F_COUNT; i++) {
		struct fixture *f = &fx[i];
		int r;

		if (!f->path[0])
			continue;
		if (statx(AT_FDCWD, f->path, (int)f->flags,
			  STATX_BASIC_STATS | STATX_BTIME, &f->sx))
			return -1;
		r = (f->flags & AT_SYMLINK_NOFOLLOW) ? lstat(f->path, &f->sb)
						     : stat(f->path, &f->sb);
		if (r)
			return -1;
	}
	return 0;
}

/* The spec's translation, written out independently of lib/mask.h. */
static unsigned long long expected_basic(const struct statx *sx)
{
	unsigned long long m = 0;

	if ((sx->stx_mask & (STATX_TYPE | STATX_MODE)) ==
	    (STATX_TYPE | STATX_MODE))
		m |= XSTAT_REQUEST_MODE;
	if (sx->stx_mask & STATX_NLINK)
		m |= XSTAT_REQUEST_NLINK;
	if (sx->stx_mask & STATX_UID)
		m |= XSTAT_REQUEST_UID;
	if (sx->stx_mask & STATX_GID)
		m |= XSTAT_REQUEST_GID;
	m |= sx->stx_mask & (STATX_ATIME | STATX_MTIME | STATX_CTIME |
			     STATX_INO | STATX_SIZE | STATX_BLOCKS);
	if (S_ISBLK(sx->stx_mode) || S_ISCHR(sx->stx_mode))
		m |= XSTAT_REQUEST_RDEV;
	return m;
}

static void check_against_oracles(const struct fixture *f,
				  const struct xstat *x,
				  unsigned long long request)
{
	int btime_requested = !!(request & XSTAT_REQUEST_BTIME);
	unsigned long long expected, may_miss;
	const struct statx *sx = &f->sx;
	const struct stat *sb = &f->sb;
	unsigned long long rm = x->st_result_mask;

	if (!quiet)
		print_message("  %s: %s result_mask=%#llx\n", f->name,
			      f->path, rm);
	/* statx oracle */
	assert_int_equal(x->st_mode, sx->stx_mode);
	assert_int_equal(x->st_nlink, sx->stx_nlink);
	assert_int_equal(x->st_uid, sx->stx_uid);
	assert_int_equal(x->st_gid, sx->stx_gid);
	assert_int_equal(x->st_dev.major, sx->stx_dev_major);
	assert_int_equal(x->st_dev.minor, sx->stx_dev_minor);
	assert_int_equal(x->st_ino, sx->stx_ino);
	assert_int_equal(x->st_size, sx->stx_size);
	assert_int_equal(x->st_blocks, sx->stx_blocks);
	assert_int_equal(x->st_blksize, sx->stx_blksize);
	/*
	 * With multigrain timestamps (Linux 6.13+) the kernel reports mtime
	 * and ctime only when asked: compare a time when its bit is set,
	 * and when it is not, it must be zero, never stale.
	 */
	if (rm & XSTAT_REQUEST_MTIME) {
		assert_int_equal(x->st_mtim.tv_sec, sx->stx_mtime.tv_sec);
		assert_int_equal(x->st_mtim.tv_nsec, sx->stx_mtime.tv_nsec);
	} else {
		assert_int_equal(x->st_mtim.tv_sec, 0);
		assert_int_equal(x->st_mtim.tv_nsec, 0);
	}
	if (rm & XSTAT_REQUEST_CTIME) {
		assert_int_equal(x->st_ctim.tv_sec, sx->stx_ctime.tv_sec);
		assert_int_equal(x->st_ctim.tv_nsec, sx->stx_ctime.tv_nsec);
	} else {
		assert_int_equal(x->st_ctim.tv_sec, 0);
		assert_int_equal(x->st_ctim.tv_nsec, 0);
	}
	assert_true(rm & XSTAT_REQUEST_ATIME);
	assert_int_equal(x->st_atim.tv_sec, sx->stx_atime.tv_sec);
	assert_int_equal(x->st_atim.tv_nsec, sx->stx_atime.tv_nsec);
	/* stat oracle */
	assert_int_equal(x->st_ino, sb->st_ino);
	assert_int_equal(x->st_mode, sb->st_mode);
	assert_int_equal(x->st_dev.major, major(sb->st_dev));
	assert_int_equal(x->st_dev.minor, minor(sb->st_dev));
	assert_int_equal(x->st_size, sb->st_size);

	/*
	 * Classes (1) and (2): every basic bit the kernel reports; only an
	 * unrequested mtime or ctime may be missing (see above).
	 */
	expected = expected_basic(sx);
	may_miss = (XSTAT_REQUEST_MTIME | XSTAT_REQUEST_CTIME) & ~request;
	assert_int_equal(rm & XSTAT_REQUEST__BASIC_STATS & ~expected, 0);
	assert_int_equal(expected & ~rm & ~may_miss, 0);
	if (S_ISBLK(sb->st_mode) || S_ISCHR(sb->st_mode)) {
		assert_int_equal(x->st_rdev.major, major(sb->st_rdev));
		assert_int_equal(x->st_rdev.minor, minor(sb->st_rdev));
		assert_int_equal(x->st_rdev.major, sx->stx_rdev_major);
		assert_int_equal(x->st_rdev.minor, sx->stx_rdev_minor);
	} else {
		assert_int_equal(x->st_rdev.major, 0);
		assert_int_equal(x->st_rdev.minor, 0);
	}

	/* Class (3): creation time, exactly the kernel's when present. */
	if (rm & XSTAT_REQUEST_BTIME) {
		assert_true(sx->stx_mask & STATX_BTIME);
		assert_int_equal(x->st_btim.tv_sec, sx->stx_btime.tv_sec);
		assert_int_equal(x->st_btim.tv_nsec, sx->stx_btime.tv_nsec);
	} else {
		assert_int_equal(x->st_btim.tv_sec, 0);
		assert_int_equal(x->st_btim.tv_nsec, 0);
		/* With statx available, a requested btime is never lost. */
		if (!blocked && btime_requested)
			assert_false(sx->stx_mask & STATX_BTIME);
	}
	/* Never a bit that was not defined. */
	assert_int_equal(rm & ~XSTAT_REQUEST__ALL_STATS, 0);
}

static void check_one(const struct fixture *f, unsigned long long request)
{
	struct xstat_parameters p = { request };
	struct xstat x;
	ssize_t n;
	int fd;

	memset(&x, 0xbf, sizeof(x));
	n = xstat(AT_FDCWD, f->path, f->flags, &p, &x, sizeof(x));
	assert_int_equal(n, 152);
	check_against_oracles(f, &x, request);
	if (!(request & XSTAT_REQUEST_GEN))
		assert_false(x.st_result_mask & XSTAT_REQUEST_GEN);
	if (!(x.st_result_mask & XSTAT_REQUEST_GEN))
		assert_int_equal(x.st_gen, 0);
	if (!(request & XSTAT_REQUEST_DATA_VERSION))
		assert_false(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION);
	if (!(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION))
		assert_int_equal(x.st_data_version, 0);

	/* fxstat() on an O_PATH descriptor: opens nothing, any type. */
	fd = open(f->path, O_PATH | O_CLOEXEC |
		  ((f->flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0));
	assert_true(fd >= 0);
	memset(&x, 0xbf, sizeof(x));
	n = fxstat((unsigned)fd, 0, &p, &x, sizeof(x));
	close(fd);
	assert_int_equal(n, 152);
	check_against_oracles(f, &x, request);
}

static const unsigned long long requests[] = {
	0,					/* nothing asked: class 1 anyway */
	XSTAT_REQUEST__BASIC_STATS,
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME,
	XSTAT_REQUEST__EXTENDED_STATS,
	XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN,
	/* Undefined bits ignored. */
	~XSTAT_REQUEST__ALL_STATS | XSTAT_REQUEST__EXTENDED_STATS,
};

/*
 * For every combination of the class (0) to (2) bits and BTIME: the whole
 * result agrees with the oracles, a 151-byte buffer gets the same bytes
 * as far as they fit (the size rule) and nothing past them, and asking
 * for an extra result changes none of the fields.
 */
static size_t first_difference(const unsigned char *a,
			       const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

static void check_paths_agree(const struct fixture *f)
{
	union {
		struct xstat	x;
		unsigned char	b[168];
	} fast, slow, extra;
	struct xstat_parameters p;
	unsigned long long m;
	ssize_t n;

	quiet = 1;
	for (m = 0; m <= 0xfff; m++) {
		p.request_mask = m;
		memset(&fast, 0xbf, sizeof(fast));
		memset(&slow, 0xbf, sizeof(slow));
		assert_int_equal(xstat(AT_FDCWD, f->path, f->flags, &p,
				       &fast.x, 152), 152);
		assert_int_equal(xstat(AT_FDCWD, f->path, f->flags, &p,
				       &slow.x, 151), 152);
		if (memcmp(fast.b, slow.b, 151))
			fail_msg("%s: request %#llx: a short buffer differs at byte %zu",
				 f->name, m, first_difference(fast.b, slow.b, 151));
		assert_int_equal(slow.b[151], 0xbf);	/* not written */
		assert_int_equal(fast.b[152], 0xbf);	/* not written */
		check_against_oracles(f, &fast.x, m);

		p.request_mask = m | XSTAT_REQUEST_MNT_ID;
		n = xstat(AT_FDCWD, f->path, f->flags, &p, &extra.x,
			  sizeof(extra));
		assert_true(n == 152 || n == 168);
		if (memcmp(fast.b, extra.b,
			   offsetof(struct xstat, st_result_mask)))
			fail_msg("%s: request %#llx: extras change the fields",
				 f->name, m);
		assert_int_equal(extra.x.st_result_mask & ~XSTAT_REQUEST_MNT_ID,
				 fast.x.st_result_mask);
	}
	quiet = 0;
}

static void run_type(void **state)
{
	const struct fixture *f = *state;
	size_t i;

	if (!f->path[0])
		th_skip("no %s on this machine", f->name);
	for (i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
		check_one(f, requests[i]);
	check_paths_agree(f);
}

static void test_params_null(void **state)
{
	const struct fixture *f = &fx[F_REG];
	struct xstat a, b;
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };

	(void)state;
	assert_int_equal(xstat(AT_FDCWD, f->path, 0, NULL, &a, sizeof(a)), 152);
	assert_int_equal(xstat(AT_FDCWD, f->path, 0, &p, &b, sizeof(b)), 152);
	/* NULL params means EXTENDED_STATS: the same fields come back. */
	assert_int_equal(a.st_result_mask, b.st_result_mask);
	assert_int_equal(a.st_gen, b.st_gen);
	assert_int_equal(a.st_btim.tv_sec, b.st_btim.tv_sec);
	check_against_oracles(f, &a, XSTAT_REQUEST__EXTENDED_STATS);
}

#define TYPE_TEST(i, name) \
	{ name, run_type, th_fds_setup, th_fds_teardown, &fx[i] }

int main(void)
{
	/* The names are the ones make_fixtures() gives. */
	static const struct CMUnitTest tests[] = {
		TYPE_TEST(F_REG, "regular"),
		TYPE_TEST(F_DIR, "directory"),
		TYPE_TEST(F_LINK_NOFOLLOW, "symlink"),
		TYPE_TEST(F_LINK_FOLLOW, "symlink followed"),
		TYPE_TEST(F_CHR, "char device"),
		TYPE_TEST(F_BLK, "block device"),
		TYPE_TEST(F_FIFO, "fifo"),
		TYPE_TEST(F_SOCK, "socket"),
		{ "params NULL", test_params_null, th_fds_setup,
		  th_fds_teardown, NULL },
	};
	int ret;

	if (make_fixtures()) {
		perror("test-filetypes: fixtures");
		th_rmrf(tmpdir);
		return 1;
	}
	blocked = th_block_from_env();
	print_message("statx %s\n", blocked == ENOSYS ? "blocked (ENOSYS)" :
		      blocked == EPERM ? "blocked (EPERM)" : "available");
	ret = th_run_tests(tests);
	th_rmrf(tmpdir);
	return ret;
}
