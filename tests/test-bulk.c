// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Directory streams (xstat_opendir(3)) against xstat() per name and
 * against oracles that share no code with libxstat: readdir(3) for the
 * names, glibc statx() (or lstat() when statx is blocked) for inode,
 * mode and times, debugfs for the raw ext4 generation, i_version and
 * crtime.  On ext4 (4 KiB and 1 KiB blocks, 128-byte inodes), xfs, btrfs
 * and tmpfs, for several request masks; run again with statx blocked
 * (XSTAT_TEST_BLOCK, tests/test-bulk-eperm.sh).
 *
 * Also: no descriptor but the directory's is open while entries are
 * handed out or in a child forked meanwhile, none is left after
 * xstat_closedir(); entries removed during the scan give ENOENT and no
 * name comes twice; ENOTDIR; EMFILE fails the call and leaks nothing,
 * and a stream that can open nothing more still equals xstat().
 *
 * With name_to_handle_at refused, a symlink's generation still comes, the
 * same by both routes.  Where the machine cannot give something, a probe
 * says so and the check bends only that far: entries of a stream with
 * every result asked, and a token stream's raw reads, per call where
 * statx gives no unique mount ID; a change token promising only another
 * tick's changes, where no multigrain timestamps are known.
 *
 * Needs root and loop devices for the filesystems: a filesystem that
 * cannot be had here is a skipped case, and with none the program skips.
 * CHECK() reports every mismatch of a case, which then fails.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <grp.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sched.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "ext4-oracle.h"
#include "../lib/bulk_uring.h"

/* bulk.h's test hook (the header needs the library's config). */
extern unsigned long xs_bulk_raw_ready, xs_bulk_per_call;

#define NFILES		200
#define NVANISH		9000	/* more than a batch (4096) */
#define MAX_NAMES	(NVANISH + 64)
#define RESULT_MAX	XSTAT_RESULT_MAX
#define ORACLE_SAMPLE	6

static int failures, blocked;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		failures++;						\
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);	\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
	}								\
} while (0)

struct fs_case {
	const char	*name;
	const char	*mkfs;		/* NULL: tmpfs */
	unsigned	size_mb;
	int		ext4;
};

static const struct fs_case cases[] = {
	{ "ext4-4k", "mkfs.ext4 -q -F -b 4096 %s", 64, 1 },
	{ "ext4-1k", "mkfs.ext4 -q -F -b 1024 %s", 64, 1 },
	{ "ext4-128", "mkfs.ext4 -q -F -I 128 %s", 64, 1 },
	{ "xfs", "mkfs.xfs -q -f %s", 320, 0 },
	{ "btrfs", "mkfs.btrfs -q -f %s", 256, 0 },
	{ "tmpfs", NULL, 0, 0 },
};

static const unsigned long long masks[] = {
	XSTAT_REQUEST__EXTENDED_STATS,
	XSTAT_REQUEST__BASIC_STATS,
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN,
	XSTAT_REQUEST_DATA_VERSION,
	0x2fff,			/* everything but the generation */
	/*
	 * Behind a filter refusing statx (.eperm) a raw batch serves this
	 * alone; the reason a creation time is missing (ext4-128) depends
	 * on which backend answered the entry, as in xstat().
	 */
	XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME |
		XSTAT_REQUEST_WHY_MISSING,
	XSTAT_REQUEST__ALL_STATS,
	0,
};

/* A mounted test filesystem. */
struct mnt {
	struct th_loop	loop;
	char		top[256];	/* tmpfs: our directory holding it */
	char		tmpfs[300];
	const char	*dir;
};

static int mount_case(const struct fs_case *c, struct mnt *m)
{
	char tmp[256];
	int ret;

	memset(m, 0, sizeof(*m));
	if (c->mkfs) {
		ret = th_loop_mount(&m->loop, c->size_mb, c->mkfs, NULL);
		if (ret)
			return ret;
		m->dir = m->loop.mnt;
		return 0;
	}
	/*
	 * In a directory of our own: as_nobody() opens up the mount
	 * point's parent, which must never be the shared temp directory.
	 */
	if (geteuid() != 0 || !th_mkdtemp(tmp, sizeof(tmp)))
		return TH_SKIP;
	th_pathf(m->top, sizeof(m->top), "%s", tmp);
	th_pathf(m->tmpfs, sizeof(m->tmpfs), "%s/mnt", tmp);
	if (mkdir(m->tmpfs, 0755) ||
	    mount("tmpfs", m->tmpfs, "tmpfs", 0, "size=64m")) {
		th_rmrf(m->top);
		return TH_SKIP;
	}
	m->dir = m->tmpfs;
	return 0;
}

static void umount_case(struct mnt *m)
{
	if (m->tmpfs[0]) {
		umount(m->tmpfs);
		th_rmrf(m->top);
	} else {
		th_loop_umount(&m->loop);
	}
}

/* The files every filesystem gets: of each type, hard links, data. */
static int populate(const char *dir, int nfiles)
{
	static const char data[97];	/* file contents: i % 97 zero bytes */
	char p[512], q[512];
	int i, fd;

	for (i = 0; i < nfiles; i++) {
		th_pathf(p, sizeof(p), "%s/f%05d", dir, i);
		fd = open(p, O_CREAT | O_WRONLY | O_EXCL, 0640 + (i & 7));
		if (fd < 0)
			return -1;
		if (i % 3 && write(fd, data, (size_t)(i % 97)) < 0) {
			close(fd);
			return -1;
		}
		close(fd);
	}
	th_pathf(p, sizeof(p), "%s/subdir", dir);
	if (mkdir(p, 0755))
		return -1;
	th_pathf(p, sizeof(p), "%s/symlink", dir);
	if (symlink("f00000", p))
		return -1;
	th_pathf(p, sizeof(p), "%s/dangling", dir);
	if (symlink("nowhere", p))
		return -1;
	th_pathf(p, sizeof(p), "%s/fifo", dir);
	if (mkfifo(p, 0600))
		return -1;
	th_pathf(p, sizeof(p), "%s/f00001", dir);
	th_pathf(q, sizeof(q), "%s/hardlink", dir);
	if (nfiles > 1 && link(p, q))
		return -1;
	return 0;
}

/* The names readdir(3) gives, "." and ".." left out. */
static int list_names(const char *dir, char names[][16], int max)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == max || strlen(de->d_name) >= 16) {
			closedir(d);
			return -1;
		}
		strcpy(names[n++], de->d_name);
	}
	closedir(d);
	return n;
}

static int find_name(char names[][16], int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* Descriptors other than 0-2 and @keep that name a block device. */
static int block_device_fds(void)
{
	char link[64], target[256];
	struct stat sb;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0, fd;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		fd = atoi(de->d_name);
		if (de->d_name[0] == '.' || fd == dirfd(d))
			continue;
		if (fstat(fd, &sb) == 0 && S_ISBLK(sb.st_mode)) {
			snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
			ssize_t l = readlink(link, target, sizeof(target) - 1);

			target[l > 0 ? l : 0] = '\0';
			fprintf(stderr, "  fd %d is block device %s\n", fd,
				target);
			n++;
		}
	}
	closedir(d);
	return n;
}

/* Independent of libxstat: glibc statx(), or lstat() where it is blocked. */
static void check_oracle(const char *label, int dfd,
			 const struct xstat_dirent *e)
{
	const struct xstat *x = e->d_xstat;
	unsigned long long rm = x->st_result_mask;
	struct statx sx;
	struct stat sb;

	if (!blocked) {
		if (statx(dfd, e->d_name, AT_SYMLINK_NOFOLLOW,
			  STATX_BASIC_STATS | STATX_BTIME, &sx))
			return;
		CHECK(x->st_ino == sx.stx_ino, "%s %s: ino %llu, statx %llu",
		      label, e->d_name, x->st_ino,
		      (unsigned long long)sx.stx_ino);
		CHECK(!(rm & XSTAT_REQUEST_MODE) || x->st_mode == sx.stx_mode,
		      "%s %s: mode %o, statx %o", label, e->d_name, x->st_mode,
		      sx.stx_mode);
		CHECK(!(rm & XSTAT_REQUEST_NLINK) || x->st_nlink == sx.stx_nlink,
		      "%s %s: nlink differs from statx", label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_UID) || x->st_uid == sx.stx_uid,
		      "%s %s: uid differs from statx", label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_GID) || x->st_gid == sx.stx_gid,
		      "%s %s: gid differs from statx", label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_SIZE) || x->st_size == sx.stx_size,
		      "%s %s: size differs from statx", label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_MTIME) ||
		      (x->st_mtim.tv_sec == sx.stx_mtime.tv_sec &&
		       x->st_mtim.tv_nsec == sx.stx_mtime.tv_nsec),
		      "%s %s: mtime differs from statx", label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_CTIME) ||
		      (x->st_ctim.tv_sec == sx.stx_ctime.tv_sec &&
		       x->st_ctim.tv_nsec == sx.stx_ctime.tv_nsec),
		      "%s %s: ctime differs from statx", label, e->d_name);
		if (rm & XSTAT_REQUEST_BTIME)
			CHECK((sx.stx_mask & STATX_BTIME) &&
			      x->st_btim.tv_sec == sx.stx_btime.tv_sec &&
			      x->st_btim.tv_nsec == sx.stx_btime.tv_nsec,
			      "%s %s: btime differs from statx", label,
			      e->d_name);
	} else {
		if (fstatat(dfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW))
			return;
		CHECK(x->st_ino == sb.st_ino, "%s %s: ino differs from lstat",
		      label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_MODE) || x->st_mode == sb.st_mode,
		      "%s %s: mode differs from lstat", label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_NLINK) || x->st_nlink == sb.st_nlink,
		      "%s %s: nlink differs from lstat", label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_UID) || x->st_uid == sb.st_uid,
		      "%s %s: uid differs from lstat", label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_GID) || x->st_gid == sb.st_gid,
		      "%s %s: gid differs from lstat", label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_SIZE) ||
		      x->st_size == (unsigned long long)sb.st_size,
		      "%s %s: size differs from lstat", label, e->d_name);
		CHECK(!(rm & XSTAT_REQUEST_CTIME) ||
		      (x->st_ctim.tv_sec == sb.st_ctim.tv_sec &&
		       x->st_ctim.tv_nsec == (unsigned long long)
					     sb.st_ctim.tv_nsec),
		      "%s %s: ctime differs from lstat", label, e->d_name);
	}
	CHECK(e->d_ino == x->st_ino, "%s %s: d_ino %llu, st_ino %llu", label,
	      e->d_name, (unsigned long long)e->d_ino, x->st_ino);
}

/* debugfs (@o): the raw inode's generation, i_version and crtime. */
static void check_debugfs(const char *label, const char *name,
			  const struct xstat *x, const struct ext4_oracle *o)
{
	unsigned long long rm = x->st_result_mask;

	if (rm & XSTAT_REQUEST_GEN)
		CHECK(x->st_gen == o->generation, "%s %s: gen %llu, debugfs %u",
		      label, name, x->st_gen, o->generation);
	if (rm & XSTAT_REQUEST_DATA_VERSION)
		CHECK(o->has_version && x->st_data_version == o->version,
		      "%s %s: data version %llu, debugfs %" PRIu64, label,
		      name, x->st_data_version, o->version);
	if (rm & XSTAT_REQUEST_BTIME)
		CHECK(o->has_crtime && x->st_btim.tv_sec == o->crtime_sec &&
		      x->st_btim.tv_nsec == o->crtime_nsec,
		      "%s %s: btime differs from debugfs", label, name);
}

/* debugfs: @x's generation, which must be there. */
static void check_gen_debugfs(const char *label, const char *dev,
			      const char *name, const struct xstat *x)
{
	struct ext4_oracle o = { 0 };

	CHECK(ext4_oracle_stat(dev, x->st_ino, &o) == 0 &&
	      (x->st_result_mask & XSTAT_REQUEST_GEN) &&
	      x->st_gen == o.generation, "%s %s: gen %llu, debugfs %u", label,
	      name, x->st_gen, o.generation);
}

/*
 * One scan of @dir with @mask: every name once, each entry equal to
 * xstat() on its name, and to the oracles.
 */
static void scan(const char *label, const char *dir, const char *dev,
		 unsigned long long mask)
{
	static char names[MAX_NAMES][16];
	static unsigned char seen[MAX_NAMES];
	struct xstat_parameters p = { mask };
	union {
		struct xstat	x;
		unsigned char	b[RESULT_MAX];
	} u;
	/* The sampled entries, asked of debugfs together after the scan. */
	static char sample_name[ORACLE_SAMPLE][16];
	static struct xstat sample[ORACLE_SAMPLE];
	static struct ext4_oracle o[ORACLE_SAMPLE];
	uint64_t inos[ORACLE_SAMPLE];
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	int n, i, got = 0, sampled = 0;
	ssize_t len;

	n = list_names(dir, names, MAX_NAMES);
	CHECK(n > 0, "%s: readdir of %s failed", label, dir);
	if (n <= 0)
		return;
	memset(seen, 0, sizeof(seen));
	d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	CHECK(d, "%s: xstat_opendir: %s", label, strerror(errno));
	if (!d)
		return;
	for (;;) {
		errno = 0;
		e = xstat_readdir(d);
		if (!e)
			break;
		got++;
		i = find_name(names, n, e->d_name);
		CHECK(i >= 0 && !seen[i], "%s: name %s unexpected or repeated",
		      label, e->d_name);
		if (i >= 0)
			seen[i] = 1;
		CHECK(e->d_error == 0, "%s %s: d_error %d", label, e->d_name,
		      e->d_error);
		len = xstat(xstat_dirfd(d), e->d_name, AT_SYMLINK_NOFOLLOW, &p,
			    &u.x, sizeof(u));
		CHECK(len > 0 && (size_t)len == e->d_xstat_len &&
		      !memcmp(&u, e->d_xstat, (size_t)len),
		      "%s %s: entry differs from xstat() (mask %llx/%llx, "
		      "gen %llu/%llu, dv %llu/%llu)", label, e->d_name,
		      e->d_xstat->st_result_mask, u.x.st_result_mask,
		      e->d_xstat->st_gen, u.x.st_gen,
		      e->d_xstat->st_data_version, u.x.st_data_version);
		check_oracle(label, xstat_dirfd(d), e);
		if (dev && sampled < ORACLE_SAMPLE && e->d_name[0] == 'f') {
			snprintf(sample_name[sampled], sizeof(sample_name[0]),
				 "%s", e->d_name);
			memcpy(&sample[sampled], e->d_xstat,
			       sizeof(sample[0]) < e->d_xstat_len ?
			       sizeof(sample[0]) : e->d_xstat_len);
			inos[sampled] = e->d_xstat->st_ino;
			sampled++;
		}
	}
	CHECK(errno == 0, "%s: xstat_readdir: %s", label, strerror(errno));
	CHECK(got == n, "%s: %d entries, readdir(3) has %d", label, got, n);
	CHECK(xstat_closedir(d) == 0, "%s: xstat_closedir", label);
	if (!sampled)
		return;
	if (ext4_oracle_stat_many(dev, inos, sampled, o)) {
		CHECK(0, "%s: debugfs failed", label);
		return;
	}
	for (i = 0; i < sampled; i++)
		check_debugfs(label, sample_name[i], &sample[i], &o[i]);
}

/*
 * File handles refused (a seccomp profile refusing name_to_handle_at, in
 * a child): a symlink's or FIFO's generation, asked alone, has no source
 * but the raw inode, which a stream's batch reads; xstat() must read it
 * too (it did only when a creation time or data version was asked with
 * it), so that both agree, with debugfs.  Where no filter can be
 * installed, said and left out.
 */
static void handles_refused(const char *label, const char *dir,
			    const char *dev)
{
	static const char *names[] = { "symlink", "dangling", "fifo" };
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS |
				      XSTAT_REQUEST_GEN };
	char lbl[64];
	struct xstat x;
	int status, dfd;
	size_t k;
	pid_t pid;

	snprintf(lbl, sizeof(lbl), "%s/handles-refused", label);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		failures = 0;
		if (th_block_syscall(SYS_name_to_handle_at, EPERM)) {
			printf("%s: left out: cannot install a seccomp filter: "
			       "%s\n", lbl, strerror(errno));
			fflush(NULL);
			_exit(TH_SKIP);
		}
		scan(lbl, dir, dev, p.request_mask);
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			memset(&x, 0, sizeof(x));
			CHECK(xstat(dfd, names[k], AT_SYMLINK_NOFOLLOW, &p, &x,
				    sizeof(x)) > 0, "%s %s: xstat: %s", lbl,
			      names[k], strerror(errno));
			check_gen_debugfs(lbl, dev, names[k], &x);
		}
		if (dfd >= 0)
			close(dfd);
		fflush(NULL);
		_exit(failures ? 1 : 0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
	      WIFEXITED(status) && (!WEXITSTATUS(status) ||
				    WEXITSTATUS(status) == TH_SKIP),
	      "%s: failed (status %#x)", lbl, status);
}

/* Entries removed after the scan began: ENOENT, or the file; none twice. */
static void vanishing(const char *label, const char *dir,
		      unsigned long long mask)
{
	static unsigned char seen[NVANISH];
	struct xstat_parameters p = { mask };
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	char path[512];
	int i, got = 0, gone = 0, idx;

	memset(seen, 0, sizeof(seen));
	d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	CHECK(d, "%s: xstat_opendir: %s", label, strerror(errno));
	if (!d)
		return;
	while ((e = xstat_readdir(d))) {
		if (got++ == 0) {
			/* Remove every odd file but the one just given. */
			for (i = 1; i < NVANISH; i += 2) {
				th_pathf(path, sizeof(path), "%s/v%05d", dir,
					 i);
				if (strcmp(e->d_name, path + strlen(dir) + 1))
					unlink(path);
			}
		}
		if (sscanf(e->d_name, "v%05d", &idx) != 1 || idx < 0 ||
		    idx >= NVANISH) {
			CHECK(0, "%s: unexpected name %s", label, e->d_name);
			continue;
		}
		CHECK(!seen[idx], "%s: %s given twice", label, e->d_name);
		seen[idx] = 1;
		if (e->d_error) {
			CHECK(e->d_error == ENOENT && (idx & 1) &&
			      e->d_xstat->st_result_mask == 0 &&
			      e->d_xstat_len == 0,
			      "%s %s: d_error %d", label, e->d_name,
			      e->d_error);
			gone++;
		} else {
			CHECK(e->d_xstat->st_ino == e->d_ino,
			      "%s %s: another inode", label, e->d_name);
		}
	}
	CHECK(gone > 0, "%s: no entry vanished (%d given)", label, got);
	for (i = 0; i < NVANISH; i += 2)
		CHECK(seen[i], "%s: v%05d missed", label, i);
	CHECK(xstat_closedir(d) == 0, "%s: closedir", label);
	printf("%s/%#llx: %d of %d entries vanished during the scan\n", label,
	       mask, gone, got);
}

/*
 * No descriptor to spare: opendir fails with EMFILE and leaks nothing.
 * One to spare: the stream works, entries equal xstat() (which cannot
 * open anything either: both leave out what needs a device).
 */
static void emfile(const char *label, const char *dir, int nbase)
{
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };
	union {
		struct xstat	x;
		unsigned char	b[RESULT_MAX];
	} u;
	struct rlimit old, lim;
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	int fill[1024], nfill = 0, fd, n = 0;
	ssize_t len;

	/* Every descriptor below the limit taken: none left for opendir. */
	getrlimit(RLIMIT_NOFILE, &old);
	lim = old;
	lim.rlim_cur = (rlim_t)nbase + 8;
	if (setrlimit(RLIMIT_NOFILE, &lim)) {
		CHECK(0, "%s: setrlimit", label);
		return;
	}
	while (nfill < 1024 && (fd = open("/dev/null", O_RDONLY)) >= 0)
		fill[nfill++] = fd;
	errno = 0;
	d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	CHECK(!d && errno == EMFILE, "%s: opendir at the limit: %p, %s",
	      label, (void *)d, strerror(errno));
	if (d)
		xstat_closedir(d);
	/* Not counted here: counting needs a descriptor too. */
	close(fill[--nfill]);
	d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	CHECK(d, "%s: opendir with one fd to spare: %s", label,
	      strerror(errno));
	while (d && (e = xstat_readdir(d))) {
		n++;
		len = xstat(xstat_dirfd(d), e->d_name, AT_SYMLINK_NOFOLLOW, &p,
			    &u.x, sizeof(u));
		CHECK(e->d_error == 0 && len == (ssize_t)e->d_xstat_len &&
		      !memcmp(&u, e->d_xstat, (size_t)len),
		      "%s %s: differs from xstat() at the fd limit", label,
		      e->d_name);
	}
	if (d)
		xstat_closedir(d);
	while (nfill)
		close(fill[--nfill]);
	setrlimit(RLIMIT_NOFILE, &old);
	CHECK(n > 0, "%s: no entries at the fd limit", label);
	CHECK(th_count_fds() == nbase, "%s: descriptors left", label);
}

/*
 * In a fresh process (no descriptor inherited from earlier xstat()
 * calls): while entries are handed out, and in a child forked then,
 * only the directory's descriptor is open; none is left after
 * xstat_closedir().  Returns the number of failures.
 */
static int fd_checks(const char *dir)
{
	static const unsigned long long fd_masks[] = {
		XSTAT_REQUEST__EXTENDED_STATS, XSTAT_REQUEST__BASIC_STATS,
	};
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	int nbase = th_count_fds(), status, n;
	size_t k;
	pid_t pid;

	for (k = 0; k < 2; k++) {
		struct xstat_parameters p = { fd_masks[k] };

		d = xstat_opendir(AT_FDCWD, dir, 0, &p);
		CHECK(d, "fds: opendir: %s", strerror(errno));
		if (!d)
			return failures;
		n = 0;
		while ((e = xstat_readdir(d))) {
			CHECK(th_count_fds() == nbase + 1 &&
			      block_device_fds() == 0,
			      "fds %#llx: %s handed out with descriptors open",
			      fd_masks[k], e->d_name);
			if (n++)
				continue;
			pid = fork();
			if (pid == 0)
				_exit(th_count_fds() == nbase + 1 &&
				      block_device_fds() == 0 &&
				      (fcntl(xstat_dirfd(d), F_GETFD) &
				       FD_CLOEXEC) ? 0 : 1);
			CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
			      WIFEXITED(status) && !WEXITSTATUS(status),
			      "fds: a child forked during the scan holds "
			      "more than the directory's fd");
		}
		CHECK(n > NFILES, "fds: %d entries", n);
		CHECK(xstat_closedir(d) == 0, "fds: closedir");
		CHECK(th_count_fds() == nbase, "fds: left after closedir");
	}
	emfile("fds", dir, nbase);
	return failures;
}

/* fd_checks() in a fresh process: this program run again. */
static void fresh_fd_checks(const char *label, const char *dir)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execl("/proc/self/exe", "test-bulk", "--fds", dir,
		      (char *)NULL);
		_exit(127);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
	      WIFEXITED(status) && !WEXITSTATUS(status),
	      "%s: descriptor checks failed (status %#x)", label, status);
}

static void enotdir(const char *dir)
{
	int nbase = th_count_fds();
	char p[512];
	struct xstat_dir *d;

	th_pathf(p, sizeof(p), "%s/f00000", dir);
	errno = 0;
	d = xstat_opendir(AT_FDCWD, p, 0, NULL);
	CHECK(!d && errno == ENOTDIR, "a regular file: %s", strerror(errno));
	th_pathf(p, sizeof(p), "%s/symlink", dir);
	d = xstat_opendir(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, NULL);
	CHECK(!d && (errno == ENOTDIR || errno == ELOOP),
	      "a symlink with AT_SYMLINK_NOFOLLOW: %s", strerror(errno));
	d = xstat_opendir(AT_FDCWD, dir, 0x1, NULL);
	CHECK(!d && errno == EINVAL, "an unknown flag: %s", strerror(errno));
	d = xstat_opendir(AT_FDCWD, dir, AT_NO_ATTR_SYNC | AT_FORCE_ATTR_SYNC,
			  NULL);
	CHECK(!d && errno == EINVAL, "both sync flags: %s", strerror(errno));
	errno = 0;
	CHECK(!xstat_readdir(NULL) && errno == EINVAL, "readdir(NULL)");
	CHECK(th_count_fds() == nbase, "descriptors left after errors");
}

/*
 * io_uring read-ahead and a seccomp filter that arrives mid-stream.  The
 * ring's statx operations pass no filter, so the filter itself cannot
 * tell whether the stream kept using them: the library's count of
 * operations handed to a ring (xs_bulk_uring_sqes, a hidden symbol this
 * program reaches through TEST_CORE_LIBS) is the observable.  Run in a
 * fresh process with LIBXSTAT_URING=always (every batch read ahead): a
 * thread reads the first entry of a stream of several batches, installs
 * a filter refusing statx with EPERM in itself only, and reads the rest:
 * no operation may reach a ring after the filter, and every entry must
 * equal xstat() on its name (now by fstatat) and lstat(), taken before
 * the filter (glibc's i386 fstatat is statx underneath: the filter
 * refuses it too, with no fallback on EPERM).  Then an
 * unfiltered thread's stream must still read ahead: the refusal is the
 * filtered thread's, and the count can move.  Returns the failures, or
 * TH_SKIP when no ring is used here at all.
 */
#define NURING		1300	/* more than two batches of 512 */

static void *uring_filtered(void *arg)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS };
	union {
		struct xstat	x;
		unsigned char	b[RESULT_MAX];
	} u;
	const char *dir = arg;
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	unsigned long first, filtered;
	static struct stat sb[NURING];
	char path[512];
	ssize_t len;
	long i;
	int n = 0;

	for (i = 0; i < NURING; i++) {
		th_pathf(path, sizeof(path), "%s/u%05ld", dir, i);
		CHECK(lstat(path, &sb[i]) == 0, "uring: lstat %s: %s", path,
		      strerror(errno));
	}
	/* The backend decided (statx works), as after any first call. */
	CHECK(xstat(AT_FDCWD, dir, 0, &p, &u.x, sizeof(u)) > 0, "uring: xstat");
	d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	CHECK(d, "uring: opendir: %s", strerror(errno));
	if (!d)
		return NULL;
	e = xstat_readdir(d);
	CHECK(e && !e->d_error, "uring: first entry");
	first = __atomic_load_n(&xs_bulk_uring_sqes, __ATOMIC_RELAXED);
	if (!first) {
		xstat_closedir(d);
		return (void *)1;	/* no ring here: nothing to test */
	}
	if (th_block_statx(EPERM)) {
		CHECK(0, "uring: cannot install a seccomp filter");
		xstat_closedir(d);
		return NULL;
	}
	filtered = __atomic_load_n(&xs_bulk_uring_sqes, __ATOMIC_RELAXED);
	for (n = 1; (e = xstat_readdir(d)); n++) {
		len = xstat(xstat_dirfd(d), e->d_name, AT_SYMLINK_NOFOLLOW, &p,
			    &u.x, sizeof(u));
		CHECK(!e->d_error && len > 0 &&
		      (size_t)len == e->d_xstat_len &&
		      !memcmp(&u, e->d_xstat, (size_t)len),
		      "uring %s: entry differs from xstat() after the filter",
		      e->d_name);
		i = e->d_name[0] == 'u' ? strtol(e->d_name + 1, NULL, 10) : -1;
		CHECK(i >= 0 && i < NURING &&
		      sb[i].st_ino == e->d_xstat->st_ino &&
		      sb[i].st_mode == e->d_xstat->st_mode &&
		      (unsigned long long)sb[i].st_size ==
		      e->d_xstat->st_size,
		      "uring %s: differs from lstat()", e->d_name);
	}
	CHECK(n == NURING, "uring: %d entries of %d", n, NURING);
	CHECK(__atomic_load_n(&xs_bulk_uring_sqes, __ATOMIC_RELAXED) ==
	      filtered, "uring: %lu statx operations went to a ring after "
	      "this thread's statx was refused",
	      __atomic_load_n(&xs_bulk_uring_sqes, __ATOMIC_RELAXED) -
	      filtered);
	xstat_closedir(d);
	printf("uring: %lu operations before the filter, %lu after\n", first,
	       __atomic_load_n(&xs_bulk_uring_sqes, __ATOMIC_RELAXED) -
	       filtered);
	return NULL;
}

static void *uring_plain(void *arg)
{
	struct xstat_dir *d = xstat_opendir(AT_FDCWD, arg, 0, NULL);

	while (d && xstat_readdir(d))
		;
	if (d)
		xstat_closedir(d);
	return NULL;
}

static int uring_seccomp(const char *dir)
{
	unsigned long before;
	pthread_t t;
	void *ret = NULL;

	if (pthread_create(&t, NULL, uring_filtered, (void *)dir) ||
	    pthread_join(t, &ret))
		return 1;
	if (ret == (void *)1) {
		fprintf(stderr, "SKIP: uring: no io_uring read-ahead here "
			"(built without liburing, io_uring disabled, or "
			"statx blocked from the start)\n");
		return TH_SKIP;
	}
	before = __atomic_load_n(&xs_bulk_uring_sqes, __ATOMIC_RELAXED);
	if (pthread_create(&t, NULL, uring_plain, (void *)dir) ||
	    pthread_join(t, NULL))
		return 1;
	CHECK(__atomic_load_n(&xs_bulk_uring_sqes, __ATOMIC_RELAXED) > before,
	      "uring: an unfiltered thread's stream read nothing ahead");
	return failures;
}

/* uring_seccomp() in a fresh process, every batch read ahead. */
static void fresh_uring_seccomp(const char *label, const char *dir)
{
	char p[512];
	int i, fd, status;
	pid_t pid;

	CHECK(mkdir(dir, 0755) == 0, "%s: mkdir %s", label, dir);
	for (i = 0; i < NURING; i++) {
		th_pathf(p, sizeof(p), "%s/u%05d", dir, i);
		fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setenv("LIBXSTAT_URING", "always", 1);
		execl("/proc/self/exe", "test-bulk", "--uring-seccomp", dir,
		      (char *)NULL);
		_exit(127);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
	      WIFEXITED(status) && (!WEXITSTATUS(status) ||
				    WEXITSTATUS(status) == TH_SKIP),
	      "%s: io_uring and seccomp checks failed (status %#x)", label,
	      status);
}

/*
 * Not root: a child that drops to nobody (65534, no supplementary
 * groups) streams the world-readable directory with several masks.  The
 * device cannot be opened, so every entry goes the per-call way; each
 * must still equal xstat() on its name, made as nobody, and the basic
 * fields glibc's statx() (or lstat()), and no block device may be open.
 * The directory of the mount point is opened up for the search only.
 */
static void as_nobody(const char *label, const char *dir, const char *mnt)
{
	static const unsigned long long nobody_masks[] = {
		XSTAT_REQUEST__EXTENDED_STATS,
		XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN,
		XSTAT_REQUEST__ALL_STATS,
	};
	char parent[512], lbl[64], *slash;
	int status;
	size_t k;
	pid_t pid;

	th_pathf(parent, sizeof(parent), "%s", mnt);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		CHECK(chmod(parent, 0711) == 0, "%s: chmod %s", label, parent);
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* The child's own: not the cases' that ran before. */
		failures = 0;
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
		    geteuid() != 65534 || access(dir, R_OK | X_OK)) {
			fprintf(stderr, "%s: cannot become nobody or read %s: "
				"%s\n", label, dir, strerror(errno));
			_exit(1);
		}
		for (k = 0; k < sizeof(nobody_masks) / sizeof(nobody_masks[0]);
		     k++) {
			snprintf(lbl, sizeof(lbl), "%s/nobody/%#llx", label,
				 nobody_masks[k]);
			scan(lbl, dir, NULL, nobody_masks[k]);
		}
		CHECK(block_device_fds() == 0, "%s/nobody: a block device is "
		      "open", label);
		fflush(NULL);
		_exit(failures ? 1 : 0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
	      WIFEXITED(status) && !WEXITSTATUS(status),
	      "%s: streams as nobody failed (status %#x)", label, status);
}

/* AT_EMPTY_PATH: the caller's descriptor, whose offset is left alone. */
static void empty_path(const char *dir)
{
	int nbase = th_count_fds();
	struct xstat_dir *d;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), n = 0;

	if (fd < 0)
		return;
	d = xstat_opendir(fd, "", AT_EMPTY_PATH, NULL);
	CHECK(d, "AT_EMPTY_PATH: %s", strerror(errno));
	while (d && xstat_readdir(d))
		n++;
	if (d)
		xstat_closedir(d);
	CHECK(n > NFILES, "AT_EMPTY_PATH: %d entries", n);
	CHECK(lseek(fd, 0, SEEK_CUR) == 0, "the caller's offset moved");
	close(fd);
	CHECK(th_count_fds() == nbase, "descriptors left (AT_EMPTY_PATH)");
}

/*
 * Every extra result on ext4 as root: what the mount or the filesystem
 * gives (the reusable mount ID, the filesystem's ID) is asked once per
 * directory, so an entry the raw reads vouch for is handed out from its
 * batch, never by the per-call pipeline (an anchor and some nine calls
 * an entry).  scan() holds the values to xstat()'s; only the library's
 * count of per-call entries (xs_bulk_per_call) can tell the way.
 */
#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE	0x00004000U
#endif

/*
 * The directory's row is given to its entries only by a unique mount ID
 * statx gave (Linux 6.8+; the library takes 0 for none, which a
 * user-mode emulator that copies no stx_mnt_id gives): NULL, or why not.
 */
static const char *no_statx_unique_mnt_id(const char *path)
{
	static char why[160];
	struct statx sx;

	memset(&sx, 0, sizeof(sx));
	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID_UNIQUE,
		  &sx))
		snprintf(why, sizeof(why), "statx: %s", strerror(errno));
	else if (!(sx.stx_mask & STATX_MNT_ID_UNIQUE) || !sx.stx_mnt_id)
		snprintf(why, sizeof(why), "statx gives no unique mount ID "
			 "(mask %#x, ID %llu)", sx.stx_mask,
			 (unsigned long long)sx.stx_mnt_id);
	else
		return NULL;
	return why;
}

static void scan_all_batched(const char *label, const char *dir,
			     const char *dev)
{
	unsigned long before = __atomic_load_n(&xs_bulk_per_call,
					       __ATOMIC_RELAXED), got;
	const char *why = no_statx_unique_mnt_id(dir);
	char lbl[64];

	snprintf(lbl, sizeof(lbl), "%s/all-batched", label);
	scan(lbl, dir, dev, XSTAT_REQUEST__ALL_STATS);
	got = __atomic_load_n(&xs_bulk_per_call, __ATOMIC_RELAXED) - before;
	if (why) {
		printf("%s: %lu entries went the per-call way, as they may "
		       "here: %s\n", lbl, got, why);
		return;
	}
	/* scan()'s own xstat() per name is no stream's. */
	CHECK(got == 0, "%s: %lu entries went the per-call way", lbl, got);
}

/*
 * A window of more than a batch (NVANISH files, fresh): the raw reads
 * vouch for every entry of every batch, not only of the first.
 */
static void batches_raw(const char *label, const char *dir)
{
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };
	unsigned long before = __atomic_load_n(&xs_bulk_raw_ready,
					       __ATOMIC_RELAXED), got;
	const char *why = no_statx_unique_mnt_id(dir);
	struct xstat_dir *d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	const struct xstat_dirent *e;
	int n = 0;

	CHECK(d, "%s: xstat_opendir: %s", label, strerror(errno));
	if (!d)
		return;
	while ((e = xstat_readdir(d)))
		n += !e->d_error;
	CHECK(xstat_closedir(d) == 0, "%s: closedir", label);
	got = __atomic_load_n(&xs_bulk_raw_ready, __ATOMIC_RELAXED) - before;
	if (why) {
		printf("%s: the raw reads vouched for %lu of %d entries, as "
		       "they may here: %s\n", label, got, n, why);
		return;
	}
	CHECK(n == NVANISH && got == (unsigned long)n,
	      "%s: the raw reads vouched for %lu of %d entries (%d files)",
	      label, got, n, NVANISH);
	printf("%s: raw reads vouched for %lu of %d entries in batches\n",
	       label, got, n);
}

static void run_case(void **state)
{
	const struct fs_case *c = *state;
	char label[64], dir[512];
	int ret, before = failures;
	struct mnt m;
	size_t k;

	ret = mount_case(c, &m);
	if (ret == TH_SKIP)
		th_skip("%s: cannot be mounted here", c->name);
	assert_int_equal(ret, 0);
	th_pathf(dir, sizeof(dir), "%s/d", m.dir);
	if (mkdir(dir, 0755) || populate(dir, NFILES)) {
		umount_case(&m);
		fail_msg("%s: populate", c->name);
	}
	/* Quiescent: btrfs reports the inode items of a commit. */
	sync();
	for (k = 0; k < sizeof(masks) / sizeof(masks[0]); k++) {
		snprintf(label, sizeof(label), "%s/%#llx", c->name, masks[k]);
		scan(label, dir, c->ext4 ? m.loop.dev : NULL, masks[k]);
	}
	if (c->ext4 && !blocked)
		scan_all_batched(c->name, dir, m.loop.dev);
	if (c == cases)
		handles_refused(c->name, dir, m.loop.dev);
	fresh_fd_checks(c->name, dir);
	as_nobody(c->name, dir, m.dir);
	if (c == cases) {
		th_pathf(dir, sizeof(dir), "%s/u", m.dir);
		fresh_uring_seccomp(c->name, dir);
		th_pathf(dir, sizeof(dir), "%s/d", m.dir);
	}
	if (c == cases)
		enotdir(dir);
	if (c == cases)
		empty_path(dir);
	th_pathf(dir, sizeof(dir), "%s/v", m.dir);
	if (c == cases || !c->mkfs) {
		char p[512];
		int i, fd;

		unsigned long long vmask[] = { XSTAT_REQUEST__EXTENDED_STATS,
					       XSTAT_REQUEST__BASIC_STATS };

		/* Batch-stat'ed (ext4 as root) and stat'ed one by one. */
		for (k = 0; k < 2; k++) {
			th_rmrf(dir);
			CHECK(mkdir(dir, 0755) == 0, "mkdir v");
			for (i = 0; i < NVANISH; i++) {
				th_pathf(p, sizeof(p), "%s/v%05d", dir, i);
				fd = open(p, O_CREAT | O_WRONLY, 0644);
				if (fd >= 0)
					close(fd);
			}
			if (k == 0 && c->ext4 && !blocked)
				batches_raw(c->name, dir);
			vanishing(c->name, dir, vmask[k]);
		}
	}
	umount_case(&m);
	assert_int_equal(failures, before);
}

/*
 * An idmapped mount of ext4 (th_mount_idmapped(), as tests/test-ext4-idmap.c
 * has it: a child in a new user namespace with a uid_map and gid_map,
 * open_tree, mount_setattr(MOUNT_ATTR_IDMAP), move_mount): on-disk ids
 * 0..1999 show as 100000..101999, others as the overflow id.  A stream
 * there must equal xstat() per name and the oracles, as everywhere; and
 * its raw reads must vouch for the entries as on the plain mount:
 * compared without the mount's idmapping, every raw owner differs from
 * the shown one and each entry silently goes the per-call way.  Only the
 * library's count of entries its batches vouched for (xs_bulk_raw_ready,
 * reached through TEST_CORE_LIBS) can tell.
 */
#define MAP_LOWER		100000

static int count_names(const char *dir)
{
	static char names[MAX_NAMES][16];

	return list_names(dir, names, MAX_NAMES);
}

/* scan() of @dir, all of whose @n entries the raw reads must vouch for. */
static void scan_raw(const char *label, const char *dir, const char *dev)
{
	unsigned long before = __atomic_load_n(&xs_bulk_raw_ready,
					       __ATOMIC_RELAXED), got;
	int n = count_names(dir);

	scan(label, dir, dev, XSTAT_REQUEST__EXTENDED_STATS);
	got = __atomic_load_n(&xs_bulk_raw_ready, __ATOMIC_RELAXED) - before;
	CHECK(n > 0 && got == (unsigned long)n,
	      "%s: the raw reads vouched for %lu of %d entries", label, got, n);
	printf("%s: raw reads vouched for %lu of %d entries\n", label, got, n);
}

static void test_idmap(void **state)
{
	static const uint32_t owners[][2] = {
		{ 0, 0 }, { 1000, 1001 }, { 1999, 0 },
		{ 5000, 5000 },				/* unmapped */
		{ MAP_LOWER + 7, MAP_LOWER + 7 },	/* looks mapped */
	};
	char dir[512], idmnt[512], iddir[600], p[600];
	struct th_loop l;
	struct stat sb;
	int i, ret, before = failures;
	char *slash;

	(void)state;
	th_loop_mount_test(&l, 64, "mkfs.ext4 -q -F -b 4096 %s", NULL);
	th_pathf(dir, sizeof(dir), "%s/d", l.mnt);
	if (mkdir(dir, 0755) || populate(dir, NFILES)) {
		th_loop_umount(&l);
		fail_msg("idmap: populate");
	}
	for (i = 0; i < NFILES; i++) {
		th_pathf(p, sizeof(p), "%s/f%05d", dir, i);
		CHECK(lchown(p, owners[i % 5][0], owners[i % 5][1]) == 0,
		      "idmap: chown %s", p);
	}
	/* The image's directory: next to the plain mount point. */
	th_pathf(idmnt, sizeof(idmnt), "%s", l.mnt);
	slash = strrchr(idmnt, '/');
	if (slash)
		strcpy(slash, "/idmnt");
	ret = th_mount_idmapped(l.mnt, idmnt, 0, MAP_LOWER, 2000, "idmap: ");
	if (ret) {
		th_loop_umount(&l);
		if (ret == TH_SKIP)
			th_skip("idmap: no idmapped ext4 mount here");
		fail_msg("idmap: mount");
	}
	sync();
	th_pathf(iddir, sizeof(iddir), "%s/d", idmnt);
	/* The oracle: the mapping took effect (f00001 is 1000:1001 on disk). */
	th_pathf(p, sizeof(p), "%s/f00001", iddir);
	CHECK(lstat(p, &sb) == 0 && sb.st_uid == MAP_LOWER + 1000 &&
	      sb.st_gid == MAP_LOWER + 1001, "idmap: %s is not shown mapped",
	      p);
	/* The control: the counter moves for a plain mount's stream. */
	scan_raw("plain", dir, l.dev);
	scan_raw("idmapped", iddir, l.dev);
	umount2(idmnt, MNT_DETACH);
	th_loop_umount(&l);
	assert_int_equal(failures, before);
}

/*
 * A device that ends before the inode table it held.  A first stream
 * learns the filesystem's geometry (kept between batches, as facts are);
 * then the image under the mounted loop device is truncated and the
 * device's capacity read again (losetup -c), so the next batch's raw
 * reads lie past the device's end.  Each entry must still come, equal to
 * xstat() on its name (which cannot read the inode either: fields
 * cleared, or the same error), and the process must not be killed: a
 * mapping of the device raises SIGBUS there.  1 KiB blocks without
 * flex_bg put each group's inode table in its group, and 32 inodes per
 * group fill group 0 quickly: the root directory (one block in group 0,
 * still readable: short names) gets files whose inodes lie before the
 * cut and files whose inodes lie far past it.
 */
#define SHRINK_KEEP	(2u << 20)	/* bytes of the device left */
#define SHRINK_FILES	60

/* Byte offset on @dev of inode @ino (debugfs imap), -1 if unknown. */
static long long imap_offset(const char *dev, unsigned long long ino)
{
	uint64_t i = ino, off;

	if (ext4_oracle_imap(dev, &i, 1, 1024, &off))
		return -1;
	return (long long)off;
}

/* The stream after the shrink, in a child: 0, or the failures. */
static int shrunk_stream(const char *dir)
{
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };
	union {
		struct xstat	x;
		unsigned char	b[RESULT_MAX];
	} u;
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	int n = 0, errs = 0, gen = 0;
	ssize_t len;

	/* The child's own: not the cases' that ran before. */
	failures = 0;
	d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	CHECK(d, "shrunk: opendir: %s", strerror(errno));
	while (d && (e = xstat_readdir(d))) {
		n++;
		errno = 0;
		len = xstat(xstat_dirfd(d), e->d_name, AT_SYMLINK_NOFOLLOW, &p,
			    &u.x, sizeof(u));
		if (e->d_error) {
			errs++;
			CHECK(len < 0 && errno == e->d_error,
			      "shrunk %s: d_error %d, xstat() %zd/%d",
			      e->d_name, e->d_error, len, errno);
			continue;
		}
		if (e->d_xstat->st_result_mask & XSTAT_REQUEST_GEN)
			gen++;
		CHECK(len > 0 && (size_t)len == e->d_xstat_len &&
		      !memcmp(&u, e->d_xstat, (size_t)len),
		      "shrunk %s: entry differs from xstat() (mask %llx/%llx)",
		      e->d_name, e->d_xstat->st_result_mask,
		      u.x.st_result_mask);
		check_oracle("shrunk", xstat_dirfd(d), e);
	}
	if (d)
		xstat_closedir(d);
	/* and lost+found */
	CHECK(n == SHRINK_FILES + 1, "shrunk: %d entries of %d", n,
	      SHRINK_FILES + 1);
	printf("shrunk: %d entries, %d failed, %d with a generation\n", n,
	       errs, gen);
	return failures;
}

/*
 * A stream's change token moves with every change made after the stream
 * gave it (issue 21's promise, for entries the batch's raw read vouched
 * for): a stream with every extra result over TOKEN_FILES files, one
 * change to each file at once (within the same timestamp tick: no sleep),
 * another stream.  Every token says it sees every change (ext4 with
 * multigrain timestamps; with statx blocked, from fstatat's ctime, which
 * arms the same way), and every changed file's token differs; a third
 * stream with no change between gives the second one's tokens again.
 * Where no multigrain timestamps are known (th_kernel_mgtime(): before
 * Linux 6.13, or no statmount(2) to learn them from), a token may promise
 * only the changes of another tick, and must say so.
 */
#define TOKEN_FILES	24

static int stream_tokens(const char *dir, uint64_t tok[TOKEN_FILES],
			 uint64_t promise[TOKEN_FILES])
{
	struct xstat_parameters p = { XSTAT_REQUEST__ALL_STATS };
	const struct xstat_change_token *t;
	const struct xstat_dirent *e;
	struct xstat_dir *d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	int i, got = 0;

	if (!d)
		return -1;
	while ((e = xstat_readdir(d))) {
		if (sscanf(e->d_name, "t%02d", &i) != 1 || i < 0 ||
		    i >= TOKEN_FILES)
			continue;
		t = xstat_extra_change_token(e->d_xstat, e->d_xstat_len);
		CHECK(e->d_error == 0 && t, "token: %s: no token (error %d)",
		      e->d_name, e->d_error);
		tok[i] = t ? t->token : 0;
		promise[i] = t ? t->promise : 0;
		got++;
	}
	xstat_closedir(d);
	return got;
}

static void change_file(const char *dir, int i)
{
	char p[600], q[600];
	struct timespec now[2] = { { 0, UTIME_OMIT }, { 0, UTIME_NOW } };
	int fd;

	th_pathf(p, sizeof(p), "%s/t%02d", dir, i);
	switch (i % 4) {
	case 0:		/* data */
		fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC);
		CHECK(fd >= 0 && write(fd, "x", 1) == 1, "token: write %s", p);
		if (fd >= 0)
			close(fd);
		break;
	case 1:		/* mode */
		CHECK(chmod(p, 0600 + (i & 7)) == 0, "token: chmod %s", p);
		break;
	case 2:		/* times */
		CHECK(utimensat(AT_FDCWD, p, now, 0) == 0, "token: utimes %s",
		      p);
		break;
	default:	/* a link made and removed: nlink back as it was */
		th_pathf(q, sizeof(q), "%s/link", dir);
		CHECK(link(p, q) == 0 && unlink(q) == 0, "token: link %s", p);
		break;
	}
}

static void test_stream_token(void **state)
{
	uint64_t a[TOKEN_FILES], b[TOKEN_FILES], c[TOKEN_FILES];
	uint64_t pa[TOKEN_FILES], pb[TOKEN_FILES], pc[TOKEN_FILES];
	unsigned long before_raw, raw;
	const char *why;
	char p[600];
	struct th_loop l;
	int i, fd, before = failures, mgtime = th_kernel_mgtime();

	(void)state;
	th_loop_mount_test(&l, 64, "mkfs.ext4 -q -F -b 4096 %s", NULL);
	for (i = 0; i < TOKEN_FILES; i++) {
		th_pathf(p, sizeof(p), "%s/t%02d", l.mnt, i);
		fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		CHECK(fd >= 0, "token: create %s", p);
		if (fd >= 0)
			close(fd);
	}
	before_raw = __atomic_load_n(&xs_bulk_raw_ready, __ATOMIC_RELAXED);
	CHECK(stream_tokens(l.mnt, a, pa) == TOKEN_FILES, "token: stream 1");
	raw = __atomic_load_n(&xs_bulk_raw_ready, __ATOMIC_RELAXED) -
	      before_raw;
	/*
	 * Without the unique mount ID the directory's facts are not given
	 * to its entries, which then go the per-call way before their raw
	 * read (as in scan_all_batched()).
	 */
	why = no_statx_unique_mnt_id(l.mnt);
	if (why && raw < TOKEN_FILES)
		printf("token: the raw read vouched for %lu of %d entries, "
		       "as it may here: %s\n", raw, TOKEN_FILES, why);
	else
		CHECK(blocked || raw >= TOKEN_FILES,
		      "token: the raw read vouched for %lu of %d entries",
		      raw, TOKEN_FILES);
	for (i = 0; i < TOKEN_FILES; i++)
		change_file(l.mnt, i);
	CHECK(stream_tokens(l.mnt, b, pb) == TOKEN_FILES, "token: stream 2");
	CHECK(stream_tokens(l.mnt, c, pc) == TOKEN_FILES, "token: stream 3");
	printf("token: t00's promise %#llx\n", (unsigned long long)pa[0]);
	if (!mgtime)
		printf("token: no multigrain timestamps known here (kernel "
		       "before 6.13, or no statmount(2)): changes within one "
		       "tick may be missed, as the promise must say\n");
	for (i = 0; i < TOKEN_FILES; i++) {
		CHECK((pa[i] & XSTAT_PROMISE_EVERY_CHANGE) ||
		      (!mgtime && (pa[i] & XSTAT_PROMISE_TICK)),
		      "token: t%02d promises %#llx, not every change", i,
		      (unsigned long long)pa[i]);
		CHECK(a[i] != b[i] || !(pa[i] & XSTAT_PROMISE_EVERY_CHANGE),
		      "token: t%02d unchanged by change %d", i, i % 4);
		CHECK(b[i] == c[i] && pb[i] == pc[i],
		      "token: t%02d moved with no change", i);
	}
	th_loop_umount(&l);
	assert_int_equal(failures, before);
}

static void test_shrunk(void **state)
{
	char p[600], out[64];
	const char *dir;
	struct th_loop l;
	struct stat sb;
	int i, fd, status, before = failures, past = 0;
	pid_t pid;

	(void)state;
	th_loop_mount_test(&l, 64, "mkfs.ext4 -q -F -b 1024 -O ^flex_bg "
			   "-N 256 %s", NULL);
	dir = l.mnt;
	for (i = 0; i < SHRINK_FILES; i++) {
		th_pathf(p, sizeof(p), "%s/f%02d", dir, i);
		fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		CHECK(fd >= 0, "shrunk: create %s", p);
		if (fd >= 0)
			close(fd);
		if (i % 20 == 19 && stat(p, &sb) == 0 &&
		    imap_offset(l.dev, (unsigned long long)sb.st_ino) >=
		    SHRINK_KEEP)
			past++;
	}
	CHECK(past > 0, "shrunk: no inode past the cut");
	/*
	 * Read-only before the geometry is learnt: remounting writes the
	 * superblock, whose change would make the stream learn it again
	 * (and check it against the shrunk device's size).
	 */
	if (th_run(NULL, 0, "mount -o remount,ro '%s'", l.mnt)) {
		th_loop_umount(&l);
		fail_msg("shrunk: remount read-only");
	}
	/* The geometry learnt, and the raw reads right, while it fits. */
	scan("shrunk/before", dir, l.dev, XSTAT_REQUEST__EXTENDED_STATS);
	if (truncate(l.image, SHRINK_KEEP) ||
	    th_run(NULL, 0, "losetup -c %s", l.dev) ||
	    th_run(out, sizeof(out), "blockdev --getsize64 %s", l.dev) ||
	    strtoull(out, NULL, 10) != SHRINK_KEEP) {
		th_loop_umount(&l);
		fail_msg("shrunk: the loop device could not be shrunk (%s)",
			 out);
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* cmocka's handlers would turn a crash into a failed test. */
		signal(SIGBUS, SIG_DFL);
		signal(SIGSEGV, SIG_DFL);
		status = shrunk_stream(dir) ? 1 : 0;
		fflush(NULL);
		_exit(status);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "shrunk: fork");
	if (pid > 0 && WIFSIGNALED(status))
		CHECK(0, "shrunk: the stream was killed by signal %d (%s)",
		      WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (pid > 0)
		CHECK(WIFEXITED(status) && !WEXITSTATUS(status),
		      "shrunk: entries differ from xstat() (status %#x)",
		      status);
	th_loop_umount(&l);
	assert_int_equal(failures, before);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "ext4-4k", run_case, NULL, NULL, (void *)&cases[0] },
		{ "ext4-1k", run_case, NULL, NULL, (void *)&cases[1] },
		{ "ext4-128", run_case, NULL, NULL, (void *)&cases[2] },
		{ "xfs", run_case, NULL, NULL, (void *)&cases[3] },
		{ "btrfs", run_case, NULL, NULL, (void *)&cases[4] },
		{ "tmpfs", run_case, NULL, NULL, (void *)&cases[5] },
		{ "shrunk-device", test_shrunk, NULL, NULL, NULL },
		{ "idmapped", test_idmap, NULL, NULL, NULL },
		{ "stream-token", test_stream_token, NULL, NULL, NULL },
	};

	if (argc == 3 && !strcmp(argv[1], "--uring-seccomp"))
		return uring_seccomp(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--fds")) {
		blocked = th_block_from_env() != 0;
		return fd_checks(argv[2]) ? 1 : 0;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "SKIP: needs root for loop and tmpfs mounts\n");
		return TH_SKIP;
	}
	if (!ext4_oracle_available()) {
		fprintf(stderr, "SKIP: no debugfs/mkfs.ext4\n");
		return TH_SKIP;
	}
	blocked = th_block_from_env() != 0;
	return th_run_tests(tests);
}
