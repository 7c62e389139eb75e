// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ext4 (and the ext4 driver's "ext2" and "ext3" mounts, which share its
 * magic).  statx gives the creation time where the inode has room for it
 * (not 128-byte inodes).  The generation comes from the file handle (or
 * FS_IOC_GETVERSION, else the raw inode); the creation time without statx
 * and the data version (i_version, counted only once armed: probe_ext4.c)
 * from the raw inode on the block device, root's alone: probe_ext4.c
 * drives that read, ext4dev*.c open and know the device, ext4_disk.c
 * decodes the inode, bulk_ext4.c reads a directory's inodes in batches.
 * f_fsid is made from the UUID.  Its readdir (htree order, which a
 * directory of one block takes too) ends a read that reaches the end with
 * the end's position (fs.h: XS_DENTS_END); the ext2 driver's, under the
 * same magic, gives byte offsets, never that value.
 */
#include "fs.h"

#define EXT4_SUPER_MAGIC	0xEF53

const struct xs_fs xs_fs_ext4 = {
	.magic		= EXT4_SUPER_MAGIC,
	.name		= "ext4",
	.flags		= XS_FS_STATX_BTIME | XS_FS_FSID_UUID |
			  XS_FS_RAW_INODES | XS_FS_DV_LOW32_COARSE |
			  XS_FS_DENTS_END,
	.mgtime_type	= "ext4",
	.dv		= XSTAT_PROMISE_EVERY_CHANGE | XSTAT_PROMISE_MONOTONIC |
			  XSTAT_PROMISE_PERSISTENT | XSTAT_PROMISE_METADATA,
	.ctime		= XSTAT_PROMISE_PERSISTENT | XSTAT_PROMISE_METADATA |
			  XSTAT_PROMISE_NAMES,
	.btime_needs	= XS_NEEDS_ROOT,
	.dv_needs	= XS_NEEDS_ROOT,
	.handle		= xs_handle_ino32_gen,
	/*
	 * The generation too, where neither the handle nor the reopened file
	 * gave it (a symlink or FIFO whose handle was refused): a stream's
	 * raw read gives it, and so does this probe when a creation time or
	 * data version is asked with it.
	 */
	.probe		= xs_ext4_probe,
};
