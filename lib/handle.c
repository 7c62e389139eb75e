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

#define HANDLE_MAX	128	/* MAX_HANDLE_SZ */

struct handle_buf {
	struct file_handle	fh;
	unsigned char		bytes[HANDLE_MAX];
};

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

int xs_handle_gen(const struct xs_target *t, uint32_t magic,
		  const struct xs_stat *st, uint64_t *gen)
{
	struct handle_buf h;
	uint64_t ino;
	int mount_id, flags;

	switch (magic) {
	case XS_EXT4_SUPER_MAGIC:
	case XS_XFS_SUPER_MAGIC:
	case XS_TMPFS_MAGIC:
	case XS_BTRFS_SUPER_MAGIC:
		break;
	default:
		return -EOPNOTSUPP;
	}

	flags = t->flags & AT_EMPTY_PATH;
	if (!(t->flags & AT_SYMLINK_NOFOLLOW))
		flags |= AT_SYMLINK_FOLLOW;
	h.fh.handle_bytes = HANDLE_MAX;
	if (name_to_handle_at(t->dfd, t->path, &h.fh, &mount_id, flags))
		return -errno;
	if (decode(magic, &h.fh, &ino, gen))
		return -EPROTO;
	if (ino != st->ino)
		return -ESTALE;
	return 0;
}

/*
 * The mount ID without a handle: asked with handle_bytes 0, the kernel
 * answers EOVERFLOW but fills in the mount ID - one syscall, no open.
 * Since Linux 6.12 AT_HANDLE_MNT_ID_UNIQUE returns the never-reused 64-bit
 * ID instead; older kernels reject the flag with EINVAL, remembered once.
 */
#define XS_AT_HANDLE_MNT_ID_UNIQUE	0x001

static int unique_unsupported;

static int mnt_id_call(const struct xs_target *t, int flags, void *id)
{
	struct file_handle fh = { .handle_bytes = 0 };

	if (name_to_handle_at(t->dfd, t->path, &fh, id, flags) == 0 ||
	    errno == EOVERFLOW)
		return 0;
	return -errno;
}

int xs_handle_mnt_id(const struct xs_target *t, struct xs_stat *st)
{
	int flags = t->flags & AT_EMPTY_PATH, ret;
	uint64_t unique = 0;
	int id = 0;

	if (!(t->flags & AT_SYMLINK_NOFOLLOW))
		flags |= AT_SYMLINK_FOLLOW;
	if (!__atomic_load_n(&unique_unsupported, __ATOMIC_RELAXED)) {
		ret = mnt_id_call(t, flags | XS_AT_HANDLE_MNT_ID_UNIQUE,
				  &unique);
		if (ret == 0) {
			st->mnt_id = unique;
			st->mnt_id_unique = 1;
			return 0;
		}
		if (ret != -EINVAL)
			return ret;
		__atomic_store_n(&unique_unsupported, 1, __ATOMIC_RELAXED);
	}
	ret = mnt_id_call(t, flags, &id);
	if (ret)
		return ret;
	st->mnt_id = (uint32_t)id;
	st->mnt_id_unique = 0;
	return 0;
}
