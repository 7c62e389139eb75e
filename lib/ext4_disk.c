// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pure decoders for the ext2/3/4 superblock, group descriptors and inodes:
 * byte buffers in, checked values out, no I/O.  Everything read from disk
 * is range-checked before it is used to compute an offset, because the
 * device can hold anything (another filesystem, a half-written update,
 * a crafted image).
 */
#include <errno.h>
#include <string.h>
#include "crc32c.h"
#include "ext4_disk.h"
#include "mask.h"

/*
 * EXT4_FITS() for a field past the first 128 bytes, which every inode
 * larger than that (mke2fs makes 256) has: the compiler's straight path.
 */
#define FITS_USUALLY(extra, off, len) \
	__builtin_expect(EXT4_FITS(extra, off, len), 1)

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static int is_power_of(uint32_t n, uint32_t base)
{
	uint64_t p = base;

	while (p < n)
		p *= base;
	return p == n;
}

static uint64_t div_up(uint64_t a, uint32_t b)
{
	return a / b + (a % b != 0);
}

/* Feature words, block and inode sizes: everything later steps rely on. */
static int parse_sizes(const uint8_t *b, struct xs_ext4_geom *g)
{
	uint32_t rev = xs_le32(b + EXT4_SB_REV_LEVEL);
	uint32_t log = xs_le32(b + EXT4_SB_LOG_BLOCK);

	if (rev > EXT4_DYNAMIC_REV)
		return -EOPNOTSUPP;
	g->creator_os = xs_le32(b + EXT4_SB_CREATOR_OS);
	if (g->creator_os > EXT4_OS_LITES)
		return -EINVAL;
	if (log > 6)			/* 1 KiB .. 64 KiB */
		return -EINVAL;
	g->block_size = 1024U << log;

	/* Revision 0 has no feature words and 128-byte inodes. */
	g->inode_size = EXT4_GOOD_OLD_INODE;
	if (rev == EXT4_DYNAMIC_REV) {
		g->compat = xs_le32(b + EXT4_SB_COMPAT);
		g->incompat = xs_le32(b + EXT4_SB_INCOMPAT);
		g->ro_compat = xs_le32(b + EXT4_SB_RO_COMPAT);
		g->inode_size = xs_le16(b + EXT4_SB_INODE_SIZE);
	}
	/* An external journal device has no inodes; unknown bits, no guess. */
	if (g->incompat & (EXT4_INCOMPAT_JOURNAL_DEV | ~EXT4_INCOMPAT_KNOWN))
		return -EOPNOTSUPP;
	if (!is_pow2(g->inode_size) || g->inode_size < EXT4_GOOD_OLD_INODE ||
	    g->inode_size > g->block_size)
		return -EINVAL;

	g->desc_size = EXT4_DESC_SIZE_MIN;
	if (g->incompat & EXT4_INCOMPAT_64BIT) {
		g->desc_size = xs_le16(b + EXT4_SB_DESC_SIZE);
		if (!is_pow2(g->desc_size) ||
		    g->desc_size < EXT4_DESC_SIZE_MIN_64 ||
		    g->desc_size > EXT4_DESC_SIZE_MAX ||
		    g->desc_size > g->block_size)
			return -EINVAL;
	}
	return 0;
}

/* Block and inode counts, groups; the kernel refuses to mount otherwise. */
static int parse_groups(const uint8_t *b, struct xs_ext4_geom *g)
{
	int bigalloc = !!(g->ro_compat & EXT4_RO_COMPAT_BIGALLOC);
	uint64_t groups, db_count;

	g->first_data_block = xs_le32(b + EXT4_SB_FIRST_DATA);
	/* Block 0 holds the superblock unless blocks are 1 KiB (no bigalloc). */
	if (g->block_size > 1024 ? g->first_data_block != 0
				 : g->first_data_block != !bigalloc)
		return -EINVAL;

	g->blocks_count = xs_le32(b + EXT4_SB_BLOCKS_LO);
	if (g->incompat & EXT4_INCOMPAT_64BIT)
		g->blocks_count |= (uint64_t)xs_le32(b + EXT4_SB_BLOCKS_HI)
				   << 32;
	/* Byte offsets below must not overflow 64 bits. */
	if (g->blocks_count <= g->first_data_block ||
	    g->blocks_count > UINT64_MAX / g->block_size)
		return -EINVAL;

	g->blocks_per_group = xs_le32(b + EXT4_SB_BLOCKS_PER_GRP);
	if (!g->blocks_per_group ||
	    (!bigalloc && g->blocks_per_group > 8 * g->block_size))
		return -EINVAL;
	g->inodes_per_group = xs_le32(b + EXT4_SB_INODES_PER_GRP);
	if (!g->inodes_per_group ||
	    g->inodes_per_group > 8 * g->block_size ||
	    g->inodes_per_group < g->block_size / g->inode_size)
		return -EINVAL;

	groups = div_up(g->blocks_count - g->first_data_block,
			g->blocks_per_group);
	if (!groups || groups > UINT32_MAX)
		return -EINVAL;
	g->group_count = (uint32_t)groups;
	g->inodes_count = xs_le32(b + EXT4_SB_INODES_COUNT);
	if ((uint64_t)g->inodes_per_group * groups != g->inodes_count)
		return -EINVAL;

	if (g->incompat & EXT4_INCOMPAT_META_BG) {
		db_count = div_up(groups, g->block_size / g->desc_size);
		g->first_meta_bg = xs_le32(b + EXT4_SB_FIRST_META_BG);
		if (g->first_meta_bg > db_count)
			return -EINVAL;
	}
	if (g->compat & EXT4_COMPAT_SPARSE_SUPER2) {
		g->backup_bgs[0] = xs_le32(b + EXT4_SB_BACKUP_BGS);
		g->backup_bgs[1] = xs_le32(b + EXT4_SB_BACKUP_BGS + 4);
		if (g->backup_bgs[0] >= groups || g->backup_bgs[1] >= groups)
			return -EINVAL;
	}
	return 0;
}

int xs_ext4_parse_super(const uint8_t *b, size_t len, struct xs_ext4_geom *g)
{
	int ret;

	memset(g, 0, sizeof(*g));
	if (len < EXT4_SB_SIZE || xs_le16(b + EXT4_SB_MAGIC) != EXT4_MAGIC)
		return -EINVAL;
	ret = parse_sizes(b, g);
	if (!ret)
		ret = parse_groups(b, g);
	if (ret) {
		memset(g, 0, sizeof(*g));
		return ret;
	}
	memcpy(g->uuid, b + EXT4_SB_UUID, sizeof(g->uuid));
	g->mkfs_time = xs_le32(b + EXT4_SB_MKFS_TIME);

	if (g->ro_compat & EXT4_RO_COMPAT_METADATA_CSUM) {
		if (b[EXT4_SB_CSUM_TYPE] != 1)
			ret = -EOPNOTSUPP;
		else if (xs_crc32c(~0U, b, EXT4_SB_CHECKSUM) !=
			 xs_le32(b + EXT4_SB_CHECKSUM))
			ret = -EBADMSG;
		else if (g->incompat & EXT4_INCOMPAT_CSUM_SEED)
			g->csum_seed = xs_le32(b + EXT4_SB_CSUM_SEED);
		else
			g->csum_seed = xs_crc32c(~0U, g->uuid,
						 sizeof(g->uuid));
	}
	if (ret)
		memset(g, 0, sizeof(*g));
	return ret;
}

int xs_ext4_group_has_super(const struct xs_ext4_geom *g, uint32_t group)
{
	if (group == 0)
		return 1;
	if (g->compat & EXT4_COMPAT_SPARSE_SUPER2)
		return group == g->backup_bgs[0] || group == g->backup_bgs[1];
	if (group == 1 || !(g->ro_compat & EXT4_RO_COMPAT_SPARSE_SUPER))
		return 1;
	if (!(group & 1))
		return 0;
	return is_power_of(group, 3) || is_power_of(group, 5) ||
	       is_power_of(group, 7);
}

int xs_ext4_desc_offset(const struct xs_ext4_geom *g, uint64_t ino,
			uint64_t *off)
{
	uint32_t per_block = g->block_size / g->desc_size;
	uint32_t group, dblock;
	uint64_t block, first;

	if (!xs_ext4_ino_valid(g, ino))
		return -ERANGE;
	group = xs_ext4_group_of(g, ino);
	dblock = group / per_block;

	if (!(g->incompat & EXT4_INCOMPAT_META_BG) ||
	    dblock < g->first_meta_bg) {
		/* The table follows the superblock's block (not block 1). */
		block = EXT4_SB_OFFSET / g->block_size + 1 + dblock;
	} else {
		/*
		 * meta_bg: each meta group (the groups one descriptor block
		 * describes) keeps its descriptor block in its first group,
		 * after that group's superblock backup if it has one.  With
		 * 1 KiB blocks and first_data_block 0 (bigalloc), group 0's
		 * superblock is in block 1, so its descriptors are one
		 * further on.
		 */
		first = (uint64_t)dblock * per_block;
		if (first >= g->group_count)
			return -ERANGE;
		block = first * g->blocks_per_group + g->first_data_block +
			xs_ext4_group_has_super(g, (uint32_t)first);
		if (dblock == 0 && g->block_size == 1024 &&
		    g->first_data_block == 0)
			block++;
	}
	if (block >= g->blocks_count)
		return -ERANGE;
	*off = block * g->block_size + (uint64_t)(group % per_block) *
				       g->desc_size;
	return 0;
}

int xs_ext4_parse_desc(const struct xs_ext4_geom *g, const uint8_t *b,
		       size_t len, uint64_t *itable)
{
	uint64_t table, table_blocks;

	/* Only the first 64 bytes matter, whatever s_desc_size is. */
	if (len < g->desc_size && len < EXT4_DESC_SIZE_MIN_64)
		return -EINVAL;
	/* No inode of this group has ever been used: not our file. */
	if (xs_le16(b + EXT4_BG_FLAGS) & EXT4_BG_INODE_UNINIT)
		return -ENOENT;
	table = xs_le32(b + EXT4_BG_ITABLE_LO);
	if (g->desc_size >= EXT4_DESC_SIZE_MIN_64)
		table |= (uint64_t)xs_le32(b + EXT4_BG_ITABLE_HI) << 32;
	table_blocks = div_up((uint64_t)g->inodes_per_group * g->inode_size,
			      g->block_size);
	if (table <= g->first_data_block || table >= g->blocks_count ||
	    table_blocks > g->blocks_count - table)
		return -EINVAL;
	*itable = table;
	return 0;
}

/*
 * metadata_csum: crc32c over the inode number, the generation and the
 * whole inode with its checksum fields taken as zero.  The high half
 * exists only when i_extra_isize covers it (@extra: 0 in a 128-byte
 * inode, which has no i_extra_isize); otherwise 16 bits compare.
 * The fields are zeroed in place for the CRC and put back after it, so
 * the CRC runs in one call, over the buffer as it is.
 */
static int inode_csum_ok(const struct xs_ext4_geom *g, uint64_t ino,
			 uint8_t *b, uint32_t extra)
{
	uint8_t lo[2], hi[2] = { 0, 0 };
	uint32_t size = g->inode_size, crc, want;
	int has_hi = FITS_USUALLY(extra, EXT4_I_CSUM_HI, 2);

	memcpy(lo, b + EXT4_I_CSUM_LO, 2);
	memset(b + EXT4_I_CSUM_LO, 0, 2);
	want = xs_le16(lo);
	if (has_hi) {
		memcpy(hi, b + EXT4_I_CSUM_HI, 2);
		memset(b + EXT4_I_CSUM_HI, 0, 2);
		want |= (uint32_t)xs_le16(hi) << 16;
	}
	crc = xs_crc32c_prefixed(g->csum_seed, (uint32_t)ino |
				 (uint64_t)xs_le32(b + EXT4_I_GENERATION) << 32,
				 b, size);
	memcpy(b + EXT4_I_CSUM_LO, lo, 2);
	if (has_hi)
		memcpy(b + EXT4_I_CSUM_HI, hi, 2);
	else
		crc &= 0xFFFF;
	return crc == want;
}

/*
 * A time: the signed seconds at @off and, where the inode has room for
 * it (@extra), the *_extra word at @xoff: two epoch bits extend the
 * seconds, 30 bits of nanoseconds follow; without it nanoseconds and
 * epoch bits are 0.  1 if it is a time (mask.h's rule).  Each field of
 * @t is stored once: @t may alias @b for the compiler (bytes).
 */
static inline int decode_time(const uint8_t *b, uint32_t extra,
			      unsigned int off, unsigned int xoff,
			      struct xs_time *t)
{
	uint32_t x = FITS_USUALLY(extra, xoff, 4) ? xs_le32(b + xoff) : 0;

	t->sec = (int32_t)xs_le32(b + off) + ((int64_t)(x & 3) << 32);
	t->nsec = x >> 2;
	/* A time out of range is a corrupt inode: not the straight path. */
	return __builtin_expect(XS_NSEC_VALID(t->nsec), 1);
}

int xs_ext4_parse_inode(const struct xs_ext4_geom *g, uint64_t ino,
			uint8_t *b, size_t len,
			struct xs_ext4_inode *in)
{
	int linux_os = g->creator_os == EXT4_OS_LINUX;
	uint32_t extra = 0, hi;
	int ok;

	if (len != g->inode_size || len < EXT4_GOOD_OLD_INODE ||
	    ino < 1 || ino > UINT32_MAX)
		return -EINVAL;
	if (len > EXT4_GOOD_OLD_INODE) {
		extra = xs_le16(b + EXT4_I_EXTRA_ISIZE);
		if (extra > len - EXT4_GOOD_OLD_INODE || (extra & 3))
			return -EINVAL;
	}
	in->mode = xs_le16(b + EXT4_I_MODE);
	in->uid = xs_le16(b + EXT4_I_UID) |
		  (uint32_t)xs_le16(b + EXT4_I_UID_HI) << 16;
	in->gid = xs_le16(b + EXT4_I_GID) |
		  (uint32_t)xs_le16(b + EXT4_I_GID_HI) << 16;
	in->links = xs_le16(b + EXT4_I_LINKS);
	in->generation = xs_le32(b + EXT4_I_GENERATION);
	/* The kernel reports BTIME exactly when i_crtime fits. */
	in->has_crtime = FITS_USUALLY(extra, EXT4_I_CRTIME, 4) &&
			 decode_time(b, extra, EXT4_I_CRTIME,
				     EXT4_I_CRTIME_EXTRA, &in->crtime);
	/*
	 * ctime as the kernel reports it: whole seconds without
	 * i_ctime_extra (128-byte inodes).  The directory stream checks each
	 * raw inode against statx's answer with it; the data version's check
	 * only where it has its nanoseconds (has_ctime).
	 */
	ok = decode_time(b, extra, EXT4_I_CTIME, EXT4_I_CTIME_EXTRA,
			 &in->ctime);
	in->ctime_ok = ok;
	in->has_ctime = ok && EXT4_FITS(extra, EXT4_I_CTIME_EXTRA, 4);

	/*
	 * i_version lives in osd1 only on Linux; extended-attribute inodes
	 * reuse the field for a reference count.
	 */
	in->has_version = linux_os &&
			  !(xs_le32(b + EXT4_I_FLAGS) & EXT4_EA_INODE_FL);
	hi = FITS_USUALLY(extra, EXT4_I_VERSION_HI, 4) ?
	     xs_le32(b + EXT4_I_VERSION_HI) : 0;
	in->version = in->has_version ?
		      (xs_le32(b + EXT4_I_VERSION) | (uint64_t)hi << 32) : 0;
	/*
	 * The kernel checks inode checksums only on Linux-made filesystems.
	 * Last, so that no decoded value is kept across the checksum's call.
	 */
	if ((g->ro_compat & EXT4_RO_COMPAT_METADATA_CSUM) && linux_os &&
	    !inode_csum_ok(g, ino, b, extra))
		return -EBADMSG;
	return 0;
}
