// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Class (3) fields the backend did not give: generation, creation time and
 * data version.  Only what was requested is worked for; what cannot be had
 * stays cleared.
 */
#include <errno.h>
#include "internal.h"
#include "syscall.h"

/*
 * Opening a file for FS_IOC_GETVERSION is a server round trip on network
 * and FUSE filesystems, none of which answer the ioctl anyway.
 */
static int remote_fs(uint32_t magic)
{
	switch (magic) {
	case XS_FUSE_SUPER_MAGIC:
	case XS_NFS_SUPER_MAGIC:
	case XS_SMB_SUPER_MAGIC:
	case XS_CIFS_MAGIC:
	case XS_SMB2_MAGIC:
	case 0x564c:		/* NCP */
	case 0x73757245:	/* Coda */
	case 0x5346414F:	/* AFS */
	case 0x00C36400:	/* Ceph */
		return 1;
	}
	return 0;
}

/* @mnt: the handle's call also gives the mount ID (when statx did not). */
static int gen_from_handle(const struct xs_target *t, uint32_t *magic,
			   uint32_t *fsflags, struct xs_stat *st, int mnt,
			   uint64_t *gen)
{
	int ret = xs_handle_gen(t, *magic, st, mnt, gen);

	if (ret == -EPROTO || ret == -ESTALE) {
		uint32_t fresh = xs_fs_magic_refresh(t, st, fsflags);

		if (fresh == *magic)
			return ret;
		*magic = fresh;
		ret = xs_handle_gen(t, fresh, st, mnt, gen);
	}
	return ret;
}

static void supplement_class3(const struct xs_target *t, uint64_t want,
			      struct xs_stat *st)
{
	int mnt = !!(want & XSTAT_REQUEST_MNT_ID);
	uint32_t fsflags, magic;
	uint64_t gen;

	want &= XS_CLASS3;
	magic = xs_fs_magic(t, st, &fsflags);

	if (want & XSTAT_REQUEST_GEN) {
		if (gen_from_handle(t, &magic, &fsflags, st, mnt, &gen) == 0 ||
		    (!(fsflags & XS_FSF_NO_GETVERSION) && !remote_fs(magic) &&
		     xs_ioctl_getversion(t, st, &gen) == 0)) {
			st->gen = gen;
			st->mask |= XSTAT_REQUEST_GEN;
		}
	}

	want &= ~st->mask;
	if (magic == XS_EXT4_SUPER_MAGIC &&
	    (want & (XSTAT_REQUEST_BTIME | XSTAT_REQUEST_DATA_VERSION)))
		xs_ext4_probe(want, st);

	/* Other filesystems: see xfsprobe.c, btrfsprobe.c, xattrbtime.c. */
	want &= ~st->mask;
	if (!want)
		return;
	switch (magic) {
	case XS_XFS_SUPER_MAGIC:
		xs_xfs_probe(t, want, fsflags, st);
		break;
	case XS_BTRFS_SUPER_MAGIC:
		xs_btrfs_probe(t, want, fsflags, st);
		break;
	case XS_FUSE_SUPER_MAGIC:	/* NTFS-3G */
	case XS_CIFS_MAGIC:
	case XS_SMB2_MAGIC:
		if (want & XSTAT_REQUEST_BTIME)
			xs_xattr_btime(t, magic, fsflags, st);
		break;
	}
}

/* Extra results statx did not give (or could not: no statx). */
static void supplement_extras(const struct xs_target *t, uint64_t want,
			      struct xs_stat *st)
{
	if ((want & XSTAT_REQUEST_MNT_ID) && xs_mnt_id_get(t, st) == 0)
		st->mask |= XSTAT_REQUEST_MNT_ID;
	if ((want & XSTAT_REQUEST_ATTRIBUTES) && xs_attrs_get(t, st) == 0)
		st->mask |= XSTAT_REQUEST_ATTRIBUTES;
}

XS_HOT void xs_supplement(const struct xs_target *t, uint64_t request,
			  struct xs_stat *st)
{
	uint64_t want = request & XS_SUPPLEMENTABLE & ~st->mask;

	if (want & XS_CLASS3)
		supplement_class3(t, want, st);
	want &= ~st->mask;
	if (want & XS_EXTRAS)
		supplement_extras(t, want & XS_EXTRAS, st);
}

/*
 * The fast path's supplements: on ext4, creation time and data version
 * from the raw inode, with no record and no second copy.  Anything else
 * (another filesystem, a device not seen yet) takes the general path.
 */
XS_HOT int xs_supplement_direct(uint64_t want, uint32_t mnt_tag,
				struct xstat *x)
{
	uint32_t fsflags;

	if (want & ~XS_DIRECT_SUPPLEMENTS ||
	    xs_fs_magic_cached(x->st_dev.major, x->st_dev.minor, mnt_tag,
			       &fsflags) != XS_EXT4_SUPER_MAGIC)
		return 0;
	xs_ext4_probe_xstat(want, x);
	return 1;
}
