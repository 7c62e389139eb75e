// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Inode generation from name_to_handle_at(2): one unprivileged syscall,
 * no open, works on symlinks, device nodes and unreadable files.  A handle
 * is decoded only by its filesystem's row (fs.h), and only if the
 * inode number inside it equals the one stat returned (the path may have
 * been replaced in between).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include "fs.h"
#include "syscall.h"
#include "handle.h"

_Static_assert(sizeof(((struct xs_handle *)0)->bytes) == 128,
	       "room for MAX_HANDLE_SZ");

int xs_handle_ino32_gen(const struct file_handle *fh, uint64_t *ino,
			uint64_t *gen)
{
	if ((fh->handle_type == 1 || fh->handle_type == 2) &&
	    fh->handle_bytes >= 8) {
		*ino = xs_handle32(fh->f_handle);
		*gen = xs_handle32(fh->f_handle + 4);
		return 0;
	}
	return -EPROTO;
}

int xs_handle_decode_gen(const struct xs_handle *h, const struct xs_fs *fs,
			 const struct xs_stat *st, uint64_t *gen)
{
	uint64_t ino;

	if (!fs || !fs->handle)
		return -EOPNOTSUPP;
	if (fs->handle(&h->fh, &ino, gen))
		return -EPROTO;
	if (ino != st->ino)
		return -ESTALE;
	return 0;
}

int xs_handle_gen(const struct xs_target *t, const struct xs_fs *fs,
		  const struct xs_stat *st, struct xs_mnt_id *mnt,
		  uint64_t *gen)
{
	struct xs_handle h;
	int ret;

	if (!fs || !fs->handle)
		return -EOPNOTSUPP;
	h.fh.handle_bytes = sizeof(h.bytes);
	ret = xs_name_to_handle(t, &h.fh, mnt);
	if (ret)
		return ret;
	return xs_handle_decode_gen(&h, fs, st, gen);
}

