/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The filesystem rows, one line each: XS_FS_ROW(name) names the row
 * xs_fs_<name>, defined in its fs_*.c.  Both its declaration (fs.h) and
 * its place in the lookup (fs.c) follow from this line, and nothing else
 * names it.  Most used first: the lookup is a scan, on every call that
 * needs a fact.  Included only with XS_FS_ROW defined, as often as a
 * list is wanted (no include guard).
 */
XS_FS_ROW(ext4)
XS_FS_ROW(xfs)
XS_FS_ROW(btrfs)
XS_FS_ROW(tmpfs)
XS_FS_ROW(fuse)
XS_FS_ROW(nfs)
XS_FS_ROW(smb)
XS_FS_ROW(cifs)
XS_FS_ROW(smb2)
XS_FS_ROW(ncp)
XS_FS_ROW(coda)
XS_FS_ROW(afs)
XS_FS_ROW(ceph)
