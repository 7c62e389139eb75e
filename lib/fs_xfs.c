// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * XFS.  statx gives the creation time (v5 filesystems keep one); the
 * generation comes from the file handle, whose layout is below; XFS keeps
 * no data version libxstat can read.
 *
 * Creation time and generation without statx: XFS_IOC_BULKSTAT for
 * exactly one inode.  Bulkstat returns the first allocated inode at or
 * after the one asked for, so the record is used only if it names st_ino
 * and has its file type, and, when the generation is already known (from
 * a file handle), that generation: an inode freed and reused since the
 * stat would differ there.  Only v5 filesystems keep a creation time; on
 * v4 the kernel leaves it zero and it is not reported.
 *
 * Bulkstat needs CAP_SYS_ADMIN, asked of the calling thread on every call
 * (probe_fsquery.c).  A kernel without the ioctl (before 5.2) answers
 * ENOTTY, which supplement.c records for the filesystem, so a process
 * pays one failed ioctl per filesystem.  A creation time of exactly 0.0
 * is one inode's answer (v4 inodes have none, but a v5 inode can hold 0.0
 * too): it clears the field for that file only, never for the
 * filesystem.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "fs.h"
#include "fsprobe_uapi.h"
#include "fscache.h"
#include "mask.h"
#include "fsquery.h"

#define XFS_SUPER_MAGIC	0x58465342

static int bulkstat_one(int fd, uint64_t ino, void *out)
{
	struct xs_xfs_bulkstat_one *req = out;

	memset(req, 0, sizeof(*req));
	req->hdr.ino = ino;
	req->hdr.icount = 1;
	if (ioctl(fd, XS_XFS_IOC_BULKSTAT, req))
		return -errno;
	if (req->hdr.ocount != 1)
		return -ENOENT;		/* no inode at or after @ino */
	return 0;
}

static int xfs_probe(const struct xs_fs *fs, const struct xs_target *t,
		     uint64_t want, uint32_t fsflags, struct xs_stat *st)
{
	struct xs_xfs_bulkstat_one req;
	const struct xs_xfs_bulkstat *bs = &req.bs[0];
	int ret;

	(void)fs;
	want &= XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN;
	if (!want || (fsflags & XS_FSF_NO_FSPROBE))
		return 0;
	ret = xs_fs_query(t, st, bulkstat_one, &req);
	if (ret)
		return ret;
	/* bulkstat answers the next inode at or after the one asked. */
	if (bs->bs_ino != st->ino ||
	    bs->bs_version != XS_XFS_BULKSTAT_VERSION_V5 ||
	    !xs_record_is(st, bs->bs_mode, bs->bs_gen))
		return 0;
	if (want & XSTAT_REQUEST_GEN) {
		st->gen = bs->bs_gen;
		st->mask |= XSTAT_REQUEST_GEN;
	}
	if (want & XSTAT_REQUEST_BTIME) {
		/* 0.0: none recorded (v4), for this file alone. */
		if ((bs->bs_btime || bs->bs_btime_nsec) &&
		    XS_NSEC_VALID(bs->bs_btime_nsec)) {
			st->btime.sec = bs->bs_btime;
			st->btime.nsec = bs->bs_btime_nsec;
			st->mask |= XSTAT_REQUEST_BTIME;
		}
	}
	return 0;
}

/*
 * Handles: FILEID_INO32_GEN as ext4's, or with XFS_FILEID_TYPE_64FLAG
 * (0x80) a 64-bit inode number before the generation.
 */
static int xfs_handle(const struct file_handle *fh, uint64_t *ino,
		      uint64_t *gen)
{
	const unsigned char *b = fh->f_handle;

	if ((fh->handle_type == 0x81 || fh->handle_type == 0x82) &&
	    fh->handle_bytes >= 12) {
		*ino = xs_handle64(b);
		*gen = xs_handle32(b + 8);
		return 0;
	}
	return xs_handle_ino32_gen(fh, ino, gen);
}

const struct xs_fs xs_fs_xfs = {
	.magic		= XFS_SUPER_MAGIC,
	.name		= "xfs",
	.flags		= XS_FS_STATX_BTIME,
	.mgtime_type	= "xfs",
	.ctime		= XSTAT_PROMISE_PERSISTENT | XSTAT_PROMISE_METADATA |
			  XSTAT_PROMISE_NAMES,
	.btime_needs	= XS_NEEDS_FS_QUERY,
	.handle		= xfs_handle,
	.probe		= xfs_probe,
};
