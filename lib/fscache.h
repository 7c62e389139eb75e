/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_FSCACHE_H
#define LIBXSTAT_FSCACHE_H

#include "internal.h"
#include "mntid.h"

/*
 * fscache.c: per-filesystem facts keyed by the unique mount ID (@mnt_key,
 * 0: none known, nothing cached).  Flags are per-filesystem verdicts only
 * (see xs_fs_set_flag()).
 */
#define XS_FSF_NO_GETVERSION	0x1	/* FS_IOC_GETVERSION: ENOTTY here */
#define XS_FSF_NO_FSPROBE	0x20	/* no xfs/btrfs probe ioctl here */
#define XS_FSF_MGTIME		0x40	/* multigrain timestamps (promise.c) */
#define XS_FSF_IDMAPPED		0x80	/* an idmapped mount (statmount) */

/*
 * The idmapped mount a raw owner is mapped through (ext4dev.h,
 * struct xs_ext4_ident): the mount's unique ID @mnt_key when fscache.c
 * found it idmapped, else 0.  An idmapped mount whose ID is not known
 * cannot be told from a plain one; its owners are compared directly and
 * most files' raw fields stay cleared.
 */
static inline uint64_t xs_ext4_idmap_of(uint64_t mnt_key, uint32_t fsflags)
{
	return (fsflags & XS_FSF_IDMAPPED) ? mnt_key : 0;
}
/*
 * The never-reused mount ID of @st: statx's, else asked of the anchor
 * (name_to_handle_at, 6.12+); 0 if neither can tell.
 */
static inline uint64_t xs_fs_key(const struct xs_target *t,
				 const struct xs_stat *st)
{
	if (st->mnt_id_unique)
		return st->mnt_id;
	if (t && t->anchored)
		return xs_unique_mnt_id(t);
	return 0;
}

/* fscache.c: xs_fs_row()'s first ask in a call. */
const struct xs_fs *xs_fs_row_resolve(const struct xs_target *t,
				      struct xs_stat *st);

/*
 * The row of @st's filesystem (fs.h; NULL: its type is not known) and,
 * in st->fsflags, the verdicts on it: looked up on the first ask of a
 * call and carried in @st for the rest of it.  @t: the anchored target,
 * or NULL (then only what is cached or needs no descriptor).
 */
static inline const struct xs_fs *xs_fs_row(const struct xs_target *t,
					    struct xs_stat *st)
{
	if (st->fs_resolved)
		return st->fs;
	return xs_fs_row_resolve(t, st);
}
void xs_fs_set_flag(struct xs_stat *st, uint32_t flag);
/* Only what is cached (0 if nothing is): no call of its own. */
uint32_t xs_fs_magic_cached(uint64_t mnt_key, uint32_t *fsflags);
/* Store @magic for @mnt_key (skipped while another thread writes). */
void xs_fs_remember(uint64_t mnt_key, uint32_t magic);

#endif /* LIBXSTAT_FSCACHE_H */
