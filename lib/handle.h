/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_HANDLE_H
#define LIBXSTAT_HANDLE_H

#include "internal.h"
#include "mntid.h"

/*
 * handle.c: generation from name_to_handle_at(); 0 or negative errno:
 * -EOPNOTSUPP where @fs (fs.h) decodes no handles, -EPROTO when the
 * handle does not have the layout of @fs
 * and -ESTALE when it names another inode (both: the magic may be stale).
 * With @mnt the same call returns the mount ID there (xs_name_to_handle()
 * in mntid.h), also when the generation is not had.
 * xs_handle_decode_gen(): the same from a handle already taken.
 */
struct xs_fs;
int xs_handle_gen(const struct xs_target *t, const struct xs_fs *fs,
		  const struct xs_stat *st, struct xs_mnt_id *mnt,
		  uint64_t *gen);
int xs_handle_decode_gen(const struct xs_handle *h, const struct xs_fs *fs,
			 const struct xs_stat *st, uint64_t *gen);

#endif /* LIBXSTAT_HANDLE_H */
