// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One FUSE mount, two kinds of files (issue 19): countfs passes through a
 * directory that holds plain files of the host filesystem and an NTFS-3G
 * mount of an mkntfs image.  The NTFS files have "system.ntfs_crtime",
 * the others do not, so lib/probe_xattr.c gets a per-file "no" (ENODATA,
 * or EOPNOTSUPP where the server passes the host filesystem's answer
 * through) between per-file "yes" answers on the same mount.  A "no" must
 * never become a verdict for the mount: every NTFS file asked after a
 * plain one still gets its creation time.
 *
 * The oracle is getfattr reading "system.ntfs_crtime_be" on the NTFS-3G
 * mount itself (not through countfs; a name the library never asks for),
 * decoded here.  countfs with --xattr (errors passed through) and with
 * --xattr-enodata (a missing attribute answered ENODATA, as merging
 * passthrough servers do), statx available or blocked (XSTAT_TEST_BLOCK;
 * then the .eperm variant).  Root, /dev/fuse, countfs, mkntfs, ntfs-3g and
 * getfattr, else exit 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "fuse/countfs.h"

#define NPAIRS	3	/* plain, ntfs, plain, ntfs, ... */

struct mixed {
	const char	*opt;		/* countfs option */
	struct cfs	c;
	char		image[400], ntfs[400];
	int		ntfs_mounted;
	long long	sec[NPAIRS];	/* oracle, per NTFS file */
	unsigned long	nsec[NPAIRS];
};

static struct mixed cases[] = {
	{ .opt = "--xattr" },
	{ .opt = "--xattr-enodata" },
};

static int touch(const char *path)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static void stop(struct mixed *m)
{
	/* The NTFS mount first: cfs_stop removes the source directory. */
	if (m->ntfs_mounted && umount2(m->ntfs, MNT_DETACH))
		fprintf(stderr, "umount %s: %s\n", m->ntfs, strerror(errno));
	m->ntfs_mounted = 0;
	cfs_stop(&m->c);
	if (m->image[0])
		unlink(m->image);
}

/* countfs over src/ with plain files and src/ntfs/: 0, TH_SKIP, -1. */
static int start(struct mixed *m)
{
	char bin[PATH_MAX], path[PATH_MAX];
	int i, ret;

	ret = cfs_start_opt(&m->c, cfs_binary(bin, sizeof(bin)), 1.0, 0,
			    m->opt);
	if (ret)
		return ret == 77 ? TH_SKIP : -1;
	th_pathf(m->image, sizeof(m->image), "%s/ntfs.img", m->c.dir);
	th_pathf(m->ntfs, sizeof(m->ntfs), "%s/ntfs", m->c.src);
	if (mkdir(m->ntfs, 0755) ||
	    th_run(NULL, 0, "truncate -s 16M '%s' && mkntfs -Q -F '%s' "
		   ">/dev/null 2>&1", m->image, m->image))
		return -1;
	/* FUSE may be missing or refused (containers): a skip. */
	if (th_run(NULL, 0, "ntfs-3g '%s' '%s' >/dev/null 2>&1", m->image,
		   m->ntfs)) {
		fprintf(stderr, "SKIP: ntfs-3g cannot mount here\n");
		return TH_SKIP;
	}
	m->ntfs_mounted = 1;
	for (i = 0; i < NPAIRS; i++) {
		th_pathf(path, sizeof(path), "%s/plain%d", m->c.src, i);
		if (touch(path))
			return -1;
		th_pathf(path, sizeof(path), "%s/f%d", m->ntfs, i);
		if (touch(path) || th_ntfs_crtime(path, &m->sec[i],
						  &m->nsec[i]))
			return -1;
	}
	return 0;
}

static void get(const char *path, struct xstat *x)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS |
				      XSTAT_REQUEST_BTIME };

	memset(x, 0xa5, sizeof(*x));
	if (xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p, x, sizeof(*x)) !=
	    XSTAT_STRUCT_SIZE)
		fail_msg("xstat %s: %s", path, strerror(errno));
}

/*
 * plain0, f0, plain1, f1, ... through countfs, twice over (the second
 * round on a mount the library has seen): each NTFS file has its
 * creation time, each plain file none.
 */
static void run_case(void **state)
{
	const struct mixed *m = *state;
	char path[PATH_MAX];
	struct xstat x;
	int round, i;

	for (round = 0; round < 2; round++) {
		for (i = 0; i < NPAIRS; i++) {
			th_pathf(path, sizeof(path), "%s/plain%d", m->c.mnt,
				 i);
			get(path, &x);
			if (x.st_result_mask & XSTAT_REQUEST_BTIME)
				fail_msg("%s %s: a creation time where the "
					 "file has none", m->opt, path);
			th_pathf(path, sizeof(path), "%s/ntfs/f%d", m->c.mnt,
				 i);
			get(path, &x);
			if (!(x.st_result_mask & XSTAT_REQUEST_BTIME) ||
			    x.st_btim.tv_sec != m->sec[i] ||
			    (unsigned long)x.st_btim.tv_nsec != m->nsec[i])
				fail_msg("%s %s (after a file without the "
					 "attribute): btime %lld.%09ld mask "
					 "%#llx, getfattr %lld.%09lu", m->opt,
					 path, (long long)x.st_btim.tv_sec,
					 (long)x.st_btim.tv_nsec,
					 (unsigned long long)x.st_result_mask,
					 m->sec[i], m->nsec[i]);
		}
	}
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		{ "passthrough errors", run_case, NULL, NULL, &cases[0] },
		{ "ENODATA", run_case, NULL, NULL, &cases[1] },
	};
	size_t i;
	int ret = 0;

	th_require_root();
	if (th_run(NULL, 0, "command -v mkntfs && command -v ntfs-3g && "
		   "command -v getfattr") != 0) {
		fprintf(stderr, "SKIP: no ntfs-3g, mkntfs or getfattr\n");
		return TH_SKIP;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]) && !ret; i++)
		ret = start(&cases[i]);
	if (ret) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			stop(&cases[i]);
		if (ret != TH_SKIP)
			fprintf(stderr, "could not set up the mixed mount\n");
		return ret == TH_SKIP ? TH_SKIP : 1;
	}
	th_block_from_env();
	ret = th_run_tests(tests);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		stop(&cases[i]);
	return ret;
}
