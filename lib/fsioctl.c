// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Filesystem ioctls that need a real file descriptor.  Opening a file has
 * side effects for device nodes (drivers), FIFOs (blocking) and sockets, so
 * only regular files and directories are ever opened: read-only, never
 * following a link the caller did not follow, non-blocking, no controlling
 * tty, close-on-exec; and the opened file must be the one stat'ed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "internal.h"
#include "syscall.h"

#define OPEN_FLAGS	(O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

static int same_file(int fd, const struct xs_stat *st)
{
	struct stat sb;

	if (fstat(fd, &sb))
		return 0;
	return major(sb.st_dev) == st->dev_major &&
	       minor(sb.st_dev) == st->dev_minor && sb.st_ino == st->ino;
}

static int open_retry(int dfd, const char *path, int flags)
{
	int fd;

	do
		fd = openat(dfd, path, flags);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

/*
 * An O_PATH descriptor of the file - which opens no device, FIFO or
 * socket - checked to be the one stat'ed; the caller's own for fxstat().
 */
int xs_open_path(const struct xs_target *t, const struct xs_stat *st,
		 int *close_it)
{
	int fd;

	*close_it = 0;
	if (t->path[0] == '\0' && (t->flags & AT_EMPTY_PATH) &&
	    t->dfd != AT_FDCWD)
		return t->dfd;
	fd = openat(t->dfd, t->path[0] ? t->path : ".", O_PATH | O_CLOEXEC |
		    ((t->flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0));
	if (fd < 0)
		return -errno;
	if (!same_file(fd, st)) {
		close(fd);
		return -ESTALE;
	}
	*close_it = 1;
	return fd;
}

/* An O_PATH descriptor cannot take ioctls: reopen it through /proc. */
static int reopen_fd(int fd, int flags)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open_retry(AT_FDCWD, path, flags);
}

int xs_open_for_ioctl(const struct xs_target *t, const struct xs_stat *st,
		      int *close_it)
{
	int flags = OPEN_FLAGS, fd;

	*close_it = 0;
	if (!S_ISREG(st->mode) && !S_ISDIR(st->mode))
		return -EOPNOTSUPP;
	if (S_ISDIR(st->mode))
		flags |= O_DIRECTORY;

	if (t->path[0] == '\0' && (t->flags & AT_EMPTY_PATH)) {
		if (t->dfd != AT_FDCWD) {
			int fl = fcntl(t->dfd, F_GETFL);

			if (fl >= 0 && !(fl & O_PATH))
				return t->dfd;
			fd = reopen_fd(t->dfd, flags);
		} else {
			fd = open_retry(AT_FDCWD, ".", flags);
		}
	} else {
		if (t->flags & AT_SYMLINK_NOFOLLOW)
			flags |= O_NOFOLLOW;
		fd = open_retry(t->dfd, t->path, flags);
	}
	if (fd < 0)
		return fd;
	if (!same_file(fd, st)) {
		close(fd);
		return -ESTALE;
	}
	*close_it = 1;
	return fd;
}

/* Errors that mean "this filesystem has no such ioctl". */
static int unsupported(int err)
{
	return err == ENOTTY || err == EOPNOTSUPP || err == EINVAL ||
	       err == ENOSYS;
}

/* An int-valued ioctl on the file, opened only if that is safe. */
static int ioctl_int(const struct xs_target *t, const struct xs_stat *st,
		     unsigned long cmd, unsigned int *v)
{
	int close_it, fd, ret = 0;

	fd = xs_open_for_ioctl(t, st, &close_it);
	if (fd < 0)
		return fd;
	if (ioctl(fd, cmd, v))
		ret = -errno;
	if (close_it)
		close(fd);
	return ret;
}

int xs_ioctl_getversion(const struct xs_target *t, const struct xs_stat *st,
			uint64_t *gen)
{
	unsigned int v;		/* the kernel writes an int */
	int ret = ioctl_int(t, st, XS_FS_IOC_GETVERSION, &v);

	if (ret == 0)
		*gen = v;
	else if (unsupported(-ret))
		xs_fs_set_flag(st, XS_FSF_NO_GETVERSION);
	return ret;
}

int xs_ioctl_getflags(const struct xs_target *t, const struct xs_stat *st,
		      uint32_t *flags)
{
	unsigned int v;		/* the kernel writes an int */
	int ret = ioctl_int(t, st, XS_FS_IOC_GETFLAGS, &v);

	if (ret == 0)
		*flags = v;
	return ret;
}
