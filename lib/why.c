// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Why a requested class (3) field is missing (XSTAT_REQUEST_WHY_MISSING):
 * the one place that turns what the library knows after a call - the
 * backend, the filesystem's type and facts (promise.c's table, fscache.c's
 * verdicts), the caller's euid, the sync flags - into XSTAT_WHY_* codes.
 * A code other than XSTAT_WHY_UNKNOWN is given only where that knowledge
 * settles it; the probes keep no per-call reasons, so a failure they met
 * on the way (a torn read, a stale handle, a sandbox's refusal of one
 * ioctl) stays UNKNOWN.  It runs only when the reasons are asked for.
 */
#include <unistd.h>
#include "internal.h"
#include "syscall.h"

/* Filesystems whose creation time statx reports whenever the inode has one. */
static int statx_btime_fs(uint32_t magic)
{
	return magic == XS_EXT4_SUPER_MAGIC || magic == XS_XFS_SUPER_MAGIC ||
	       magic == XS_BTRFS_SUPER_MAGIC || magic == XS_TMPFS_MAGIC;
}

/*
 * @magic's filesystem has a data version libxstat reads: ext4 (the raw
 * inode, through the block device) and btrfs (the tree search ioctl),
 * both for root only.
 */
static int dv_fs(uint32_t magic)
{
	return magic == XS_EXT4_SUPER_MAGIC || magic == XS_BTRFS_SUPER_MAGIC;
}

static uint8_t why_btime(uint32_t magic, int from_statx)
{
	if (from_statx && statx_btime_fs(magic))
		return XSTAT_WHY_NO_SOURCE;	/* ext4 128-byte inodes, xfs v4 */
	if (!from_statx && !xs_fs_query_allowed() &&
	    (magic == XS_XFS_SUPER_MAGIC || magic == XS_BTRFS_SUPER_MAGIC))
		return XSTAT_WHY_PRIVILEGE;
	if (!from_statx && magic == XS_EXT4_SUPER_MAGIC && geteuid() != 0)
		return XSTAT_WHY_PRIVILEGE;	/* the device is root's */
	return XSTAT_WHY_UNKNOWN;
}

static uint8_t why_gen(uint32_t magic, uint32_t fsflags)
{
	/* No handle gave one, and the filesystem has no GETVERSION. */
	if (magic && (fsflags & XS_FSF_NO_GETVERSION))
		return XSTAT_WHY_NO_SOURCE;
	return XSTAT_WHY_UNKNOWN;
}

/*
 * ext4 mounted by the ext2 driver keeps no i_version at all; it shares
 * the magic, and is rare enough that PRIVILEGE is said for it too.
 */
static uint8_t why_dv(uint32_t magic)
{
	if (magic && !dv_fs(magic))
		return XSTAT_WHY_NO_SOURCE;
	if (magic == XS_BTRFS_SUPER_MAGIC && !xs_fs_query_allowed())
		return XSTAT_WHY_PRIVILEGE;
	if (dv_fs(magic) && geteuid() != 0)
		return XSTAT_WHY_PRIVILEGE;
	return XSTAT_WHY_UNKNOWN;
}

void xs_why_fill(const struct xs_target *t, uint64_t request,
		 int from_statx, struct xs_stat *st)
{
	uint64_t missing = request & XS_CLASS3 & ~st->mask;
	uint32_t fsflags = 0, magic;

	if (!(request & XSTAT_REQUEST_WHY_MISSING) || !missing)
		return;
	if (!st->fs_key)
		st->fs_key = xs_fs_key(NULL, st);
	magic = xs_fs_magic(t, st, &fsflags);
	/*
	 * Not even the filesystem's type could be learnt without a request
	 * AT_NO_ATTR_SYNC forbids (fstatfs on a network filesystem): none of
	 * the probes ran.
	 */
	if (!magic && t && (t->flags & AT_NO_ATTR_SYNC)) {
		st->why_btime = st->why_gen = st->why_dv = XSTAT_WHY_NO_SYNC;
		return;
	}
	if (missing & XSTAT_REQUEST_BTIME)
		st->why_btime = why_btime(magic, from_statx);
	if (missing & XSTAT_REQUEST_GEN)
		st->why_gen = why_gen(magic, fsflags);
	if (missing & XSTAT_REQUEST_DATA_VERSION)
		st->why_dv = why_dv(magic);
}
