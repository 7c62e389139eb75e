// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xstat_compare() (issue 41): the verdict for each thing done to a real
 * file, checked against what was done (the oracle is the script itself):
 *
 *  - nothing: XSTAT_SAME where the change token promises every change
 *    and persistence, else XSTAT_SAME_UNPROVEN, never worse;
 *  - chmod, chown, a new hard link, utimensat of atime only, an xattr:
 *    XSTAT_CHANGED_METADATA, never data (restic's false alarm);
 *  - a same-size rewrite, an append, truncate: XSTAT_CHANGED_DATA;
 *  - a rewrite with mtime set back (touch -r): metadata (documented:
 *    "unless someone set mtime back"), never XSTAT_SAME;
 *  - unlink and create of the same name, rename over: XSTAT_OTHER_FILE;
 *  - the racy window: a file changed just before the first call is not
 *    proven.
 * Plus the argument checks, on built results.  Variants: statx blocked
 * (.eperm, .kill), so the fallback's results are compared too.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define ASK	(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME | \
		 XSTAT_REQUEST_CHANGE_TOKEN | XSTAT_REQUEST_FS_ID)

static char dir[256];

/* b last: struct xstat ends in a flexible array (clang warns elsewhere) */
struct snap {
	size_t len;
	struct xstat_time taken;
	union xstat_buffer b;
};

static void take(const char *path, struct snap *s)
{
	struct xstat_parameters p = { ASK };
	struct timespec ts;
	ssize_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	s->taken.tv_sec = ts.tv_sec;
	s->taken.tv_nsec = (unsigned long long)ts.tv_nsec;
	n = xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p, &s->b.x,
		  sizeof(s->b));
	assert_true(n >= (ssize_t)sizeof(struct xstat));
	s->len = (size_t)n < sizeof(s->b) ? (size_t)n : sizeof(s->b);
}

static int verdict(const struct snap *a, const struct snap *b,
		   unsigned long long *why)
{
	return xstat_compare(&a->b.x, a->len, &b->b.x, b->len, &a->taken, why);
}

/* Is the change token of @s one that can prove "unchanged"? */
static int proves(const struct snap *s)
{
	const struct xstat_change_token *t =
		xstat_extra_change_token(&s->b.x, s->len);
	unsigned long long need = XSTAT_PROMISE_EVERY_CHANGE |
				  XSTAT_PROMISE_PERSISTENT;

	return t && (t->promise & need) == need &&
	       !(t->promise & XSTAT_PROMISE_TICK);
}

static void make(const char *path, const char *data)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, strlen(data)), (ssize_t)strlen(data));
	close(fd);
}

static void rewrite(const char *path, const char *data)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, data, strlen(data), 0),
			 (ssize_t)strlen(data));
	close(fd);
}

enum act { NOTHING, CHMOD, CHOWN, LINK, ATIME, XATTR, REWRITE, APPEND,
	   TRUNCATE, MTIME_BACK, RECREATE, RENAME_OVER, NACTS };

static const struct {
	const char	*name;
	int		want;	/* the verdict; SAME: SAME or UNPROVEN */
} acts[NACTS] = {
	[NOTHING] = { "nothing", XSTAT_SAME },
	[CHMOD] = { "chmod", XSTAT_CHANGED_METADATA },
	[CHOWN] = { "chown", XSTAT_CHANGED_METADATA },
	[LINK] = { "link", XSTAT_CHANGED_METADATA },
	[ATIME] = { "atime set", XSTAT_CHANGED_METADATA },
	[XATTR] = { "setxattr", XSTAT_CHANGED_METADATA },
	[REWRITE] = { "same-size rewrite", XSTAT_CHANGED_DATA },
	[APPEND] = { "append", XSTAT_CHANGED_DATA },
	[TRUNCATE] = { "truncate", XSTAT_CHANGED_DATA },
	[MTIME_BACK] = { "rewrite, mtime set back", XSTAT_CHANGED_METADATA },
	[RECREATE] = { "unlink + create", XSTAT_OTHER_FILE },
	[RENAME_OVER] = { "rename over", XSTAT_OTHER_FILE },
};

static int act(enum act a, const char *path, int i)
{
	char other[300], mark[16];
	struct timespec keep[2];
	struct stat sb;

	th_pathf(other, sizeof(other), "%s.other", path);
	switch (a) {
	case NOTHING:
		return 0;
	case CHMOD:
		return chmod(path, 0600);
	case CHOWN:
		/* to ourselves: the ctime moves, nothing else */
		return chown(path, geteuid(), getegid());
	case LINK:
		return link(path, other);
	case ATIME: {
		struct timespec ts[2] = { { 12345, 0 }, { 0, UTIME_OMIT } };

		return utimensat(AT_FDCWD, path, ts, 0);
	}
	case XATTR:
		snprintf(mark, sizeof(mark), "%d", i);
		if (setxattr(path, "user.compare", mark, strlen(mark), 0) &&
		    errno == EOPNOTSUPP)
			return chmod(path, 0600);	/* tmpfs before 6.6 */
		return 0;
	case REWRITE:
		rewrite(path, "HELLO");
		return 0;
	case APPEND:
		make(path, "hello world");
		return 0;
	case TRUNCATE:
		return truncate(path, 2);
	case MTIME_BACK:
		if (stat(path, &sb))
			return -1;
		keep[0] = sb.st_atim;
		keep[1] = sb.st_mtim;
		rewrite(path, "HELLO");
		return utimensat(AT_FDCWD, path, keep, 0);
	case RECREATE:
		if (unlink(path))
			return -1;
		make(path, "hello");
		return 0;
	case RENAME_OVER:
		make(other, "hello");
		return rename(other, path);
	case NACTS:
		break;
	}
	return -1;
}

/* Every act on a file of its own, all made after every first call. */
static void test_acts(void **state)
{
	static struct snap before[NACTS], after[NACTS];
	char path[NACTS][300];
	unsigned long long why;
	struct timespec pause = { 1, 100000000 };
	int i, v;

	(void)state;
	for (i = 0; i < NACTS; i++) {
		th_pathf(path[i], sizeof(path[i]), "%s/f%d", dir, i);
		make(path[i], "hello");
	}
	/* outside the racy window of the first calls */
	nanosleep(&pause, NULL);
	for (i = 0; i < NACTS; i++)
		take(path[i], &before[i]);
	for (i = 0; i < NACTS; i++)
		assert_int_equal(act((enum act)i, path[i], i), 0);
	for (i = 0; i < NACTS; i++) {
		take(path[i], &after[i]);
		v = verdict(&before[i], &after[i], &why);
		print_message("%-24s verdict %d why %#llx\n", acts[i].name, v,
			      why);
		if (acts[i].want == XSTAT_SAME) {
			assert_int_equal(v, proves(&before[i]) ?
				       XSTAT_SAME : XSTAT_SAME_UNPROVEN);
			continue;
		}
		/*
		 * Without a creation time or generation in both (the
		 * fallback, where the device cannot be read) an inode number
		 * used again cannot be told from the old file: then the
		 * change must still be seen, as data.
		 */
		if (acts[i].want == XSTAT_OTHER_FILE && v != XSTAT_OTHER_FILE &&
		    !(before[i].b.x.st_result_mask &
		      after[i].b.x.st_result_mask &
		      (XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN))) {
			assert_int_equal(v, XSTAT_CHANGED_DATA);
			continue;
		}
		assert_int_equal(v, acts[i].want);
	}
}

/* A change just before the first call: never proven. */
static void test_racy(void **state)
{
	struct snap a, b;
	unsigned long long why;
	char path[300];

	(void)state;
	th_pathf(path, sizeof(path), "%s/racy", dir);
	make(path, "x");
	take(path, &a);
	take(path, &b);
	assert_int_equal(verdict(&a, &b, &why), XSTAT_SAME_UNPROVEN);
	assert_true(why & XSTAT_DIFF_RACY);
	/* No time for the first call: nothing is proven either. */
	assert_int_equal(xstat_compare(&a.b.x, a.len, &b.b.x, b.len, NULL,
				       &why), XSTAT_SAME_UNPROVEN);
	assert_true(why & XSTAT_DIFF_RACY);
}

/* Built results: the rules that need no filesystem. */
static void test_rules(void **state)
{
	union xstat_buffer a, b;
	struct xstat_time t = { 2000000000, 0 };
	unsigned long long why;
	const size_t n = sizeof(struct xstat);

	(void)state;
	memset(&a, 0, sizeof(a));
	a.x.st_result_mask = XSTAT_REQUEST__BASIC_STATS;
	a.x.st_mode = S_IFREG | 0644;
	a.x.st_ino = 7;
	a.x.st_size = 10;
	a.x.st_ctim.tv_sec = 1000;
	b = a;
	/* Equal, no token: unproven. */
	assert_int_equal(xstat_compare(&a.x, n, &b.x, n, &t, &why),
			 XSTAT_SAME_UNPROVEN);
	assert_true(why & XSTAT_DIFF_NO_TOKEN);
	/* A field in one result only is no proof of anything. */
	b.x.st_result_mask &= ~XSTAT_REQUEST_SIZE;
	b.x.st_size = 11;
	assert_int_equal(xstat_compare(&a.x, n, &b.x, n, &t, &why),
			 XSTAT_SAME_UNPROVEN);
	assert_true(why & XSTAT_DIFF_MISSING);
	b = a;
	b.x.st_mode = S_IFDIR | 0644;
	assert_int_equal(xstat_compare(&a.x, n, &b.x, n, &t, &why),
			 XSTAT_OTHER_FILE);
	assert_true(why & XSTAT_DIFF_TYPE);
	b = a;
	b.x.st_dev.minor = 1;
	assert_int_equal(xstat_compare(&a.x, n, &b.x, n, &t, &why),
			 XSTAT_OTHER_FILE);
	assert_true(why & XSTAT_DIFF_FS);
	/* Generation compared only when both have it. */
	b = a;
	b.x.st_gen = 5;
	assert_int_equal(xstat_compare(&a.x, n, &b.x, n, &t, NULL),
			 XSTAT_SAME_UNPROVEN);
	a.x.st_result_mask |= XSTAT_REQUEST_GEN;
	b.x.st_result_mask |= XSTAT_REQUEST_GEN;
	assert_int_equal(xstat_compare(&a.x, n, &b.x, n, &t, &why),
			 XSTAT_OTHER_FILE);
	assert_true(why & XSTAT_DIFF_GEN);
	/* Argument checks. */
	b = a;
	b.x.st_result_mask &= ~XSTAT_REQUEST_INO;
	errno = 0;
	assert_int_equal(xstat_compare(&a.x, n, &b.x, n, &t, NULL), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(xstat_compare(&a.x, n - 1, &a.x, n, &t, NULL), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(xstat_compare(NULL, n, &a.x, n, &t, NULL), -1);
	assert_int_equal(errno, EFAULT);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_racy),
		cmocka_unit_test(test_acts),
	};
	int ret;

	if (!th_mkdtemp(dir, sizeof(dir)))
		return 1;
	th_block_from_env();
	ret = th_run_tests(tests);
	th_rmrf(dir);
	return ret;
}
