// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A filesystem-wide ioctl for one file: XFS bulkstat accepts any
 * descriptor of the filesystem, btrfs tree search any of the same
 * subvolume.  The descriptor is a directory on the file's st_dev, which
 * on btrfs names the subvolume (anchor.c: never the file itself, unless
 * it is the root directory of its mount or subvolume), and the probe
 * finds the file by inode number, which the anchor keeps from being
 * reused until the call returns.
 */
#include <errno.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include "internal.h"
#include "anchor.h"
#include "fsquery.h"

/*
 * Both ioctls need CAP_SYS_ADMIN in the calling thread's effective set,
 * which changes per thread and at any time: asked on every call (one
 * system call), never remembered.  Where capget itself fails, the ioctl
 * is simply tried.
 */
int xs_fs_query_allowed(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d))
		return 1;
	return !!(d[CAP_SYS_ADMIN / 32].effective &
		  (1U << (CAP_SYS_ADMIN % 32)));
}

/* Run @query: its answer, -ENOTTY where the filesystem has no such ioctl. */
int xs_fs_query(const struct xs_target *t, const struct xs_stat *st,
		int (*query)(int fd, uint64_t ino, void *out), void *out)
{
	int close_it, fd, ret;

	if (!xs_fs_query_allowed())
		return -EPERM;
	fd = xs_fs_dir_fd(t, st, &close_it);
	if (fd < 0)
		return fd;
	ret = query(fd, st->ino, out);
	if (close_it)
		close(fd);
	return ret;
}
