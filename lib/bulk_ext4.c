// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The raw ext4 inodes of a directory stream's batch: the block device
 * opened once for the batch, the inode table read by pread in runs of
 * neighbouring blocks into one BULK_RUN buffer, and the device closed
 * before xstat_readdir() returns, so nothing of the device is open while
 * the caller's code runs or when it forks.  The device is never mapped:
 * a read error or a device that shrinks under a mapping is SIGBUS in the
 * caller's process; under pread it is an error, and the entries it
 * concerns go the per-call way.
 *
 * One inode per entry: a raw inode is used only if it is the inode the
 * entry's own statx answer described, as it was then: the inode number
 * (its offset is computed from the answer's), mode, link count, owner,
 * group, and the change time to the nanosecond; with metadata_csum its
 * checksum, seeded with the inode number, must hold too.  The ctime is
 * also what makes the data version safe (see xs_bulk_arm_request()): a
 * change after the statx moves it, so an inode that still has it holds
 * the i_version that goes with the answer.  Anything else goes to the
 * per-call path, which decides on its own.
 *
 * The device is opened by ext4dev.c, as for a single call: only facts
 * (its /dev path, its geometry, the inode tables of groups read) are
 * remembered between batches, under the directory's unique mount ID;
 * without one the superblock is read again and compared on each open.
 * Data versions follow the per-call rule (xs_ext4_dev_dv_ok()).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "bulk.h"
#include "ext4dev.h"
#include "ext4_same.h"
#include "rawsys.h"
#include "why.h"

/* configure (AC_SYS_LARGEFILE) gives i386 a 64-bit off_t for pread. */
_Static_assert(sizeof(off_t) == 8, "64-bit file offsets");

/* A gap of unused blocks worth reading through rather than a pread more. */
#define RUN_GAP_BLOCKS	4
#define NO_OFFSET	UINT64_MAX

static int pread_full(const struct xs_bulk_dev *dv, void *buf, size_t len,
		      uint64_t off)
{
	return xs_ext4_dev_pread(&dv->dev, buf, len, off);
}

/*
 * The device as the per-call prober opens it (ext4dev.c: stat, open
 * read-only O_CLOEXEC, checked to be the device, the geometry current and
 * proven by @dirfd's f_fsid to be the mounted filesystem's): one place
 * owns that, and the rule of which driver keeps i_version.  Under the
 * directory's unique mount ID a geometry once proven is the mount's for
 * its life, and the inode tables of groups read before are known, as
 * for a call: a walk's small directories do not read the superblock and
 * a group descriptor each (without the ID they do).
 */
int xs_bulk_ext4_open(uint32_t major, uint32_t minor, uint64_t mnt_key,
		      int dirfd, uint64_t ino, struct xs_bulk_dev *dv)
{
	struct xs_ext4_fs fs = { major, minor, mnt_key, dirfd };
	int ret;

	ret = xs_ext4_dev_open(&fs, ino, &dv->dev);
	if (ret)
		return ret;
	dv->fd = dv->dev.fd;
	dv->ino = ino;
	dv->dv_ok = xs_ext4_dev_dv_ok(&dv->dev);
	return 0;
}

/*
 * The inode table of @ino's group, from its descriptor, into @group and
 * @itable (the group's number and the table's block); 0 or -errno, and
 * then no group.  Once per group a batch meets, out of the entries' loop.
 */
static int read_itable(const struct xs_bulk_dev *dv, uint64_t ino,
		       uint32_t *group, uint64_t *itable)
{
	uint8_t desc[EXT4_DESC_SIZE_MIN_64];
	size_t len = dv->dev.f.geom.desc_size < sizeof(desc) ?
		     dv->dev.f.geom.desc_size : sizeof(desc);
	uint64_t doff;
	int ret;

	ret = xs_ext4_desc_offset(&dv->dev.f.geom, ino, &doff);
	if (!ret)
		ret = pread_full(dv, desc, len, doff);
	if (!ret)
		ret = xs_ext4_parse_desc(&dv->dev.f.geom, desc, len, itable);
	if (ret) {
		*group = UINT32_MAX;
		return ret;
	}
	*group = xs_ext4_group_of(&dv->dev.f.geom, ino);
	xs_ext4_dev_set_itable(&dv->dev, *group, *itable);
	return 0;
}

/*
 * The inodes of one group's table that the batch may read: @count of
 * them from inode @lo on, inode @ino at byte @base + @ino * inode size
 * (modulo 2^64).  A table is linear, so once the offsets of its first
 * and last inodes are in bounds (xs_ext4_inode_offset()), so are those
 * of every inode between them, and an entry in the span costs a compare
 * and a multiply.  @group and @itable: the last descriptor read
 * (@group UINT32_MAX: none); @count 0: no span.
 */
struct itable_span {
	uint64_t	lo, count, base;
	uint64_t	itable;
	uint32_t	group;
};

/* The span of @ino's group into @sp; 0 or -errno, and then no span. */
static __attribute__((noinline)) int
span_of(const struct xs_bulk_dev *dv, uint64_t ino, struct itable_span *sp)
{
	const struct xs_ext4_geom *g = &dv->dev.f.geom;
	uint64_t first, last, off, off_last;
	int ret;

	sp->count = 0;
	if (!xs_ext4_ino_valid(g, ino))
		return -ERANGE;
	if (xs_ext4_group_of(g, ino) != sp->group) {
		ret = read_itable(dv, ino, &sp->group, &sp->itable);
		if (ret)
			return ret;
	}
	first = (uint64_t)sp->group * g->inodes_per_group + 1;
	last = first + g->inodes_per_group - 1;
	/* A table that does not fit: each of its inodes on its own. */
	if (xs_ext4_inode_offset(g, first, sp->itable, &off) ||
	    xs_ext4_inode_offset(g, last, sp->itable, &off_last)) {
		ret = xs_ext4_inode_offset(g, ino, sp->itable, &off);
		if (ret)
			return ret;
		first = last = ino;
	}
	sp->lo = first;
	sp->count = last - first + 1;
	sp->base = off - first * g->inode_size;
	return 0;
}

/*
 * Is @in the inode @st described?  The per-call probe's rule
 * (xs_ext4_same_stat(); a batch's record has no generation), and the
 * change time to the nanosecond (the inode's ctime as the kernel
 * reports it).
 */
static int same_inode(const struct xs_ext4_inode *in,
		      const struct xs_stat *st, uint64_t idmap_mnt)
{
	return in->ctime_ok && in->ctime.sec == st->ctime.sec &&
	       in->ctime.nsec == st->ctime.nsec &&
	       xs_ext4_same_stat(in, st, idmap_mnt, 0);
}

/*
 * One entry from its raw inode at @raw: BULK_READY (1), or left
 * BULK_PENDING (0).  @want: the raw fields asked, @readable those of them
 * the device can give (a data version only where xs_ext4_dev_dv_ok()).
 */
static int take_inode(const struct xs_bulk_dev *dv, struct bulk_ent *e,
		      uint8_t *raw, uint64_t want, uint64_t readable,
		      uint64_t idmap_mnt)
{
	const struct xs_ext4_geom *g = &dv->dev.f.geom;
	struct xs_stat *st = e->st;
	struct xs_ext4_inode in;

	if (xs_ext4_parse_inode(g, st->ino, raw, g->inode_size, &in) ||
	    !same_inode(&in, st, idmap_mnt))
		return 0;

	want &= ~st->mask;
	readable &= want;
	if (readable & XSTAT_REQUEST_GEN) {
		st->gen = in.generation;
		st->mask |= XSTAT_REQUEST_GEN;
	}
	if ((readable & XSTAT_REQUEST_DATA_VERSION) && in.has_version) {
		st->data_version = in.version;
		st->mask |= XSTAT_REQUEST_DATA_VERSION;
	}
	if ((readable & XSTAT_REQUEST_BTIME) && in.has_crtime) {
		st->btime = in.crtime;
		st->mask |= XSTAT_REQUEST_BTIME;
	}
	/* The inode is this file's: what it lacks, it has none of. */
	if (want & ~st->mask)
		xs_why_note(st, want, XSTAT_WHY_NO_SOURCE);
	e->state = BULK_READY;
	return 1;
}

void xs_bulk_ext4_close(struct xs_bulk_dev *dv)
{
	xs_ext4_dev_close(&dv->dev);
	dv->fd = -1;
}

/*
 * How far past the block @first of a run [first, end) another block may
 * start to join it: as far as fits BULK_RUN (bs <= BULK_RUN: the
 * caller), with no gap of more than RUN_GAP_BLOCKS.
 */
static inline uint64_t run_room(uint64_t first, uint64_t end, uint64_t bs)
{
	uint64_t room = end - first + RUN_GAP_BLOCKS * bs;

	return room < BULK_RUN - bs ? room : BULK_RUN - bs;
}

/*
 * The next run from entry @i on: the entries [i, j) whose inodes lie in
 * one window of at most BULK_RUN bytes, from the block of the first one
 * that has an offset, with no gap of more than RUN_GAP_BLOCKS.  Their
 * offsets into @offs (NO_OFFSET: none) as they are met; returns j, and
 * the window in *@start and *@len (0: no inode to read).
 */
static size_t next_run(const struct xs_bulk_dev *dv, struct bulk_ent **ents,
		       uint64_t *offs, size_t i, size_t n,
		       struct itable_span *sp, uint64_t *start, size_t *len)
{
	/* a power of two (ext4_disk.c: 1024 << s_log_block_size) */
	const uint64_t bs = dv->dev.f.geom.block_size;
	const uint64_t isize = dv->dev.f.geom.inode_size;
	/* the span in locals: span_of() writes *@sp */
	uint64_t lo = sp->lo, count = sp->count, base = sp->base;
	/*
	 * The window [first, end) (end 0: none yet) and its run_room().
	 * Unsigned: a block before @first never joins.
	 */
	uint64_t first = NO_OFFSET, end = 0, room = 0;
	uint64_t ino, off, blk;
	size_t j;

	for (j = i; j < n; j++) {
		ino = ents[j]->st->ino;
		if (ino - lo >= count) {
			if (span_of(dv, ino, sp)) {
				offs[j] = NO_OFFSET;
				continue;
			}
			lo = sp->lo;
			count = sp->count;
			base = sp->base;
		}
		off = base + ino * isize;
		offs[j] = off;
		blk = off & ~(bs - 1);
		if (blk - first <= room) {
			if (blk + bs > end) {
				end = blk + bs;
				room = run_room(first, end, bs);
			}
			continue;
		}
		if (end)
			break;	/* the first entry of the next run */
		first = blk;
		end = blk + bs;
		room = run_room(first, end, bs);
	}
	*start = first;
	*len = end ? (size_t)(end - first) : 0;
	return j;
}

/*
 * The inodes by pread, one run of neighbouring blocks (at most BULK_RUN
 * bytes) at a time into @run.  Never a mapping of the device: a device
 * that shrinks, goes away or fails a read under a mapping raises SIGBUS
 * in the caller's process, where pread returns an error (or a short
 * read) and the entries of that run go the per-call way.
 */
static unsigned long read_runs(const struct xs_bulk_dev *dv,
			       struct bulk_ent **ents, size_t n, uint64_t want,
			       uint64_t idmap_mnt, uint8_t *run,
			       uint64_t *offs, struct itable_span *sp)
{
	uint64_t readable = want, start;
	unsigned long ready = 0;
	size_t i, j, k, len;

	if (!dv->dv_ok)
		readable &= ~XSTAT_REQUEST_DATA_VERSION;
	for (i = 0; i < n; i = j) {
		j = next_run(dv, ents, offs, i, n, sp, &start, &len);
		if (!len || pread_full(dv, run, len, start))
			continue;	/* these entries: per call */
		for (k = i; k < j; k++) {
			if (offs[k] == NO_OFFSET)
				continue;
			ready += take_inode(dv, ents[k],
					    run + (offs[k] - start), want,
					    readable, idmap_mnt);
		}
	}
	return ready;
}

unsigned long xs_bulk_raw_ready;	/* atomic */

void xs_bulk_ext4_read(const struct xs_bulk_dev *dv, struct bulk_ent **ents,
		       size_t n, uint64_t want, uint64_t idmap_mnt,
		       uint8_t *run, uint64_t *offs)
{
	struct itable_span sp = { .group = UINT32_MAX };
	unsigned long ready;

	if (dv->dev.f.geom.block_size > BULK_RUN ||
	    dv->dev.f.geom.inode_size > BULK_RUN)
		return;
	/* The group whose inode table the open found (bounds checked). */
	if (dv->dev.itable) {
		sp.itable = dv->dev.itable;
		sp.group = xs_ext4_group_of(&dv->dev.f.geom, dv->ino);
	}
	ready = read_runs(dv, ents, n, want, idmap_mnt, run, offs, &sp);
	__atomic_add_fetch(&xs_bulk_raw_ready, ready, __ATOMIC_RELAXED);
}
