// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * FUSE.  Every call may be a request to the filesystem's server: no
 * ioctl, statfs or open is made for a field statx did not give, and none
 * at all with AT_NO_ATTR_SYNC.  The one source added is NTFS-3G's
 * creation-time xattr (probe_xattr.c), which other FUSE servers answer
 * with ENODATA.
 */
#include "fs.h"

#define FUSE_SUPER_MAGIC	0x65735546

const struct xs_fs xs_fs_fuse = {
	.magic		= FUSE_SUPER_MAGIC,
	.name		= "fuse",
	.flags		= XS_FS_REMOTE,
	.btime_xattr	= "system.ntfs_crtime",
	.probe		= xs_xattr_probe,
};
