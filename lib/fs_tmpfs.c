// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tmpfs (and /dev/shm).  statx gives everything but a data version, which
 * tmpfs does not keep; the generation comes from the file handle.
 *
 * Directories promise only a tick: creating, linking or removing an entry
 * copies the entry's new ctime into the directory (shmem_mknod(),
 * shmem_link(), shmem_unlink()), so the directory never takes a
 * fine-grained time of its own, and two entry changes within one tick
 * leave its ctime alone (measured by tests/test-token.c).  The counter
 * tmpfs keeps for them is exposed by no system call.
 * Nothing outlives a mount: no PERSISTENT.
 */
#include "fs.h"

#define TMPFS_MAGIC	0x01021994

/* shmem_encode_fh(): generation, then the inode number's low and high half. */
static int tmpfs_handle(const struct file_handle *fh, uint64_t *ino,
			uint64_t *gen)
{
	const unsigned char *b = fh->f_handle;

	if (fh->handle_type != 1 || fh->handle_bytes < 12)
		return -EPROTO;
	*gen = xs_handle32(b);
	*ino = xs_handle32(b + 4) | (uint64_t)xs_handle32(b + 8) << 32;
	return 0;
}

const struct xs_fs xs_fs_tmpfs = {
	.magic		= TMPFS_MAGIC,
	.name		= "tmpfs",
	.flags		= XS_FS_STATX_BTIME,
	.mgtime_type	= "tmpfs",
	.ctime		= XSTAT_PROMISE_METADATA | XSTAT_PROMISE_NAMES,
	.tick_types	= XS_FT_DIR,
	.handle		= tmpfs_handle,
};
