// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Inode generation from name_to_handle_at(2): one unprivileged syscall,
 * no open, works on symlinks, device nodes and unreadable files.  A handle
 * is decoded only for filesystems whose layout is known, and only if the
 * inode number inside it equals the one stat returned (the path may have
 * been replaced in between).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include "internal.h"
#include "syscall.h"

_Static_assert(sizeof(((struct xs_handle *)0)->bytes) == 128,
	       "room for MAX_HANDLE_SZ");

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));	/* handles are in host byte order */
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Decode (ino, gen) from a handle, by filesystem; -EOPNOTSUPP if unknown. */
static int decode(uint32_t magic, const struct file_handle *fh,
		  uint64_t *ino, uint64_t *gen)
{
	const unsigned char *b = fh->f_handle;
	unsigned len = fh->handle_bytes;
	int type = fh->handle_type;

	switch (magic) {
	case XS_EXT4_SUPER_MAGIC:
		/* FILEID_INO32_GEN (1) or with parent (2): ino, gen. */
		if ((type == 1 || type == 2) && len >= 8) {
			*ino = get32(b);
			*gen = get32(b + 4);
			return 0;
		}
		break;
	case XS_XFS_SUPER_MAGIC:
		if ((type == 1 || type == 2) && len >= 8) {
			*ino = get32(b);
			*gen = get32(b + 4);
			return 0;
		}
		/* XFS_FILEID_TYPE_64FLAG | INO32_GEN: 64-bit ino, gen. */
		if ((type == 0x81 || type == 0x82) && len >= 12) {
			*ino = get64(b);
			*gen = get32(b + 8);
			return 0;
		}
		break;
	case XS_TMPFS_MAGIC:
		/* shmem: gen, ino low, ino high. */
		if (type == 1 && len >= 12) {
			*gen = get32(b);
			*ino = get32(b + 4) | (uint64_t)get32(b + 8) << 32;
			return 0;
		}
		break;
	case XS_BTRFS_SUPER_MAGIC:
		/* FILEID_BTRFS_WITHOUT_PARENT: objectid, root, gen. */
		if ((type == 0x4d || type == 0x4e || type == 0x4f) &&
		    len >= 20) {
			*ino = get64(b);
			*gen = get32(b + 16);
			return 0;
		}
		break;
	}
	return -EOPNOTSUPP;
}

static int known(uint32_t magic)
{
	switch (magic) {
	case XS_EXT4_SUPER_MAGIC:
	case XS_XFS_SUPER_MAGIC:
	case XS_TMPFS_MAGIC:
	case XS_BTRFS_SUPER_MAGIC:
		return 1;
	}
	return 0;
}

int xs_handle_decode_gen(const struct xs_handle *h, uint32_t magic,
			 const struct xs_stat *st, uint64_t *gen)
{
	uint64_t ino;

	if (!known(magic))
		return -EOPNOTSUPP;
	if (decode(magic, &h->fh, &ino, gen))
		return -EPROTO;
	if (ino != st->ino)
		return -ESTALE;
	return 0;
}

int xs_handle_gen(const struct xs_target *t, uint32_t magic,
		  const struct xs_stat *st, struct xs_mnt_id *mnt,
		  uint64_t *gen)
{
	struct xs_handle h;
	int ret;

	if (!known(magic))
		return -EOPNOTSUPP;
	h.fh.handle_bytes = sizeof(h.bytes);
	ret = xs_name_to_handle(t, &h.fh, mnt);
	if (ret)
		return ret;
	return xs_handle_decode_gen(&h, magic, st, gen);
}

