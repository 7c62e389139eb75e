// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The mount ID when statx cannot give it: from name_to_handle_at(2), else
 * from the mnt_id: line of /proc/self/fdinfo for an O_PATH descriptor
 * (filesystems that cannot encode handles, such as procfs).
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

static int mnt_id_call(const struct xs_target *t, int flags, void *id)
{
	struct file_handle fh = { .handle_bytes = 0 };

	if (name_to_handle_at(t->dfd, t->path, &fh, id, flags) == 0 ||
	    errno == EOVERFLOW)
		return 0;
	return -errno;
}

static int by_handle(const struct xs_target *t, struct xs_stat *st)
{
	int flags = t->flags & AT_EMPTY_PATH, ret;
	uint64_t unique = 0;
	int id = 0;

	if (!(t->flags & AT_SYMLINK_NOFOLLOW))
		flags |= AT_SYMLINK_FOLLOW;
	if (!__atomic_load_n(&unique_unsupported, __ATOMIC_RELAXED)) {
		ret = mnt_id_call(t, flags | XS_AT_HANDLE_MNT_ID_UNIQUE,
				  &unique);
		if (ret == 0) {
			st->mnt_id = unique;
			st->mnt_id_unique = 1;
			return 0;
		}
		if (ret != -EINVAL)
			return ret;
		__atomic_store_n(&unique_unsupported, 1, __ATOMIC_RELAXED);
	}
	ret = mnt_id_call(t, flags, &id);
	if (ret)
		return ret;
	st->mnt_id = (uint32_t)id;
	st->mnt_id_unique = 0;
	return 0;
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
