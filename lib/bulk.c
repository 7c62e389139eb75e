// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Directory streams: xstat_opendir(), xstat_readdir(), xstat_dirfd(),
 * xstat_closedir().
 *
 * The directory is read with getdents64 in BULK_DENTS reads; a window of
 * its entries (bulk.h: BULK_BATCH or BULK_SMALL, names copied) forms a
 * batch, sorted by inode number (the order of inode tables on ext4, and
 * of inode allocation elsewhere), and handed out in that order.  Memory
 * is bounded by the batch, never by the directory.
 *
 * An entry's result is the one xstat(dirfd, name, AT_SYMLINK_NOFOLLOW |
 * flags, params) gives: by default that call itself, made when the entry
 * is handed out.  When a request needs the raw ext4 inode (generation,
 * data version; creation time too without statx), the batch is stat'ed
 * together instead, and bulk_ext4.c reads the inode tables once for all
 * of its entries, checking each raw inode against that entry's statx
 * answer; an entry that does not match goes the per-call way.
 *
 * Nothing is opened but the directory (O_CLOEXEC) while the caller's code
 * runs: the block device lives only inside the batch fill.  errno is set
 * only at the four public functions.
 *
 * A stream starts with plain statx calls and times the first few of each
 * batch; when they wait for the disk, the rest of that batch (entry by
 * entry) or the stream's later batches (raw reads, timed as a whole) are
 * read ahead through io_uring first (bulk_uring.c), then stat'ed the
 * same plain way, so the results are the same either way.  Never on a
 * remote filesystem, and never when this thread's statx is refused now
 * (a ring's operations pass no seccomp filter).
 *
 * Here: the four entry points and what is learned once per stream about
 * the directory.  The window and its batch fill are bulk_window.c's, an
 * entry's result bulk_entry.c's, the state they share bulk_dir.h's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include "bulk_dir.h"
#include "fs.h"
#include "bulk_uring.h"
#include "backend_statx.h"
#include "ret.h"
#include "anchor.h"
#include "fscache.h"
#include "mntid.h"
#include "internal.h"
#include "pipeline.h"

/* What an entry is looked up with: never through a final symlink. */
#define ENTRY_FLAGS	(AT_NO_AUTOMOUNT | XS_SYNC_FLAGS)

static void free_dir(struct xstat_dir *d)
{
	free(d->dents);
	free(d->ents);
	free(d->keys);
	free(d->names);
	free(d->sts);
	free(d->order);
	free(d->offs);
	free(d->run);
	free(d->ahead);
	free(d);
}

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
	}
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

static int open_dir(int dfd, const char *path, unsigned flags)
{
	int oflags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY;
	int fd;

	if (flags & AT_SYMLINK_NOFOLLOW)
		oflags |= O_NOFOLLOW;
	fd = xs_open_eintr(dfd, path, oflags);
	/*
	 * "" with AT_EMPTY_PATH: @dfd itself, with an offset of our own.
	 * openat() fails "" with ENOENT after reading it: the name is
	 * looked at only then, so that a bad pointer is EFAULT.
	 */
	if (fd == -ENOENT && (flags & AT_EMPTY_PATH) && !*path)
		fd = xs_open_eintr(dfd, ".", oflags);
	return fd;
}

static struct xstat_dir *alloc_dir(void)
{
	struct xstat_dir *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->fd = -1;
	d->dents = malloc(BULK_DENTS);
	d->ents = malloc(BULK_BATCH * sizeof(*d->ents));
	d->keys = malloc(BULK_BATCH * sizeof(*d->keys));
	d->names = malloc(BULK_NAMES);
	if (!d->dents || !d->ents || !d->keys || !d->names) {
		free_dir(d);
		return NULL;
	}
	return d;
}

XS_EXPORT struct xstat_dir *xstat_opendir(int dfd, const char *path,
					  unsigned flags,
					  const struct xstat_parameters *params)
{
	struct xstat_dir *d;
	int ret, saved = errno;

	if (flags & ~XS_CALL_FLAGS || (flags & XS_SYNC_FLAGS) == XS_SYNC_FLAGS)
		return xs_ret_ptr(NULL, EINVAL, saved);
	if (!path)
		return xs_ret_ptr(NULL, EFAULT, saved);
	d = alloc_dir();
	if (!d)
		return xs_ret_ptr(NULL, ENOMEM, saved);
	d->flags = flags & ENTRY_FLAGS;
	d->uring = bulk_uring_forced();
	d->params.request_mask = params ? params->request_mask &
					  XSTAT_REQUEST__ALL_STATS :
					  XSTAT_REQUEST__EXTENDED_STATS;
	d->request = d->params.request_mask;
	/* O_DIRECTORY: a directory, or ENOTDIR */
	ret = open_dir(dfd, path, flags);
	if (ret < 0) {
		free_dir(d);
		return xs_ret_ptr(NULL, -ret, saved);
	}
	d->fd = ret;
	return xs_ret_ptr(d, 0, saved);
}

XS_EXPORT int xstat_dirfd(struct xstat_dir *d)
{
	return (int)xs_ret(d ? d->fd : -EINVAL, errno);
}

XS_EXPORT int xstat_closedir(struct xstat_dir *d)
{
	int ret, saved = errno;

	if (!d)
		return (int)xs_ret(-EINVAL, saved);
	/* Linux closes the fd even when close() fails: never retry it. */
	ret = close(d->fd);
	free_dir(d);
	return ret ? -1 : 0;
}

XS_EXPORT const struct xstat_dirent *xstat_readdir(struct xstat_dir *d)
{
	int ret, saved = errno;

	if (!d)
		return xs_ret_ptr(NULL, EINVAL, saved);
	if (d->next >= d->n) {
		ret = bulk_fill_batch(d);
		if (ret)
			return xs_ret_ptr(NULL, -ret, saved);
		/* the end: NULL with errno unchanged */
		if (!d->n)
			return xs_ret_ptr(NULL, saved, saved);
	}
	bulk_result_of(d, &d->ents[d->keys[d->next++].idx]);
	/* What the library's own calls did to errno is not the caller's. */
	return xs_ret_ptr(&d->out, 0, saved);
}
