// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ext4 raw inode probing: creation time, generation and i_version read
 * from the inode on the block device, for when statx cannot give them
 * (no statx at all, statx blocked, or fields statx never exports).
 *
 * The inode is found as the kernel finds it: the group descriptor of the
 * inode's group (read on demand), the inode table block named there, one
 * pread of the inode.  Nothing read is trusted on its own: with
 * metadata_csum the inode checksum (seeded with the inode number) must
 * match, and in every case the raw inode must agree with what stat just
 * said about mode, link count, owner, group (and generation when known).
 * Size and timestamps are never compared: on disk they may lag.  Any
 * doubt leaves the fields cleared.
 *
 * DATA_VERSION is the inode's i_version as stored (l_i_version plus
 * i_version_hi), reported only for filesystems made by Linux (elsewhere
 * osd1 means something else).  What it means: ext4 (always since Linux
 * 6.1, before only with -o iversion) increments it lazily, when the inode
 * changes and either its ctime moves to a new timestamp tick or the
 * value was queried (by NFS, IMA...) since the last increment.  Reading
 * the disk is no such query, so many writes within one tick may count
 * once (measured: 1000 appends in 2 ms moved it by 1 to 3; each change a
 * few ms apart moved it by 1).  It is persistent across remounts and only
 * grows, so "different from last time" means the file changed; "equal"
 * means no change in a later tick.  Never compare it across files.
 */
#include <errno.h>
#include "ext4dev.h"
#include "internal.h"

#define PROBE_FIELDS	(XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN | \
			 XSTAT_REQUEST_DATA_VERSION)
/* What the raw inode is checked against; without it nothing is trusted. */
#define PROBE_NEEDS	(XSTAT_REQUEST_MODE | XSTAT_REQUEST_NLINK | \
			 XSTAT_REQUEST_UID | XSTAT_REQUEST_GID | \
			 XSTAT_REQUEST_INO)

/* The inode table block of @group, from its descriptor. */
static int read_itable(const struct xs_ext4_devref *ref, uint64_t ino,
		       uint64_t *itable)
{
	const struct xs_ext4_geom *g = ref->geom;
	uint8_t desc[EXT4_DESC_SIZE_MIN_64];
	size_t len = g->desc_size < sizeof(desc) ? g->desc_size : sizeof(desc);
	uint64_t off;
	int ret;

	ret = xs_ext4_desc_offset(g, ino, &off);
	if (!ret)
		ret = xs_ext4_dev_pread(ref, desc, len, off);
	if (!ret)
		ret = xs_ext4_parse_desc(g, desc, len, itable);
	return ret;
}

/* Read and decode inode @ino into @raw; a torn checksum is read again. */
static inline int read_inode_into(const struct xs_ext4_devref *ref,
				  uint64_t ino, uint64_t itable,
				  struct xs_ext4_inode *in, uint8_t *raw)
{
	const struct xs_ext4_geom *g = ref->geom;
	uint64_t off;
	int ret, tries;

	ret = xs_ext4_inode_offset(g, ino, itable, &off);
	for (tries = 0; !ret && tries < 2; tries++) {
		ret = xs_ext4_dev_pread(ref, raw, g->inode_size, off);
		if (!ret)
			ret = xs_ext4_parse_inode(g, ino, raw, g->inode_size,
						  in);
		if (ret != -EBADMSG)
			break;
	}
	return ret;
}

/* Inodes larger than EXT4_INODE_SMALL (mkfs -I 1024 and up): rare. */
static __attribute__((noinline, cold))
int read_big_inode(const struct xs_ext4_devref *ref, uint64_t ino,
		   uint64_t itable, struct xs_ext4_inode *in)
{
	uint8_t raw[EXT4_INODE_MAX];

	if (ref->geom->inode_size > sizeof(raw))
		return -EOPNOTSUPP;
	return read_inode_into(ref, ino, itable, in, raw);
}

/*
 * The usual inode sizes with a small buffer: a call that reads an inode
 * touches one stack page fewer (each page touched after a system call
 * costs a page walk where the TLB is flushed on every one).
 */
XS_HOT
static int read_inode(const struct xs_ext4_devref *ref, uint64_t ino,
		      uint64_t itable, struct xs_ext4_inode *in)
{
	uint8_t raw[EXT4_INODE_SMALL];

	if (ref->geom->inode_size > sizeof(raw))
		return read_big_inode(ref, ino, itable, in);
	return read_inode_into(ref, ino, itable, in, raw);
}

/* What stat said about the file: the raw inode must agree with it. */
struct probe_id {
	uint64_t	ino;
	uint32_t	dev_major, dev_minor;
	uint32_t	mode, nlink, uid, gid;
	int		has_gen;
	uint64_t	gen;
};

/* The raw inode must be the file stat described, as it is now. */
XS_HOT
static int same_file(const struct xs_ext4_inode *in,
		     const struct probe_id *id)
{
	if (in->mode != id->mode || in->links != id->nlink ||
	    in->uid != id->uid || in->gid != id->gid)
		return 0;
	if (id->has_gen && in->generation != id->gen)
		return 0;
	return 1;
}

/*
 * One probe of @id's inode.  The inode table block comes from the
 * device's small cache when a previous probe of the group succeeded (one
 * pread saved), else from the group descriptor; a failure with a cached
 * block is retried from the descriptor.
 */
XS_HOT
static int probe_once(const struct xs_ext4_devref *ref,
		      const struct probe_id *id, struct xs_ext4_inode *in)
{
	uint64_t itable = ref->itable;
	uint32_t group;
	int cached = itable != 0, ret;

	if (id->ino < 1 || id->ino > ref->geom->inodes_count)
		return -ERANGE;
	group = xs_ext4_group_of(ref->geom, id->ino);
	for (;;) {
		ret = cached ? 0 : read_itable(ref, id->ino, &itable);
		if (!ret)
			ret = read_inode(ref, id->ino, itable, in);
		if (!ret && !same_file(in, id))
			ret = -ESTALE;
		if (!ret && !cached)
			xs_ext4_dev_set_itable(ref, group, itable);
		if (!ret || !cached || ret == -EOPNOTSUPP)
			return ret;
		cached = 0;
	}
}

/*
 * The raw inode of @id, read and checked: 0, else a negative errno and
 * nothing can be reported.
 */
XS_HOT
static int probe_inode(const struct probe_id *id, struct xs_ext4_inode *in)
{
	struct xs_ext4_devref ref;
	int attempt, ret = -ENODEV;

	/*
	 * A second attempt only if the device turned out to hold another
	 * filesystem than the cached one (re-made, re-mounted, resized).
	 */
	for (attempt = 0; attempt < 2; attempt++) {
		ret = xs_ext4_dev_get(id->dev_major, id->dev_minor, id->ino,
				      &ref);
		if (ret)
			return ret;
		ret = probe_once(&ref, id, in);
		if (ret && ret != -EOPNOTSUPP && xs_ext4_dev_recheck(&ref)) {
			xs_ext4_dev_put(&ref);
			continue;
		}
		xs_ext4_dev_put(&ref);
		break;
	}
	return ret;
}

/* Which of @want the inode holds: the rules of both reporters below. */
static uint64_t found(uint64_t want, const struct xs_ext4_inode *in)
{
	if (!in->has_crtime)
		want &= ~XSTAT_REQUEST_BTIME;
	if (!in->has_version)
		want &= ~XSTAT_REQUEST_DATA_VERSION;
	return want;
}

/* For the general path: what @want asks and the inode has, into @st. */
void xs_ext4_probe(uint64_t want, struct xs_stat *st)
{
	struct probe_id id;
	struct xs_ext4_inode in;

	want &= PROBE_FIELDS & ~st->mask;
	if (!want || (st->mask & PROBE_NEEDS) != PROBE_NEEDS)
		return;
	id.ino = st->ino;
	id.dev_major = st->dev_major;
	id.dev_minor = st->dev_minor;
	id.mode = st->mode;
	id.nlink = st->nlink;
	id.uid = st->uid;
	id.gid = st->gid;
	id.has_gen = !!(st->mask & XSTAT_REQUEST_GEN);
	id.gen = st->gen;
	if (probe_inode(&id, &in))
		return;

	want = found(want, &in);
	if (want & XSTAT_REQUEST_BTIME)
		st->btime = in.crtime;
	if (want & XSTAT_REQUEST_DATA_VERSION)
		st->data_version = in.version;
	if (want & XSTAT_REQUEST_GEN)
		st->gen = in.generation;
	st->mask |= want;
}

/*
 * For the fast path (fastpath.h): the same, straight into the caller's
 * struct xstat, which holds no generation (statx and stat never give
 * one).  The general path's rules: fields not found stay cleared.
 */
XS_HOT
void xs_ext4_probe_xstat(uint64_t want, struct xstat *x)
{
	struct probe_id id;
	struct xs_ext4_inode in;

	want &= (XSTAT_REQUEST_BTIME | XSTAT_REQUEST_DATA_VERSION) &
		~x->st_result_mask;
	if (!want || (x->st_result_mask & PROBE_NEEDS) != PROBE_NEEDS)
		return;
	id.ino = x->st_ino;
	id.dev_major = x->st_dev.major;
	id.dev_minor = x->st_dev.minor;
	id.mode = x->st_mode;
	id.nlink = x->st_nlink;
	id.uid = x->st_uid;
	id.gid = x->st_gid;
	id.has_gen = 0;
	id.gen = 0;
	if (probe_inode(&id, &in))
		return;

	want = found(want, &in);
	if (want & XSTAT_REQUEST_BTIME) {
		x->st_btim.tv_sec = in.crtime.sec;
		x->st_btim.tv_nsec = in.crtime.nsec;
	}
	if (want & XSTAT_REQUEST_DATA_VERSION)
		x->st_data_version = in.version;
	x->st_result_mask |= want;
}
