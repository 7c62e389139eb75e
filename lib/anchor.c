// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The anchor (anchor.h) and every other descriptor libxstat opens on a
 * file's behalf.  The open policy, in one place:
 *
 *  - The file is anchored with O_PATH: no open request reaches a driver,
 *    a FIFO, a FUSE server or a lease, and without O_DIRECTORY the lookup
 *    triggers no automount.
 *  - An ioctl on the file itself needs a real descriptor: the anchor is
 *    reopened, and only when the anchored inode is a regular file or a
 *    directory that is not an automount point.  A directory is reopened
 *    as "." relative to the anchor (no /proc, no automount: "." does not
 *    cross mounts).  A regular file is reopened through /proc/self/fd/N,
 *    only after proving that /proc/self/fd is procfs and that the entry
 *    names the anchored inode, and the opened descriptor is checked again.
 *    That open breaks a write lease held by another process: it is the
 *    last resort, taken only where xstat(3) says.
 *  - Probes that need "some descriptor on this filesystem" get a
 *    directory: the parent (or a directory's "..") on the same st_dev, or
 *    for the root of a mount or subvolume the directory itself; never a
 *    regular file, FIFO, socket or device.
 *  - Everything is read-only, non-blocking, O_NOCTTY, close-on-exec, and
 *    closed before the call returns.  EINTR is retried (XS_EINTR()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include "anchor.h"
#include "internal.h"
#include "rawsys.h"
#include "decimal.h"

#define PROC_SUPER_MAGIC	0x9fa0
#define REOPEN_FLAGS	(O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
#define DIR_REOPEN_FLAGS	(REOPEN_FLAGS | O_DIRECTORY)

int xs_open_eintr(int dfd, const char *path, int flags)
{
	return (int)XS_EINTR(xs_neg_errno(openat(dfd, path, flags)));
}

/*
 * Is @sb (the raw fstatat's answer) the file @st describes?  @st's device
 * is compared encoded as the kernel encodes st_dev (new_encode_dev(), as
 * backend_fstatat.h decodes it; a major below 2^12, a minor below 2^20,
 * as dev_t holds them): one compare of the whole word, where major() and
 * minor() would decode it twice.
 */
static int same_sb(const struct stat *sb, const struct xs_stat *st)
{
	uint64_t dev = (st->dev_minor & 0xffULL) |
		       (uint64_t)st->dev_major << 8 |
		       (st->dev_minor & ~0xffULL) << 12;

	return (uint64_t)sb->st_dev == dev && sb->st_ino == st->ino &&
	       (sb->st_mode & S_IFMT) == (st->mode & S_IFMT);
}

int xs_same_inode(int fd, const struct xs_stat *st)
{
	struct stat sb;

	return xs_raw_fstatat(fd, "", &sb, AT_EMPTY_PATH) == 0 &&
	       same_sb(&sb, st);
}

/* The anchored target of @a, for a descriptor the caller did not open. */
static void set_target(const struct xs_target *t, struct xs_anchor *a, int fd)
{
	xs_anchor_set_target(t, a, fd);
	if (!a->owned) {
		int fl = fcntl(fd, F_GETFL);

		a->at.own_fd = fl >= 0 && !(fl & O_PATH);
	}
}

/*
 * openat() has no AT_EMPTY_PATH: it fails "" with ENOENT, and only after
 * reading the name, which may then be looked at (a name is read by the
 * kernel first, so that a bad pointer is EFAULT and not a crash).
 */
static int empty_path(const struct xs_target *t, int fd)
{
	return fd == -ENOENT && (t->flags & AT_EMPTY_PATH) && !t->path[0];
}

static int open_anchor(const struct xs_target *t, int extra)
{
	int flags = xs_anchor_flags(t) | extra;
	int fd;

	fd = xs_open_eintr(t->dfd, t->path, flags);
	if (t->dfd == AT_FDCWD && empty_path(t, fd))
		fd = xs_open_eintr(AT_FDCWD, ".", flags);
	return fd;
}

int xs_anchor_open_rest(const struct xs_target *t, struct xs_anchor *a,
			int fd)
{
	a->owned = 0;
	if (fd == -EINTR)
		fd = open_anchor(t, 0);
	else if (!t->is_fd && t->dfd == AT_FDCWD && empty_path(t, fd))
		fd = xs_open_eintr(AT_FDCWD, ".", xs_anchor_flags(t));
	/* "" with AT_EMPTY_PATH on a descriptor: the caller's inode */
	if (t->is_fd || (t->dfd != AT_FDCWD && empty_path(t, fd))) {
		fd = t->dfd;
	} else {
		if (fd < 0)
			return fd;
		a->owned = 1;
	}
	set_target(t, a, fd);
	return 0;
}

int xs_anchor_automount(const struct xs_target *t, struct xs_anchor *a)
{
	int fd;

	if (!a->owned)
		return 0;
	/* An automount point is a directory; O_DIRECTORY mounts it. */
	fd = open_anchor(t, O_DIRECTORY);
	if (fd < 0)
		return fd;
	close(a->at.dfd);
	set_target(t, a, fd);
	return 0;
}

/*
 * /proc/self/fd, proven to be procfs: an O_PATH descriptor to look up
 * entries relative to, so no later lookup goes through a /proc that a
 * chroot or a mount namespace planted.  Checked on every use: a process
 * may chroot or change namespace between two calls.
 */
int xs_fd_on_procfs(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
}

/* Inline in this file's reopen and entry naming, which take it per call. */
static inline __attribute__((always_inline)) int proc_fd_dir(void)
{
	int dir;

	dir = xs_open_eintr(AT_FDCWD, "/proc/self/fd",
			    O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return dir;
	if (!xs_fd_on_procfs(dir)) {
		close(dir);
		return -ENOENT;
	}
	return dir;
}

int xs_proc_fd_dir(void)
{
	return proc_fd_dir();
}

int xs_anchor_at_get(const struct xs_target *t, struct xs_anchor_at *at)
{
	if (!t->anchored)
		return -EBADF;
	if (t->own_fd) {
		at->dfd = t->dfd;
		at->name = "";
		at->flags = AT_EMPTY_PATH;
		at->proc = -1;
		return 0;
	}
	at->proc = proc_fd_dir();
	if (at->proc < 0)
		return at->proc;
	at->dfd = at->proc;
	xs_fd_name(at->entry, t->dfd);
	at->name = at->entry;
	at->flags = 0;
	return 0;
}

void xs_anchor_at_put(struct xs_anchor_at *at)
{
	if (at->proc >= 0)
		close(at->proc);
	at->proc = -1;
}

/*
 * The regular file @t anchors, opened through its entry in the checked
 * /proc: never the caller's own descriptor (xs_reopen() uses that as it
 * is), so always by the entry, as xs_anchor_at_get() would name it.
 */
static int reopen_regular(const struct xs_target *t, const struct xs_stat *st)
{
	char entry[16];
	struct stat sb;
	int proc, fd;

	proc = proc_fd_dir();
	if (proc < 0)
		return proc;
	xs_fd_name(entry, t->dfd);
	/* What the entry names must be the anchor before it is opened. */
	if (xs_raw_fstatat(proc, entry, &sb, 0) ||
	    !S_ISREG(sb.st_mode) || !same_sb(&sb, st))
		fd = -ESTALE;
	else
		fd = xs_open_eintr(proc, entry, REOPEN_FLAGS);
	close(proc);
	return fd;
}

int xs_reopen(const struct xs_target *t, const struct xs_stat *st,
	      int *close_it)
{
	int fd;

	*close_it = 0;
	if (!t->anchored)
		return -EBADF;
	if (!S_ISREG(st->mode) && !S_ISDIR(st->mode))
		return -EOPNOTSUPP;
	/* The caller's own open descriptor: used as it is, nothing opened. */
	if (t->own_fd)
		return t->dfd;
	if (st->attributes & XSTAT_ATTR_AUTOMOUNT)
		return -EOPNOTSUPP;
	if (S_ISDIR(st->mode))
		fd = xs_open_eintr(t->dfd, ".", DIR_REOPEN_FLAGS);
	else
		fd = reopen_regular(t, st);
	if (fd < 0)
		return fd;
	if (!xs_same_inode(fd, st)) {
		close(fd);
		return -ESTALE;
	}
	*close_it = 1;
	return fd;
}

/* A directory on @st's st_dev (filesystem, btrfs subvolume), or -errno. */
static int dir_on_dev(int dfd, const char *path, const struct xs_stat *st)
{
	struct stat sb;
	int fd = xs_open_eintr(dfd, path, DIR_REOPEN_FLAGS);

	if (fd < 0)
		return fd;
	if (xs_raw_fstatat(fd, "", &sb, AT_EMPTY_PATH) ||
	    !S_ISDIR(sb.st_mode) ||
	    major(sb.st_dev) != st->dev_major ||
	    minor(sb.st_dev) != st->dev_minor) {
		close(fd);
		return -EXDEV;
	}
	return fd;
}

/* The directory part of @path into @dir ("." or "/" if none). */
static int dir_part(const char *path, char *dir, size_t size)
{
	const char *slash;
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	slash = memrchr(path, '/', len);
	if (!slash) {
		if (size < 2)
			return -ENAMETOOLONG;
		memcpy(dir, ".", 2);
		return 0;
	}
	while (slash > path && slash[-1] == '/')
		slash--;
	len = slash == path ? 1 : (size_t)(slash - path);
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(dir, path, len);
	dir[len] = '\0';
	return 0;
}

/* The anchored file's directory by the name /proc gives the anchor. */
static int parent_by_proc(const struct xs_target *t, const struct xs_stat *st)
{
	char name[16], link[PATH_MAX], dir[PATH_MAX];
	ssize_t n;
	int pd = xs_proc_fd_dir();

	if (pd < 0)
		return pd;
	xs_fd_name(name, t->dfd);
	n = readlinkat(pd, name, link, sizeof(link) - 1);
	close(pd);
	if (n <= 0 || link[0] != '/')
		return -ENOENT;
	link[n] = '\0';
	if (dir_part(link, dir, sizeof(dir)))
		return -ENAMETOOLONG;
	return dir_on_dev(AT_FDCWD, dir, st);
}

int xs_fs_dir_fd(const struct xs_target *t, const struct xs_stat *st,
		 int *close_it)
{
	char dir[PATH_MAX];
	int fd = -ENOENT;

	*close_it = 0;
	if (!t->anchored)
		return -EBADF;
	if (S_ISDIR(st->mode)) {
		if (t->own_fd)
			return t->dfd;
		fd = dir_on_dev(t->dfd, "..", st);
		if (fd < 0)	/* the root of a mount or subvolume */
			return xs_reopen(t, st, close_it);
		*close_it = 1;
		return fd;
	}
	/* A regular file the caller opened itself: nothing to open. */
	if (t->own_fd && S_ISREG(st->mode))
		return t->dfd;
	if (t->name && t->name[0] && dir_part(t->name, dir, sizeof(dir)) == 0)
		fd = dir_on_dev(t->name_dfd, dir, st);
	if (fd < 0)
		fd = parent_by_proc(t, st);
	if (fd >= 0)
		*close_it = 1;
	return fd;
}
