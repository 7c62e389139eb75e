// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Why a requested class (3) field is missing (XSTAT_REQUEST_WHY_MISSING):
 * the one place that turns what the library knows after a call - the
 * backend, the filesystem's type and facts (promise.c's table, fscache.c's
 * verdicts), the caller's euid, the sync flags - into the XSTAT_WHY_*
 * reason of a missing field (copyout.c adds only PRESENT, NOT_REQUESTED
 * and UNKNOWN, from the result mask).
 * A code other than XSTAT_WHY_UNKNOWN is given only where that knowledge
 * settles it; the probes keep no per-call reasons, so a failure they met
 * on the way (a torn read, a stale handle, a sandbox's refusal of one
 * ioctl) stays UNKNOWN.  It runs only when the reasons are asked for.
 */
#include <unistd.h>
#include "fs.h"
#include "fscache.h"
#include "fsquery.h"
#include "result.h"

/* Does this thread lack what reading the value takes (fs.h XS_NEEDS_*)? */
static int lacks(unsigned needs)
{
	if ((needs & XS_NEEDS_FS_QUERY) && !xs_fs_query_allowed())
		return 1;
	return (needs & XS_NEEDS_ROOT) && geteuid() != 0;
}

static uint8_t why_btime(const struct xs_fs *fs, int from_statx)
{
	if (!fs)
		return XSTAT_WHY_UNKNOWN;
	if (from_statx && (fs->flags & XS_FS_STATX_BTIME))
		return XSTAT_WHY_NO_SOURCE;	/* ext4 128-byte inodes, xfs v4 */
	if (!from_statx && lacks(fs->btime_needs))
		return XSTAT_WHY_PRIVILEGE;
	return XSTAT_WHY_UNKNOWN;
}

static uint8_t why_gen(const struct xs_fs *fs, uint32_t fsflags)
{
	/* No handle gave one, and the filesystem has no GETVERSION. */
	if (fs && (fsflags & XS_FSF_NO_GETVERSION))
		return XSTAT_WHY_NO_SOURCE;
	return XSTAT_WHY_UNKNOWN;
}

/*
 * ext4 mounted by the ext2 driver keeps no i_version at all; it shares
 * the magic, and is rare enough that PRIVILEGE is said for it too.
 */
static uint8_t why_dv(const struct xs_fs *fs)
{
	if (!fs)
		return XSTAT_WHY_UNKNOWN;
	if (!fs->dv)
		return XSTAT_WHY_NO_SOURCE;
	if (lacks(fs->dv_needs))
		return XSTAT_WHY_PRIVILEGE;
	return XSTAT_WHY_UNKNOWN;
}

void xs_why_fill(const struct xs_target *t, uint64_t request,
		 int from_statx, struct xs_stat *st)
{
	uint64_t missing = request & XS_CLASS3 & ~st->mask;
	const struct xs_fs *fs;

	if (!(request & XSTAT_REQUEST_WHY_MISSING) || !missing)
		return;
	fs = xs_fs_row(t, st);
	/*
	 * Not even the filesystem's type could be learnt without a request
	 * AT_NO_ATTR_SYNC forbids (fstatfs on a network filesystem): none of
	 * the probes ran.
	 */
	if (!fs && t && (t->flags & AT_NO_ATTR_SYNC)) {
		st->why_btime = st->why_gen = st->why_dv = XSTAT_WHY_NO_SYNC;
		return;
	}
	if (missing & XSTAT_REQUEST_BTIME)
		st->why_btime = why_btime(fs, from_statx);
	if (missing & XSTAT_REQUEST_GEN)
		st->why_gen = why_gen(fs, st->fsflags);
	if (missing & XSTAT_REQUEST_DATA_VERSION)
		st->why_dv = why_dv(fs);
}
