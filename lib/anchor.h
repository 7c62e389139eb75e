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
	int		fd;	/* O_PATH, or the caller's own; -1: none */
	int		owned;	/* opened here, closed by xs_anchor_close() */
	struct xs_target at;	/* { fd, "", AT_EMPTY_PATH ... } */
};

/*
 * Anchor @t: an O_PATH descriptor opened with the caller's lookup flags
 * (AT_SYMLINK_NOFOLLOW is O_NOFOLLOW; an O_PATH open without O_DIRECTORY
 * triggers no automount, as AT_NO_AUTOMOUNT asks), or the caller's
 * descriptor for fxstat().  0 or -errno.
 */
int xs_anchor_open(const struct xs_target *t, struct xs_anchor *a);
/*
 * The caller did not pass AT_NO_AUTOMOUNT and the anchor is an automount
 * point (or, in the fallback, may be): re-anchor the way statx would
 * look it up, which triggers the automount.  0 or -errno.
 */
int xs_anchor_automount(const struct xs_target *t, struct xs_anchor *a);
void xs_anchor_close(struct xs_anchor *a);

#endif /* LIBXSTAT_ANCHOR_H */
