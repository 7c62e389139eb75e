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
 * the unique mount ID (never reused while the kernel runs), in a small
 * table (with st_dev: the subvolumes of one btrfs mount have names of
 * their own) written and read like fscache.c's (a sequence count per slot, no
 * lock, so xstat() stays async-signal-safe).  Without a unique mount ID
 * every call probes again.
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

/* <linux/fs.h> of 6.5: struct fsuuid2 and FS_IOC_GETFSUUID. */
struct xs_fsuuid2 {
	uint8_t		len;
	uint8_t		uuid[16];
};
#define XS_FS_IOC_GETFSUUID	_IOR(0x15, 0, struct xs_fsuuid2)

#define FSID_SLOTS	16	/* a power of two */

struct fsid_slot {
	uint64_t	seq;	/* odd while being written */
	uint64_t	key;	/* unique mount ID, 0 = empty */
	uint64_t	dev;	/* st_dev: btrfs subvolumes share a mount */
	uint64_t	id[2];
	uint64_t	source;
};

static struct fsid_slot fsid_slots[FSID_SLOTS];

#define LOAD(p)		__atomic_load_n(p, __ATOMIC_SEQ_CST)
#define STORE(p, v)	__atomic_store_n(p, v, __ATOMIC_SEQ_CST)

static struct fsid_slot *slot_of(uint64_t key)
{
	return &fsid_slots[(key * 0x9E3779B97F4A7C15ULL) >> 60 &
			   (FSID_SLOTS - 1)];
}

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

/* Inline in xs_fs_id_get() too: a mount's later calls find it with no call. */
static inline __attribute__((always_inline)) int
fs_id_cached(struct xs_stat *st)
{
	uint64_t key = key_of(st), seq, id[2], source;
	struct fsid_slot *s;

	if (!key)
		return -ENOENT;
	s = slot_of(key);
	seq = LOAD(&s->seq);
	if ((seq & 1) || LOAD(&s->key) != key || LOAD(&s->dev) != dev_of(st))
		return -ENOENT;
	id[0] = LOAD(&s->id[0]);
	id[1] = LOAD(&s->id[1]);
	source = LOAD(&s->source);
	if (LOAD(&s->seq) != seq)
		return -ENOENT;
	set(st, id, (uint32_t)source);
	return 0;
}

int xs_fs_id_cached(struct xs_stat *st)
{
	return fs_id_cached(st);
}

/* Skipped when another writer holds the slot: the next call stores it. */
static void store(const struct xs_stat *st, const uint64_t id[2],
		  uint32_t source)
{
	uint64_t key = key_of(st);
	struct fsid_slot *s = slot_of(key);
	uint64_t seq = LOAD(&s->seq);

	if (!key || (seq & 1) ||
	    !__atomic_compare_exchange_n(&s->seq, &seq, seq + 1, 0,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	STORE(&s->key, key);
	STORE(&s->dev, dev_of(st));
	STORE(&s->id[0], id[0]);
	STORE(&s->id[1], id[1]);
	STORE(&s->source, (uint64_t)source);
	STORE(&s->seq, seq + 2);
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
	if (fs_id_cached(st) == 0)
		return 0;
	return fs_id_probe(t, st);
}
