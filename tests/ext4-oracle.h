/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * debugfs as the oracle for raw ext4 inodes (e2fsprogs shares no code
 * with libxstat): its `stat <INO>` and `imap <INO>` commands, run
 * without a shell.
 */
#ifndef XSTAT_EXT4_ORACLE_H
#define XSTAT_EXT4_ORACLE_H

#include <stdint.h>

struct ext4_oracle {
	uint32_t	mode;		/* permission bits only (debugfs Mode:) */
	uint32_t	uid, gid, links;
	uint32_t	generation;
	int		has_version;
	uint64_t	version;	/* Version: 0xHI:LO, or 0xLO */
	int		has_crtime;
	int64_t		crtime_sec;	/* decoded from crtime: 0xSEC:EXTRA */
	uint32_t	crtime_nsec;
	int		has_extra;
	uint32_t	extra_isize;	/* Size of extra inode fields: */
};

/* 1 if debugfs and mkfs.ext4 are installed. */
int ext4_oracle_available(void);

/* debugfs's `stat <ino>` on @dev (device or image) into @o; 0 or -1. */
int ext4_oracle_stat(const char *dev, uint64_t ino, struct ext4_oracle *o);

/*
 * ext4_oracle_stat() of @inos[0..n) into @o[0..n), all of them asked of
 * one debugfs run (`debugfs -f`, one stat each); 0 or -1.
 */
int ext4_oracle_stat_many(const char *dev, const uint64_t *inos, int n,
			  struct ext4_oracle *o);

/*
 * Locations of inodes @inos[0..n) by `debugfs -f` with one imap each:
 * @offs[i] = block * @block_size + offset.  0 or -1.
 */
int ext4_oracle_imap(const char *dev, const uint64_t *inos, int n,
		     uint32_t block_size, uint64_t *offs);

#endif
