// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The measured promise table of libxstat(7): for each filesystem layout
 * (ext2/3/4 with and without a journal, 1 KiB and 4 KiB blocks, 128- and
 * 256-byte inodes, btrfs, xfs; loop images, root, exit 77 without) and
 * each kind of change, does the data version move, does the change token
 * move?  Printed as the table's rows, and held against what the library
 * promises for the same file: a flag the library sets must hold here
 * (METADATA: chmod, chown, utimes and xattr set move the value; NAMES:
 * link and rename do; PERSISTENT: a remount keeps it; EVERY_CHANGE:
 * every kind but atime and remount moves it).  The oracle is the change
 * the test made itself.
 *
 * The last column is a crash: an overwrite whose data is written back
 * (sync_file_range) but whose inode update is still in memory or in the
 * running journal transaction, then FS_IOC_SHUTDOWN without a log flush
 * (the filesystem as a power cut leaves it) and a mount.  It is printed,
 * not held to a promise: no flag covers a crash (libxstat(7)).
 */
#include <errno.h>
#include <fcntl.h>
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
#include <sys/xattr.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define DV	XSTAT_REQUEST_DATA_VERSION
#define TOK	XSTAT_REQUEST_CHANGE_TOKEN
#define DVP	XSTAT_REQUEST_DV_PROMISE

/* ext4's and xfs's shutdown ioctl (uapi linux/fs.h from Linux 6.8) */
#define SHUTDOWN		_IOR('X', 125, uint32_t)
#define SHUTDOWN_NOLOGFLUSH	2

enum kind { WRITE, APPEND, TRUNCATE, CHMOD, CHOWN, UTIMES, ATIME, RENAME,
	    LINK, XATTR, REMOUNT, CRASH, NKINDS };
static const char *const kind_name[] = {
	"write", "append", "truncate", "chmod", "chown", "utimes",
	"atime read", "rename", "link", "xattr set", "remount", "crash",
};

struct value {
	int		has_dv, has_tok;
	uint64_t	dv, dvp, tok, tokp;
};

static int get(const char *path, struct value *v)
{
	struct xstat_parameters p = { DV | TOK | DVP };
	union xstat_buffer b;
	const struct xstat_change_token *t;
	const struct xstat_dv_promise *d;
	ssize_t n = xstat(AT_FDCWD, path, 0, &p, &b.x, sizeof(b));

	if (n < 0)
		return -1;
	memset(v, 0, sizeof(*v));
	v->has_dv = !!(b.x.st_result_mask & DV);
	v->dv = b.x.st_data_version;
	d = xstat_extra_dv_promise(&b.x, (size_t)n);
	v->dvp = d ? d->promise : 0;
	t = xstat_extra_change_token(&b.x, (size_t)n);
	v->has_tok = t != NULL;
	v->tok = t ? t->token : 0;
	v->tokp = t ? t->promise : 0;
	return 0;
}

static int change(struct th_loop *l, const char *path, enum kind k)
{
	char other[300], buf[16];
	struct timespec ts[2] = { { 1000000, 0 }, { 2000000, 0 } };
	int fd, ret = 0;

	th_pathf(other, sizeof(other), "%s.other", path);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	switch (k) {
	case WRITE:
		ret = pwrite(fd, "y", 1, 0) != 1;
		break;
	case APPEND:
		ret = pwrite(fd, "y", 1, 4096) != 1;
		break;
	case TRUNCATE:
		ret = ftruncate(fd, 100);
		break;
	case CHMOD:
		ret = fchmod(fd, 0600);
		break;
	case CHOWN:
		ret = fchown(fd, 1, 1);
		break;
	case UTIMES:
		ret = futimens(fd, ts);
		break;
	case ATIME:
		/* relatime updates an atime not newer than the mtime */
		ret = pread(fd, buf, 1, 0) != 1;
		break;
	case RENAME:
		ret = rename(path, other) || rename(other, path);
		break;
	case LINK:
		ret = link(path, other) || unlink(other);
		break;
	case XATTR:
		ret = fsetxattr(fd, "user.table", "v", 1, 0);
		break;
	case REMOUNT:
		syncfs(fd);
		close(fd);
		return th_run(NULL, 0, "umount '%s' && mount '%s' '%s'",
			      l->mnt, l->dev, l->mnt) ? -1 : 0;
	case CRASH: {
		uint32_t how = SHUTDOWN_NOLOGFLUSH;

		if (pwrite(fd, "y", 1, 0) != 1 ||
		    sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE |
				    SYNC_FILE_RANGE_WRITE |
				    SYNC_FILE_RANGE_WAIT_AFTER)) {
			close(fd);
			return -1;
		}
		if (ioctl(fd, SHUTDOWN, &how) < 0) {
			close(fd);
			return 1;	/* no shutdown here: no column */
		}
		close(fd);
		return th_run(NULL, 0, "umount '%s' && mount '%s' '%s'",
			      l->mnt, l->dev, l->mnt) ? -1 : 0;
	}
	default:
		ret = -1;
	}
	/* btrfs: commit, so that the inode item holds the change */
	syncfs(fd);
	close(fd);
	return ret ? -1 : 0;
}

/* Did the crash keep the overwrite (the file's first byte is the new one)? */
static int kept(const char *path)
{
	char c = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &c, 1, 0) != 1)
		c = 0;
	close(fd);
	return c == 'y';
}

/*
 * The crash column's letter for one value: moved (@moved_mark), did not
 * move and the overwrite was lost with it ("."), did not move though the
 * overwrite survived ("!"), or no value ("-").
 */
static char crash_mark(int has, int moved, int survived, char moved_mark)
{
	if (!has)
		return '-';
	if (moved)
		return moved_mark;
	return survived ? '!' : '.';
}

/* Does the promise @p say that a change of kind @k moves the value? */
static int promised(uint64_t p, enum kind k)
{
	switch (k) {
	case WRITE: case APPEND: case TRUNCATE:
		return !!(p & XSTAT_PROMISE_EVERY_CHANGE);
	case CHMOD: case CHOWN: case UTIMES: case XATTR:
		return (p & XSTAT_PROMISE_EVERY_CHANGE) &&
		       (p & XSTAT_PROMISE_METADATA);
	case RENAME: case LINK:
		return (p & XSTAT_PROMISE_EVERY_CHANGE) &&
		       (p & XSTAT_PROMISE_NAMES);
	default:
		return 0;
	}
}

static const struct layout {
	const char	*name;
	const char	*mkfs;
	unsigned	mb;
} layouts[] = {
	{ "ext4", "mkfs.ext4 -q -F %s", 64 },
	{ "ext4 1k", "mkfs.ext4 -q -F -b 1024 %s", 64 },
	{ "ext4 nojournal", "mkfs.ext4 -q -F -O ^has_journal %s", 64 },
	{ "ext4 1k nojournal", "mkfs.ext4 -q -F -b 1024 -O ^has_journal %s",
	  64 },
	{ "ext4 128", "mkfs.ext4 -q -F -I 128 %s", 64 },
	{ "ext4 1k 128 nojournal",
	  "mkfs.ext4 -q -F -b 1024 -I 128 -O ^has_journal %s", 64 },
	{ "ext3", "mkfs.ext3 -q -F %s", 64 },
	{ "ext2", "mkfs.ext2 -q -F %s", 64 },
	{ "ext2 128", "mkfs.ext2 -q -F -I 128 %s", 64 },
	{ "btrfs", "mkfs.btrfs -q -f %s", 256 },
	{ "xfs", "mkfs.xfs -q -f %s", 320 },
};
#define NLAYOUTS	(sizeof(layouts) / sizeof(layouts[0]))

/* 0: every promise held, 1: one did not, TH_SKIP: no image here. */
static int measure(const struct layout *ly)
{
	struct th_loop l;
	struct value a, b;
	char path[300], row[256];
	int failed = 0, fd, k, ret;
	size_t used;

	ret = th_loop_mount(&l, ly->mb, ly->mkfs, NULL);
	if (ret == TH_SKIP)
		return TH_SKIP;
	if (ret)
		return 1;
	used = (size_t)snprintf(row, sizeof(row), "%-22s", ly->name);
	for (k = 0; k < NKINDS; k++) {
		th_pathf(path, sizeof(path), "%s/f%d", l.mnt, k);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, "x", 1) != 1) {
			failed = 1;
			break;
		}
		/* btrfs reports its sequence once the item is committed */
		syncfs(fd);
		close(fd);
		if (get(path, &a) || (ret = change(&l, path, (enum kind)k)) < 0 ||
		    get(path, &b)) {
			fprintf(stderr, "FAIL: %s: %s: %s\n", ly->name,
				kind_name[k], strerror(errno));
			failed = 1;
			break;
		}
		if (k == CRASH) {
			int survived = ret == 0 && kept(path);

			used += (size_t)snprintf(row + used,
				sizeof(row) - used, " %c%c",
				ret ? '-' : crash_mark(a.has_dv && b.has_dv,
						       a.dv != b.dv, survived,
						       'D'),
				ret ? '-' : crash_mark(a.has_tok && b.has_tok,
						       a.tok != b.tok,
						       survived, 'T'));
			continue;
		}
		used += (size_t)snprintf(row + used, sizeof(row) - used,
					 " %c%c",
					 !a.has_dv || !b.has_dv ? '-' :
					 a.dv != b.dv ? 'D' : '.',
					 !a.has_tok || !b.has_tok ? '-' :
					 a.tok != b.tok ? 'T' : '.');
		if (used >= sizeof(row))
			used = sizeof(row) - 1;
		if (a.has_dv && b.has_dv && promised(a.dvp, (enum kind)k) &&
		    a.dv == b.dv) {
			fprintf(stderr, "FAIL: %s: %s: the data version did "
				"not move, promise %#llx\n", ly->name,
				kind_name[k], (unsigned long long)a.dvp);
			failed = 1;
		}
		if (a.has_tok && b.has_tok && promised(a.tokp, (enum kind)k) &&
		    a.tok == b.tok) {
			fprintf(stderr, "FAIL: %s: %s: the token did not "
				"move, promise %#llx\n", ly->name,
				kind_name[k], (unsigned long long)a.tokp);
			failed = 1;
		}
		if (k == REMOUNT && a.has_dv && b.has_dv &&
		    (a.dvp & XSTAT_PROMISE_PERSISTENT) && a.dv != b.dv) {
			fprintf(stderr, "FAIL: %s: remount moved the data "
				"version\n", ly->name);
			failed = 1;
		}
		if (k == REMOUNT && a.has_tok && b.has_tok &&
		    (a.tokp & XSTAT_PROMISE_PERSISTENT) && a.tok != b.tok) {
			fprintf(stderr, "FAIL: %s: remount moved the token\n",
				ly->name);
			failed = 1;
		}
		if (k == 0)
			fprintf(stderr, "%s: data version promise %#llx, token "
				"promise %#llx\n", ly->name,
				(unsigned long long)a.dvp,
				(unsigned long long)a.tokp);
	}
	fprintf(stderr, "%s\n", row);
	th_loop_umount(&l);
	return failed;
}

/* One row of the table: the layout @state, its promises held. */
static void test_layout(void **state)
{
	const struct layout *ly = *state;
	int ret = measure(ly);

	if (ret == TH_SKIP)
		th_skip("%s: no loop image could be mounted", ly->name);
	assert_int_equal(ret, 0);
}

#define LAYOUT(i)	{ NULL, test_layout, NULL, NULL, \
			  (void *)&layouts[i] }

int main(void)
{
	struct CMUnitTest tests[] = {
		LAYOUT(0), LAYOUT(1), LAYOUT(2), LAYOUT(3), LAYOUT(4),
		LAYOUT(5), LAYOUT(6), LAYOUT(7), LAYOUT(8), LAYOUT(9),
		LAYOUT(10),
	};
	size_t i;
	int k;

	/* One test per layout, named after it. */
	_Static_assert(sizeof(tests) / sizeof(tests[0]) == NLAYOUTS,
		       "one test per layout");
	for (i = 0; i < NLAYOUTS; i++)
		tests[i].name = layouts[i].name;
	th_require_root();
	fprintf(stderr, "D: the data version moved, T: the token moved, "
		".: it did not, -: none; crash: !: it did not, but the "
		"overwrite survived\n%-22s", "layout");
	for (k = 0; k < NKINDS; k++)
		fprintf(stderr, " %s", kind_name[k]);
	fputc('\n', stderr);
	return th_run_tests(tests);
}
