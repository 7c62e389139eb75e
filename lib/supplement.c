// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Class (3) fields the backend did not give: generation, creation time and
 * data version.  Only what was requested is worked for; what cannot be had
 * stays cleared.
 */
#include <errno.h>
#include "fs.h"
#include "attrs.h"
#include "fscache.h"
#include "handle.h"
#include "result.h"
#include "why.h"

/*
 * What a probe's answer says about the whole filesystem, recorded here and
 * nowhere below: only the ioctl's own ENOTTY says "this filesystem has
 * none".  A file not reopened (symlink, FIFO, no /proc), a refusal
 * (EPERM, EACCES) or an answer about one inode is no verdict (see
 * xs_fs_set_flag()).
 */
static void fs_verdict(struct xs_stat *st, int ret, uint32_t flag)
{
	if (ret == -ENOTTY)
		xs_fs_set_flag(st, flag);
}

/* FS_IOC_GETVERSION on the reopened anchor, its verdict recorded. */
static int getversion(const struct xs_target *t, struct xs_stat *st,
		      uint64_t *gen)
{
	int ret = xs_ioctl_getversion(t, st, gen);

	fs_verdict(st, ret, XS_FSF_NO_GETVERSION);
	return ret;
}

/*
 * A handle taken with the cache key (xs_supplement()): @ret is the call's
 * result, -ENODATA while none was taken.
 */
struct taken_handle {
	int		ret;
	uint64_t	key;
	struct xs_handle h;
};

/*
 * @mnt: the handle's call also gives the mount ID (when statx did not).
 * From the handle already taken, if one was: then its unique mount ID is
 * the one asked for.  Else it is taken now, into @th, only where @fs
 * decodes handles.
 */
static int gen_from_handle(const struct xs_target *t, const struct xs_fs *fs,
			   struct xs_stat *st, int mnt,
			   struct taken_handle *th, uint64_t *gen)
{
	if (th->ret == -ENODATA) {
		if (!fs || !fs->handle)
			return -EOPNOTSUPP;
		th->h.fh.handle_bytes = sizeof(th->h.bytes);
		if (mnt) {
			struct xs_mnt_id m = { 0, 0, 0 };

			th->ret = xs_name_to_handle(t, &th->h.fh, &m);
			xs_mnt_id_store(st, &m);
		} else {
			th->ret = xs_handle_take(t, &th->h.fh);
		}
	} else if (mnt && th->key) {
		st->mnt_id = th->key;
		st->mnt_id_unique = 1;
		st->mask |= XSTAT_REQUEST_MNT_ID;
	}
	if (th->ret)
		return th->ret;
	if (!fs || !fs->handle)
		return -EOPNOTSUPP;
	return xs_fs_handle_gen(fs, &th->h.fh, st, gen);
}

/*
 * @t is anchored (anchor.h) or NULL when no anchor could be had: then
 * nothing is added.  Every probe finds the file by its inode number or a
 * path, and only the anchor keeps that number on the inode statx
 * described; a raw inode checked against @st (mode, links, owner, ctime)
 * cannot tell apart two files made alike in one clock tick.
 */
static void supplement_class3(const struct xs_target *t, uint64_t want,
			      struct taken_handle *th,
			      struct xs_stat *st)
{
	int mnt = !!(want & XSTAT_REQUEST_MNT_ID);
	const struct xs_fs *fs;
	uint32_t fsflags;
	uint64_t gen;

	if (!t)
		return;
	want &= XS_CLASS3;
	fs = xs_fs_row(t, st);
	fsflags = st->fsflags;

	if (want & XSTAT_REQUEST_GEN) {
		/* The last source tried gives the reason (why.c). */
		int ret = gen_from_handle(t, fs, st, mnt, th, &gen);

		if (ret && fs && !(fs->flags & XS_FS_REMOTE) &&
		    !(fsflags & XS_FSF_NO_GETVERSION))
			ret = getversion(t, st, &gen);
		if (ret == 0) {
			st->gen = gen;
			st->mask |= XSTAT_REQUEST_GEN;
		} else {
			xs_why_note(st, XSTAT_REQUEST_GEN, xs_why_ioctl(-ret));
		}
	}

	/* The filesystem's own source: its fs_*.c. */
	want &= ~st->mask;
	if (want && fs && fs->probe) {
		int ret = fs->probe(fs, t, want, fsflags, st);

		fs_verdict(st, ret, XS_FSF_NO_FSPROBE);
		xs_why_probe_failed(st, fs, want, ret);
	}
}

/*
 * Extra results statx did not give (or could not: no statx).  With
 * AT_NO_ATTR_SYNC, attributes are not asked of a network or FUSE
 * filesystem (file_getattr and FS_IOC_GETFLAGS are requests there).
 */
static void supplement_extras(const struct xs_target *t, uint64_t want,
			      struct xs_stat *st)
{
	const struct xs_fs *fs;

	if (!t)
		return;
	if ((want & XSTAT_REQUEST_MNT_ID) && xs_mnt_id_get(t, st) == 0)
		st->mask |= XSTAT_REQUEST_MNT_ID;
	if (want & XSTAT_REQUEST_MNT_ID_REUSABLE)
		xs_mnt_id_reusable_get(t, st);
	if (want & XSTAT_REQUEST_FS_ID)
		xs_fs_id_get(t, st);
	if (!(want & XSTAT_REQUEST_ATTRIBUTES))
		return;
	if (t->flags & AT_NO_ATTR_SYNC) {
		fs = xs_fs_row(t, st);
		if (!fs || (fs->flags & XS_FS_REMOTE))
			return;
	}
	if (xs_attrs_get(t, st) == 0)
		st->mask |= XSTAT_REQUEST_ATTRIBUTES;
}

/*
 * fscache's key for @st.  Where statx did not give the unique mount ID
 * (the fallback), it is asked of the anchor by name_to_handle_at; when
 * the generation is wanted too, that same call takes the handle (@th).
 */
static uint64_t fs_key(const struct xs_target *t, uint64_t want,
		       struct xs_stat *st, struct taken_handle *th)
{
	th->ret = -ENODATA;
	if (st->mnt_id_unique || !t || !t->anchored ||
	    !(want & XSTAT_REQUEST_GEN))
		return xs_fs_key(t, st);
	th->ret = xs_handle_unique(t, &th->h, &th->key);
	/* No unique ID for handles here: the handle is taken later. */
	if (th->ret == -EINVAL)
		th->ret = -ENODATA;
	return th->key;
}

void xs_supplement_want(const struct xs_target *t, uint64_t want,
			struct xs_stat *st)
{
	struct taken_handle th;

	st->fs_key = fs_key(t, want, st, &th);
	if (want & XS_CLASS3)
		supplement_class3(t, want, &th, st);
	want &= ~st->mask;
	if (want & XS_EXTRAS)
		supplement_extras(t, want & XS_EXTRAS, st);
}
