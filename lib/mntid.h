/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_MNTID_H
#define LIBXSTAT_MNTID_H

#include "internal.h"

/* A file handle with room for any filesystem's (MAX_HANDLE_SZ). */
struct xs_handle {
	struct file_handle	fh;
	unsigned char		bytes[128];
};

/*
 * mntid.c: mount ID from name_to_handle_at(), else /proc/self/fdinfo.
 * xs_name_to_handle(): name_to_handle_at() with @t's lookup flags, 0 or
 * -errno; with @mnt, the mount ID the kernel returns (the unique one
 * where it can) is returned there, also when the handle did not fit
 * (EOVERFLOW).
 */
struct file_handle;
int xs_mnt_id_get(const struct xs_target *t, struct xs_stat *st);
/* The reusable mount ID of mountinfo, of an anchored @t: 0 or -errno. */
int xs_mnt_id_reusable_get(const struct xs_target *t, struct xs_stat *st);
int xs_name_to_handle(const struct xs_target *t, struct file_handle *fh,
		      struct xs_mnt_id *mnt);

/* name_to_handle_at()'s flags for @t's lookup. */
static inline int xs_handle_flags(const struct xs_target *t)
{
	return ((t->flags & AT_SYMLINK_NOFOLLOW) ? 0 : AT_SYMLINK_FOLLOW) |
	       (t->flags & AT_EMPTY_PATH);
}

/*
 * name_to_handle_at() of @t with its lookup flags and @flags, the one
 * way mntid.c and its callers make the call: 0 or -errno.  The mount ID
 * goes to *@id: an int, or a uint64_t with AT_HANDLE_MNT_ID_UNIQUE.
 */
static inline __attribute__((always_inline)) int
xs_handle_call(const struct xs_target *t, struct file_handle *fh, void *id,
	       int flags)
{
	return name_to_handle_at(t->dfd, t->path, fh, id,
				 flags | xs_handle_flags(t)) ? -errno : 0;
}

/* xs_name_to_handle() without @mnt: the handle alone, 0 or -errno. */
static inline int xs_handle_take(const struct xs_target *t,
				 struct file_handle *fh)
{
	int id;

	return xs_handle_call(t, fh, &id, 0);
}
uint64_t xs_unique_mnt_id(const struct xs_target *t);
/*
 * The handle into @h and the unique mount ID into *@id, one call (Linux
 * 6.12+): 0 or -errno (-EOVERFLOW: *@id only; -EINVAL: the kernel has no
 * unique ID for handles, nothing taken).  *@id is 0 unless it was had.
 */
int xs_handle_unique(const struct xs_target *t, struct xs_handle *h,
		     uint64_t *id);

#endif /* LIBXSTAT_MNTID_H */
