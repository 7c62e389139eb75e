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
static __attribute__((noinline)) int
read_itable(const struct xs_bulk_dev *dv, uint64_t ino, uint32_t *group,
	    uint64_t *itable)
{
	uint8_t desc[EXT4_DESC_SIZE_MIN_64];
	size_t len = dv->dev.geom.desc_size < sizeof(desc) ?
		     dv->dev.geom.desc_size : sizeof(desc);
	uint64_t doff;
	int ret;

	ret = xs_ext4_desc_offset(&dv->dev.geom, ino, &doff);
	if (!ret)
		ret = pread_full(dv, desc, len, doff);
	if (!ret)
		ret = xs_ext4_parse_desc(&dv->dev.geom, desc, len, itable);
	if (ret) {
		*group = UINT32_MAX;
		return ret;
	}
	*group = xs_ext4_group_of(&dv->dev.geom, ino);
	xs_ext4_dev_set_itable(&dv->dev, *group, *itable);
	return 0;
}

/* Byte offset of inode @ino; @group/@itable: the last descriptor read. */
static int inode_offset(const struct xs_bulk_dev *dv, uint64_t ino,
			uint32_t *group, uint64_t *itable, uint64_t *off)
{
	int ret;

	if (ino < 1 || ino > dv->dev.geom.inodes_count)
		return -ERANGE;
	if (xs_ext4_group_of(&dv->dev.geom, ino) != *group) {
		ret = read_itable(dv, ino, group, itable);
		if (ret)
			return ret;
	}
	return xs_ext4_inode_offset(&dv->dev.geom, ino, *itable, off);
}

/*
 * Is @in the inode @st described?  The per-call probe's rule (owners
 * mapped through an idmapped mount @idmap_mnt), and the change time to
 * the nanosecond (the inode's ctime as the kernel reports it).
 */
static int same_inode(const struct xs_ext4_inode *in,
		      const struct xs_stat *st, uint64_t idmap_mnt)
{
	struct xs_ext4_ident who = {
		.mode = st->mode, .nlink = st->nlink,
		.uid = st->uid, .gid = st->gid,
		.idmap_mnt = idmap_mnt,
	};

	return in->ctime_ok && in->ctime.sec == st->ctime.sec &&
	       in->ctime.nsec == st->ctime.nsec && xs_ext4_same_file(in, &who);
}

/*
 * One entry from its raw inode at @raw: BULK_READY (1), or left
 * BULK_PENDING (0).
 */
static int take_inode(const struct xs_bulk_dev *dv, struct bulk_ent *e,
		       uint8_t *raw, uint64_t want, uint64_t idmap_mnt)
{
	struct xs_stat *st = e->st;
	struct xs_ext4_inode in;

	if (xs_ext4_parse_inode(&dv->dev.geom, st->ino, raw, dv->dev.geom.inode_size, &in) ||
	    !same_inode(&in, st, idmap_mnt))
		return 0;

	want &= ~st->mask;
	if (want & XSTAT_REQUEST_GEN) {
		st->gen = in.generation;
		st->mask |= XSTAT_REQUEST_GEN;
	}
	if ((want & XSTAT_REQUEST_DATA_VERSION) && in.has_version &&
	    dv->dv_ok) {
		st->data_version = in.version;
		st->mask |= XSTAT_REQUEST_DATA_VERSION;
	}
	if ((want & XSTAT_REQUEST_BTIME) && in.has_crtime) {
		st->btime = in.crtime;
		st->mask |= XSTAT_REQUEST_BTIME;
	}
	/* The inode is this file's: what it lacks, it has none of. */
	if (want & ~st->mask)
		xs_why_note(st, want, XSTAT_WHY_NO_SOURCE);
	e->state = BULK_READY;
	return 1;
}

/*
 * Entries [i, j) whose inodes lie in one window of at most BULK_RUN
 * bytes, starting at the block of @offs[i], with no gap of more than
 * RUN_GAP_BLOCKS: returns j and the bytes to read in *@len.
 */
static size_t run_end(const struct xs_bulk_dev *dv, const uint64_t *offs,
		      size_t i, size_t n, uint64_t start, size_t *len)
{
	uint64_t bs = dv->dev.geom.block_size, end = start + bs, blk;
	/* the last block that fits the window (bs <= BULK_RUN: the caller) */
	uint64_t last = start + BULK_RUN - bs;
	size_t j;

	for (j = i + 1; j < n; j++) {
		if (offs[j] == NO_OFFSET)
			continue;
		/* a power of two (ext4_disk.c: 1024 << s_log_block_size) */
		blk = offs[j] & ~(bs - 1);
		if (blk < start || blk > last ||
		    blk > end + RUN_GAP_BLOCKS * bs)
			break;
		if (blk + bs > end)
			end = blk + bs;
	}
	*len = (size_t)(end - start);
	return j;
}

void xs_bulk_ext4_close(struct xs_bulk_dev *dv)
{
	xs_ext4_dev_close(&dv->dev);
	dv->fd = -1;
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
			       const uint64_t *offs)
{
	unsigned long ready = 0;
	uint64_t start;
	size_t i, j, k, len;

	for (i = 0; i < n; i = j) {
		if (offs[i] == NO_OFFSET) {
			j = i + 1;
			continue;
		}
		start = offs[i] - offs[i] % dv->dev.geom.block_size;
		j = run_end(dv, offs, i, n, start, &len);
		if (pread_full(dv, run, len, start))
			continue;	/* these entries: per call */
		for (k = i; k < j; k++) {
			if (offs[k] == NO_OFFSET)
				continue;
			ready += take_inode(dv, ents[k], run + (offs[k] - start),
					    want, idmap_mnt);
		}
	}
	return ready;
}

unsigned long xs_bulk_raw_ready;	/* atomic */

void xs_bulk_ext4_read(const struct xs_bulk_dev *dv, struct bulk_ent **ents,
		       size_t n, uint64_t want, uint64_t idmap_mnt,
		       uint8_t *run, uint64_t *offs)
{
	uint64_t itable = 0;
	uint32_t group = UINT32_MAX;
	unsigned long ready;
	size_t i;

	if (dv->dev.geom.block_size > BULK_RUN || dv->dev.geom.inode_size > BULK_RUN)
		return;
	/* The group whose inode table the open found (bounds checked). */
	if (dv->dev.itable) {
		itable = dv->dev.itable;
		group = xs_ext4_group_of(&dv->dev.geom, dv->ino);
	}
	for (i = 0; i < n; i++) {
		ents[i]->state = BULK_PENDING;
		if (inode_offset(dv, ents[i]->st->ino, &group, &itable,
				 &offs[i]))
			offs[i] = NO_OFFSET;
	}
	ready = read_runs(dv, ents, n, want, idmap_mnt, run, offs);
	__atomic_add_fetch(&xs_bulk_raw_ready, ready, __ATOMIC_RELAXED);
}
