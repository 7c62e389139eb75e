// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Filesystem ioctls on the file itself, which need a real descriptor:
 * the anchor reopened (anchor.c: regular files and directories only,
 * checked to be the anchored inode).  Reopening a regular file breaks a
 * write lease another process holds, so these are the last resort: the
 * generation comes from a file handle first, the attributes from
 * file_getattr(2).
 */
#include <errno.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "internal.h"
#include "syscall.h"
#include "anchor.h"
#include "attrs.h"

/* An int-valued ioctl on the reopened anchor. */
static int ioctl_int(const struct xs_target *t, const struct xs_stat *st,
		     unsigned long cmd, unsigned int *v)
{
	int close_it, fd, ret = 0;

	fd = xs_reopen(t, st, &close_it);
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
	return ret;
}

/*
 * The kernel writes an int into *@flags itself, no copy between: *@flags
 * means something only when 0 is returned, as before.
 */
int xs_ioctl_getflags(const struct xs_target *t, const struct xs_stat *st,
		      uint32_t *flags)
{
	_Static_assert(sizeof(*flags) == sizeof(unsigned int),
		       "FS_IOC_GETFLAGS writes an int");
	return ioctl_int(t, st, XS_FS_IOC_GETFLAGS, flags);
}
