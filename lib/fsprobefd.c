// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A descriptor to issue a filesystem-wide ioctl on for one file: XFS
 * bulkstat accepts any fd of the filesystem, btrfs tree search any fd of
 * the same subvolume.  A regular file or directory is opened itself
 * (fsioctl.c's checked open).  Anything else - symlink, FIFO, socket,
 * device node - is never opened: its parent directory is, and it must
 * show the file's st_dev, which on btrfs names the subvolume, so the
 * directory is in the same filesystem and the same subvolume tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "internal.h"

static int open_parent(const struct xs_target *t, const struct xs_stat *st)
{
	char dir[PATH_MAX];
	const char *slash;
	struct stat sb;
	size_t len;
	int fd;

	/* A bare descriptor of a FIFO or symlink has no parent to find. */
	if (t->path[0] == '\0')
		return -EOPNOTSUPP;
	len = strlen(t->path);
	if (len >= sizeof(dir) || t->path[len - 1] == '/')
		return -EINVAL;
	slash = strrchr(t->path, '/');
	if (!slash) {
		strcpy(dir, ".");
	} else if (slash == t->path) {
		strcpy(dir, "/");
	} else {
		len = (size_t)(slash - t->path);
		memcpy(dir, t->path, len);
		dir[len] = '\0';
	}
	do
		fd = openat(t->dfd, dir, O_RDONLY | O_DIRECTORY | O_NONBLOCK |
			    O_NOCTTY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) || !S_ISDIR(sb.st_mode) ||
	    major(sb.st_dev) != st->dev_major ||
	    minor(sb.st_dev) != st->dev_minor) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

int xs_open_fs_fd(const struct xs_target *t, const struct xs_stat *st,
		  int *close_it)
{
	int fd;

	if (S_ISREG(st->mode) || S_ISDIR(st->mode))
		return xs_open_for_ioctl(t, st, close_it);
	*close_it = 0;
	/*
	 * Without AT_SYMLINK_NOFOLLOW a symlink's target was stat'ed, and
	 * the link's directory may be anywhere: only the dev check below
	 * keeps that honest, and the inode number check of the probe.
	 */
	fd = open_parent(t, st);
	if (fd >= 0)
		*close_it = 1;
	return fd;
}

/*
 * Run @query on a descriptor of @st's filesystem (or subvolume), and
 * remember for the device the answers that will not change: no privilege,
 * or no such ioctl here.
 */
int xs_fs_query(const struct xs_target *t, const struct xs_stat *st,
		int (*query)(int fd, uint64_t ino, void *out), void *out)
{
	int close_it, fd, ret;

	fd = xs_open_fs_fd(t, st, &close_it);
	if (fd < 0)
		return fd;
	ret = query(fd, st->ino, out);
	if (close_it)
		close(fd);
	if (ret == -EPERM || ret == -EACCES)
		xs_fs_set_flag(st, XS_FSF_PRIV_REFUSED);
	else if (ret == -ENOTTY || ret == -EOPNOTSUPP || ret == -ENOSYS)
		xs_fs_set_flag(st, XS_FSF_NO_FSPROBE);
	return ret;
}
