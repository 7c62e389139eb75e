/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The anchor: the inode the kernel resolved for this call, held by an
 * O_PATH descriptor until the call returns, so that every later step
 * (statx, name_to_handle_at, ioctls, probes by inode number) describes
 * that inode and no other - an inode held open is not freed, so its number
 * cannot be reused meanwhile.  Opening, reopening safely and checking that
 * a descriptor is the anchored file live here and nowhere else.
 */
#ifndef LIBXSTAT_ANCHOR_H
#define LIBXSTAT_ANCHOR_H

#include "internal.h"

struct xs_anchor {
	int		owned;	/* opened here, closed by xs_anchor_close() */
	/* { fd, "", AT_EMPTY_PATH ... }: fd O_PATH, or the caller's own */
	struct xs_target at;
};

#include <fcntl.h>
#include <unistd.h>

/* The open flags of @t's anchor (see xs_anchor_open()). */
static inline int xs_anchor_flags(const struct xs_target *t)
{
	return O_PATH | O_CLOEXEC |
	       ((t->flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0);
}

/* @a's target: its descriptor @fd, "" and AT_EMPTY_PATH; own_fd still 0. */
static inline void xs_anchor_set_target(const struct xs_target *t,
					struct xs_anchor *a, int fd)
{
	a->at.dfd = fd;
	a->at.path = "";
	a->at.flags = AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT |
		      (t->flags & (AT_FORCE_ATTR_SYNC | AT_NO_ATTR_SYNC));
	a->at.name_dfd = t->dfd;
	a->at.name = t->path;
	a->at.anchored = 1;
	a->at.own_fd = 0;
	a->at.is_fd = 1;
	a->at.refused = t->refused;
}

/*
 * anchor.c: the rest of xs_anchor_open() after the first open of a name
 * gave @fd (an fd is never passed: -errno), or for the caller's
 * descriptor (@fd unused): EINTR, the empty path, errors.
 */
int xs_anchor_open_rest(const struct xs_target *t, struct xs_anchor *a,
			int fd);

/*
 * Anchor @t: an O_PATH descriptor opened with the caller's lookup flags
 * (AT_SYMLINK_NOFOLLOW is O_NOFOLLOW; an O_PATH open without O_DIRECTORY
 * triggers no automount, as AT_NO_AUTOMOUNT asks), or the caller's
 * descriptor for fxstat().  0 or -errno.  Inline: every anchored call
 * opens one, and the usual open succeeds at once.
 */
static inline int xs_anchor_open(const struct xs_target *t,
				 struct xs_anchor *a)
{
	int fd = -EBADF;

	if (!t->is_fd) {
		fd = openat(t->dfd, t->path, xs_anchor_flags(t));
		if (fd >= 0) {
			a->owned = 1;
			xs_anchor_set_target(t, a, fd);
			return 0;
		}
		fd = -errno;
	}
	return xs_anchor_open_rest(t, a, fd);
}

/*
 * The caller did not pass AT_NO_AUTOMOUNT and the anchor is an automount
 * point (or, in the fallback, may be): re-anchor the way statx would
 * look it up, which triggers the automount.  0 or -errno.
 */
int xs_anchor_automount(const struct xs_target *t, struct xs_anchor *a);

/* Close what xs_anchor_open() opened; @a is not used again. */
static inline void xs_anchor_close(struct xs_anchor *a)
{
	if (a->owned)
		close(a->at.dfd);
}

/*
 * anchor.c: descriptors opened on a file's behalf, all from an anchored
 * @t (else -EBADF).  xs_reopen(): a real descriptor of the anchored inode
 * itself, only for a regular file or directory (-EOPNOTSUPP otherwise),
 * through a /proc proven to be procfs.  xs_fs_dir_fd(): a directory on
 * the anchored file's st_dev that is not the file (a mount or subvolume
 * root directory: itself).  Both: fd or -errno; close it if *@close_it.
 * xs_proc_fd_dir(): O_PATH fd of /proc/self/fd if it is procfs;
 * xs_fd_on_procfs(): 1 if @fd is on procfs.  xs_open_eintr(): openat()
 * under XS_EINTR(): fd or -errno.
 */
int xs_reopen(const struct xs_target *t, const struct xs_stat *st,
	      int *close_it);

/*
 * The anchored inode for an *at() call that refuses O_PATH descriptors
 * (file_getattr, getxattrat) or that must not open it: the caller's own
 * open descriptor with "" and AT_EMPTY_PATH, else the anchor's entry in
 * a /proc/self/fd proven to be procfs, whose magic link the lookup
 * follows (flags 0; @proc: that directory, closed by xs_anchor_at_put()).
 * The one way to it from attrs.c, probe_xattr.c and anchor.c's reopen.
 * 0 or -errno (-EBADF: @t not anchored).
 */
struct xs_anchor_at {
	int		dfd;
	const char	*name;
	int		flags;
	int		proc;		/* -1: the caller's own descriptor */
	char		entry[16];
};
int xs_anchor_at_get(const struct xs_target *t, struct xs_anchor_at *at);
void xs_anchor_at_put(struct xs_anchor_at *at);
int xs_fs_dir_fd(const struct xs_target *t, const struct xs_stat *st,
		 int *close_it);
int xs_proc_fd_dir(void);
int xs_fd_on_procfs(int fd);
int xs_open_eintr(int dfd, const char *path, int flags);
int xs_same_inode(int fd, const struct xs_stat *st);

#endif /* LIBXSTAT_ANCHOR_H */
