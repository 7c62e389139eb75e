/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ext2/3/4 on-disk layout libxstat reads, and pure decoders for it.
 *
 * Everything on disk is little-endian and read byte by byte, so the code
 * has no alignment, packing or host-endianness assumptions.  The decoders
 * take a byte buffer and its length and return 0 or a negative errno; they
 * do no I/O and keep no state, so a fuzzer can call them directly.  They
 * are hidden symbols of libxstat_core (not exported from the .so).
 */
#ifndef LIBXSTAT_EXT4_DISK_H
#define LIBXSTAT_EXT4_DISK_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include "internal.h"
#include "le.h"

/* Superblock: 1024 bytes at byte 1024 of the device. */
#define EXT4_SB_OFFSET		1024
#define EXT4_SB_SIZE		1024
#define EXT4_SB_INODES_COUNT	0x00
#define EXT4_SB_BLOCKS_LO	0x04
#define EXT4_SB_FIRST_DATA	0x14
#define EXT4_SB_LOG_BLOCK	0x18
#define EXT4_SB_BLOCKS_PER_GRP	0x20
#define EXT4_SB_INODES_PER_GRP	0x28
#define EXT4_SB_MAGIC		0x38	/* le16 */
#define EXT4_SB_CREATOR_OS	0x48
#define EXT4_SB_REV_LEVEL	0x4C
#define EXT4_SB_INODE_SIZE	0x58	/* le16 */
#define EXT4_SB_COMPAT		0x5C
#define EXT4_SB_INCOMPAT	0x60
#define EXT4_SB_RO_COMPAT	0x64
#define EXT4_SB_UUID		0x68	/* 16 bytes */
#define EXT4_SB_DESC_SIZE	0xFE	/* le16 */
#define EXT4_SB_FIRST_META_BG	0x104
#define EXT4_SB_MKFS_TIME	0x108
#define EXT4_SB_BLOCKS_HI	0x150
#define EXT4_SB_CSUM_TYPE	0x175	/* u8, 1 = crc32c */
#define EXT4_SB_BACKUP_BGS	0x24C	/* 2 x le32 */
#define EXT4_SB_CSUM_SEED	0x270
#define EXT4_SB_CHECKSUM	0x3FC

#define EXT4_MAGIC		0xEF53
#define EXT4_OS_LINUX		0
#define EXT4_OS_LITES		4	/* highest creator OS defined */
#define EXT4_GOOD_OLD_REV	0
#define EXT4_DYNAMIC_REV	1
#define EXT4_GOOD_OLD_INODE	128

#define EXT4_COMPAT_SPARSE_SUPER2	0x0200
#define EXT4_INCOMPAT_JOURNAL_DEV	0x0008
#define EXT4_INCOMPAT_META_BG		0x0010
#define EXT4_INCOMPAT_64BIT		0x0080
#define EXT4_INCOMPAT_CSUM_SEED		0x2000
#define EXT4_INCOMPAT_KNOWN		0x3FFFF	/* up to CASEFOLD */
#define EXT4_RO_COMPAT_SPARSE_SUPER	0x0001
#define EXT4_RO_COMPAT_BIGALLOC		0x0200
#define EXT4_RO_COMPAT_METADATA_CSUM	0x0400

/* Group descriptor: 32 bytes, or s_desc_size (>= 64) with 64BIT. */
#define EXT4_BG_ITABLE_LO	0x08
#define EXT4_BG_FLAGS		0x12	/* le16 */
#define EXT4_BG_ITABLE_HI	0x28
#define EXT4_BG_INODE_UNINIT	0x0001
#define EXT4_DESC_SIZE_MIN	32
#define EXT4_DESC_SIZE_MIN_64	64
#define EXT4_DESC_SIZE_MAX	1024

/* Inode. */
#define EXT4_I_MODE		0x00	/* le16 */
#define EXT4_I_UID		0x02	/* le16 */
#define EXT4_I_CTIME		0x0C
#define EXT4_I_GID		0x18	/* le16 */
#define EXT4_I_CTIME		0x0C
#define EXT4_I_LINKS		0x1A	/* le16 */
#define EXT4_I_FLAGS		0x20
#define EXT4_I_VERSION		0x24	/* osd1 on Linux */
#define EXT4_I_GENERATION	0x64
#define EXT4_I_UID_HI		0x78	/* le16 */
#define EXT4_I_GID_HI		0x7A	/* le16 */
#define EXT4_I_CSUM_LO		0x7C	/* le16 */
#define EXT4_I_EXTRA_ISIZE	0x80	/* le16 */
#define EXT4_I_CSUM_HI		0x82	/* le16 */
#define EXT4_I_CTIME_EXTRA	0x84
#define EXT4_I_CTIME_EXTRA	0x84
#define EXT4_I_CRTIME		0x90
#define EXT4_I_CRTIME_EXTRA	0x94
#define EXT4_I_VERSION_HI	0x98
#define EXT4_EA_INODE_FL	0x00200000

/* A field [off, off + len) is present when 128 + i_extra_isize reaches it. */
#define EXT4_FITS(extra, off, len)	((off) + (len) <= 128 + (extra))

/* Largest inode the prober reads (one stack buffer); larger ones are skipped. */
#define EXT4_INODE_MAX		4096

/*
 * What libxstat keeps of a superblock.  Every field is derived from the
 * superblock alone, so two geometries compare equal with memcmp exactly
 * when they describe the same filesystem layout (the decoder zeroes the
 * struct first): that is how a re-mounted or re-made device is noticed.
 */
struct xs_ext4_geom {
	uint8_t		uuid[16];
	uint64_t	blocks_count;
	uint32_t	mkfs_time;
	uint32_t	block_size;
	uint32_t	inode_size;
	uint32_t	inodes_count;
	uint32_t	inodes_per_group;
	uint32_t	blocks_per_group;
	uint32_t	first_data_block;
	uint32_t	group_count;
	uint32_t	desc_size;
	uint32_t	first_meta_bg;
	uint32_t	backup_bgs[2];
	uint32_t	compat, incompat, ro_compat;
	uint32_t	creator_os;
	uint32_t	csum_seed;	/* valid with METADATA_CSUM */
};

/* The fields of a raw inode the prober reports or checks. */
struct xs_ext4_inode {
	uint32_t	mode;
	uint32_t	uid;
	uint32_t	gid;
	uint32_t	links;
	uint32_t	generation;
	int		has_crtime;
	struct xs_time	crtime;
	/*
	 * ctime as the kernel reports it (whole seconds in 128-byte
	 * inodes), if it is a time; to the nanosecond where the inode has
	 * room for them
	 */
	int		ctime_ok;
	int		has_ctime;
	struct xs_time	ctime;
	int		has_version;
	uint64_t	version;
};

/*
 * Is @ino an inode number of the filesystem (1 <= @ino <= inodes_count)?
 * Every index into its tables is bounded by this first.  Inode 0 wraps:
 * one unsigned compare.
 */
static inline int xs_ext4_ino_valid(const struct xs_ext4_geom *g,
				    uint64_t ino)
{
	return ino - 1 < g->inodes_count;
}

/* Block group of inode @ino (xs_ext4_ino_valid()). */
static inline uint32_t xs_ext4_group_of(const struct xs_ext4_geom *g,
					uint64_t ino)
{
	return (uint32_t)((ino - 1) / g->inodes_per_group);
}

/*
 * Validate a superblock (@len >= 1024 bytes read at byte 1024) and fill
 * @g.  -EINVAL: not a sane ext2/3/4 superblock; -EBADMSG: its metadata_csum
 * checksum is wrong; -EOPNOTSUPP: a layout the prober does not handle.
 */
int xs_ext4_parse_super(const uint8_t *buf, size_t len,
			struct xs_ext4_geom *g);

/* Does block group @group hold a superblock backup (and so a GDT copy)? */
int xs_ext4_group_has_super(const struct xs_ext4_geom *g, uint32_t group);

/*
 * Byte offset on the device of the group descriptor of inode @ino's group.
 * -ERANGE if @ino or the result is outside the filesystem.
 */
int xs_ext4_desc_offset(const struct xs_ext4_geom *g, uint64_t ino,
			uint64_t *off);

/*
 * Inode table block from a descriptor: @len bytes of it, at least
 * g->desc_size or 64, whichever is less.
 */
int xs_ext4_parse_desc(const struct xs_ext4_geom *g, const uint8_t *buf,
		       size_t len, uint64_t *itable);

/*
 * Byte offset of inode @ino given its group's inode table block.  Inline:
 * every raw inode read computes one.
 */
static inline int xs_ext4_inode_offset(const struct xs_ext4_geom *g,
				       uint64_t ino, uint64_t itable,
				       uint64_t *off)
{
	uint64_t index, end;

	if (!xs_ext4_ino_valid(g, ino) || itable >= g->blocks_count)
		return -ERANGE;
	index = (ino - 1) % g->inodes_per_group;
	*off = itable * g->block_size + index * g->inode_size;
	end = g->blocks_count * g->block_size;
	if (*off >= end || end - *off < g->inode_size)
		return -ERANGE;
	return 0;
}

/*
 * Decode inode @ino from @len (== g->inode_size) bytes.  -EINVAL: not
 * sane; -EBADMSG: metadata_csum checksum mismatch (possibly a torn read);
 * after an error nothing in @in may be used (the checksum is tested after
 * the decode).  @buf is written to while the checksum is
 * computed (its checksum fields zeroed) and holds the same bytes again on
 * return.
 */
int xs_ext4_parse_inode(const struct xs_ext4_geom *g, uint64_t ino,
			uint8_t *buf, size_t len,
			struct xs_ext4_inode *in);

#endif /* LIBXSTAT_EXT4_DISK_H */
