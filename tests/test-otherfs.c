// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The XFS and btrfs probes (lib/fs_xfs.c, lib/fs_btrfs.c) on loop
 * images: a v5 XFS, and a btrfs with files in the top level and in a
 * subvolume.  Regular files, directories, symlinks and FIFOs.  Oracles,
 * taken before XSTAT_TEST_BLOCK blocks statx: glibc statx() for the
 * creation time; `lsattr -dv` (regular files, directories) and xfsprogs'
 * `xfs_io -c bulkstat_single` (XFS) or btrfs-progs' `dump-tree`, read
 * from the device after sync (btrfs), for the generation; dump-tree's
 * "sequence" for the btrfs data version.  Then:
 *  - as root every bit is there and equal to its oracle, in either backend;
 *  - after a write, an uncommitted btrfs item never yields the old data
 *    version, and after sync the new one equals dump-tree's;
 *  - as nobody (65534) the calls succeed, BTIME and DATA_VERSION are
 *    cleared where only a probe could give them, the generation still
 *    comes from handles, and the refusal is remembered for the device.
 * What the machine cannot give is probed, and then missing, never wrong:
 * the generation of what cannot be reopened (symlinks, FIFOs; nobody's of
 * any file) where this program cannot decode the kernel's file handles
 * (th_no_native_handles()), btrfs's data version where the tree search
 * gives no inode item (no_tree_search()).
 * Root, loop devices, mkfs.xfs, mkfs.btrfs and xfs_io, else exit 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <cmocka.h>
#include "xstat.h"
#include "fsquery.h"
#include "testhelp.h"

#define MAXF	10

enum kind { REG, DIR_, LNK, FIFO };

struct file {
	char		path[PATH_MAX];
	enum kind	kind;
	uint64_t	tree;		/* btrfs: the subvolume's tree id */
	struct statx	sx;
	unsigned long long gen;
	unsigned long long seq;		/* btrfs sequence (data version) */
};

struct fs_case {
	const char	*name;
	const char	*mkfs;
	const char	*tool;		/* the oracle's tool */
	unsigned	size_mb;
	int		btrfs;
	struct th_loop	loop;
	int		mounted;
	int		skipped;	/* the machine cannot make this one */
	int		nfiles;
	struct file	f[MAXF];
	/*
	 * Probed, or empty: why this program cannot decode the kernel's
	 * file handles (th_no_native_handles()); why BTRFS_IOC_TREE_SEARCH
	 * gives no inode item (btrfs's data version comes from it alone).
	 */
	char		no_handles[PATH_MAX + 160];
	char		no_search[160];
};

static struct fs_case cases[] = {
	{ .name = "xfs", .mkfs = "mkfs.xfs -q -f %s", .tool = "xfs_io",
	  .size_mb = 320 },
	{ .name = "btrfs", .mkfs = "mkfs.btrfs -q -f %s", .tool = "btrfs",
	  .size_mb = 256, .btrfs = 1 },
};

#define NCASES	(sizeof(cases) / sizeof(cases[0]))

static int blocked;

/* ---- oracles ---- */

static int lsattr_gen(const char *path, unsigned long long *gen)
{
	char out[PATH_MAX + 64];

	return th_run(out, sizeof(out), "lsattr -dv '%s' 2>/dev/null", path) ||
	       sscanf(out, "%llu", gen) != 1 ? -1 : 0;
}

static int xfs_io_gen(const char *mnt, uint64_t ino, unsigned long long *gen)
{
	char out[256];

	return th_run(out, sizeof(out), "xfs_io -c 'bulkstat_single %" PRIu64
		      "' '%s' | sed -n 's/^[[:space:]]*bs_gen = //p'", ino,
		      mnt) || sscanf(out, "%llx", gen) != 1 ? -1 : 0;
}

/*
 * dump-tree's INODE_ITEM of @ino in @tree: generation, sequence, otime.
 * It reads the device under the mounted filesystem, so a commit in the
 * middle can make one read fail: sync and try again.
 */
static int dump_tree_once(const char *dev, uint64_t tree, uint64_t ino,
			  unsigned long long *gen, unsigned long long *seq,
			  long long *osec, unsigned long *onsec)
{
	char out[512];

	if (th_run(out, sizeof(out), "btrfs inspect-internal dump-tree -t %"
		   PRIu64 " %s 2>/dev/null | awk '"
		   "$0 ~ /item [0-9]+ key \\(%" PRIu64 " INODE_ITEM 0\\)/ "
		   "{ f = 1; next } "
		   "f && $1 == \"generation\" { g = $2 } "
		   "f && $1 == \"sequence\" { s = $2 } "
		   "f && $1 == \"otime\" { print g, s, $2; exit }'",
		   tree, dev, ino))
		return -1;
	return sscanf(out, "%llu %llu %lld.%lu", gen, seq, osec, onsec) == 4 ?
	       0 : -1;
}

static int dump_tree(const char *dev, uint64_t tree, uint64_t ino,
		     unsigned long long *gen, unsigned long long *seq,
		     long long *osec, unsigned long *onsec)
{
	int tries;

	for (tries = 0; tries < 5; tries++) {
		if (!dump_tree_once(dev, tree, ino, gen, seq, osec, onsec))
			return 0;
		sync();
		usleep(200000);
	}
	return -1;
}

static int rootid(const char *path, uint64_t *id)
{
	char out[64];

	return th_run(out, sizeof(out), "btrfs inspect-internal rootid '%s'",
		      path) || sscanf(out, "%" SCNu64, id) != 1 ? -1 : 0;
}

/*
 * BTRFS_IOC_TREE_SEARCH, asked here as the library asks it: the INODE_ITEM
 * of @path's inode in its own subvolume's tree.  NULL where it gives that
 * item, else why not (an ioctl that fails, or an answer this program
 * cannot read: a user-mode emulator may not pass the call on).
 */
static const char *no_tree_search(const char *path, char *why, size_t len)
{
	struct btrfs_ioctl_search_args args;
	struct btrfs_ioctl_search_header h;
	struct stat sb;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0 || fstat(fd, &sb)) {
		snprintf(why, len, "cannot open %s: %s", path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return why;
	}
	memset(&args, 0, sizeof(args));
	args.key.min_objectid = args.key.max_objectid = sb.st_ino;
	args.key.min_type = args.key.max_type = BTRFS_INODE_ITEM_KEY;
	args.key.max_offset = UINT64_MAX;
	args.key.max_transid = UINT64_MAX;
	args.key.nr_items = 1;
	ret = ioctl(fd, BTRFS_IOC_TREE_SEARCH, &args);
	close(fd);
	memcpy(&h, args.buf, sizeof(h));
	if (ret)
		snprintf(why, len, "BTRFS_IOC_TREE_SEARCH: %s",
			 strerror(errno));
	else if (args.key.nr_items != 1 || h.objectid != sb.st_ino ||
		 h.type != BTRFS_INODE_ITEM_KEY)
		snprintf(why, len, "BTRFS_IOC_TREE_SEARCH gives %u items, "
			 "the first of object %llu type %u, not inode %llu's",
			 args.key.nr_items, (unsigned long long)h.objectid,
			 h.type, (unsigned long long)sb.st_ino);
	else
		return NULL;
	return why;
}

/*
 * Where handles cannot be decoded here, a symlink's or FIFO's generation
 * has no source as root (it cannot be reopened for FS_IOC_GETVERSION) and
 * nobody's none at all: missing, never wrong.
 */
static void assert_gen(const struct xstat *x, const struct file *f,
		       const struct fs_case *c)
{
	if (c->no_handles[0] && (f->kind == LNK || f->kind == FIFO) &&
	    !(x->st_result_mask & XSTAT_REQUEST_GEN)) {
		assert_int_equal(x->st_gen, 0);
		print_message("  %s %s: no generation: %s\n", c->name,
			      f->path, c->no_handles);
		return;
	}
	assert_true(x->st_result_mask & XSTAT_REQUEST_GEN);
	assert_int_equal(x->st_gen, f->gen);
}

/* btrfs's data version where the search gives it, else none at all. */
static void assert_dv(const struct xstat *x, const struct file *f,
		      const struct fs_case *c)
{
	if (c->no_search[0]) {
		assert_false(x->st_result_mask & XSTAT_REQUEST_DATA_VERSION);
		assert_int_equal(x->st_data_version, 0);
		print_message("  %s %s: no data version: %s\n", c->name,
			      f->path, c->no_search);
		return;
	}
	assert_true(x->st_result_mask & XSTAT_REQUEST_DATA_VERSION);
	assert_int_equal(x->st_data_version, f->seq);
}

/* ---- setup ---- */

static int add(struct fs_case *c, const char *dir, const char *name,
	       enum kind k)
{
	struct file *f = &c->f[c->nfiles++];
	int fd;

	snprintf(f->path, sizeof(f->path), "%s/%s", dir, name);
	f->kind = k;
	switch (k) {
	case REG:
		fd = open(f->path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
			  0644);
		if (fd < 0 || write(fd, "data", 4) != 4)
			return -1;
		close(fd);
		break;
	case DIR_:
		return mkdir(f->path, 0755);
	case LNK:
		return symlink("target-elsewhere", f->path);
	case FIFO:
		return mkfifo(f->path, 0644);
	}
	return 0;
}

static int oracles(struct fs_case *c, struct file *f)
{
	long long osec;
	unsigned long onsec;
	unsigned long long g;

	if (statx(AT_FDCWD, f->path, AT_SYMLINK_NOFOLLOW,
		  STATX_BASIC_STATS | STATX_BTIME, &f->sx) ||
	    !(f->sx.stx_mask & STATX_BTIME))
		return -1;
	if (c->btrfs) {
		/* f[1] is the subvolume: its files are in its tree. */
		const char *sv = c->f[1].path;
		size_t len = strlen(sv);
		int in_sv = !strncmp(f->path, sv, len) &&
			    (f->path[len] == '\0' || f->path[len] == '/');

		if (rootid(in_sv ? sv : c->loop.mnt, &f->tree))
			return -1;
		if (dump_tree(c->loop.dev, f->tree, f->sx.stx_ino, &f->gen,
			      &f->seq, &osec, &onsec))
			return -1;
		/* Two oracles for the creation time must agree. */
		if (osec != f->sx.stx_btime.tv_sec ||
		    onsec != f->sx.stx_btime.tv_nsec)
			return -1;
	} else if (xfs_io_gen(c->loop.mnt, f->sx.stx_ino, &f->gen)) {
		return -1;
	}
	if ((f->kind == REG || f->kind == DIR_) &&
	    (lsattr_gen(f->path, &g) || g != (uint32_t)f->gen))
		return -1;
	return 0;
}

static int prepare(struct fs_case *c)
{
	char sv[PATH_MAX], dir[PATH_MAX], *slash;
	const char *why;
	int i, ret;

	if (th_run(NULL, 0, "command -v %s >/dev/null", c->tool)) {
		fprintf(stderr, "SKIP: %s is missing\n", c->tool);
		return TH_SKIP;
	}
	ret = th_loop_mount(&c->loop, c->size_mb, c->mkfs, NULL);
	if (ret)
		return ret;
	c->mounted = 1;
	/* Let nobody reach the mount point (mkdtemp made its parent 0700). */
	snprintf(dir, sizeof(dir), "%s", c->loop.mnt);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (chmod(dir, 0755) || chmod(c->loop.mnt, 0755))
		return -1;
	if (add(c, c->loop.mnt, "f", REG))
		return -1;
	if (c->btrfs) {
		/* f[1] is the subvolume's root directory. */
		snprintf(sv, sizeof(sv), "%s/sv", c->loop.mnt);
		if (th_run(NULL, 0, "btrfs subvolume create '%s' >/dev/null",
			   sv))
			return -1;
		snprintf(c->f[c->nfiles].path, PATH_MAX, "%s", sv);
		c->f[c->nfiles++].kind = DIR_;
	}
	if (add(c, c->loop.mnt, "d", DIR_) || add(c, c->loop.mnt, "l", LNK) ||
	    add(c, c->loop.mnt, "p", FIFO))
		return -1;
	if (c->btrfs && (add(c, sv, "g", REG) || add(c, sv, "gd", DIR_) ||
			 add(c, sv, "gl", LNK) || add(c, sv, "gp", FIFO)))
		return -1;
	sync();
	why = th_no_native_handles(c->loop.mnt);
	snprintf(c->no_handles, sizeof(c->no_handles), "%s", why ? why : "");
	why = c->btrfs ? no_tree_search(c->loop.mnt, c->no_search,
					sizeof(c->no_search)) : NULL;
	if (why)
		fprintf(stderr, "%s: %s\n", c->name, why);
	if (c->no_handles[0])
		fprintf(stderr, "%s: %s\n", c->name, c->no_handles);
	for (i = 0; i < c->nfiles; i++)
		if (oracles(c, &c->f[i])) {
			fprintf(stderr, "%s: no oracle for %s\n", c->name,
				c->f[i].path);
			return -1;
		}
	return 0;
}

static void release(struct fs_case *c)
{
	if (c->mounted)
		th_loop_umount(&c->loop);
	c->mounted = 0;
}

/* ---- checks ---- */

static void get(const char *path, struct xstat *x)
{
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };

	memset(x, 0xa5, sizeof(*x));
	assert_int_equal(xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p, x,
			       sizeof(*x)), 152);
}

static void assert_btime(const struct xstat *x, const struct file *f)
{
	assert_true(x->st_result_mask & XSTAT_REQUEST_BTIME);
	assert_int_equal(x->st_btim.tv_sec, f->sx.stx_btime.tv_sec);
	assert_int_equal(x->st_btim.tv_nsec, f->sx.stx_btime.tv_nsec);
}

/* The case of a test, or skip the test if this machine cannot make it. */
static struct fs_case *case_of(void **state)
{
	struct fs_case *c = *state;

	if (c->skipped)
		th_skip("%s: no image (%s, %s)", c->name, c->mkfs, c->tool);
	return c;
}

static void as_root(void **state)
{
	struct fs_case *c = case_of(state);
	struct xstat x;
	int i;

	for (i = 0; i < c->nfiles; i++) {
		const struct file *f = &c->f[i];

		get(f->path, &x);
		print_message("  %s %s: mask %#llx gen %llu dv %llu\n",
			      c->name, f->path, x.st_result_mask, x.st_gen,
			      x.st_data_version);
		assert_int_equal(x.st_ino, f->sx.stx_ino);
		assert_btime(&x, f);
		assert_gen(&x, f, c);
		if (c->btrfs) {
			assert_dv(&x, f, c);
		} else {
			assert_false(x.st_result_mask &
				     XSTAT_REQUEST_DATA_VERSION);
			assert_int_equal(x.st_data_version, 0);
		}
	}
}

/* fxstat() on descriptors: a regular file's, and a FIFO's O_PATH one. */
static void by_fd(void **state)
{
	struct fs_case *c = case_of(state);
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };
	int i, fd, fds = th_count_fds();
	struct xstat x;

	for (i = 0; i < c->nfiles; i++) {
		const struct file *f = &c->f[i];

		if (f->kind != REG && f->kind != FIFO)
			continue;
		fd = open(f->path, (f->kind == REG ? O_RDONLY : O_PATH) |
			  O_CLOEXEC);
		assert_true(fd >= 0);
		assert_int_equal(fxstat((unsigned)fd, 0, &p, &x, sizeof(x)),
				 152);
		close(fd);
		assert_int_equal(x.st_ino, f->sx.stx_ino);
		assert_gen(&x, f, c);
		/*
		 * A bare FIFO descriptor: its directory is found by the name
		 * /proc gives the descriptor, never by opening the FIFO.
		 */
		assert_btime(&x, f);
		if (c->btrfs && f->kind == REG)
			assert_dv(&x, f, c);
	}
	assert_int_equal(th_count_fds(), fds);
}

/* btrfs: the data version moves with writes, never going back. */
static void data_version(void **state)
{
	struct fs_case *c = case_of(state);
	struct file *f = &c->f[0];
	unsigned long long g, seq;
	unsigned long onsec;
	long long osec;
	struct xstat x;
	int fd, round;

	if (!c->btrfs)
		skip();
	if (c->no_search[0])
		th_skip("%s: %s", c->name, c->no_search);
	for (round = 0; round < 3; round++) {
		fd = open(f->path, O_WRONLY | O_APPEND | O_CLOEXEC);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, "more", 4), 4);
		close(fd);
		/* Not committed yet: cleared, or newer than the old item. */
		get(f->path, &x);
		if (x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)
			assert_true(x.st_data_version > f->seq);
		else
			assert_int_equal(x.st_data_version, 0);
		sync();
		assert_int_equal(dump_tree(c->loop.dev, f->tree,
					   f->sx.stx_ino, &g, &seq, &osec,
					   &onsec), 0);
		assert_true(seq > f->seq);
		get(f->path, &x);
		assert_true(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION);
		assert_int_equal(x.st_data_version, seq);
		assert_btime(&x, f);
		f->seq = seq;
	}
}

static int nobody_child(struct fs_case *c)
{
	struct xstat x;
	int i, j;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
		return 10;
	for (j = 0; j < 2; j++)
		for (i = 0; i < c->nfiles; i++) {
			const struct file *f = &c->f[i];
			struct xstat_parameters p = {
				XSTAT_REQUEST__EXTENDED_STATS };

			if (xstat(AT_FDCWD, f->path, AT_SYMLINK_NOFOLLOW, &p,
				  &x, sizeof(x)) != 152)
				return 11;
			if (x.st_ino != f->sx.stx_ino)
				return 12;
			/*
			 * Handles need no privilege; where this program
			 * cannot decode them, nobody has no other source.
			 */
			if (c->no_handles[0] &&
			    !(x.st_result_mask & XSTAT_REQUEST_GEN)) {
				if (x.st_gen)
					return 18;
			} else if (!(x.st_result_mask & XSTAT_REQUEST_GEN) ||
				   x.st_gen != (uint32_t)f->gen) {
				return 13;
			}
			if (x.st_result_mask & XSTAT_REQUEST_DATA_VERSION ||
			    x.st_data_version)
				return 14;
			if (x.st_result_mask & XSTAT_REQUEST_BTIME) {
				/* Only statx may give it here. */
				if (blocked ||
				    x.st_btim.tv_sec != f->sx.stx_btime.tv_sec ||
				    x.st_btim.tv_nsec !=
				    f->sx.stx_btime.tv_nsec)
					return 15;
			} else if (!blocked || x.st_btim.tv_sec) {
				return 16;
			}
			/*
			 * The probes need CAP_SYS_ADMIN, which nobody lacks:
			 * asked of the thread, not remembered (test-verdicts).
			 */
			if (xs_fs_query_allowed())
				return 17;
		}
	return 0;
}

static void as_nobody(void **state)
{
	struct fs_case *c = case_of(state);
	int status;
	pid_t pid;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(nobody_child(c));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

#define CASE_TESTS(i) \
	{ "as_root", as_root, NULL, NULL, &cases[i] }, \
	{ "by_fd", by_fd, NULL, NULL, &cases[i] }, \
	{ "as_nobody", as_nobody, NULL, NULL, &cases[i] }, \
	{ "data_version", data_version, NULL, NULL, &cases[i] }

int main(void)
{
	static const struct CMUnitTest tests[] = {
		CASE_TESTS(0),	/* xfs */
		CASE_TESTS(1),	/* btrfs */
	};
	size_t i;
	int ret;

	th_require_root();
	if (access("/dev/loop-control", F_OK) ||
	    th_run(NULL, 0, "command -v lsattr") != 0) {
		fprintf(stderr, "SKIP: no loop devices or lsattr\n");
		return TH_SKIP;
	}
	for (i = 0; i < NCASES; i++) {
		ret = prepare(&cases[i]);
		if (ret == TH_SKIP) {
			/* A missing tool: that case skips, not all. */
			release(&cases[i]);
			cases[i].skipped = 1;
		} else if (ret) {
			fprintf(stderr, "%s: could not prepare the image\n",
				cases[i].name);
			do
				release(&cases[i]);
			while (i--);
			return 1;
		}
	}
	blocked = th_block_from_env();
	ret = th_run_tests(tests);
	for (i = 0; i < NCASES; i++)
		release(&cases[i]);
	return ret;
}
