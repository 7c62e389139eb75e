// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Directory streams: xstat_opendir(), xstat_readdir(), xstat_dirfd(),
 * xstat_closedir().
 *
 * The directory is read with getdents64 in BULK_DENTS reads; a window of
 * its entries (bulk.h: BULK_WINDOW or BULK_SMALL, names in place) is
 * sorted by inode number (the order of inode tables on ext4, and of inode
 * allocation elsewhere) and handed out in that order, a batch of up to
 * BULK_BATCH at a time.  Memory is bounded by the window, never by the
 * directory.
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
 * Here: the four entry points.  What is learned once per stream about
 * the directory is bulk_fs.c's, the window and its batch fill
 * bulk_window.c's, an entry's result bulk_entry.c's, the state they
 * share bulk_dir.h's.  They call each other one way only: bulk.c ->
 * bulk_entry.c -> bulk_window.c -> bulk_fs.c (tests/test-call-graph.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bulk_dir.h"
#include "bulk_uring.h"
#include "ret.h"
#include "anchor.h"
#include "internal.h"

/* What an entry is looked up with: never through a final symlink. */
#define ENTRY_FLAGS	(AT_NO_AUTOMOUNT | XS_SYNC_FLAGS)

static void free_dir(struct xstat_dir *d)
{
	free(d->mem);
	free(d->wide);
	free(d->ahead);
	free(d);
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

/*
 * The window's and a raw batch's arrays, carved one after another out of
 * one block (every size a multiple of 8, every alignment at most 8).
 */
#define SIZE_ENTS	(BULK_WINDOW * sizeof(struct bulk_ent))
#define SIZE_KEYS	(BULK_WINDOW * sizeof(uint64_t))
#define SIZE_STS	(BULK_BATCH * sizeof(struct xs_stat))
#define SIZE_ORDER	(BULK_BATCH * sizeof(struct bulk_ent *))
#define SIZE_OFFS	(BULK_BATCH * sizeof(uint64_t))
#define SIZE_MEM	(SIZE_ENTS + 2 * SIZE_KEYS + SIZE_STS + SIZE_ORDER + \
			 SIZE_OFFS + BULK_NAMES + BULK_RUN)
_Static_assert(SIZE_ENTS % 8 == 0 && SIZE_STS % 8 == 0 &&
	       BULK_NAMES % 8 == 0, "each array 8-aligned");
_Static_assert(_Alignof(struct bulk_ent) <= 8 &&
	       _Alignof(struct xs_stat) <= 8, "alignments of at most 8");

static void *carve(char **p, size_t len)
{
	void *at = *p;

	*p += len;
	return at;
}

/*
 * One block for all of a stream's arrays: freed by one stream and taken
 * again by the next of a walk, it stays in malloc's heap (glibc raises
 * its mmap and trim thresholds to the largest block freed), where
 * blocks of different sizes can leave the heap's top over the trim
 * threshold, so that it is given back and every directory faults its
 * pages in again.
 */
static struct xstat_dir *alloc_dir(void)
{
	struct xstat_dir *d = calloc(1, sizeof(*d));
	char *p;

	if (!d)
		return NULL;
	d->fd = -1;
	d->mem = malloc(SIZE_MEM);
	if (!d->mem) {
		free(d);
		return NULL;
	}
	p = d->mem;
	d->sts = carve(&p, SIZE_STS);
	d->ents = carve(&p, SIZE_ENTS);
	d->keys = carve(&p, SIZE_KEYS);
	d->keys_tmp = carve(&p, SIZE_KEYS);
	d->order = carve(&p, SIZE_ORDER);
	d->offs = carve(&p, SIZE_OFFS);
	d->names = carve(&p, BULK_NAMES);
	d->run = carve(&p, BULK_RUN);
	d->dents = d->names;
	/* Every entry's result is written in the same place. */
	d->out.d_xstat = &d->res.x;
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
	/* Undefined request bits are ignored, as by xstat(). */
	d->request = params ? params->request_mask & XSTAT_REQUEST__ALL_STATS :
			      XSTAT_REQUEST__EXTENDED_STATS;
	/* O_DIRECTORY: a directory, or ENOTDIR */
	ret = open_dir(dfd, path, flags);
	if (ret < 0) {
		free_dir(d);
		return xs_ret_ptr(NULL, -ret, saved);
	}
	d->fd = ret;
	d->entry.dfd = d->fd;
	d->entry.flags = AT_SYMLINK_NOFOLLOW | d->flags;
	d->entry.refused = &d->refused;
	return xs_ret_ptr(d, 0, saved);
}

XS_EXPORT int xstat_dirfd(struct xstat_dir *d)
{
	return (int)xs_ret(d ? d->fd : -EINVAL, errno);
}

unsigned long xs_bulk_per_call;	/* atomic */

XS_EXPORT int xstat_closedir(struct xstat_dir *d)
{
	int ret, saved = errno;

	if (!d)
		return (int)xs_ret(-EINVAL, saved);
	__atomic_add_fetch(&xs_bulk_per_call, d->per_call, __ATOMIC_RELAXED);
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
	if (d->next >= d->filled) {
		ret = bulk_fill_batch(d);
		if (ret)
			return xs_ret_ptr(NULL, -ret, saved);
		/* the end: NULL with errno unchanged */
		if (!d->n)
			return xs_ret_ptr(NULL, saved, saved);
	}
	bulk_result_of(d, bulk_nth(d, d->next++));
	/* What the library's own calls did to errno is not the caller's. */
	return xs_ret_ptr(&d->out, 0, saved);
}
