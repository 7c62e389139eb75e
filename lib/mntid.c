// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The mount ID when statx cannot give it: from name_to_handle_at(2), else
 * from the mnt_id: line of /proc/self/fdinfo for an O_PATH descriptor
 * (filesystems that cannot encode handles, such as procfs).  The same
 * name_to_handle_at() call serves handle.c when the generation is asked
 * for too: one system call for both.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

/*
 * The mount ID without a handle: asked with handle_bytes 0, the kernel
 * answers EOVERFLOW but fills in the mount ID - one syscall, no open.
 * Since Linux 6.12 AT_HANDLE_MNT_ID_UNIQUE returns the never-reused 64-bit
 * ID instead; older kernels reject the flag with EINVAL, remembered once.
 */
#define XS_AT_HANDLE_MNT_ID_UNIQUE	0x001

static int unique_unsupported;

XS_HOT
static int handle_call(const struct xs_target *t, struct file_handle *fh,
		       void *id, int flags)
{
	if (!(t->flags & AT_SYMLINK_NOFOLLOW))
		flags |= AT_SYMLINK_FOLLOW;
	flags |= t->flags & AT_EMPTY_PATH;
	return name_to_handle_at(t->dfd, t->path, fh, id, flags) ? -errno : 0;
}

XS_HOT
int xs_name_to_handle(const struct xs_target *t, struct file_handle *fh,
		      struct xs_stat *mnt)
{
	uint64_t unique = 0;
	int id = 0, ret;

	if (!mnt)
		return handle_call(t, fh, &id, 0);
	if (!__atomic_load_n(&unique_unsupported, __ATOMIC_RELAXED)) {
		ret = handle_call(t, fh, &unique, XS_AT_HANDLE_MNT_ID_UNIQUE);
		if (ret != -EINVAL) {
			if (ret == 0 || ret == -EOVERFLOW) {
				mnt->mnt_id = unique;
				mnt->mnt_id_unique = 1;
				mnt->mask |= XSTAT_REQUEST_MNT_ID;
			}
			return ret;
		}
		__atomic_store_n(&unique_unsupported, 1, __ATOMIC_RELAXED);
	}
	ret = handle_call(t, fh, &id, 0);
	if (ret == 0 || ret == -EOVERFLOW) {
		mnt->mnt_id = (uint32_t)id;
		mnt->mnt_id_unique = 0;
		mnt->mask |= XSTAT_REQUEST_MNT_ID;
	}
	return ret;
}

/* Asked with handle_bytes 0, the kernel fills in only the mount ID. */
static int by_handle(const struct xs_target *t, struct xs_stat *st)
{
	struct file_handle fh = { .handle_bytes = 0 };

	xs_name_to_handle(t, &fh, st);
	return st->mask & XSTAT_REQUEST_MNT_ID ? 0 : -ENOENT;
}

static int read_retry(int fd, char *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : (int)n;
}

static int by_fdinfo(const struct xs_target *t, struct xs_stat *st)
{
	char path[48], buf[1024], *p;
	int fd, info, n, close_fd;

	fd = xs_open_path(t, st, &close_fd);
	if (fd < 0)
		return fd;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	info = open(path, O_RDONLY | O_CLOEXEC);
	n = info < 0 ? -errno : read_retry(info, buf, sizeof(buf) - 1);
	if (info >= 0)
		close(info);
	if (close_fd)
		close(fd);
	if (n < 0)
		return n;
	buf[n] = '\0';
	p = strstr(buf, "\nmnt_id:");
	if (!p)
		return -ENOENT;
	st->mnt_id = strtoull(p + 8, NULL, 10);
	st->mnt_id_unique = 0;
	return 0;
}

int xs_mnt_id_get(const struct xs_target *t, struct xs_stat *st)
{
	return by_handle(t, st) == 0 ? 0 : by_fdinfo(t, st);
}
