// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A directory stream's filesystem (bulk.c says what a stream is): its row
 * (fs.h), resolved once per directory, and what follows from it for the
 * stream - read ahead or not, raw-inode batches or not, the directory's
 * mount and fscache.c's verdicts on it, which a raw batch's entries carry.
 * Called by bulk_window.c; calls nothing of the stream's other files.
 */
#include <fcntl.h>
#include <string.h>
#include "bulk_dir.h"
#include "cmtime.h"
#include "fs.h"
#include "fscache.h"
#include "mntid.h"
#include "internal.h"
#include "pipeline.h"
#include "result.h"

/*
 * The reusable mount ID and the filesystem's lasting name are facts of
 * the mount and of the filesystem, not of a file: asked once, of the
 * directory (@t, @st: its record, the row resolved), and handed to
 * every entry of a raw batch seen through the same mount on the same
 * device (bulk_fs_give()), which would otherwise take each by the
 * per-call pipeline, anchor and all.  The unique mount ID is never
 * reused and the open directory holds its mount: an entry whose statx
 * names that ID is on the mount these were asked of.
 */
static void mount_extras(struct xstat_dir *d, const struct xs_target *t,
			 struct xs_stat *st)
{
	uint64_t want = d->request & (XSTAT_REQUEST_MNT_ID_REUSABLE |
				      XSTAT_REQUEST_FS_ID);

	if (!want)
		return;
	if (want & XSTAT_REQUEST_MNT_ID_REUSABLE)
		xs_mnt_id_reusable_get(t, st);
	if (want & XSTAT_REQUEST_FS_ID)
		xs_fs_id_get(t, st);
	d->mnt_extras = st->mask & want;
	d->mnt_id_reusable = st->mnt_id_reusable;
	memcpy(d->fs_id, st->fs_id, sizeof(d->fs_id));
	d->fs_id_source = st->fs_id_source;
}

/*
 * What the kernel says about the directory's filesystem, asked on first
 * need (bulk_window.c: a batch that would read raw inodes, a read-ahead
 * decision), not at xstat_opendir(): a walk that asks for the basic
 * stats opens many small directories and needs none of it.  Where it
 * cannot be learnt, the stream reads nothing ahead and nothing raw.
 *
 * One statx of the directory, asked for its mode and mount, gives its
 * device and its unique mount ID, the key of fscache.c's row and
 * verdicts, which a walk's later directories on the mount find without
 * a call (fstatat, where statx cannot serve: then the mount ID is the
 * handle's and the row may cost an fstatfs).  The same answer says
 * whether statx leaves out the ctime and mtime when not asked for them
 * (multigrain timestamps, 6.13+): there a raw batch, which asks for the
 * ctime, drops both for a caller who asked for neither (cmtime.h,
 * @unasked_cmtime).
 */
void bulk_dir_fs(struct xstat_dir *d)
{
	struct xs_target t = { .dfd = d->fd, .path = "",
			       .flags = AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
			       .anchored = 1, .own_fd = 1, .is_fd = 1 };
	uint64_t ask = XSTAT_REQUEST_MODE | XSTAT_REQUEST_MNT_ID;
	const struct xs_fs *fs;
	struct xs_stat st;
	int from_statx;

	if (d->fs_known)
		return;
	d->fs_known = 1;
	d->remote = 1;	/* unknown: no read-ahead */
	from_statx = xs_stat_record(&t, ask, ask, &st);
	if (from_statx < 0)
		return;
	d->dev_major = st.dev_major;
	d->dev_minor = st.dev_minor;
	d->unasked_cmtime = from_statx && xs_cmtime_unasked(d->request) &&
			    !(st.mask & XS_CMTIME);
	st.fs_key = xs_fs_key(&t, &st);
	fs = xs_fs_row(&t, &st);
	d->fs = fs;
	if (!fs)
		return;
	/*
	 * On a network or FUSE filesystem every statx can be a request to
	 * the server: a read-ahead there doubles them and shares nothing.
	 */
	d->remote = !!(fs->flags & XS_FS_REMOTE);
	/* Only a hint: each entry's device is checked, each inode too. */
	d->raw_inodes = !!(fs->flags & XS_FS_RAW_INODES);
	if (!st.fs_key)
		return;
	/*
	 * The directory's mount: its unique ID and fscache.c's verdicts,
	 * which an entry seen through it carries (bulk_fs_give()); on ext4
	 * also whether it is idmapped, so that raw owners are compared as
	 * the per-call probe compares them (xs_ext4_same_file()), and the
	 * mount's own extra results.
	 */
	d->mnt_key = st.fs_key;
	d->fsflags = st.fsflags;
	d->mnt_facts = 1;
	if (!d->raw_inodes)
		return;
	d->idmap_mnt = xs_ext4_idmap_of(d->mnt_key, st.fsflags);
	mount_extras(d, &t, &st);
}
