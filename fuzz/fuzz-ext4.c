// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target over the ext4 on-disk decoders: superblock, group
 * descriptor location and contents, inode location and contents.  The
 * input is a superblock (1024 bytes), an inode number (8 bytes, little
 * endian), then a group descriptor and a raw inode.  Each piece is copied
 * into a buffer of exactly its size, so AddressSanitizer sees any read
 * past it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "ext4_disk.h"

static uint8_t *dup_exact(const uint8_t *p, size_t len)
{
	uint8_t *d = malloc(len ? len : 1);

	if (d && len)
		memcpy(d, p, len);
	return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xs_ext4_geom g;
	struct xs_ext4_inode in;
	uint64_t ino = 0, off, itable;
	size_t dlen, rest;
	uint8_t *sb, *desc, *inode;
	int i;

	if (size < 1024 + 8)
		return 0;
	sb = dup_exact(data, 1024);
	if (!sb)
		return 0;
	if (xs_ext4_parse_super(sb, 1024, &g)) {
		free(sb);
		return 0;
	}
	free(sb);
	for (i = 0; i < 8; i++)
		ino |= (uint64_t)data[1024 + i] << (8 * i);
	(void)xs_ext4_desc_offset(&g, ino, &off);
	if (ino >= 1 && ino <= g.inodes_count)
		(void)xs_ext4_group_has_super(&g, xs_ext4_group_of(&g, ino));

	data += 1032;
	rest = size - 1032;
	dlen = g.desc_size < 64 ? g.desc_size : 64;
	if (rest < dlen)
		return 0;
	desc = dup_exact(data, dlen);
	if (!desc)
		return 0;
	if (xs_ext4_parse_desc(&g, desc, dlen, &itable) == 0)
		(void)xs_ext4_inode_offset(&g, ino, itable, &off);
	free(desc);
	data += dlen;
	rest -= dlen;
	if (rest < g.inode_size)
		return 0;
	inode = dup_exact(data, g.inode_size);
	if (!inode)
		return 0;
	(void)xs_ext4_parse_inode(&g, ino, inode, g.inode_size, &in);
	free(inode);
	return 0;
}
