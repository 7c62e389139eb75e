// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * File attributes without statx: file_getattr(2) (Linux 6.17+) reads them
 * by path without opening anything; else the FS_IOC_GETFLAGS ioctl on a
 * safely opened regular file or directory.  Both answer in their own bits,
 * mapped here to STATX_ATTR_*, and attributes_mask holds only what the
 * source can really tell.  Not STATX_ATTR_DAX: FS_XFLAG_DAX and FS_DAX_FL
 * are the persistent request ("use DAX when the device can"), which
 * `chattr +x` sets on any ext4 or XFS file; the state statx reports is
 * whether the inode is in DAX mode now, which neither source tells.
 *
 * Both read the anchored inode: file_getattr(2) on the anchor with
 * AT_EMPTY_PATH, FS_IOC_GETFLAGS on the reopened anchor (probe_ioctl.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "internal.h"
#include "syscall.h"
#include "anchor.h"
#include "attrs.h"

/* file_getattr(2): the same number on every architecture. */
#define XS_NR_file_getattr	468

struct xs_file_attr {			/* struct file_attr, version 0 */
	uint64_t	fa_xflags;
	uint32_t	fa_extsize;
	uint32_t	fa_nextents;
	uint32_t	fa_projid;
	uint32_t	fa_cowextsize;
};

/* FS_XFLAG_* (file_getattr) and FS_*_FL (GETFLAGS) to STATX_ATTR_*. */
static const struct {
	uint32_t	from;
	uint64_t	to;
} xflag_map[] = {
	{ 0x00000008, XSTAT_ATTR_IMMUTABLE },	/* FS_XFLAG_IMMUTABLE */
	{ 0x00000010, XSTAT_ATTR_APPEND },	/* FS_XFLAG_APPEND */
	{ 0x00000080, XSTAT_ATTR_NODUMP },	/* FS_XFLAG_NODUMP */
}, iflag_map[] = {
	{ 0x00000004, XSTAT_ATTR_COMPRESSED },	/* FS_COMPR_FL */
	{ 0x00000010, XSTAT_ATTR_IMMUTABLE },	/* FS_IMMUTABLE_FL */
	{ 0x00000020, XSTAT_ATTR_APPEND },	/* FS_APPEND_FL */
	{ 0x00000040, XSTAT_ATTR_NODUMP },	/* FS_NODUMP_FL */
	{ 0x00000800, XSTAT_ATTR_ENCRYPTED },	/* FS_ENCRYPT_FL */
	{ 0x00100000, XSTAT_ATTR_VERITY },	/* FS_VERITY_FL */
};

#define MAP_LEN(m)	(sizeof(m) / sizeof(m[0]))

static void map_flags(struct xs_stat *st, uint64_t flags,
		      const __typeof__(xflag_map[0]) *map, size_t n)
{
	size_t i;

	st->attributes = 0;
	st->attributes_mask = 0;
	for (i = 0; i < n; i++) {
		st->attributes_mask |= map[i].to;
		if (flags & map[i].from)
			st->attributes |= map[i].to;
	}
}

static int file_getattr_unsupported;

/*
 * file_getattr(2) on the anchored inode (it refuses O_PATH descriptors:
 * xs_anchor_at_get()), opening nothing.
 */
static int by_file_getattr(const struct xs_target *t, struct xs_stat *st)
{
	struct xs_anchor_at at;
	struct xs_file_attr fa;
	long ret;

	if (__atomic_load_n(&file_getattr_unsupported, __ATOMIC_RELAXED))
		return -ENOSYS;
	if (!t->anchored) {
		/* A caller without an anchor (bulk.c): by path, no open. */
		ret = syscall(XS_NR_file_getattr, t->dfd, t->path, &fa,
			      sizeof(fa), t->flags & (AT_SYMLINK_NOFOLLOW |
						      AT_EMPTY_PATH));
		ret = ret ? -errno : 0;
	} else {
		ret = xs_anchor_at_get(t, &at);
		if (ret)
			return (int)ret;
		ret = syscall(XS_NR_file_getattr, at.dfd, at.name, &fa,
			      sizeof(fa), at.flags);
		ret = ret ? -errno : 0;
		xs_anchor_at_put(&at);
	}
	if (ret) {
		/* No such call here; a seccomp EPERM may be one thread's. */
		if (ret == -ENOSYS)
			__atomic_store_n(&file_getattr_unsupported, 1,
					 __ATOMIC_RELAXED);
		return (int)ret;
	}
	map_flags(st, fa.fa_xflags, xflag_map, MAP_LEN(xflag_map));
	return 0;
}

int xs_attrs_get(const struct xs_target *t, struct xs_stat *st)
{
	uint32_t flags;
	int ret;

	ret = by_file_getattr(t, st);
	if (ret == 0)
		return 0;
	/*
	 * Only where file_getattr(2) does not exist (before 6.17) or is
	 * refused: FS_IOC_GETFLAGS needs the file reopened, which breaks a
	 * write lease on a regular file (xstat(3)).
	 */
	if (ret != -ENOSYS && ret != -EPERM)
		return ret;
	ret = xs_ioctl_getflags(t, st, &flags);
	if (ret)
		return ret;
	map_flags(st, flags, iflag_map, MAP_LEN(iflag_map));
	return 0;
}
