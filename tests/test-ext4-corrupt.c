// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ext4 prober on corrupt and re-used devices (root and loop devices
 * needed: exit 77 without).
 *
 * Corruption: an image is mounted, files are made and their oracle
 * values noted (lstat, glibc statx btime, debugfs generation and
 * i_version), then bytes of the superblock, a group descriptor or an
 * inode are overwritten through the block device node.  The prober reads
 * the device through the same page cache, so it sees them; the mounted
 * ext4 keeps its in-memory copies and goes on working.  Each case runs in
 * a fresh child (a cold device cache), once probing only after the
 * corruption and once with the cache warmed before it, under an alarm()
 * watchdog.  Every call must return 152 with the basic fields of lstat()
 * and GEN right; BTIME and DATA_VERSION must be cleared, or exactly the
 * oracle's value, never another one.  The original bytes are written
 * back after each case.  The whole program runs with LIBXSTAT_NO_STATX=1,
 * so BTIME can only come from the prober.
 *
 * Stale caches: in this one process, an image of one geometry is probed,
 * unmounted, its loop device detached and re-attached to an image of
 * another geometry (same file names, same inode numbers), then the device
 * is made XFS: no value of an old geometry may come back.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/loop.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "ext4-oracle.h"

#define WANT	(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME | \
		 XSTAT_REQUEST_GEN | XSTAT_REQUEST_DATA_VERSION)
/* st_rdev is reported only for device files. */
#define BASIC	(XSTAT_REQUEST__BASIC_STATS & ~XSTAT_REQUEST_RDEV)
#define ALL_PROBED	(XSTAT_REQUEST_BTIME | XSTAT_REQUEST_DATA_VERSION)
#define NFILES	3
#define WATCHDOG	60	/* seconds for one child or one probe round */

struct ofile {
	char		path[300];
	struct stat	st;
	int		has_btime;	/* glibc statx */
	int64_t		btime_sec;
	uint32_t	btime_nsec;
	struct ext4_oracle o;	/* debugfs */
};

static struct ofile files[NFILES];
/*
 * Why this program cannot read the kernel's file handles (another byte
 * order under a user-mode emulator), or NULL: then a symlink's GEN, whose
 * only other source is the prober, may be missing when the prober
 * refuses the device (never wrong).
 */
static const char *no_handles;
static struct th_loop lp;
static int have_xfs;

/* Geometry read here from the raw superblock, independently of lib/. */
struct sbinfo {
	uint32_t	block_size, ipg, first_data, desc_size, inode_size;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int dev_rw(const char *dev, void *buf, size_t len, uint64_t off,
		  int write)
{
	int fd = open(dev, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write ? pwrite(fd, buf, len, (off_t)off) :
		    pread(fd, buf, len, (off_t)off);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static void read_sb(const char *dev, struct sbinfo *s)
{
	uint8_t b[1024];

	assert_int_equal(dev_rw(dev, b, sizeof(b), 1024, 0), 0);
	assert_int_equal(b[0x38] | b[0x39] << 8, 0xEF53);
	s->block_size = 1024U << le32(b + 0x18);
	s->ipg = le32(b + 0x28);
	s->first_data = le32(b + 0x14);
	s->inode_size = (uint32_t)(b[0x58] | b[0x59] << 8);
	s->desc_size = 32;
	if (le32(b + 0x60) & 0x80)
		s->desc_size = (uint32_t)(b[0xFE] | b[0xFF] << 8);
}

static void make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "data\n", 5), 5);
	assert_int_equal(fchown(fd, 1234, 5678), 0);
	close(fd);
}

/* A regular file, a directory and a symlink, with their oracle values. */
static void oracles(const char *dev, int ext4);

static void populate(const char *mnt, const char *dev, int ext4)
{
	static const char *const names[NFILES] = { "file", "dir", "sym" };
	int fd;

	th_pathf(files[0].path, sizeof(files[0].path), "%s/%s", mnt, names[0]);
	make_file(files[0].path);
	th_pathf(files[1].path, sizeof(files[1].path), "%s/%s", mnt, names[1]);
	assert_int_equal(mkdir(files[1].path, 0750), 0);
	th_pathf(files[2].path, sizeof(files[2].path), "%s/%s", mnt, names[2]);
	assert_int_equal(symlink("file", files[2].path), 0);
	/*
	 * Written back now: delayed allocation gives the file its block at
	 * writeback, which rewrites its inode in the device's page cache,
	 * over a corruption made there if it came during a case.
	 */
	fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(syncfs(fd), 0);
	close(fd);
	oracles(dev, ext4);
	no_handles = th_no_native_handles(files[2].path);
	if (no_handles)
		fprintf(stderr, "SKIP-part: the symlink's generation may be "
			"missing: %s\n", no_handles);
}

/* lstat, glibc statx btime and (ext4) debugfs values of files[]. */
static void oracles(const char *dev, int ext4)
{
	struct ext4_oracle o[NFILES];
	uint64_t inos[NFILES];
	struct statx stx;
	int i;

	for (i = 0; i < NFILES; i++) {
		struct ofile *f = &files[i];

		assert_int_equal(lstat(f->path, &f->st), 0);
		memset(&stx, 0, sizeof(stx));
		f->has_btime = statx(AT_FDCWD, f->path, AT_SYMLINK_NOFOLLOW,
				     STATX_BTIME, &stx) == 0 &&
			       (stx.stx_mask & STATX_BTIME);
		f->btime_sec = stx.stx_btime.tv_sec;
		f->btime_nsec = stx.stx_btime.tv_nsec;
		memset(&f->o, 0, sizeof(f->o));
		inos[i] = (uint64_t)f->st.st_ino;
	}
	if (!ext4)
		return;
	assert_int_equal(ext4_oracle_stat_many(dev, inos, NFILES, o), 0);
	for (i = 0; i < NFILES; i++)
		files[i].o = o[i];
}

/*
 * Probe every file once.  Returns a message (static buffer) on a wrong
 * answer, NULL when all is right.  @need: bits that must be reported
 * (a healthy device); @cleared: BTIME and DATA_VERSION must not be
 * (1: on any file, 2: on the regular file, files[0]).  Counts
 * the files that had BTIME in *@nbtime.
 */
static const char *probe_all(uint64_t need, int cleared, int ext4,
			     int *nbtime)
{
	static char msg[600];
	struct xstat_parameters p = { WANT };
	struct xstat x;
	ssize_t ret;
	int i;

	*nbtime = 0;
	for (i = 0; i < NFILES; i++) {
		const struct ofile *f = &files[i];
		const struct stat *st = &f->st;
		uint64_t m;

		memset(&x, 0xa5, sizeof(x));
		alarm(WATCHDOG);
		ret = xstat(AT_FDCWD, f->path, AT_SYMLINK_NOFOLLOW, &p, &x,
			    sizeof(x));
		alarm(0);
		m = x.st_result_mask;
		if (ret != XSTAT_STRUCT_SIZE) {
			snprintf(msg, sizeof(msg), "%s: returned %zd (%s)",
				 f->path, ret, strerror(errno));
			return msg;
		}
		if (x.st_mode != st->st_mode || x.st_nlink != st->st_nlink ||
		    x.st_uid != st->st_uid || x.st_gid != st->st_gid ||
		    x.st_ino != st->st_ino || x.st_size != (uint64_t)st->st_size ||
		    (m & BASIC) != BASIC) {
			snprintf(msg, sizeof(msg), "%s: basic fields differ "
				 "from lstat (mask %" PRIx64 ")", f->path, m);
			return msg;
		}
		if (ext4 && ((m & XSTAT_REQUEST_GEN) ?
			     x.st_gen != f->o.generation :
			     !(no_handles && S_ISLNK(st->st_mode)))) {
			snprintf(msg, sizeof(msg), "%s: gen %" PRIu64 " (mask %"
				 PRIx64 "), debugfs %u", f->path,
				 (uint64_t)x.st_gen, m, f->o.generation);
			return msg;
		}
		if (m & XSTAT_REQUEST_BTIME) {
			(*nbtime)++;
			if (!f->has_btime ||
			    x.st_btim.tv_sec != f->btime_sec ||
			    x.st_btim.tv_nsec != f->btime_nsec) {
				snprintf(msg, sizeof(msg), "%s: btime %" PRId64
					 ".%09" PRIu64 ", statx %" PRId64
					 ".%09u", f->path,
					 (int64_t)x.st_btim.tv_sec,
					 (uint64_t)x.st_btim.tv_nsec,
					 f->btime_sec, f->btime_nsec);
				return msg;
			}
		}
		if ((m & XSTAT_REQUEST_DATA_VERSION) &&
		    (!ext4 || !f->o.has_version ||
		     x.st_data_version != f->o.version)) {
			snprintf(msg, sizeof(msg), "%s: data_version %" PRIu64
				 ", debugfs %" PRIu64, f->path,
				 (uint64_t)x.st_data_version, f->o.version);
			return msg;
		}
		if ((m & need) != need) {
			snprintf(msg, sizeof(msg), "%s: healthy device, mask %"
				 PRIx64, f->path, m);
			return msg;
		}
		if (cleared && (cleared == 1 || i == 0) &&
		    (m & (XSTAT_REQUEST_BTIME |
				     XSTAT_REQUEST_DATA_VERSION))) {
			snprintf(msg, sizeof(msg), "%s: untrustable device "
				 "but mask %" PRIx64, f->path, m);
			return msg;
		}
	}
	return NULL;
}

/* One corruption: @len bytes at @off of the device. */
struct corruption {
	const char	*name;
	uint64_t	off;
	uint8_t		bytes[8];
	size_t		len;
	int		cleared;	/* cold cache: 1 all files clear the
					 * fields, 2 the regular file does */
	int		truncate_to;	/* KiB; instead of bytes */
};

static void corrupt(const struct corruption *c)
{
	if (c->truncate_to) {
		assert_int_equal(th_run(NULL, 0, "truncate -s %dK '%s' && "
					"losetup -c %s", c->truncate_to,
					lp.image, lp.dev), 0);
		return;
	}
	assert_int_equal(dev_rw(lp.dev, (void *)c->bytes, c->len, c->off, 1),
			 0);
}

/*
 * In a child: optionally warm the cache (all fields right), corrupt,
 * probe twice.  The child's exit status says how it went; a hang is
 * ended by the watchdog (SIGALRM).
 */
static void run_case(const struct corruption *c, int warm)
{
	static const struct corruption none = { "healthy", 0, { 0 }, 0, 0, 0 };
	uint8_t saved[8];
	int status, n, healthy = !c;
	pid_t pid;

	if (healthy)
		c = &none;
	if (!healthy && !c->truncate_to)
		assert_int_equal(dev_rw(lp.dev, saved, c->len, c->off, 0), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *err = NULL;
		int i;

		alarm(WATCHDOG);
		if (warm)
			err = probe_all(ALL_PROBED, 0, 1, &n);
		if (healthy)
			_exit(err ? (fprintf(stderr, "healthy: %s\n", err), 1) : 0);
		if (!err)
			corrupt(c);
		for (i = 0; !err && i < 2; i++)
			err = probe_all(0, warm ? 0 : c->cleared, 1, &n);
		if (err)
			fprintf(stderr, "%s (%s): %s\n", c->name,
				warm ? "warm" : "cold", err);
		_exit(err ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!healthy && !c->truncate_to)
		assert_int_equal(dev_rw(lp.dev, saved, c->len, c->off, 1), 0);
	if (WIFSIGNALED(status))
		fail_msg("%s (%s): child killed by signal %d", c->name,
			 warm ? "warm" : "cold", WTERMSIG(status));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("%s (%s): wrong answer", c->name,
			 warm ? "warm" : "cold");
}

#define SB(field)	(1024 + (field))

static void corrupt_image(const char *mkfs)
{
	struct corruption cs[24], *c;
	struct sbinfo s;
	uint64_t ino, ioff, doff, itable;
	uint8_t desc[64];
	int i, n = 0, is64;

	print_message("image: %s\n", mkfs);
	th_loop_mount_test(&lp, 32, mkfs, NULL);
	populate(lp.mnt, lp.dev, 1);
	read_sb(lp.dev, &s);
	is64 = s.desc_size >= 64;

	/*
	 * The probe works on the healthy device (the test can fail); in a
	 * child, as every probe here, so that each case starts cold.
	 */
	run_case(NULL, 1);

	/* Where the regular file's inode and its group descriptor are. */
	ino = (uint64_t)files[0].st.st_ino;
	assert_int_equal(ext4_oracle_imap(lp.dev, &ino, 1, s.block_size,
					  &ioff), 0);
	doff = (uint64_t)(s.first_data + 1) * s.block_size +
	       (ino - 1) / s.ipg * s.desc_size;
	assert_int_equal(dev_rw(lp.dev, desc, sizeof(desc), doff, 0), 0);
	itable = le32(desc + 0x08);
	if (is64)
		itable |= (uint64_t)le32(desc + 0x28) << 32;
	/* The descriptor is right: the inode is in the table it names. */
	assert_true(ioff >= itable * s.block_size);
	assert_true(ioff - itable * s.block_size ==
		    ((ino - 1) % s.ipg) * s.inode_size);

	memset(cs, 0, sizeof(cs));
	c = &cs[n++];
	*c = (struct corruption){ "magic flipped", SB(0x38), { 0x53, 0xEE },
				  2, 1, 0 };
	c = &cs[n++];
	*c = (struct corruption){ "inodes_per_group 0", SB(0x28), { 0 }, 4,
				  1, 0 };
	c = &cs[n++];
	*c = (struct corruption){ "inodes_per_group ~0", SB(0x28),
				  { 0xFF, 0xFF, 0xFF, 0xFF }, 4, 1, 0 };
	c = &cs[n++];
	*c = (struct corruption){ "log_block_size 30", SB(0x18), { 30 }, 4,
				  1, 0 };
	c = &cs[n++];
	*c = (struct corruption){ "inode_size 0", SB(0x58), { 0, 0 }, 2, 1,
				  0 };
	c = &cs[n++];
	*c = (struct corruption){ "inode_size 32768", SB(0x58), { 0, 0x80 },
				  2, 1, 0 };
	c = &cs[n++];
	*c = (struct corruption){ "blocks_count ~0", SB(0x04),
				  { 0xFF, 0xFF, 0xFF, 0xFF }, 4, 1, 0 };
	if (is64) {
		c = &cs[n++];
		*c = (struct corruption){ "desc_size 3", SB(0xFE), { 3, 0 },
					  2, 1, 0 };
		c = &cs[n++];
		*c = (struct corruption){ "desc_size 0xFFFF", SB(0xFE),
					  { 0xFF, 0xFF }, 2, 1, 0 };
	}
	if (s.inode_size > 128) {
		static const uint16_t bad[] = { 0xFFFF, 2, 33, 0 };
		static const char *const names[] = {
			"i_extra_isize 0xFFFF", "i_extra_isize 2",
			"i_extra_isize 33", "i_extra_isize 0" };

		for (i = 0; i < 4; i++) {
			c = &cs[n++];
			*c = (struct corruption){ names[i], ioff + 0x80,
						  { (uint8_t)bad[i],
						    (uint8_t)(bad[i] >> 8) },
						  2, bad[i] ? 2 : 0, 0 };
		}
	}
	/*
	 * The regular file's group: inode table past the end of the device,
	 * and one block off (the directory may be in another group).
	 */
	c = &cs[n++];
	*c = (struct corruption){ "inode table past the end", doff + 0x08,
				  { 0xF0, 0xFF, 0xFF, 0x7F }, 4, 2, 0 };
	if (is64) {
		c = &cs[n++];
		*c = (struct corruption){ "inode table hi past the end",
					  doff + 0x28, { 1 }, 4, 2, 0 };
	}
	c = &cs[n++];
	*c = (struct corruption){ "inode table one block off", doff + 0x08,
				  { 0 }, 4, 2, 0 };
	for (i = 0; i < 4; i++)
		c->bytes[i] = (uint8_t)((itable + 1) >> (8 * i));

	assert_true((size_t)n <= sizeof(cs) / sizeof(cs[0]));
	for (i = 0; i < n; i++) {
		print_message("  %s\n", cs[i].name);
		run_case(&cs[i], 0);
		run_case(&cs[i], 1);
	}

	/* Last: the device shrinks under the mounted filesystem. */
	{
		struct corruption t = { "truncated device", 0, { 0 }, 0, 0,
					1024 };

		print_message("  %s\n", t.name);
		run_case(&t, 1);
		t.cleared = 1;
		run_case(&t, 0);
	}
	th_loop_umount(&lp);
}

static int unmount_image(void **state)
{
	(void)state;
	th_loop_umount(&lp);
	return 0;
}

static void test_corrupt(void **state)
{
	(void)state;
	corrupt_image("mkfs.ext4 -q -F -b 4096 -O 64bit,metadata_csum %s");
	/* Without checksums, only the cross-check with stat protects. */
	corrupt_image("mkfs.ext4 -q -F -b 4096 -O 64bit,^metadata_csum %s");
	corrupt_image("mkfs.ext4 -q -F -b 1024 -I 256 -O ^64bit,^metadata_csum "
		      "%s");
}

/*
 * One process, one loop device, several filesystems in turn.  A loop
 * device stays bound while anyone holds it open (losetup -d only marks
 * it to be cleared on the last close), and the prober keeps its fd, so
 * the images are switched under the read-only device with LOOP_CHANGE_FD
 * (the sizes must match): ext4 with 4 KiB blocks, 256-byte inodes and
 * 64bit; ext4 with 1 KiB blocks, 128-byte inodes, no 64bit (same names,
 * so the same inode numbers); XFS; the first image again.
 */
#define STALE_MB	320

static char stale_dir[200], stale_dev[64], stale_mnt[300];

static int unmount_stale(void **state)
{
	(void)state;
	if (!stale_dir[0])
		return 0;
	th_run(NULL, 0, "umount '%s' 2>/dev/null", stale_mnt);
	if (stale_dev[0])
		th_run(NULL, 0, "losetup -d %s 2>/dev/null", stale_dev);
	th_rmrf(stale_dir);
	stale_dir[0] = stale_dev[0] = '\0';
	return 0;
}

static void create_files(const char *mnt)
{
	char path[300];

	th_pathf(path, sizeof(path), "%s/file", mnt);
	make_file(path);
	th_pathf(path, sizeof(path), "%s/dir", mnt);
	assert_int_equal(mkdir(path, 0750), 0);
	th_pathf(path, sizeof(path), "%s/sym", mnt);
	assert_int_equal(symlink("file", path), 0);
}

/* Image @name made by @mkfs, with the files, on a loop device of its own. */
static void make_image(const char *name, const char *mkfs)
{
	char img[300], dev[64], cmd[600];

	th_pathf(img, sizeof(img), "%s/%s", stale_dir, name);
	th_pathf(cmd, sizeof(cmd), mkfs, img);
	assert_int_equal(th_run(NULL, 0, "truncate -s %dM '%s' && %s "
				">/dev/null 2>&1", STALE_MB, img, cmd), 0);
	assert_int_equal(th_run(dev, sizeof(dev), "losetup -f --show '%s'",
				img), 0);
	if (th_run(NULL, 0, "mount %s '%s'", dev, stale_mnt) != 0) {
		th_run(NULL, 0, "losetup -d %s", dev);
		fail_msg("cannot mount %s", name);
	}
	create_files(stale_mnt);
	th_run(NULL, 0, "umount '%s'; losetup -d %s", stale_mnt, dev);
}

/* Put image @name under the device and mount it read-only. */
static void switch_to(const char *name)
{
	char img[300];
	int dfd, ifd, ret;

	th_run(NULL, 0, "umount '%s' 2>/dev/null", stale_mnt);
	th_pathf(img, sizeof(img), "%s/%s", stale_dir, name);
	dfd = open(stale_dev, O_RDONLY | O_CLOEXEC);
	ifd = open(img, O_RDONLY | O_CLOEXEC);
	assert_true(dfd >= 0 && ifd >= 0);
	ret = ioctl(dfd, LOOP_CHANGE_FD, ifd);
	close(ifd);
	close(dfd);
	if (ret)
		fail_msg("LOOP_CHANGE_FD to %s: %s", name, strerror(errno));
	assert_int_equal(th_run(NULL, 0, "mount -o ro %s '%s'", stale_dev,
				stale_mnt), 0);
}

static void observe_files(const char *mnt, int ext4)
{
	th_pathf(files[0].path, sizeof(files[0].path), "%s/file", mnt);
	th_pathf(files[1].path, sizeof(files[1].path), "%s/dir", mnt);
	th_pathf(files[2].path, sizeof(files[2].path), "%s/sym", mnt);
	oracles(stale_dev, ext4);
}

static void test_stale(void **state)
{
	const char *err;
	char img[300];
	int n;

	(void)state;
	assert_non_null(th_mkdtemp(stale_dir, sizeof(stale_dir)));
	th_pathf(stale_mnt, sizeof(stale_mnt), "%s/mnt", stale_dir);
	assert_int_equal(mkdir(stale_mnt, 0755), 0);
	make_image("a", "mkfs.ext4 -q -F -b 4096 -I 256 -O 64bit %s");
	make_image("b", "mkfs.ext4 -q -F -b 1024 -I 128 -O ^64bit %s");
	if (have_xfs)
		make_image("c", "mkfs.xfs -q -f %s");

	th_pathf(img, sizeof(img), "%s/a", stale_dir);
	assert_int_equal(th_run(stale_dev, sizeof(stale_dev),
				"losetup -r -f --show '%s'", img), 0);
	assert_int_equal(th_run(NULL, 0, "mount -o ro %s '%s'", stale_dev,
				stale_mnt), 0);
	observe_files(stale_mnt, 1);
	err = probe_all(ALL_PROBED, 0, 1, &n);
	if (err)
		fail_msg("image a: %s", err);

	/*
	 * 128-byte inodes: no crtime, so no BTIME; i_version is there, but
	 * with whole-second ctimes it cannot keep a data version's promise,
	 * so none is reported (contract 4, libxstat(7)).
	 */
	switch_to("b");
	observe_files(stale_mnt, 1);
	for (n = 0; n < NFILES; n++)
		assert_false(files[n].has_btime);
	err = probe_all(0, 1, 1, &n);
	if (err)
		fail_msg("image b: %s", err);

	/* Back: A's values, none of B's. */
	switch_to("a");
	observe_files(stale_mnt, 1);
	err = probe_all(ALL_PROBED, 0, 1, &n);
	if (err)
		fail_msg("image a again: %s", err);

	if (have_xfs) {
		/* Nothing from ext4: BTIME cleared or statx's, no version. */
		switch_to("c");
		observe_files(stale_mnt, 0);
		err = probe_all(0, 0, 0, &n);
		if (err)
			fail_msg("xfs: %s", err);
	} else {
		print_message("no mkfs.xfs: XFS step not run\n");
	}

	/*
	 * ext4 once more after XFS: the prober remembers for 30 s that the
	 * device held no ext4 superblock, so the fields may be cleared for
	 * now; if given they must be A's.  (Had XFS been the first seen on
	 * the device, the filesystem-type cache would keep saying XFS
	 * without statx, and the prober would not be asked at all.)
	 */
	switch_to("a");
	observe_files(stale_mnt, 1);
	err = probe_all(0, 0, 1, &n);
	if (err)
		fail_msg("image a after xfs: %s", err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_corrupt, unmount_image),
		cmocka_unit_test_teardown(test_stale, unmount_stale),
	};
	struct th_loop l;
	uint8_t b[2];
	int ret;

	th_require_root();
	if (!ext4_oracle_available()) {
		fprintf(stderr, "SKIP: needs debugfs and mkfs.ext4\n");
		return TH_SKIP;
	}
	/* Loop devices, ext4 mounts and writes to a mounted device, or skip. */
	ret = th_loop_check(&l, "mkfs.ext4 -q -F %s");
	if (ret)
		return ret;
	ret = dev_rw(l.dev, b, 2, 0, 0) || dev_rw(l.dev, b, 2, 0, 1);
	th_loop_umount(&l);
	if (ret) {
		fprintf(stderr, "SKIP: a mounted block device is not "
			"writable here\n");
		return TH_SKIP;
	}
	have_xfs = th_run(NULL, 0, "command -v mkfs.xfs >/dev/null") == 0;
	/* Before any xstat(): BTIME can then only come from the prober. */
	setenv("LIBXSTAT_NO_STATX", "1", 1);
	signal(SIGALRM, SIG_DFL);
	return th_run_tests(tests);
}
