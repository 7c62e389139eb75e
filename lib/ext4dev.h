/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The block devices the ext4 prober reads.  A device is opened for one
 * call and closed before the call returns: nothing but facts about the
 * device (its /dev path, its validated superblock geometry, the inode
 * table blocks of some groups) is kept between calls, never a descriptor
 * or a decision that depends on who the caller is.
 */
#ifndef LIBXSTAT_EXT4DEV_H
#define LIBXSTAT_EXT4DEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "ext4_disk.h"
#include "idmap.h"
#include "internal.h"
#include "rawsys.h"

/*
 * The filesystem a probe is for, as the caller knows it: the device of
 * its st_dev, the key fscache.c uses (the never-reused unique mount ID;
 * 0: none known) and a descriptor on it (the anchor; -1: none) whose
 * statfs f_fsid must be the superblock's.
 */
struct xs_ext4_fs {
	uint32_t		major, minor;
	uint64_t		key;
	int			fd;
};

#define XS_EXT4_PATH_MAX	64

#define XS_EXT4_GEOM	0x1	/* @geom holds the validated superblock */
/*
 * Mounted by the ext4 driver (/sys/fs/ext4/NAME exists), which keeps
 * i_version (the ext2 driver, sharing the magic, does not).
 */
#define XS_EXT4_DRIVER	0x2
#define XS_EXT4_PROVEN	0x4	/* @geom's UUID gave the mount's f_fsid */

/*
 * What is known about one device (ext4dev_cache.c keeps it between
 * calls): copied in and out whole.
 */
struct xs_ext4_facts {
	uint64_t		key;	/* major << 32 | minor, + 1; 0: empty */
	uint64_t		fs_key;	/* the unique mount ID; 0: none */
	/* makedev() of the device: its node's st_rdev, as each open checks */
	uint64_t		rdev;
	int64_t			expires;	/* of @err, monotonic seconds */
	int32_t			err;	/* a lasting failure: ext4dev.c */
	uint32_t		flags;
	struct xs_ext4_geom	geom;
	char			path[XS_EXT4_PATH_MAX];	/* /dev/NAME */
};

/*
 * A device opened for the duration of one probe.  @f is the facts as
 * the open read them from their cache, made current, and not copied
 * again: the geometry is @f.geom.
 */
struct xs_ext4_dev {
	int			fd;
	struct xs_ext4_facts	f;
	uint64_t		itable;	/* of the inode's group; 0: unknown */
	/* Where the facts came from: xs_ext4_dev_set_itable() adds to it. */
	void			*slot;
	uint32_t		seq;
	struct xs_ext4_fs	fs;	/* whose device: the caller's */
};

/*
 * Open the device of @d->fs (filled in by the caller) for inode @ino with
 * the caller's credentials as they are now.  0: @d->fd is open
 * (O_CLOEXEC) and @d->f.geom describes the filesystem on it, which is
 * @d->fs's (see ext4dev.c for how that is
 * known); xs_ext4_dev_close() must follow within the same call.  A
 * negative errno: no probe now (-ESTALE: the device holds another
 * filesystem than @d->fs).  Refusals (EACCES, EPERM) and shortages (EMFILE,
 * ENFILE, ENOMEM) are not remembered here; the next call tries the open
 * again (a call or a stream keeps its own refusal: XS_REFUSED_DEVICE).
 */
int xs_ext4_dev_open_fs(struct xs_ext4_dev *d, uint64_t ino);

/* The same, for a caller whose @fs is not already @d->fs. */
static inline int xs_ext4_dev_open(const struct xs_ext4_fs *fs, uint64_t ino,
				   struct xs_ext4_dev *d)
{
	d->fs = *fs;
	return xs_ext4_dev_open_fs(d, ino);
}

static inline void xs_ext4_dev_close(struct xs_ext4_dev *d)
{
	if (d->fd >= 0)
		xs_raw_close(d->fd);
	d->fd = -1;
}

/*
 * After a read that could not be trusted: re-read the superblock.  1: it
 * describes another filesystem than @d->f.geom (re-made, resized); @d now
 * holds the new geometry, which is cached.  0: unchanged or unreadable.
 */
int xs_ext4_dev_recheck(struct xs_ext4_dev *d);

/* Remember the inode table block of @group after a successful probe. */
void xs_ext4_dev_set_itable(const struct xs_ext4_dev *d, uint32_t group,
			    uint64_t itable);

/*
 * May the i_version of an inode on @d be reported as a data version?
 * Only when the ext4 driver keeps it: the ext2 driver, which shares the
 * magic (and mountinfo's type cannot tell them apart), keeps none.  And
 * only with inodes larger than 128 bytes: smaller ones store ctime in
 * whole seconds (s_time_gran is 1 s), so a change in the same second as
 * the last one moves neither ctime nor, unless ctime was queried since,
 * i_version (see dv_armed() in probe_ext4.c), and no query can be placed
 * to catch it: the value would not change after every change.  The one
 * rule of both the per-call and the directory stream paths.
 */
static inline int xs_ext4_dev_dv_ok(const struct xs_ext4_dev *d)
{
	return (d->f.flags & XS_EXT4_DRIVER) &&
	       d->f.geom.inode_size > EXT4_GOOD_OLD_INODE;
}

/*
 * What stat said about a file, which its raw inode must agree with before
 * anything of it is used.  One rule, xs_ext4_same_file() (below),
 * for the per-call probe and the directory streams (bulk_ext4.c): mode,
 * link count, generation when known, and owner and group, which on an
 * idmapped mount (@idmap_mnt: its unique ID, xs_ext4_idmap_of() in
 * internal.h; 0: none) are the raw ones mapped the way stat mapped them.
 */
struct xs_ext4_ident {
	uint32_t	mode, nlink, uid, gid;
	int		has_gen;
	uint64_t	gen;
	uint64_t	idmap_mnt;
};

static inline int xs_ext4_same_file(const struct xs_ext4_inode *in,
				    const struct xs_ext4_ident *id)
{
	if (in->mode != id->mode || in->links != id->nlink)
		return 0;
	if (id->has_gen && in->generation != id->gen)
		return 0;
	/*
	 * Compared directly, owners on an idmapped mount would reject
	 * every file the mapping moves, and accept an inode whose raw
	 * owner equals the mapped one by chance.
	 */
	if (id->idmap_mnt)
		return xs_idmap_same_owner(id->idmap_mnt, in->uid, in->gid,
					   id->uid, id->gid);
	return in->uid == id->uid && in->gid == id->gid;
}

/* Read exactly @len bytes of @fd at @off: 0 or -errno (-EIO: short). */
static inline int xs_ext4_pread_full(int fd, void *buf, size_t len,
				     uint64_t off)
{
	long n;

	if (off > (uint64_t)INT64_MAX - len)
		return -EINVAL;
	n = XS_EINTR(xs_raw_pread(fd, buf, len, off));
	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -EIO;	/* short read: no guess */
}

/*
 * Read exactly @len bytes at @off, inside the filesystem; 0 or -errno.
 * Inline, as the offset computations before it: each raw inode is one.
 */
static inline int xs_ext4_dev_pread(const struct xs_ext4_dev *d, void *buf,
				    size_t len, uint64_t off)
{
	uint64_t size = d->f.geom.blocks_count * d->f.geom.block_size;

	/* Checked against the device's size when the geometry was learned. */
	if (off > size || size - off < len)
		return -ERANGE;
	return xs_ext4_pread_full(d->fd, buf, len, off);
}

#endif
