/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the ext4 prober's device layer shares inside itself, and nothing
 * outside it includes: ext4dev.c opens a device for one call,
 * ext4dev_cache.c keeps the facts about each device between calls,
 * ext4dev_read.c finds a device's node and reads and proves its
 * superblock.
 */
#ifndef LIBXSTAT_EXT4DEV_INT_H
#define LIBXSTAT_EXT4DEV_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "ext4dev.h"

#define DEV_SLOTS	16	/* direct-mapped by dev_t; a power of two */
#define ITABLE_SLOTS	32	/* per device, direct-mapped by group */

/* Inode table cache entry: group / ITABLE_SLOTS, then a 37-bit block. */
#define IT_BLOCK_BITS	37
#define IT_BLOCK_MASK	((1ULL << IT_BLOCK_BITS) - 1)

/*
 * ext4dev_cache.c: the slots of facts, one seqlock each.  @seq is even
 * while the slot is stable and odd while one writer (the one whose
 * compare-and-swap made it odd) changes it.  @f is copied whole, as the
 * kernel's seqcount readers copy: a copy made while @seq moved may be
 * torn, and is never used.  The inode table words are read one at a
 * time, atomically.
 */
struct dev_slot {
	uint32_t		seq;
	struct xs_ext4_facts	f;
	uint64_t		itable[ITABLE_SLOTS];	/* 0 = empty */
};

extern struct dev_slot xs_ext4_dev_slots[DEV_SLOTS];

/* A @seq no slot is in after a write: "do not write back". */
#define SEQ_NONE	1U

static inline uint64_t key_of(uint32_t major, uint32_t minor)
{
	return ((uint64_t)major << 32 | minor) + 1;
}

static inline struct dev_slot *xs_ext4_slot_of(uint64_t key, uint64_t fs_key)
{
	return &xs_ext4_dev_slots[((key ^ fs_key) * 0x9E3779B97F4A7C15ULL) >>
				  60 & (DEV_SLOTS - 1)];
}

/* Is @s still as it was at @seq (even)?  After relaxed loads. */
static inline int xs_ext4_seq_unchanged(struct dev_slot *s, uint32_t seq)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq;
}

/*
 * The facts about @key, into @f, and the inode table block of @ino's
 * group, if the slot holds them and is not being written: 1, else 0 (a
 * miss).  Inline: every raw-inode call and batch starts with it.
 */
static inline int xs_ext4_facts_get(struct dev_slot *s, uint64_t key,
				    uint64_t fs_key, uint64_t ino,
				    struct xs_ext4_facts *f, uint64_t *itable,
				    uint32_t *seqp)
{
	uint32_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), group;
	uint64_t e;

	if (seq & 1)
		return 0;
	memcpy(f, &s->f, sizeof(*f));
	if (!xs_ext4_seq_unchanged(s, seq) || f->key != key ||
	    f->fs_key != fs_key)
		return 0;
	*seqp = seq;
	*itable = 0;
	/* Only a consistent geometry may be divided by. */
	if (!(f->flags & XS_EXT4_GEOM) || !xs_ext4_ino_valid(&f->geom, ino))
		return 1;
	group = xs_ext4_group_of(&f->geom, ino);
	e = __atomic_load_n(&s->itable[group % ITABLE_SLOTS],
			    __ATOMIC_RELAXED);
	if (xs_ext4_seq_unchanged(s, seq) &&
	    e >> IT_BLOCK_BITS == group / ITABLE_SLOTS)
		*itable = e & IT_BLOCK_MASK;
	return 1;
}

/* Replace what @s holds by @f (and no inode table): the new @seq. */
uint32_t xs_ext4_facts_put(struct dev_slot *s, uint32_t seq,
			   const struct xs_ext4_facts *f);
/* Forget @s if it still holds what was read at @seq. */
void xs_ext4_facts_drop(struct dev_slot *s, uint32_t seq);

/* ext4dev_read.c: the device's node, driver and superblock. */
static inline int is_the_device(const struct stat *sb, dev_t rdev)
{
	return S_ISBLK(sb->st_mode) && sb->st_rdev == rdev;
}

/* /dev/NAME of a block device from DEVNAME in its sysfs uevent file. */
int xs_ext4_device_path(uint32_t major, uint32_t minor, char *path,
			size_t len);
/* Mounted by the ext4 driver?  1 yes, 0 no, -1 not known (see there). */
int xs_ext4_driver(const char *devpath);
/* Superblock of an open device, re-read once if its checksum is torn. */
int xs_ext4_read_super(int fd, struct xs_ext4_geom *g);
/* An fd just opened by path: the device, and its filesystem's geometry? */
int xs_ext4_learn_geometry(int fd, uint32_t major, uint32_t minor,
			   struct xs_ext4_geom *g);
/* Is @g the superblock of the filesystem @fd is on? */
int xs_ext4_fsid_matches(const struct xs_ext4_geom *g, int fd);

#endif
