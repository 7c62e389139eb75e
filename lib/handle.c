// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Inode generation from name_to_handle_at(2): one unprivileged syscall,
 * no open, works on symlinks, device nodes and unreadable files.  A handle
 * is decoded only by its filesystem's row (fs.h), and only if the
 * inode number inside it equals the one stat returned (the path may have
 * been replaced in between): xs_fs_handle_gen(), taken by supplement.c.
 * Here: the layouts the rows share.
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
