// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * XSTAT_REQUEST_FS_ID: a name of the filesystem that outlives the mount,
 * for telling "the same file" across unmount, mount and reboot, where
 * st_dev (another loop device, btrfs's anonymous devices) and the mount
 * ID (new on every mount) do not.
 *
 * Measured on Linux 6.18, as root and as nobody (tests/test-fs-id.c):
 *  - FS_IOC_GETFSUUID (6.5+) answers on any directory of ext4, xfs and
 *    tmpfs without privilege: the superblock's UUID.  btrfs answers
 *    ENOTTY.  A root ext4 of a VM image answered 16 zero bytes: no name.
 *  - statfs(2) f_fsid: btrfs folds its UUID with the subvolume's root ID
 *    (btrfs_statfs()), ext4 folds its UUID (ext4_statfs()); xfs makes it
 *    from the device number, which another loop device changes.  So
 *    f_fsid is taken only where it is made from the UUID.
 *
 * The answer is a fact of the filesystem: it is kept per mount, keyed by
 * the unique mount ID, in a small table written and read as seqslot.h
 * says (with st_dev: the subvolumes of one btrfs mount have names of
 * their own).  Without a unique mount ID every call probes again.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include "fs.h"
#include "syscall.h"
#include "anchor.h"
#include "fscache.h"
#include "result.h"
#include "seqslot.h"

/* <linux/fs.h> of 6.5: struct fsuuid2 and FS_IOC_GETFSUUID. */
struct xs_fsuuid2 {
	uint8_t		len;
	uint8_t		uuid[16];
};
#define XS_FS_IOC_GETFSUUID	_IOR(0x15, 0, struct xs_fsuuid2)

#define FSID_BITS	4	/* 16 slots */

/* A slot's words: st_dev (btrfs subvolumes share a mount), the name. */
enum { FSID_DEV, FSID_ID0, FSID_ID1, FSID_SOURCE, FSID_WORDS };

_Static_assert(FSID_WORDS <= XS_SEQSLOT_WORDS, "a slot holds that many");

static struct xs_seqslot fsid_slots[1 << FSID_BITS];

static uint64_t key_of(const struct xs_stat *st)
{
	if (st->fs_key)
		return st->fs_key;
	return st->mnt_id_unique ? st->mnt_id : 0;
}

/* The device's two numbers as one word (only compared with another). */
static uint64_t dev_of(const struct xs_stat *st)
{
	uint64_t dev;

	_Static_assert(offsetof(struct xs_stat, dev_minor) ==
		       offsetof(struct xs_stat, dev_major) + 4,
		       "dev_major and dev_minor side by side");
	memcpy(&dev, &st->dev_major, sizeof(dev));
	return dev;
}

static void set(struct xs_stat *st, const uint64_t id[2], uint32_t source)
{
	memcpy(st->fs_id, id, sizeof(st->fs_id));
	st->fs_id_source = source;
	st->mask |= XSTAT_REQUEST_FS_ID;
}

/*
 * Inline in xs_fs_id_get() too: a mount's later calls find it with no
 * call.  @key: key_of(@st).
 */
static inline __attribute__((always_inline)) int
fs_id_cached(struct xs_stat *st, uint64_t key)
{
	uint64_t w[FSID_WORDS];
	struct xs_seqslot *s = xs_seqslot_at(fsid_slots, FSID_BITS, key);

	if (!key || !xs_seqslot_read(s, key, w, FSID_WORDS) ||
	    w[FSID_DEV] != dev_of(st))
		return -ENOENT;
	set(st, &w[FSID_ID0], (uint32_t)w[FSID_SOURCE]);
	return 0;
}

/*
 * From the record as the backend left it, before any supplement: no
 * fs_key is set yet (xs_stat_clear_rest()), so key_of() is statx's unique
 * mount ID.
 */
int xs_fs_id_cached(struct xs_stat *st)
{
	return fs_id_cached(st, st->mnt_id_unique ? st->mnt_id : 0);
}

/* Skipped when another writer holds the slot: the next call stores it. */
static void store(const struct xs_stat *st, const uint64_t id[2],
		  uint32_t source)
{
	uint64_t key = key_of(st), seq, w[FSID_WORDS];
	struct xs_seqslot *s = xs_seqslot_at(fsid_slots, FSID_BITS, key);

	if (!key || !xs_seqslot_claim(s, &seq))
		return;
	w[FSID_DEV] = dev_of(st);
	w[FSID_ID0] = id[0];
	w[FSID_ID1] = id[1];
	w[FSID_SOURCE] = source;
	xs_seqslot_publish(s, seq, key, w, FSID_WORDS);
}

/* The UUID of the filesystem of a directory on it: 0 or -errno. */
static int by_uuid(const struct xs_target *t, const struct xs_stat *st,
		   uint64_t id[2])
{
	struct xs_fsuuid2 u;
	int close_it, fd, ret;

	fd = xs_fs_dir_fd(t, st, &close_it);
	if (fd < 0)
		return fd;
	memset(&u, 0, sizeof(u));
	ret = ioctl(fd, XS_FS_IOC_GETFSUUID, &u) ? -errno : 0;
	if (close_it)
		close(fd);
	if (ret)
		return ret;
	if (u.len == 0 || u.len > sizeof(u.uuid))
		return -ENODATA;
	memset(id, 0, 16);
	memcpy(id, u.uuid, u.len);
	/* An all-zero UUID (seen on a VM's root ext4) names nothing. */
	return id[0] || id[1] ? 0 : -ENODATA;
}

/* f_fsid where the filesystem makes it from its UUID: 0 or -errno. */
static int by_fsid(const struct xs_target *t, const struct xs_fs *fs,
		   uint64_t id[2])
{
	struct statfs sfs;
	uint32_t v[2];

	if (!(fs->flags & XS_FS_FSID_UUID))
		return -ENODATA;
	if (fstatfs(t->dfd, &sfs))
		return -errno;
	memcpy(v, &sfs.f_fsid, sizeof(v));
	if (!v[0] && !v[1])
		return -ENODATA;
	id[0] = (uint64_t)v[1] << 32 | v[0];
	id[1] = fs->magic;
	return 0;
}

/*
 * Asked of the filesystem through the anchored @t and kept; out of line,
 * as only a mount's first call takes it.
 */
static __attribute__((noinline)) int
fs_id_probe(const struct xs_target *t, struct xs_stat *st)
{
	const struct xs_fs *fs;
	uint64_t id[2];
	int ret;

	if (!t || !t->anchored)
		return -EBADF;
	fs = xs_fs_row(t, st);
	/* There an ioctl or a statfs is a request to the server. */
	if (!fs || (fs->flags & XS_FS_REMOTE))
		return -EOPNOTSUPP;
	ret = by_uuid(t, st, id);
	if (ret == 0) {
		store(st, id, XSTAT_FS_ID_FROM_UUID);
		set(st, id, XSTAT_FS_ID_FROM_UUID);
		return 0;
	}
	ret = by_fsid(t, fs, id);
	if (ret)
		return ret;
	store(st, id, XSTAT_FS_ID_FROM_FSID);
	set(st, id, XSTAT_FS_ID_FROM_FSID);
	return 0;
}

int xs_fs_id_get(const struct xs_target *t, struct xs_stat *st)
{
	if (fs_id_cached(st, key_of(st)) == 0)
		return 0;
	return fs_id_probe(t, st);
}
