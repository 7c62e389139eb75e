// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * btrfs.  statx gives the creation time; the generation comes from the
 * file handle (layout below); f_fsid is made from the UUID.
 *
 * Creation time (otime), generation and data version (the inode
 * item's sequence number, which NFS uses as its change attribute) from
 * BTRFS_IOC_TREE_SEARCH: the INODE_ITEM of st_ino in the subvolume tree of
 * the descriptor (tree_id 0), the descriptor being the file itself or its
 * directory with the file's st_dev, which btrfs gives per subvolume.
 *
 * The search reads the tree, not the in-memory inode, and btrfs delays
 * inode item updates until the transaction commits (at most the commit
 * interval, 30 s by default, or sync(2)).  Otime, generation and file
 * type never change, so a delayed item still tells them right.  The
 * sequence number is reported only when the item's ctime, mtime and size
 * equal what stat just returned, i.e. the item is at least as new as the
 * last change stat saw; a write in the same clock tick can still leave it
 * behind until the commit, which libxstat.7 documents.
 *
 * The ioctl needs CAP_SYS_ADMIN, asked of the calling thread on every
 * call (probe_fsquery.c).  The 4 KiB v1 buffer lives on the stack.
 *
 * statx never gives a data version, so this probe also runs when statx
 * is available and DATA_VERSION is asked for: as root that costs an
 * open of the file's directory, the ioctl and a close; for anyone else
 * one capget().
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "fs.h"
#include "fsprobe_uapi.h"
#include "le.h"
#include "mask.h"
#include "fscache.h"
#include "fsquery.h"

#define BTRFS_SUPER_MAGIC	0x9123683E

/* What the data version is checked against. */
#define STAT_FRESH	(XSTAT_REQUEST_CTIME | XSTAT_REQUEST_MTIME | \
			 XSTAT_REQUEST_SIZE)

static int get_time(const unsigned char *p, struct xs_time *t)
{
	t->sec = (int64_t)xs_le64(p);
	t->nsec = xs_le32(p + 8);
	return XS_NSEC_VALID(t->nsec) ? 0 : -EUCLEAN;
}

static int same_time(const struct xs_time *a, const struct xs_time *b)
{
	return a->sec == b->sec && a->nsec == b->nsec;
}

/* Copies the inode item of @ino (XS_BTRFS_INODE_ITEM_SIZE bytes). */
static int search_inode_item(int fd, uint64_t ino, void *out)
{
	unsigned char *item = out;
	struct xs_btrfs_search_args args;
	struct xs_btrfs_search_header h;

	/* The kernel copies in all 4 KiB; give it defined bytes. */
	memset(&args, 0, sizeof(args));
	args.key.tree_id = 0;
	args.key.min_objectid = ino;
	args.key.max_objectid = ino;
	args.key.min_type = XS_BTRFS_INODE_ITEM_KEY;
	args.key.max_type = XS_BTRFS_INODE_ITEM_KEY;
	args.key.min_offset = 0;
	args.key.max_offset = UINT64_MAX;
	args.key.min_transid = 0;
	args.key.max_transid = UINT64_MAX;
	args.key.nr_items = 1;
	if (ioctl(fd, XS_BTRFS_IOC_TREE_SEARCH, &args))
		return -errno;
	if (args.key.nr_items != 1)
		return -ENOENT;
	memcpy(&h, args.buf, sizeof(h));
	if (h.objectid != ino || h.type != XS_BTRFS_INODE_ITEM_KEY ||
	    h.len < XS_BTRFS_INODE_ITEM_SIZE ||
	    h.len > sizeof(args.buf) - sizeof(h))
		return -EUCLEAN;
	memcpy(item, args.buf + sizeof(h), XS_BTRFS_INODE_ITEM_SIZE);
	return 0;
}

static int btrfs_probe(const struct xs_fs *fs, const struct xs_target *t,
		       uint64_t want, uint32_t fsflags, struct xs_stat *st)
{
	unsigned char item[XS_BTRFS_INODE_ITEM_SIZE];
	struct xs_time otime, ctime, mtime;
	uint64_t gen;
	int ret;

	(void)fs;
	want &= XS_CLASS3;
	if (!want || (fsflags & XS_FSF_NO_FSPROBE))
		return 0;
	ret = xs_fs_query(t, st, search_inode_item, item);
	if (ret)
		return ret;

	gen = xs_le64(item + XS_BTRFS_II_GENERATION);
	if (!xs_record_is(st, xs_le32(item + XS_BTRFS_II_MODE), gen))
		return 0;
	if (want & XSTAT_REQUEST_GEN) {
		st->gen = gen;
		st->mask |= XSTAT_REQUEST_GEN;
	}
	if ((want & XSTAT_REQUEST_BTIME) &&
	    get_time(item + XS_BTRFS_II_OTIME, &otime) == 0 &&
	    (otime.sec || otime.nsec)) {
		st->btime = otime;
		st->mask |= XSTAT_REQUEST_BTIME;
	}
	if ((want & XSTAT_REQUEST_DATA_VERSION) &&
	    (st->mask & STAT_FRESH) == STAT_FRESH &&
	    get_time(item + XS_BTRFS_II_CTIME, &ctime) == 0 &&
	    get_time(item + XS_BTRFS_II_MTIME, &mtime) == 0 &&
	    same_time(&ctime, &st->ctime) && same_time(&mtime, &st->mtime) &&
	    xs_le64(item + XS_BTRFS_II_SIZE) == st->size) {
		st->data_version = xs_le64(item + XS_BTRFS_II_SEQUENCE);
		st->mask |= XSTAT_REQUEST_DATA_VERSION;
	}
	return 0;
}

/* FILEID_BTRFS_WITHOUT_PARENT and kin: objectid, root, generation. */
static int btrfs_handle(const struct file_handle *fh, uint64_t *ino,
			uint64_t *gen)
{
	const unsigned char *b = fh->f_handle;
	int type = fh->handle_type;

	if ((type == 0x4d || type == 0x4e || type == 0x4f) &&
	    fh->handle_bytes >= 20) {
		*ino = xs_handle64(b);
		*gen = xs_handle32(b + 16);
		return 0;
	}
	return -EPROTO;
}

/*
 * The inode sequence's promise holds once the item is checked against
 * the same stat's ctime (above); it can lag the in-memory inode until the
 * transaction commits (LAGS).
 */
const struct xs_fs xs_fs_btrfs = {
	.magic		= BTRFS_SUPER_MAGIC,
	.name		= "btrfs",
	.flags		= XS_FS_STATX_BTIME | XS_FS_FSID_UUID,
	.mgtime_type	= "btrfs",
	.dv		= XSTAT_PROMISE_EVERY_CHANGE | XSTAT_PROMISE_MONOTONIC |
			  XSTAT_PROMISE_PERSISTENT | XSTAT_PROMISE_METADATA |
			  XSTAT_PROMISE_NAMES | XSTAT_PROMISE_LAGS,
	.ctime		= XSTAT_PROMISE_PERSISTENT | XSTAT_PROMISE_METADATA |
			  XSTAT_PROMISE_NAMES,
	.btime_needs	= XS_NEEDS_FS_QUERY,
	.dv_needs	= XS_NEEDS_FS_QUERY | XS_NEEDS_ROOT,
	.handle		= btrfs_handle,
	.probe		= btrfs_probe,
};
