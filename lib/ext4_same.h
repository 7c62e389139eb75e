/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_EXT4_SAME_H
#define LIBXSTAT_EXT4_SAME_H

#include "ext4dev.h"
#include "internal.h"

/*
 * Is the raw inode @in the file stat described in @st, as it is now?
 * xs_ext4_same_file()'s rule on stat's record: mode, link count, owner
 * and group (raw ones mapped through the idmapped mount @idmap_mnt, 0:
 * none), and with @gen the generation, where the record has it.  For the
 * per-call probe (probe_ext4.c) and a directory stream's raw batch
 * (bulk_ext4.c), whose records never have it (statx gives none): there
 * @gen is 0 and nothing is tested for it.
 */
static inline int xs_ext4_same_stat(const struct xs_ext4_inode *in,
				    const struct xs_stat *st,
				    uint64_t idmap_mnt, int gen)
{
	struct xs_ext4_ident who = {
		.mode = st->mode, .nlink = st->nlink,
		.uid = st->uid, .gid = st->gid,
		.has_gen = gen && (st->mask & XSTAT_REQUEST_GEN),
		.gen = st->gen,
		.idmap_mnt = idmap_mnt,
	};

	return xs_ext4_same_file(in, &who);
}

#endif /* LIBXSTAT_EXT4_SAME_H */
