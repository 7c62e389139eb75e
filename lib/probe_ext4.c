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
 * On an idmapped mount stat shows owners through the mount's idmapping:
 * the raw owner is mapped the same way before it is compared (idmap.c),
 * never skipped, and the owner reported stays stat's, the mapped one.
 * Size and timestamps are never compared: on disk they may lag.  Any
 * doubt leaves the fields cleared.
 *
 * DATA_VERSION is the inode's i_version as stored (l_i_version plus
 * i_version_hi), reported only for filesystems made by Linux (elsewhere
 * osd1 means something else), mounted by the ext4 driver (the ext2
 * driver keeps none), with inodes larger than 128 bytes (whole-second
 * ctimes cannot be armed).  Reading it must not miss a change: see
 * dv_armed() for how a call leaves the inode armed for the next change.
 */
#include <errno.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "ext4dev.h"
#include "ext4_same.h"
#include "backend_fstatat.h"
#include "internal.h"
#include "rawsys.h"
#include "backend_statx.h"
#include "fs.h"
#include "fscache.h"
#include "idmap.h"
#include "why.h"

#define PROBE_FIELDS	(XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN | \
			 XSTAT_REQUEST_DATA_VERSION)
/* What the raw inode is checked against; without it nothing is trusted. */
#define PROBE_NEEDS	(XSTAT_REQUEST_MODE | XSTAT_REQUEST_NLINK | \
			 XSTAT_REQUEST_UID | XSTAT_REQUEST_GID | \
			 XSTAT_REQUEST_INO)

/* The inode table block of @group, from its descriptor. */
static int read_itable(const struct xs_ext4_dev *ref, uint64_t ino,
		       uint64_t *itable)
{
	const struct xs_ext4_geom *g = &ref->f.geom;
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

/* Read and decode inode @ino at @off into @raw (EXT4_INODE_MAX bytes). */
static inline int read_inode_once(const struct xs_ext4_dev *ref, uint64_t ino,
				  uint64_t off, uint8_t *raw,
				  struct xs_ext4_inode *in)
{
	int ret = xs_ext4_dev_pread(ref, raw, ref->f.geom.inode_size, off);

	if (!ret)
		ret = xs_ext4_parse_inode(&ref->f.geom, ino, raw,
					  ref->f.geom.inode_size, in);
	return ret;
}

/*
 * An inode rewritten while it is read (every change) can tear: its
 * checksum is then read again, up to 7 times more.  Out of line: the
 * usual read is whole.
 */
static __attribute__((noinline)) int
read_inode_again(const struct xs_ext4_dev *ref, uint64_t ino, uint64_t off,
		 uint8_t *raw, struct xs_ext4_inode *in)
{
	int ret = -EBADMSG, tries;

	for (tries = 1; tries < 8 && ret == -EBADMSG; tries++)
		ret = read_inode_once(ref, ino, off, raw, in);
	return ret;
}

/* Read and decode inode @ino at @off into @raw; a torn checksum, again. */
static inline int read_inode(const struct xs_ext4_dev *ref, uint64_t ino,
			     uint64_t off, uint8_t *raw,
			     struct xs_ext4_inode *in)
{
	int ret;

	if (ref->f.geom.inode_size > EXT4_INODE_MAX)
		return -EOPNOTSUPP;
	ret = read_inode_once(ref, ino, off, raw, in);
	if (ret == -EBADMSG)
		ret = read_inode_again(ref, ino, off, raw, in);
	return ret;
}

/*
 * One probe of @st's inode.  The inode table block comes from the
 * device's small cache when a previous probe of the group succeeded (one
 * pread saved), else from the group descriptor; a failure with a cached
 * block is retried from the descriptor.
 */
static int probe_once(const struct xs_ext4_dev *ref, const struct xs_stat *st,
		      uint64_t idmap_mnt, uint8_t *raw,
		      struct xs_ext4_inode *in)
{
	uint64_t itable = ref->itable, ino = st->ino, off;
	int cached = itable != 0, ret;

	if (!xs_ext4_ino_valid(&ref->f.geom, ino))
		return -ERANGE;
	for (;;) {
		ret = cached ? 0 : read_itable(ref, ino, &itable);
		if (!ret)
			ret = xs_ext4_inode_offset(&ref->f.geom, ino, itable,
						   &off);
		if (!ret)
			ret = read_inode(ref, ino, off, raw, in);
		if (!ret && !xs_ext4_same_stat(in, st, idmap_mnt, 1))
			ret = -ESTALE;
		if (!ret && !cached)
			xs_ext4_dev_set_itable(ref,
					       xs_ext4_group_of(&ref->f.geom, ino),
					       itable);
		if (!ret || !cached || ret == -EOPNOTSUPP)
			return ret;
		cached = 0;
	}
}

/*
 * The raw inode of @st, read into @raw (EXT4_INODE_MAX bytes) and
 * checked: 0, else a negative errno and nothing can be reported;
 * *@dv_ok: may its i_version be used (xs_ext4_dev_dv_ok()).  The device
 * is opened for this probe only.
 */
static int probe_inode(const struct xs_target *t, const struct xs_stat *st,
		       uint64_t idmap_mnt, uint8_t *raw,
		       struct xs_ext4_inode *in, int *dv_ok)
{
	struct xs_ext4_dev dev;
	int ret, attempt;

	dev.fs.major = st->dev_major;
	dev.fs.minor = st->dev_minor;
	dev.fs.key = st->fs_key;
	dev.fs.fd = t->anchored ? t->dfd : -1;
	ret = xs_ext4_dev_open_fs(&dev, st->ino);
	if (ret)
		return ret;
	for (attempt = 0;; attempt++) {
		ret = probe_once(&dev, st, idmap_mnt, raw, in);
		/*
		 * A second attempt only if the device turned out to hold
		 * another filesystem than the cached one (re-made,
		 * re-mounted, resized).
		 */
		if (!ret || ret == -EOPNOTSUPP || attempt ||
		    !xs_ext4_dev_recheck(&dev))
			break;
	}
	/* After a recheck: the rule of the filesystem now read. */
	*dv_ok = xs_ext4_dev_dv_ok(&dev);
	xs_ext4_dev_close(&dev);
	return ret;
}

/*
 * The arming call: a stat of @t's file asking for ctime, after the raw
 * read.  1 if it reached the inode that was read (same device and inode
 * number: a path can be renamed over meanwhile).
 */
static int arm_again(const struct xs_target *t, const struct xs_stat *st)
{
	struct xs_ident k;

	return xs_kernel_ident(t->dfd, t->path, t->flags & XS_LOOKUP_FLAGS,
			       XS_STATX_CTIME, &k) == 0 &&
	       k.ino == st->ino && k.dev_major == st->dev_major &&
	       k.dev_minor == st->dev_minor;
}

/*
 * May the i_version just read be returned?  Only if no change after this
 * call can leave it unchanged.
 *
 * How ext4 moves i_version (Linux 6.13+, fs/inode.c, fs/stat.c): a data
 * change (write, a write fault of a shared mapping) goes through
 * inode_update_timestamps(), which increments i_version only if
 * inode_set_ctime_current() gave a new ctime (or mtime moved), or if
 * i_version itself was queried (only in-kernel users such as nfsd can).
 * With multigrain timestamps the new ctime is a fine-grained one, and so
 * necessarily new, when I_CTIME_QUERIED is set on the old ctime;
 * otherwise it is the coarse clock, equal to the old ctime within one
 * tick, and then nothing moves.  I_CTIME_QUERIED is set by a getattr that
 * asks for ctime or mtime (statx with them, any stat) and cleared only by
 * storing a new ctime.  Metadata changes (chmod, setxattr, utimensat,
 * truncate) increment i_version unconditionally.  ext4 copies the inode,
 * new ctime and i_version together, into the device's page cache in
 * ext4_mark_iloc_dirty() before the changing call returns (ctime before
 * i_version in the raw inode), and that is where the raw read looks.
 *
 * So the file is "armed" from a ctime query Q until the next ctime store
 * S: the first change after Q increments i_version.  This call read the
 * raw value V at time R, after its stat (which asked for ctime: Q at
 * time T, reading ctime C).  Every change after this call starts after
 * R; it must find the file armed, or find i_version already above V:
 *  - If the raw inode's ctime is still C (to the nanosecond), then no
 *    ctime store after T had reached the raw inode by R.  Either there
 *    was none, and the file is armed until the next change, which
 *    increments i_version above V (V <= the in-memory value, which only
 *    grows); or one was under way (stored in memory, not yet copied):
 *    that store found the file armed by Q and increments i_version above
 *    V itself, and the raw inode has it before that change returns.
 *  - Otherwise a change came between T and R (or the raw ctime has no
 *    nanoseconds): stat again, asking for ctime, after R (arm_again):
 *    that query arms the file, and V, read before it, is at most the
 *    value any change after it increments.  If that stat fails or finds
 *    another inode at the path, the data version is cleared.
 * Both cases cost nothing in a quiet file but the stat every call makes.
 *
 * Limits the kernel sets (libxstat(7)): without multigrain timestamps
 * (before 6.13) nothing arms, and changes within one coarse tick after
 * the first can be missed; inodes of 128 bytes store seconds only
 * (s_time_gran is 1 s), so changes within one second can be missed, and
 * no second stat helps: there no data version is reported at all
 * (xs_ext4_dev_dv_ok()); stores into an already-dirty page of a shared
 * mapping and O_NOCMTIME writes change neither ctime nor i_version.
 */
static int dv_armed(const struct xs_target *t, const struct xs_stat *st,
		    const struct xs_ext4_inode *in, int dv_ok)
{
	if (!dv_ok)
		return 0;
	if (in->has_ctime && (st->mask & XSTAT_REQUEST_CTIME) &&
	    in->ctime.sec == st->ctime.sec && in->ctime.nsec == st->ctime.nsec)
		return 1;
	return arm_again(t, st);
}

/* Which of @want the inode holds: the rules of both reporters below. */
static uint64_t fields_held(const struct xs_target *t, uint64_t want,
			    const struct xs_stat *st,
			    const struct xs_ext4_inode *in, int dv_ok)
{
	if (!in->has_crtime)
		want &= ~XSTAT_REQUEST_BTIME;
	if ((want & XSTAT_REQUEST_DATA_VERSION) &&
	    (!in->has_version || !dv_armed(t, st, in, dv_ok)))
		want &= ~XSTAT_REQUEST_DATA_VERSION;
	return want;
}

/*
 * Why the inode, read and proven this file's, did not give @lost: it has
 * no room for a creation time (128-byte inodes), or keeps no i_version
 * (the ext2 driver, 128-byte inodes, a filesystem not made by Linux);
 * else the data version could not be shown current (dv_armed()).
 */
static void note_not_held(struct xs_stat *st, uint64_t lost,
			  const struct xs_ext4_inode *in, int dv_ok)
{
	xs_why_note(st, lost & XSTAT_REQUEST_BTIME, XSTAT_WHY_NO_SOURCE);
	xs_why_note(st, lost & XSTAT_REQUEST_DATA_VERSION,
		    !in->has_version || !dv_ok ? XSTAT_WHY_NO_SOURCE :
						 XSTAT_WHY_UNVERIFIED);
}

/* For the general path: what @want asks and the inode has, into @st. */
int xs_ext4_probe(const struct xs_fs *fs, const struct xs_target *t,
		  uint64_t want, uint32_t fsflags, struct xs_stat *st)
{
	struct xs_ext4_inode in;
	/* The inode's buffer, in this one frame for both attempts. */
	uint8_t raw[EXT4_INODE_MAX];
	uint64_t held;
	int ret, dv_ok = 0;

	(void)fs;
	want &= PROBE_FIELDS & ~st->mask;
	if (!want || (st->mask & PROBE_NEEDS) != PROBE_NEEDS)
		return 0;
	if (t->refused && (*t->refused & XS_REFUSED_DEVICE)) {
		xs_why_note(st, want, xs_why_device(EACCES, XS_NEEDS_ROOT));
		return 0;
	}
	ret = probe_inode(t, st, xs_ext4_idmap_of(st->fs_key, fsflags), raw,
			  &in, &dv_ok);
	if ((ret == -EPERM || ret == -EACCES) && t->refused)
		*t->refused |= XS_REFUSED_DEVICE;
	if (ret) {
		xs_why_note(st, want, xs_why_device(-ret, XS_NEEDS_ROOT));
		return 0;
	}

	held = fields_held(t, want, st, &in, dv_ok);
	/* The usual inode holds them all: then no note is looked at. */
	if (held != want)
		note_not_held(st, want & ~held, &in, dv_ok);
	want = held;
	if (want & XSTAT_REQUEST_BTIME)
		st->btime = in.crtime;
	if (want & XSTAT_REQUEST_DATA_VERSION)
		st->data_version = in.version;
	if (want & XSTAT_REQUEST_GEN)
		st->gen = in.generation;
	st->mask |= want;
	return 0;
}
