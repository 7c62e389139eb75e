// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Why a requested class (3) field is missing (XSTAT_REQUEST_WHY_MISSING).
 *
 * Two sources, one place.  The probes note what stopped them, per field
 * and per call, into the record (why.h: the device could not be
 * found or was refused, the raw inode failed its checks, an ioctl was
 * refused or is not in this kernel); the notes die with the record.
 * After the call, xs_why_fill() adds what the library's knowledge
 * settles - the backend, the filesystem's row (fs.h), fscache.c's
 * verdicts, the caller's euid and capabilities, the sync flags - and
 * decides between the two: a fact of the filesystem (it has none, statx
 * is authoritative for it) outranks a probe's note, a probe's note
 * outranks a guess from who the caller is.  What neither settles stays
 * XSTAT_WHY_UNKNOWN.  Nothing here runs unless the reasons were asked
 * for, except the notes, which are a store each.
 */
#include <unistd.h>
#include "fs.h"
#include "fscache.h"
#include "fsquery.h"
#include "result.h"
#include "why.h"

_Static_assert(XSTAT_WHY_NO_DEVICE < XS_WHY_REFUSAL &&
	       ((XS_NEEDS_ROOT | XS_NEEDS_FS_QUERY) & XS_WHY_REFUSAL) == 0,
	       "a refusal's note is no reason, and keeps what was needed");

/* Does this thread lack what reading the value takes (fs.h XS_NEEDS_*)? */
static int lacks(unsigned needs)
{
	if ((needs & XS_NEEDS_FS_QUERY) && !xs_fs_query_allowed())
		return 1;
	return (needs & XS_NEEDS_ROOT) && geteuid() != 0;
}

/*
 * @err from the filesystem's own probe (its row's ->probe), for the field
 * whose reading needs @needs: a refusal is noted with those needs, and
 * settled as the caller's lack or a refusal despite it only if the
 * reasons are asked (settled()); ENOTTY and ENOSYS, where the row has a
 * probe, are a kernel without its interface.
 */
static uint8_t why_probe_err(int err, unsigned needs)
{
	switch (err) {
	case EACCES: case EPERM:
		return XS_WHY_REFUSED_NEEDING(needs);
	case ENOTTY: case ENOSYS:
		return XSTAT_WHY_KERNEL;
	}
	return xs_why_unverified(err) ? XSTAT_WHY_UNVERIFIED :
					 XSTAT_WHY_UNKNOWN;
}

void xs_why_probe_note(struct xs_stat *st, const struct xs_fs *fs,
		      uint64_t fields, int err)
{
	xs_why_note(st, fields & XSTAT_REQUEST_BTIME,
		    why_probe_err(-err, fs->btime_needs));
	xs_why_note(st, fields & XSTAT_REQUEST_GEN,
		    why_probe_err(-err, fs->btime_needs & XS_NEEDS_FS_QUERY));
	xs_why_note(st, fields & XSTAT_REQUEST_DATA_VERSION,
		    why_probe_err(-err, fs->dv_needs));
}

/*
 * The creation time.  Where statx gives it whenever the inode has one,
 * statx's silence settles it.  Without statx (an older kernel, or a
 * sandbox refusing it: the library cannot tell them apart), a filesystem
 * whose only source is statx has the reason KERNEL.
 */
static uint8_t why_btime(const struct xs_fs *fs, uint32_t fsflags,
			 int from_statx, uint8_t noted)
{
	if (!fs)
		return noted;
	if (from_statx && (fs->flags & XS_FS_STATX_BTIME))
		return XSTAT_WHY_NO_SOURCE;	/* ext4 128-byte inodes, xfs v4 */
	if (noted)
		return noted;
	/* Its probe's ioctl was found missing by an earlier call. */
	if (!from_statx && fs->probe && (fsflags & XS_FSF_NO_FSPROBE))
		return XSTAT_WHY_KERNEL;
	if (!from_statx && lacks(fs->btime_needs))
		return XSTAT_WHY_PRIVILEGE;
	if (!from_statx && (fs->flags & XS_FS_STATX_BTIME) &&
	    !fs->btime_needs && !fs->btime_xattr)
		return XSTAT_WHY_KERNEL;
	return XSTAT_WHY_UNKNOWN;
}

static uint8_t why_gen(const struct xs_fs *fs, uint32_t fsflags,
		       uint8_t noted)
{
	/* No handle gave one, and the filesystem has no GETVERSION. */
	if (fs && (fsflags & XS_FSF_NO_GETVERSION))
		return XSTAT_WHY_NO_SOURCE;
	return noted;
}

/*
 * ext4 mounted by the ext2 driver keeps no i_version at all; it shares
 * the magic: the raw read tells (probe_ext4.c notes NO_SOURCE), and
 * without root the caller's lack is said.
 */
static uint8_t why_dv(const struct xs_fs *fs, uint32_t fsflags,
		      uint8_t noted)
{
	if (fs && !fs->dv)
		return XSTAT_WHY_NO_SOURCE;
	if (noted)
		return noted;
	if (fs && fs->probe && (fsflags & XS_FSF_NO_FSPROBE))
		return XSTAT_WHY_KERNEL;
	if (fs && lacks(fs->dv_needs))
		return XSTAT_WHY_PRIVILEGE;
	return XSTAT_WHY_UNKNOWN;
}

/*
 * A refusal's note (why.h), settled by what the caller lacks now: its
 * lack without what the field needs, a refusal despite it with.
 */
static uint8_t settled(uint8_t noted)
{
	if ((noted & XS_WHY_REFUSAL) != XS_WHY_REFUSAL)
		return noted;
	return lacks(noted & ~XS_WHY_REFUSAL) ? XSTAT_WHY_PRIVILEGE :
						XSTAT_WHY_REFUSED;
}

void xs_why_fill_missing(const struct xs_target *t, uint64_t missing,
			 int from_statx, struct xs_stat *st)
{
	const struct xs_fs *fs = xs_fs_row(t, st);

	st->why_btime = settled(st->why_btime);
	st->why_gen = settled(st->why_gen);
	st->why_dv = settled(st->why_dv);

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
		st->why_btime = why_btime(fs, st->fsflags, from_statx,
					  st->why_btime);
	if (missing & XSTAT_REQUEST_GEN)
		st->why_gen = why_gen(fs, st->fsflags, st->why_gen);
	if (missing & XSTAT_REQUEST_DATA_VERSION)
		st->why_dv = why_dv(fs, st->fsflags, st->why_dv);
}
