/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A directory stream's state, shared by the four files of the iterator:
 * bulk.c (the public entry points), bulk_entry.c (one entry's result, as
 * xstat() gives it), bulk_window.c (the window: getdents64, the sort by
 * inode number, the batch fill and its read-ahead) and bulk_fs.c (the
 * directory's filesystem facts), each calling only those after it.
 */
#ifndef LIBXSTAT_BULK_DIR_H
#define LIBXSTAT_BULK_DIR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include "bulk.h"

/*
 * A window's sort keys: each entry's inode number above KEY_IDX_BITS bits
 * of its index in ents[], so that the keys sorted as numbers order the
 * entries by inode number and the names of one inode in the directory's
 * order.  A window with an inode number too large for that (overlayfs's
 * xino, a network filesystem's hash) is sorted by comparison instead,
 * its keys then holding the index alone (bulk_window.c).
 */
#define KEY_IDX_BITS	15
#define KEY_IDX_MASK	((UINT64_C(1) << KEY_IDX_BITS) - 1)
_Static_assert(BULK_WINDOW <= KEY_IDX_MASK + 1, "an index fits in a key");
/* The low bytes of the inode numbers whose values collect() counts. */
#define KEY_HIST_BYTES	2

struct xstat_dir {
	int			fd;
	unsigned		flags;		/* per entry: ENTRY_FLAGS */
	struct xs_target	entry;		/* an entry's, bar its name */
	uint64_t		request;
	int			fs_known;	/* bulk_dir_fs() has run: */
	const struct xs_fs	*fs;		/* its row, NULL: unknown */
	int			raw_inodes;	/* its row reads raw batches */
	int			remote;		/* network, FUSE or unknown */
	unsigned		refused;	/* XS_REFUSED_*, for its life */
	int			unasked_cmtime;	/* drop both times: cmtime.h */
	uint32_t		dev_major, dev_minor;
	/*
	 * raw inodes: the directory's unique mount ID (0: unknown), its
	 * idmap, and fscache.c's verdicts on the mount (@fsflags, where
	 * @mnt_facts says they were had): a raw batch's entries on that
	 * mount carry the directory's row and these, resolved once
	 * (bulk_dir_fs()).
	 */
	uint64_t		mnt_key, idmap_mnt;
	uint32_t		fsflags;
	int			mnt_facts;
	/*
	 * This batch's entries are stat'ed by name and given the row above
	 * (bulk_entry.c, by_name()), and the caller's times to drop then;
	 * what their answers must hold, or the per-call pipeline's anchor
	 * would add it (the request's supplementable bits).
	 */
	int			by_name, drop_cmtime;
	uint64_t		by_name_need;
	/*
	 * The extra results that are facts of that mount (its reusable ID)
	 * or of its filesystem (the lasting name), where asked and had:
	 * @mnt_extras holds their bits (bulk_dir_fs()).
	 */
	uint64_t		mnt_extras, mnt_id_reusable;
	unsigned char		fs_id[16];
	uint32_t		fs_id_source;
	/* the last getdents64 read, in the arena: [dpos, dlen) not yet taken */
	char			*dents;
	size_t			dlen, dpos;
	int			eof;
	/*
	 * the window, handed out in keys[] order (keys_tmp: the sort's
	 * room); names where read (arena).  [next, filled): the rest of
	 * the batch filled, the window's next entries.
	 */
	struct bulk_ent		*ents;
	uint64_t		*keys, *keys_tmp;
	/* the sort's counters, zero between windows (bulk_window.c) */
	uint32_t		hist[KEY_HIST_BYTES][256];
	struct bulk_key		*wide;		/* the sort by comparison */
	char			*names;
	size_t			n, next, filled;
	/* a raw-read batch's records and bulk_ext4.c's scratch */
	struct xs_stat		*sts;
	struct bulk_ent		**order;
	uint64_t		*offs;
	uint8_t			*run;
	void			*mem;		/* the block of them all */
	/* io_uring read-ahead (bulk_uring.c): on, and the sampling */
	int			uring;
	unsigned		sampled;	/* calls timed in this batch */
	uint64_t		sample_ns;
	unsigned long		per_call;	/* entries: xs_bulk_per_call */
	const char		**ahead;	/* names, in keys[] order */
	struct xstat_dirent	out;
	union {
		struct xstat	x;
		unsigned char	bytes[BULK_RESULT];
	}			res;
};

/* One getdents64 record (the kernel's struct linux_dirent64). */
struct bulk_dirent64 {
	uint64_t	d_ino;
	int64_t		d_off;
	unsigned short	d_reclen;
	unsigned char	d_type;
	char		d_name[];
};

/* @e's record, in the arena where its name is. */
static inline const struct bulk_dirent64 *bulk_rec(const struct bulk_ent *e)
{
	return (const struct bulk_dirent64 *)
		(e->name - offsetof(struct bulk_dirent64, d_name));
}

/* The entry handed out @i-th of the window. */
static inline struct bulk_ent *bulk_nth(const struct xstat_dir *d, size_t i)
{
	return &d->ents[d->keys[i] & KEY_IDX_MASK];
}

/*
 * bulk_fs.c: learn the directory's filesystem facts above, once.
 * bulk_fs_give(): hand them to @st, an entry's statx answer seen
 * through the directory's mount (and, in a raw batch, on its device);
 * inline, as it runs once per entry.
 */
void bulk_dir_fs(struct xstat_dir *d);

static inline void bulk_fs_give(const struct xstat_dir *d, struct xs_stat *st)
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

/* Calls timed per batch while deciding whether it is cold. */
#define URING_SAMPLE	16

/*
 * bulk_window.c: the next batch into @d, [d->next, d->filled), from the
 * next window when this one is handed out (d->n entries, none at the
 * end of the directory); 0 or -errno.  bulk_sample(): one plain call that
 * took since @t0 counted towards the batch's read-ahead decision.
 */
int bulk_fill_batch(struct xstat_dir *d);
void bulk_sample(struct xstat_dir *d, uint64_t t0);

/*
 * bulk_entry.c: the result of @e into d->res and d->out, as xstat() would
 * write it.
 */
void bulk_result_of(struct xstat_dir *d, struct bulk_ent *e);

#endif
