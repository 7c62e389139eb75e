// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Network filesystems.  Every call may be a request to the server: no
 * ioctl, statfs or open is made for a field statx did not give (none of
 * them answers FS_IOC_GETVERSION anyway), and none at all with
 * AT_NO_ATTR_SYNC.  CIFS and SMB2 mounts show the creation time as an
 * xattr (probe_xattr.c).
 */
#include "fs.h"

#define NFS_SUPER_MAGIC		0x6969
#define SMB_SUPER_MAGIC		0x517B
#define CIFS_SUPER_MAGIC	0xFF534D42
#define SMB2_SUPER_MAGIC	0xFE534D42
#define NCP_SUPER_MAGIC		0x564c
#define CODA_SUPER_MAGIC	0x73757245
#define AFS_SUPER_MAGIC		0x5346414F
#define CEPH_SUPER_MAGIC	0x00C36400

#define REMOTE(m, n)	{ .magic = (m), .name = (n), .flags = XS_FS_REMOTE }

const struct xs_fs xs_fs_nfs = REMOTE(NFS_SUPER_MAGIC, "nfs");
const struct xs_fs xs_fs_smb = REMOTE(SMB_SUPER_MAGIC, "smb");
const struct xs_fs xs_fs_ncp = REMOTE(NCP_SUPER_MAGIC, "ncp");
const struct xs_fs xs_fs_coda = REMOTE(CODA_SUPER_MAGIC, "coda");
const struct xs_fs xs_fs_afs = REMOTE(AFS_SUPER_MAGIC, "afs");
const struct xs_fs xs_fs_ceph = REMOTE(CEPH_SUPER_MAGIC, "ceph");

/* The CIFS/SMB3 client names both of its types' creation time alike. */
#define CIFS(m, n)	{ .magic = (m), .name = (n), .flags = XS_FS_REMOTE, \
			  .btime_xattr = "user.cifs.creationtime", \
			  .probe = xs_xattr_probe }

const struct xs_fs xs_fs_cifs = CIFS(CIFS_SUPER_MAGIC, "cifs");
const struct xs_fs xs_fs_smb2 = CIFS(SMB2_SUPER_MAGIC, "smb2");
