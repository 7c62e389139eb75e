// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The pure ext4 decoders (lib/ext4_disk.c) and crc32c against independent
 * oracles, on images made by mkfs.ext4 in regular files (no root, no
 * mount):
 *  - crc32c: the published CRC-32C check values;
 *  - inode location (group descriptor, meta_bg, bigalloc, 1 KiB blocks,
 *    32/64-byte descriptors, sparse_super2...): debugfs `imap`;
 *  - inode fields (crtime with epoch bits, generation, 64-bit i_version,
 *    32-bit ids, checksums incl. metadata_csum_seed): debugfs `stat`,
 *    after debugfs itself wrote unusual values with set_inode_field;
 *  - rejection of broken superblocks and torn inodes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "crc32c.h"
#include "ext4_disk.h"
#include "testhelp.h"
#include "ext4-oracle.h"

static char tmpdir[256];

static int read_at(const char *path, void *buf, size_t len, uint64_t off)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, len, (off_t)off);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* Format a fresh image; @mkfs has "%s" for the image path. */
static void make_image(char *img, size_t len, const char *name,
		       const char *mkfs)
{
	char cmd[512];

	snprintf(img, len, "%s/%s", tmpdir, name);
	snprintf(cmd, sizeof(cmd), mkfs, img);
	if (th_run(NULL, 0, "rm -f '%s' && truncate -s 64M '%s' && %s "
		   ">/dev/null 2>&1", img, img, cmd) != 0)
		fail_msg("cannot run: %s", cmd);
}

static void load_geom(const char *img, struct xs_ext4_geom *g)
{
	uint8_t sb[EXT4_SB_SIZE];

	assert_int_equal(read_at(img, sb, sizeof(sb), EXT4_SB_OFFSET), 0);
	assert_int_equal(xs_ext4_parse_super(sb, sizeof(sb), g), 0);
}

/* Where the decoders put inode @ino of image @img. */
static int locate(const char *img, const struct xs_ext4_geom *g,
		  uint64_t ino, uint64_t *off)
{
	uint8_t desc[EXT4_DESC_SIZE_MAX];
	uint64_t doff, itable;
	int ret;

	ret = xs_ext4_desc_offset(g, ino, &doff);
	if (ret)
		return ret;
	if (read_at(img, desc, g->desc_size, doff))
		return -EIO;
	/* Location only: unused groups of a fresh image are INODE_UNINIT. */
	desc[EXT4_BG_FLAGS] &= (uint8_t)~EXT4_BG_INODE_UNINIT;
	/* As the prober: no more than the 64 bytes that hold the table. */
	ret = xs_ext4_parse_desc(g, desc, g->desc_size < 64 ? g->desc_size : 64,
				 &itable);
	if (ret)
		return ret;
	return xs_ext4_inode_offset(g, ino, itable, off);
}

typedef uint32_t crc_fn(uint32_t crc, const void *buf, size_t len);

static void check_crc_vectors(crc_fn *crc)
{
	uint8_t buf[32];
	int i;

	/* The CRC-32C check value, and the RFC 3720 (iSCSI) vectors. */
	assert_int_equal(~crc(~0U, "123456789", 9), 0xE3069283);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(~crc(~0U, buf, 32), 0x8A9136AA);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(~crc(~0U, buf, 32), 0x62A8AB43);
	for (i = 0; i < 32; i++)
		buf[i] = (uint8_t)i;
	assert_int_equal(~crc(~0U, buf, 32), 0x46DD794E);
	/* Chaining: one call over a+b equals two calls. */
	assert_int_equal(crc(crc(7, buf, 10), buf + 10, 22), crc(7, buf, 32));
}

static void test_crc32c(void **state)
{
	static const uint8_t pre[8] = { 0xef, 0xcd, 0xab, 0x89,
					0x67, 0x45, 0x23, 0x01 };
	uint8_t buf[300];
	size_t off, len;
	unsigned seed = 1;

	(void)state;
	check_crc_vectors(xs_crc32c);
	check_crc_vectors(xs_crc32c_table);
	print_message("crc32 instruction: %s\n",
		      xs_crc32c_insn_available() ? "used" : "not available");
	/* Both ways agree at every alignment and length an inode can have. */
	for (off = 0; off < sizeof(buf); off++)
		buf[off] = (uint8_t)(rand_r(&seed) >> 7);
	for (off = 0; off < 8; off++)
		for (len = 0; len + off <= sizeof(buf); len++)
			assert_int_equal(xs_crc32c(0x1234567, buf + off, len),
					 xs_crc32c_table(0x1234567, buf + off,
							 len));
	/* A prefix is its eight bytes, least significant first. */
	for (len = 0; len <= sizeof(buf); len++)
		assert_int_equal(xs_crc32c_prefixed(7, 0x0123456789abcdefULL,
						    buf, len),
				 xs_crc32c_table(xs_crc32c_table(7, pre, 8),
						 buf, len));
}

static const char *const layouts[] = {
	"mkfs.ext4 -q -F -b 4096 %s",
	"mkfs.ext4 -q -F -b 1024 %s",
	"mkfs.ext4 -q -F -b 1024 -g 1024 -N 8192 %s",
	"mkfs.ext4 -q -F -b 2048 -g 2048 %s",
	"mkfs.ext4 -q -F -b 1024 -g 1024 -O ^flex_bg %s",
	"mkfs.ext4 -q -F -b 1024 -g 1024 -O ^64bit %s",
	"mkfs.ext4 -q -F -b 1024 -g 1024 -O 64bit -E desc_size=128 %s",
	"mkfs.ext4 -q -F -O bigalloc %s",
	"mkfs.ext4 -q -F -b 1024 -C 16384 -O bigalloc %s",
	"mkfs.ext4 -q -F -b 1024 -g 1024 -O meta_bg,^resize_inode %s",
	"mkfs.ext4 -q -F -b 1024 -g 1024 -O meta_bg,^resize_inode,^64bit %s",
	"mkfs.ext4 -q -F -b 4096 -g 256 -O meta_bg,^resize_inode %s",
	"mkfs.ext4 -q -F -b 1024 -C 16384 -O bigalloc,meta_bg,^resize_inode %s",
	"mkfs.ext4 -q -F -b 1024 -C 4096 -g 2048 -O bigalloc,meta_bg,^resize_inode %s",
	"mkfs.ext4 -q -F -b 1024 -g 1024 -O sparse_super2 %s",
	"mkfs.ext4 -q -F -b 1024 -g 1024 -O ^sparse_super,^resize_inode %s",
	"mkfs.ext4 -q -F -b 1024 -g 1024 -I 128 %s",
	"mkfs.ext4 -q -F -b 4096 -I 1024 %s",
	"mkfs.ext2 -q -F -b 1024 -g 1024 %s",
	"mkfs.ext3 -q -F -b 1024 -g 1024 %s",
	"mkfs.ext2 -q -F -r 0 -b 1024 -g 1024 %s",
	"mkfs.ext2 -q -F -o hurd -b 1024 -g 1024 %s",
};

#define MAX_PROBES	400

/* Every group's first and last inode, located as debugfs imap does. */
static void test_locations(void **state)
{
	static uint64_t inos[MAX_PROBES], want[MAX_PROBES];
	struct xs_ext4_geom g;
	char img[300];
	size_t i;
	uint32_t grp, step;
	int n, k;

	(void)state;
	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		make_image(img, sizeof(img), "loc.img", layouts[i]);
		load_geom(img, &g);
		n = 0;
		inos[n++] = 2;
		inos[n++] = 11;
		step = g.group_count / (MAX_PROBES / 2 - 2) + 1;
		for (grp = 0; grp < g.group_count && n + 2 <= MAX_PROBES;
		     grp += step) {
			inos[n++] = (uint64_t)grp * g.inodes_per_group + 1;
			inos[n++] = (uint64_t)(grp + 1) * g.inodes_per_group;
		}
		inos[n++] = g.inodes_count;
		assert_int_equal(ext4_oracle_imap(img, inos, n, g.block_size,
						  want), 0);
		for (k = 0; k < n; k++) {
			uint64_t off = 0;

			if (locate(img, &g, inos[k], &off) != 0 ||
			    off != want[k])
				fail_msg("%s: inode %" PRIu64 " at %" PRIu64
					 ", debugfs says %" PRIu64, layouts[i],
					 inos[k], off, want[k]);
		}
		/* Outside the filesystem. */
		assert_int_equal(locate(img, &g, 0, &want[0]), -ERANGE);
		assert_int_equal(locate(img, &g, (uint64_t)g.inodes_count + 1,
					&want[0]), -ERANGE);
	}
}

/* Decode inode @ino of @img and compare with debugfs's stat of it, @op. */
static void check_inode(const char *img, const struct xs_ext4_geom *g,
			uint64_t ino, int csum_expected,
			const struct ext4_oracle *op)
{
	int linux_os = g->creator_os == EXT4_OS_LINUX;
	uint8_t raw[EXT4_INODE_MAX], copy[EXT4_INODE_MAX];
	const struct ext4_oracle o = *op;
	struct xs_ext4_inode in;
	uint64_t off;

	assert_int_equal(locate(img, g, ino, &off), 0);
	assert_int_equal(read_at(img, raw, g->inode_size, off), 0);
	memcpy(copy, raw, g->inode_size);
	assert_int_equal(xs_ext4_parse_inode(g, ino, raw, g->inode_size, &in),
			 0);
	/* The checksum fields are zeroed only while the CRC runs. */
	assert_memory_equal(raw, copy, g->inode_size);
	assert_int_equal(in.mode & 07777, o.mode);
	assert_int_equal(in.uid, o.uid);
	assert_int_equal(in.gid, o.gid);
	assert_int_equal(in.links, o.links);
	assert_int_equal(in.generation, o.generation);
	/* debugfs prints osd1 as Version even where it means something else. */
	assert_int_equal(in.has_version, o.has_version && linux_os);
	if (in.has_version)
		assert_int_equal(in.version, o.version);
	/* The kernel (and debugfs) show crtime when i_extra_isize covers it. */
	assert_int_equal(in.has_crtime, o.has_crtime && o.has_extra &&
			 o.extra_isize >= 20);
	if (in.has_crtime) {
		assert_int_equal(in.crtime.sec, o.crtime_sec);
		assert_int_equal(in.crtime.nsec, o.crtime_nsec);
	}

	/* A torn or corrupted inode fails its checksum (if it has one). */
	raw[0x40] ^= 0x5a;
	assert_int_equal(xs_ext4_parse_inode(g, ino, raw, g->inode_size, &in),
			 csum_expected ? -EBADMSG : 0);
	raw[0x40] ^= 0x5a;
	if (g->inode_size > 160) {
		raw[g->inode_size - 1] ^= 1;
		assert_int_equal(xs_ext4_parse_inode(g, ino, raw,
						     g->inode_size, &in),
				 csum_expected ? -EBADMSG : 0);
		raw[g->inode_size - 1] ^= 1;
	}
	/* Wrong inode number: the checksum is seeded with it. */
	if (csum_expected)
		assert_int_equal(xs_ext4_parse_inode(g, ino + 1, raw,
						     g->inode_size, &in),
				 -EBADMSG);
}

struct inode_case {
	const char	*mkfs;
	const char	*after;		/* extra command on the image, or NULL */
	int		csum;
};

static const struct inode_case inode_cases[] = {
	{ "mkfs.ext4 -q -F -d %s/src %s", NULL, 1 },
	{ "mkfs.ext4 -q -F -b 1024 -d %s/src %s", NULL, 1 },
	{ "mkfs.ext4 -q -F -O ^metadata_csum -d %s/src %s", NULL, 0 },
	{ "mkfs.ext4 -q -F -I 128 -d %s/src %s", NULL, 1 },
	{ "mkfs.ext4 -q -F -I 1024 -d %s/src %s", NULL, 1 },
	/* The checksum seed stays when the UUID changes. */
	{ "mkfs.ext4 -q -F -O metadata_csum_seed -d %s/src %s",
	  "tune2fs -U random", 1 },
	{ "mkfs.ext2 -q -F -d %s/src %s", NULL, 0 },
	{ "mkfs.ext3 -q -F -I 128 -d %s/src %s", NULL, 0 },
	{ "mkfs.ext2 -q -F -r 0 -d %s/src %s", NULL, 0 },
	{ "mkfs.ext2 -q -F -o hurd -d %s/src %s", NULL, 0 },
};

/* debugfs writes values the decoders must get right. */
static const char odd_values[] =
	"sif <12> generation 0x89abcdef\n"
	"sif <12> uid_lo 0\n"
	"sif <12> uid_hi 1\n"
	"sif <12> gid_lo 0\n"
	"sif <12> gid_hi 2\n"
	"sif <12> version_lo 0x345\n"
	"sif <12> version_hi 0x12\n"
	"sif <12> crtime_lo 0x80000001\n"
	"sif <12> crtime_extra 0x1d6f3455\n"
	"sif <13> generation 1\n"
	"sif <13> crtime_extra 0x3b9ac9fe\n";

static void test_inodes(void **state)
{
	/* The files mkfs -d made, and the root directory. */
	enum { NINOS = 5 };
	static const uint64_t inos[NINOS] = { 11, 12, 13, 14, 2 };
	struct ext4_oracle o[NINOS];
	struct xs_ext4_geom g;
	char img[300], mkfs[512];
	size_t i;
	int k;

	(void)state;
	assert_int_equal(th_run(NULL, 0, "mkdir -p '%s/src/d' && echo x > "
				"'%s/src/a' && ln -sf a '%s/src/l' && "
				"printf '%s' > '%s/odd'", tmpdir, tmpdir,
				tmpdir, odd_values, tmpdir), 0);
	for (i = 0; i < sizeof(inode_cases) / sizeof(inode_cases[0]); i++) {
		const struct inode_case *c = &inode_cases[i];

		snprintf(mkfs, sizeof(mkfs), c->mkfs, tmpdir, "%s");
		make_image(img, sizeof(img), "ino.img", mkfs);
		if (c->after)
			assert_int_equal(th_run(NULL, 0, "%s '%s' >/dev/null "
						"2>&1", c->after, img), 0);
		assert_int_equal(th_run(NULL, 0, "debugfs -w -f '%s/odd' '%s'"
					" >/dev/null 2>&1", tmpdir, img), 0);
		load_geom(img, &g);
		if (c->after)	/* the seed is no longer crc32c(uuid) */
			assert_int_not_equal(g.csum_seed,
					     xs_crc32c(~0U, g.uuid, 16));
		assert_int_equal(ext4_oracle_stat_many(img, inos, NINOS, o), 0);
		for (k = 0; k < NINOS; k++)
			check_inode(img, &g, inos[k], c->csum, &o[k]);
	}
}

/* Decoded values of the odd inode: checked without debugfs's decoding. */
static void test_odd_values(void **state)
{
	uint8_t raw[EXT4_INODE_MAX];
	struct xs_ext4_inode in;
	struct xs_ext4_geom g;
	char img[300], mkfs[512];
	uint64_t off;

	(void)state;
	snprintf(mkfs, sizeof(mkfs), "mkfs.ext4 -q -F -d %s/src %%s", tmpdir);
	make_image(img, sizeof(img), "odd.img", mkfs);
	assert_int_equal(th_run(NULL, 0, "debugfs -w -f '%s/odd' '%s' "
				">/dev/null 2>&1", tmpdir, img), 0);
	load_geom(img, &g);
	assert_int_equal(locate(img, &g, 12, &off), 0);
	assert_int_equal(read_at(img, raw, g.inode_size, off), 0);
	assert_int_equal(xs_ext4_parse_inode(&g, 12, raw, g.inode_size, &in),
			 0);
	assert_int_equal(in.generation, 0x89abcdef);
	assert_int_equal(in.uid, 0x10000);
	assert_int_equal(in.gid, 0x20000);
	assert_int_equal(in.version, 0x1200000345ULL);
	/* 0x80000001 is -2147483647; epoch bits 01 add 2^32. */
	assert_true(in.has_crtime);
	assert_int_equal(in.crtime.sec, -2147483647LL + 4294967296LL);
	assert_int_equal(in.crtime.nsec, 0x1d6f3455 >> 2);

	/* 0x3b9ac9fe >> 2 = 250000000 - 1... nanoseconds in range. */
	assert_int_equal(locate(img, &g, 13, &off), 0);
	assert_int_equal(read_at(img, raw, g.inode_size, off), 0);
	assert_int_equal(xs_ext4_parse_inode(&g, 13, raw, g.inode_size, &in),
			 0);
	assert_true(in.has_crtime);
	assert_int_equal(in.crtime.nsec, 0x3b9ac9fe >> 2);
	assert_int_equal(in.crtime.sec & 0xffffffff00000000LL,
			 (int64_t)2 << 32);

	/* i_extra_isize not a multiple of 4, or past the inode: not sane. */
	raw[EXT4_I_EXTRA_ISIZE] = 30;
	assert_int_equal(xs_ext4_parse_inode(&g, 13, raw, g.inode_size, &in),
			 -EINVAL);
	raw[EXT4_I_EXTRA_ISIZE] = 0;
	raw[EXT4_I_EXTRA_ISIZE + 1] = 1;
	assert_int_equal(xs_ext4_parse_inode(&g, 13, raw, g.inode_size, &in),
			 -EINVAL);
	/* Wrong length. */
	assert_int_equal(xs_ext4_parse_inode(&g, 13, raw, 128, &in), -EINVAL);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Re-seal a mutated superblock so only the mutation is judged. */
static void reseal(uint8_t *sb)
{
	put32(sb + EXT4_SB_CHECKSUM, xs_crc32c(~0U, sb, EXT4_SB_CHECKSUM));
}

static void test_bad_super(void **state)
{
	uint8_t sb[EXT4_SB_SIZE], m[EXT4_SB_SIZE];
	struct xs_ext4_geom g;
	char img[300];

	(void)state;
	make_image(img, sizeof(img), "sb.img",
		   "mkfs.ext4 -q -F -b 1024 -g 1024 %s");
	assert_int_equal(read_at(img, sb, sizeof(sb), EXT4_SB_OFFSET), 0);
	assert_int_equal(xs_ext4_parse_super(sb, sizeof(sb), &g), 0);
	assert_int_equal(g.block_size, 1024);
	assert_int_equal(g.inode_size, 256);
	assert_int_equal(g.group_count, 64);
	assert_int_equal(xs_ext4_parse_super(sb, 1023, &g), -EINVAL);

#define MUTATE(off, val, want) do {					\
		memcpy(m, sb, sizeof(m));				\
		put32(m + (off), (val));				\
		reseal(m);						\
		assert_int_equal(xs_ext4_parse_super(m, sizeof(m), &g),	\
				 (want));				\
	} while (0)
	MUTATE(EXT4_SB_MAGIC, 0xEF54, -EINVAL);
	MUTATE(EXT4_SB_LOG_BLOCK, 7, -EINVAL);
	MUTATE(EXT4_SB_INODES_PER_GRP, 0, -EINVAL);
	MUTATE(EXT4_SB_INODES_PER_GRP, 8 * 1024 + 1, -EINVAL);
	MUTATE(EXT4_SB_BLOCKS_PER_GRP, 0, -EINVAL);
	MUTATE(EXT4_SB_INODES_COUNT, 12345, -EINVAL);
	MUTATE(EXT4_SB_FIRST_DATA, 0, -EINVAL);
	MUTATE(EXT4_SB_CREATOR_OS, 9, -EINVAL);
	MUTATE(EXT4_SB_REV_LEVEL, 2, -EOPNOTSUPP);
	/* Inode size 96, 384, 2048 > block size (16-bit field + neighbour). */
	MUTATE(EXT4_SB_INODE_SIZE, 96, -EINVAL);
	MUTATE(EXT4_SB_INODE_SIZE, 384, -EINVAL);
	MUTATE(EXT4_SB_INODE_SIZE, 2048, -EINVAL);
	/* 64bit (mkfs default) with a 48-byte descriptor. */
	memcpy(m, sb, sizeof(m));
	m[EXT4_SB_DESC_SIZE] = 48;
	m[EXT4_SB_DESC_SIZE + 1] = 0;
	reseal(m);
	assert_true(xs_le32(sb + EXT4_SB_INCOMPAT) & EXT4_INCOMPAT_64BIT);
	assert_int_equal(xs_ext4_parse_super(m, sizeof(m), &g), -EINVAL);
	/* Unknown incompatible feature, external journal device. */
	MUTATE(EXT4_SB_INCOMPAT, xs_le32(sb + EXT4_SB_INCOMPAT) | 0x80000000U,
	       -EOPNOTSUPP);
	MUTATE(EXT4_SB_INCOMPAT, xs_le32(sb + EXT4_SB_INCOMPAT) |
	       EXT4_INCOMPAT_JOURNAL_DEV, -EOPNOTSUPP);
	/* meta_bg starting beyond the descriptor blocks. */
	MUTATE(EXT4_SB_INCOMPAT, xs_le32(sb + EXT4_SB_INCOMPAT) |
	       EXT4_INCOMPAT_META_BG, 0);
	memcpy(m, sb, sizeof(m));
	put32(m + EXT4_SB_INCOMPAT, xs_le32(sb + EXT4_SB_INCOMPAT) |
	      EXT4_INCOMPAT_META_BG);
	put32(m + EXT4_SB_FIRST_META_BG, 1000);
	reseal(m);
	assert_int_equal(xs_ext4_parse_super(m, sizeof(m), &g), -EINVAL);
#undef MUTATE

	/* metadata_csum: any changed byte without a new checksum. */
	memcpy(m, sb, sizeof(m));
	m[0x200] ^= 1;
	assert_int_equal(xs_ext4_parse_super(m, sizeof(m), &g), -EBADMSG);
	/* The same sealed again is fine (an unused byte). */
	reseal(m);
	assert_int_equal(xs_ext4_parse_super(m, sizeof(m), &g), 0);
}

/*
 * Garbage in, no crash and no out-of-range offset out: random mutations
 * of a real superblock (re-sealed, so the checks behind the checksum are
 * exercised) and random inodes.  Deterministic (fixed seed).
 */
static void test_garbage(void **state)
{
	uint8_t sb[EXT4_SB_SIZE], m[EXT4_SB_SIZE], raw[256];
	struct xs_ext4_inode in;
	struct xs_ext4_geom g;
	char img[300];
	uint64_t off, ino;
	int i, k, ret, accepted = 0;

	(void)state;
	make_image(img, sizeof(img), "fz.img",
		   "mkfs.ext4 -q -F -b 1024 -g 1024 -O meta_bg,^resize_inode %s");
	assert_int_equal(read_at(img, sb, sizeof(sb), EXT4_SB_OFFSET), 0);
	srand(1);
	for (i = 0; i < 20000; i++) {
		memcpy(m, sb, sizeof(m));
		for (k = rand() % 4; k >= 0; k--)
			m[rand() % 0x280] = (uint8_t)rand();
		if (rand() % 2)
			reseal(m);
		ret = xs_ext4_parse_super(m, sizeof(m), &g);
		if (ret) {
			assert_true(ret == -EINVAL || ret == -EBADMSG ||
				    ret == -EOPNOTSUPP);
			continue;
		}
		accepted++;
		assert_true(g.block_size >= 1024 && g.block_size <= 65536);
		assert_true(g.inode_size >= 128 && g.inode_size <= g.block_size);
		assert_true((uint64_t)g.group_count * g.inodes_per_group ==
			    g.inodes_count);
		for (k = 0; k < 8; k++) {
			ino = 1 + (uint64_t)rand() % g.inodes_count;
			ret = xs_ext4_desc_offset(&g, ino, &off);
			assert_true(ret == 0 || ret == -ERANGE);
			if (!ret)
				assert_true(off + g.desc_size <=
					    g.blocks_count * g.block_size);
		}
	}
	assert_true(accepted > 100);	/* the checks were reached */

	load_geom(img, &g);
	for (i = 0; i < 20000; i++) {
		for (k = 0; k < (int)sizeof(raw); k++)
			raw[k] = (uint8_t)rand();
		if (i % 2) {	/* a plausible i_extra_isize */
			raw[EXT4_I_EXTRA_ISIZE] = (uint8_t)(4 * (rand() % 33));
			raw[EXT4_I_EXTRA_ISIZE + 1] = 0;
		}
		ret = xs_ext4_parse_inode(&g, 12, raw, sizeof(raw), &in);
		assert_true(ret == 0 || ret == -EINVAL || ret == -EBADMSG);
		if (!ret && in.has_crtime)
			assert_true(in.crtime.nsec < 1000000000);
	}
	/* Without metadata_csum, sane garbage decodes. */
	g.ro_compat &= ~EXT4_RO_COMPAT_METADATA_CSUM;
	raw[EXT4_I_EXTRA_ISIZE] = 32;
	raw[EXT4_I_EXTRA_ISIZE + 1] = 0;
	raw[EXT4_I_CRTIME_EXTRA] = 0;	/* nanoseconds in range */
	raw[EXT4_I_CRTIME_EXTRA + 3] = 0;
	raw[EXT4_I_FLAGS + 2] &= (uint8_t)~(EXT4_EA_INODE_FL >> 16);
	assert_int_equal(xs_ext4_parse_inode(&g, 12, raw, sizeof(raw), &in), 0);
	assert_true(in.has_crtime && in.has_version);
}

static void test_has_super(void **state)
{
	struct xs_ext4_geom g;
	uint32_t grp;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.ro_compat = EXT4_RO_COMPAT_SPARSE_SUPER;
	for (grp = 0; grp < 400; grp++) {
		int want = grp == 0 || grp == 1 || grp == 3 || grp == 5 ||
			   grp == 7 || grp == 9 || grp == 25 || grp == 27 ||
			   grp == 49 || grp == 81 || grp == 125 ||
			   grp == 243 || grp == 343;

		assert_int_equal(xs_ext4_group_has_super(&g, grp), want);
	}
	g.ro_compat = 0;
	assert_int_equal(xs_ext4_group_has_super(&g, 10), 1);
	g.compat = EXT4_COMPAT_SPARSE_SUPER2;
	g.backup_bgs[0] = 1;
	g.backup_bgs[1] = 63;
	assert_int_equal(xs_ext4_group_has_super(&g, 0), 1);
	assert_int_equal(xs_ext4_group_has_super(&g, 1), 1);
	assert_int_equal(xs_ext4_group_has_super(&g, 3), 0);
	assert_int_equal(xs_ext4_group_has_super(&g, 63), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c),
		cmocka_unit_test(test_has_super),
		cmocka_unit_test(test_bad_super),
		cmocka_unit_test(test_locations),
		cmocka_unit_test(test_inodes),
		cmocka_unit_test(test_odd_values),
		cmocka_unit_test(test_garbage),
	};
	int ret;

	if (!ext4_oracle_available()) {
		fprintf(stderr, "SKIP: needs mkfs.ext4 and debugfs\n");
		return TH_SKIP;
	}
	if (!th_mkdtemp(tmpdir, sizeof(tmpdir)))
		return 1;
	ret = th_run_tests(tests);
	th_rmrf(tmpdir);
	return ret;
}
