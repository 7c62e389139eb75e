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
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include "bulk_dir.h"
#include "fs.h"
#include "fscache.h"
#include "mntid.h"
#include "internal.h"
#include "pipeline.h"
#include "result.h"

/*
 * With multigrain timestamps (6.13+) statx reports ctime and mtime only
 * when asked for one of them.  A batch that reads raw inodes asks for the
 * ctime to check them against; where the caller did not, its answer must
 * still be the one xstat() gives, so those two are dropped again.  Seen
 * once per stream, on the directory, with a request that does not ask.
 */
static int unasked_times(const struct xstat_dir *d)
{
	struct xs_target t = { .dfd = d->fd, .path = "",
			       .flags = AT_EMPTY_PATH, .is_fd = 1 };
	struct xs_stat st;

	if (d->request & (XSTAT_REQUEST_CTIME | XSTAT_REQUEST_MTIME))
		return 0;
	/* Only statx leaves them out: fstatat's answer always has them. */
	return xs_stat_record(&t, XSTAT_REQUEST_MODE, XSTAT_REQUEST_MODE,
			      &st) == 1 &&
	       !(st.mask & (XSTAT_REQUEST_CTIME | XSTAT_REQUEST_MTIME));
}

/*
 * The reusable mount ID and the filesystem's lasting name are facts of
 * the mount and of the filesystem, not of a file: asked once, of the
 * directory (@st: its mount's record, the row resolved), and handed to
 * every entry of a raw batch seen through the same mount on the same
 * device (bulk_fs_give()), which would otherwise take each by the
 * per-call pipeline, anchor and all.  The unique mount ID is never
 * reused and the open directory holds its mount: an entry whose statx
 * names that ID is on the mount these were asked of.
 */
static void mount_extras(struct xstat_dir *d, struct xs_stat *st)
{
	struct xs_target t = { .dfd = d->fd, .path = "",
			       .flags = AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
			       .anchored = 1, .own_fd = 1, .is_fd = 1 };
	uint64_t want = d->request & (XSTAT_REQUEST_MNT_ID_REUSABLE |
				      XSTAT_REQUEST_FS_ID);

	if (!want)
		return;
	st->mode = S_IFDIR;
	st->dev_major = d->dev_major;
	st->dev_minor = d->dev_minor;
	if (want & XSTAT_REQUEST_MNT_ID_REUSABLE)
		xs_mnt_id_reusable_get(&t, st);
	if (want & XSTAT_REQUEST_FS_ID)
		xs_fs_id_get(&t, st);
	d->mnt_extras = st->mask & want;
	d->mnt_id_reusable = st->mnt_id_reusable;
	memcpy(d->fs_id, st->fs_id, sizeof(d->fs_id));
	d->fs_id_source = st->fs_id_source;
}

/*
 * The directory's mount, on ext4: its unique ID, and whether it is
 * idmapped (fscache.c), so that raw owners are compared as the per-call
 * probe compares them (xs_ext4_same_file()).
 */
static void dir_mount(struct xstat_dir *d)
{
	struct xs_target t = { .dfd = d->fd, .path = "",
			       .flags = AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
			       .anchored = 1, .is_fd = 1 };
	struct xs_stat st;

	if (xs_unique_mnt_id(&t, &d->mnt_key))
		d->mnt_key = 0;
	if (!d->mnt_key)
		return;
	memset(&st, 0, sizeof(st));
	st.fs_key = d->mnt_key;
	/* The mount's verdicts: the row itself is the directory's below. */
	if (xs_fs_row(&t, &st)) {
		d->idmap_mnt = xs_ext4_idmap_of(d->mnt_key, st.fsflags);
		d->fsflags = st.fsflags;
		d->mnt_facts = 1;
		mount_extras(d, &st);
	}
}

void bulk_fs_give(const struct xstat_dir *d, struct xs_stat *st)
{
	st->fs_key = d->mnt_key;
	st->fs = d->fs;
	st->fsflags = d->fsflags;
	st->fs_resolved = 1;
	if (!(d->mnt_extras & ~st->mask))
		return;
	st->mask |= d->mnt_extras;
	st->mnt_id_reusable = d->mnt_id_reusable;
	memcpy(st->fs_id, d->fs_id, sizeof(st->fs_id));
	st->fs_id_source = d->fs_id_source;
}

/*
 * What the kernel says about the directory's filesystem, asked on first
 * need (bulk_window.c: a batch that would read raw inodes, a read-ahead
 * decision), not at xstat_opendir(): a walk that asks for the basic
 * stats opens many small directories and needs none of it.  Where it
 * cannot be learnt, the stream reads nothing ahead and nothing raw.
 */
void bulk_dir_fs(struct xstat_dir *d)
{
	const struct xs_fs *fs;
	struct statfs sfs;
	struct stat sb;

	if (d->fs_known)
		return;
	d->fs_known = 1;
	d->remote = 1;	/* unknown: no read-ahead */
	if (fstat(d->fd, &sb) || fstatfs(d->fd, &sfs))
		return;
	d->dev_major = major(sb.st_dev);
	d->dev_minor = minor(sb.st_dev);
	fs = xs_fs_of((uint32_t)sfs.f_type);
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
	if (d->raw_inodes) {
		d->unasked_cmtime = unasked_times(d);
		dir_mount(d);
	}
}
