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

/* FS_XFLAG_* (file_getattr(2)): their own bits. */
#define XS_FS_XFLAG_IMMUTABLE	0x00000008
#define XS_FS_XFLAG_APPEND	0x00000010
#define XS_FS_XFLAG_NODUMP	0x00000080

static void from_xflags(struct xs_stat *st, uint64_t x)
{
	st->attributes =
		(x & XS_FS_XFLAG_IMMUTABLE ? XSTAT_ATTR_IMMUTABLE : 0) |
		(x & XS_FS_XFLAG_APPEND ? XSTAT_ATTR_APPEND : 0) |
		(x & XS_FS_XFLAG_NODUMP ? XSTAT_ATTR_NODUMP : 0);
	st->attributes_mask = XSTAT_ATTR_IMMUTABLE | XSTAT_ATTR_APPEND |
			      XSTAT_ATTR_NODUMP;
}

/*
 * FS_*_FL (FS_IOC_GETFLAGS): those statx reports have its STATX_ATTR_*
 * values (the kernel took them from there), so they are kept as they are.
 */
#define XS_FS_COMPR_FL		0x00000004
#define XS_FS_IMMUTABLE_FL	0x00000010
#define XS_FS_APPEND_FL		0x00000020
#define XS_FS_NODUMP_FL		0x00000040
#define XS_FS_ENCRYPT_FL	0x00000800
#define XS_FS_VERITY_FL		0x00100000

_Static_assert(XS_FS_COMPR_FL == XSTAT_ATTR_COMPRESSED &&
	       XS_FS_IMMUTABLE_FL == XSTAT_ATTR_IMMUTABLE &&
	       XS_FS_APPEND_FL == XSTAT_ATTR_APPEND &&
	       XS_FS_NODUMP_FL == XSTAT_ATTR_NODUMP &&
	       XS_FS_ENCRYPT_FL == XSTAT_ATTR_ENCRYPTED &&
	       XS_FS_VERITY_FL == XSTAT_ATTR_VERITY, "FS_*_FL as STATX_ATTR_*");

#define IFLAG_ATTRS	(XSTAT_ATTR_COMPRESSED | XSTAT_ATTR_IMMUTABLE | \
			 XSTAT_ATTR_APPEND | XSTAT_ATTR_NODUMP | \
			 XSTAT_ATTR_ENCRYPTED | XSTAT_ATTR_VERITY)

static void from_iflags(struct xs_stat *st, uint32_t flags)
{
	st->attributes = flags & IFLAG_ATTRS;
	st->attributes_mask = IFLAG_ATTRS;
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
	from_xflags(st, fa.fa_xflags);
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
	from_iflags(st, flags);
	return 0;
}
