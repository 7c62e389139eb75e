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
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "ext4dev.h"

#define DEV_PATH_MAX	64

#define F_GEOM		0x1	/* @geom holds the validated superblock */
#define F_EXT4_DRIVER	0x2	/* /sys/fs/ext4/NAME exists */
#define F_PROVEN	0x4	/* @geom's UUID gave the mount's f_fsid */

/* What is known about one device.  Copied in and out word by word. */
struct dev_facts {
	uint64_t		key;	/* major << 32 | minor, + 1; 0: empty */
	uint64_t		fs_key;	/* the unique mount ID; 0: none */
	int32_t			err;	/* a lasting failure: ext4dev.c */
	uint32_t		flags;
	int64_t			expires;	/* of @err, monotonic seconds */
	char			path[DEV_PATH_MAX];	/* /dev/NAME */
	struct xs_ext4_geom	geom;
};

#define FACT_WORDS	(sizeof(struct dev_facts) / sizeof(uint32_t))
_Static_assert(sizeof(struct dev_facts) % sizeof(uint32_t) == 0, "words");

union fact_words {
	struct dev_facts	f;
	uint32_t		w[FACT_WORDS];
};

/* ext4dev_cache.c: the slots of facts, one seqlock each. */
struct dev_slot;

/* A @seq no slot is in after a write: "do not write back". */
#define SEQ_NONE	1U

static inline uint64_t key_of(uint32_t major, uint32_t minor)
{
	return ((uint64_t)major << 32 | minor) + 1;
}

struct dev_slot *xs_ext4_slot_of(uint64_t key, uint64_t fs_key);
/*
 * The facts about @key and the inode table block of @ino's group, if the
 * slot holds them and is not being written: 1, else 0 (a miss).
 */
int xs_ext4_facts_get(struct dev_slot *s, uint64_t key, uint64_t fs_key,
		      uint64_t ino, union fact_words *u, uint64_t *itable,
		      uint32_t *seqp);
/* Replace what @s holds by @f (and no inode table): the new @seq. */
uint32_t xs_ext4_facts_put(struct dev_slot *s, uint32_t seq,
			   const union fact_words *u);
/* Forget @s if it still holds what was read at @seq. */
void xs_ext4_facts_drop(struct dev_slot *s, uint32_t seq);

/* ext4dev_read.c: the device's node, driver and superblock. */
static inline int is_the_device(const struct stat *sb, uint32_t major,
				uint32_t minor)
{
	return S_ISBLK(sb->st_mode) && major(sb->st_rdev) == major &&
	       minor(sb->st_rdev) == minor;
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
