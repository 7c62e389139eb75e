/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The block devices the ext4 prober reads: one read-only fd and the
 * validated superblock geometry per device (and per effective uid),
 * opened once and shared by all threads.
 */
#ifndef LIBXSTAT_EXT4DEV_H
#define LIBXSTAT_EXT4DEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "ext4_disk.h"

/* A reference to a cached device; @fd stays open until xs_ext4_dev_put. */
struct xs_ext4_devref {
	void			*slot;
	int			fd;
	uint64_t		size;	/* bytes */
	/* The entry's own: it never changes while a reference is held. */
	const struct xs_ext4_geom *geom;
	uint64_t		itable;	/* of the inode's group; 0: unknown */
};

/*
 * Reference the device @major:@minor, for inode @ino.  0: @ref is filled,
 * with the inode table block of @ino's group as a descriptor gave it
 * before, if known.  Groups never move while a filesystem exists, and the
 * cache belongs to one validated superblock, so only a successful probe
 * stores an entry (xs_ext4_dev_set_itable) and a failure with a cached
 * entry retries uncached.  -EACCES or -EPERM: this process may not read
 * the device (remembered, so the next call fails at once).  Another
 * negative errno: not usable now.
 */
int xs_ext4_dev_get(uint32_t major, uint32_t minor, uint64_t ino,
		    struct xs_ext4_devref *ref);
void xs_ext4_dev_put(struct xs_ext4_devref *ref);

/*
 * After a read that could not be trusted: re-read the superblock.  If the
 * device no longer holds the filesystem @ref describes (or cannot be
 * read), its cache entry is dropped and 1 is returned: a new
 * xs_ext4_dev_get will open and validate it afresh.  0: unchanged.
 */
int xs_ext4_dev_recheck(struct xs_ext4_devref *ref);

/* Remember the inode table block of @group after a successful probe. */
void xs_ext4_dev_set_itable(const struct xs_ext4_devref *ref,
			    uint32_t group, uint64_t itable);

/* Read exactly @len bytes at @off, inside the device; 0 or -errno. */
int xs_ext4_dev_pread(const struct xs_ext4_devref *ref, void *buf,
		      size_t len, uint64_t off);

/*
 * euid.c: the effective uid, re-read at most every 10 ms and after
 * xs_euid_forget() (a fork child), and a monotonic time in ns for the
 * cache's eviction order.
 */
uid_t xs_euid_current(int64_t *now);
void xs_euid_forget(void);

#endif
