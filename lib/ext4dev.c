// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The block devices of the ext4 prober.
 *
 * Nothing outlives the call.  Every probe opens the device (O_RDONLY |
 * O_CLOEXEC), reads, and closes it before xstat() returns: a descriptor
 * kept between calls would be inherited by a child that drops
 * privileges, keep serving a process that dropped its capabilities, be
 * closed and replaced by the program (close_range, dup2) under the
 * library, and keep a detached loop device or a USB stick busy.  The
 * open itself is the permission check, made with the credentials of the
 * calling thread at the moment of the call, so a refusal (EACCES, EPERM)
 * or a shortage (EMFILE, ENFILE, ENOMEM) is never remembered: it costs
 * the caller that one failed open per call, and nothing else.
 *
 * What is remembered are facts about a device that do not depend on who
 * asks: its /dev path (from sysfs), the validated superblock geometry,
 * the inode table blocks of recently probed groups, and failures that
 * will be the same for everyone (no node, not ext4, a layout the prober
 * does not handle; those for NEGATIVE_SECS).
 *
 * A geometry must be the one of the filesystem the file is on, never of
 * one since unmounted and re-made on the same device (another inode
 * size, block size or inode table would decode another inode, or
 * garbage, as this one).  So the facts are keyed by the device and by
 * the unique mount ID (fscache.c's key, never handed out twice while the
 * kernel runs: a re-made filesystem is a new mount), and a geometry is
 * proven to be the mounted filesystem's when it is read: ext4 (and ext2)
 * derive statfs()'s f_fsid from the superblock UUID (ext4_statfs(),
 * uuid_to_fsid(): the two little-endian halves XORed), so the UUID read
 * from the device must give the f_fsid of a descriptor on the file's
 * filesystem (the anchor).  A geometry so proven under a unique mount ID
 * is used as it is for that mount.  Without a unique mount ID, or without
 * a descriptor to prove it with, the superblock is read again on every
 * call and compared, and proven again where it can be.
 *
 * Async-signal-safe: xstat() may be called from a signal handler that
 * interrupted xstat().  The cache takes no lock.  Each slot is a seqlock
 * whose writers claim it with one compare-and-swap and simply skip the
 * write when it is busy (a writer may be the code the handler
 * interrupted: waiting for it would never end), and readers that see a
 * write in progress treat it as a miss.  Only system calls (issued
 * directly, rawsys.h) and string functions are used; none of them is a
 * cancellation point, so a cancelled thread cannot leak the descriptor.
 *
 * The device is read buffered, never with O_DIRECT: ext4 copies a
 * changed inode into the block device's page cache when it dirties it, so
 * a buffered read sees a just-created file; the disk itself may not have
 * it until the journal commits.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include "ext4dev.h"
#include "internal.h"
#include "rawsys.h"

/* configure (AC_SYS_LARGEFILE) gives i386 a 64-bit off_t for lseek. */
_Static_assert(sizeof(off_t) == 8, "64-bit file offsets");

#define DEV_SLOTS	16	/* direct-mapped by dev_t; a power of two */
#define NEGATIVE_SECS	30
#define ITABLE_SLOTS	32	/* per device, direct-mapped by group */
#define DEV_PATH_MAX	64

/* O_NONBLOCK: a node that is not the device (a FIFO) cannot block. */
#define DEV_OPEN_FLAGS	(O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)

/* Inode table cache entry: group / ITABLE_SLOTS, then a 37-bit block. */
#define IT_BLOCK_BITS	37
#define IT_BLOCK_MASK	((1ULL << IT_BLOCK_BITS) - 1)

#define F_GEOM		0x1	/* @geom holds the validated superblock */
#define F_EXT4_DRIVER	0x2	/* /sys/fs/ext4/NAME exists */
#define F_PROVEN	0x4	/* @geom's UUID gave the mount's f_fsid */

/* What is known about one device.  Copied in and out word by word. */
struct dev_facts {
	uint64_t		key;	/* major << 32 | minor, + 1; 0: empty */
	uint64_t		fs_key;	/* the unique mount ID; 0: none */
	int32_t			err;	/* a lasting failure, see lasting() */
	uint32_t		flags;
	int64_t			expires;	/* of @err, monotonic seconds */
	char			path[DEV_PATH_MAX];	/* /dev/NAME */
	struct xs_ext4_geom	geom;
};

#define FACT_WORDS	(sizeof(struct dev_facts) / sizeof(uint32_t))
_Static_assert(sizeof(struct dev_facts) % sizeof(uint32_t) == 0, "words");

union fact_words {
	struct dev_facts	f;
	uint32_t		w[FACT_WORDS];
};

/*
 * @seq is even while the slot is stable and odd while one writer (the
 * one whose compare-and-swap made it odd) changes it; every access to
 * the rest is atomic, so a torn read is detected and never undefined.
 */
struct dev_slot {
	uint32_t		seq;
	union fact_words	u;
	uint64_t		itable[ITABLE_SLOTS];	/* 0 = empty */
};

static struct dev_slot dev_slots[DEV_SLOTS];

/* A @seq no slot is in after a write: "do not write back". */
#define SEQ_NONE	1U

static uint64_t key_of(uint32_t major, uint32_t minor)
{
	return ((uint64_t)major << 32 | minor) + 1;
}

static struct dev_slot *slot_of(uint64_t key, uint64_t fs_key)
{
	return &dev_slots[((key ^ fs_key) * 0x9E3779B97F4A7C15ULL) >> 60 &
			  (DEV_SLOTS - 1)];
}

/* Is @s still as it was at @seq (even)?  After relaxed loads. */
static int seq_unchanged(struct dev_slot *s, uint32_t seq)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq;
}

/*
 * The facts about @key and the inode table block of @ino's group, if the
 * slot holds them and is not being written: 1, else 0 (a miss).
 */
static int facts_get(struct dev_slot *s, uint64_t key, uint64_t fs_key,
		     uint64_t ino, union fact_words *u, uint64_t *itable,
		     uint32_t *seqp)
{
	uint32_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), group;
	unsigned int i;
	uint64_t e;

	if (seq & 1)
		return 0;
	for (i = 0; i < FACT_WORDS; i++)
		u->w[i] = __atomic_load_n(&s->u.w[i], __ATOMIC_RELAXED);
	if (!seq_unchanged(s, seq) || u->f.key != key ||
	    u->f.fs_key != fs_key)
		return 0;
	*seqp = seq;
	*itable = 0;
	/* Only a consistent geometry may be divided by. */
	if (!(u->f.flags & F_GEOM) || ino < 1 || ino > u->f.geom.inodes_count)
		return 1;
	group = xs_ext4_group_of(&u->f.geom, ino);
	e = __atomic_load_n(&s->itable[group % ITABLE_SLOTS],
			    __ATOMIC_RELAXED);
	if (seq_unchanged(s, seq) && e >> IT_BLOCK_BITS == group / ITABLE_SLOTS)
		*itable = e & IT_BLOCK_MASK;
	return 1;
}

/*
 * Claim @s for writing if it is still at @seq (SEQ_NONE: whatever stable
 * state it is in): 1, and *@seqp is the state it was claimed from.  0: it
 * is busy or changed; the write is skipped, never waited for.
 */
static int slot_claim(struct dev_slot *s, uint32_t seq, uint32_t *seqp)
{
	uint32_t v = seq == SEQ_NONE ? __atomic_load_n(&s->seq,
						       __ATOMIC_RELAXED) : seq;

	if (v & 1 || !__atomic_compare_exchange_n(&s->seq, &v, v + 1, 0,
						  __ATOMIC_RELAXED,
						  __ATOMIC_RELAXED))
		return 0;
	/* The odd count is seen before any of the stores below. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	*seqp = v;
	return 1;
}

static uint32_t slot_release(struct dev_slot *s, uint32_t seq)
{
	__atomic_store_n(&s->seq, seq + 2, __ATOMIC_RELEASE);
	return seq + 2;
}

/* Replace what @s holds by @f (and no inode table): the new @seq. */
static uint32_t facts_put(struct dev_slot *s, uint32_t seq,
			  const union fact_words *u)
{
	unsigned int i;

	if (!slot_claim(s, seq, &seq))
		return SEQ_NONE;
	for (i = 0; i < FACT_WORDS; i++)
		__atomic_store_n(&s->u.w[i], u->w[i], __ATOMIC_RELAXED);
	for (i = 0; i < ITABLE_SLOTS; i++)
		__atomic_store_n(&s->itable[i], 0, __ATOMIC_RELAXED);
	return slot_release(s, seq);
}

/* Forget @s if it still holds what was read at @seq. */
static void facts_drop(struct dev_slot *s, uint32_t seq)
{
	if (!slot_claim(s, seq, &seq))
		return;
	__atomic_store_n(&s->u.w[0], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->u.w[1], 0, __ATOMIC_RELAXED);
	slot_release(s, seq);
}

static int pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	long n;

	if (off > (uint64_t)INT64_MAX - len)
		return -EINVAL;
	do
		n = xs_raw_pread(fd, buf, len, off);
	while (n == -EINTR);
	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -EIO;	/* short read: no guess */
}

#define XS_SYSFS_MAGIC	0x62656572

/* Is @fd on sysfs?  A chroot or mount namespace can plant any /sys. */
static int on_sysfs(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == XS_SYSFS_MAGIC;
}

/* /dev/NAME of a block device from DEVNAME in its sysfs uevent file. */
static int device_path(uint32_t major, uint32_t minor, char *path,
		       size_t len)
{
	static const char dir[] = "/sys/dev/block/";
	char buf[1024], *p, *name, *end;
	size_t n;
	long got;
	int fd;

	p = buf;
	memcpy(p, dir, sizeof(dir) - 1);
	p = xs_put_u64(p + sizeof(dir) - 1, major);
	*p++ = ':';
	p = xs_put_u64(p, minor);
	memcpy(p, "/uevent", sizeof("/uevent"));
	fd = xs_raw_openat(AT_FDCWD, buf, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
			   O_NOCTTY);
	if (fd < 0)
		return fd;
	/* A planted /sys names no device: the node is checked anyway. */
	if (!on_sysfs(fd)) {
		xs_raw_close(fd);
		return -ENODEV;
	}
	do
		got = xs_raw_read(fd, buf, sizeof(buf) - 1);
	while (got == -EINTR);
	xs_raw_close(fd);
	if (got <= 0)
		return -ENODEV;
	buf[got] = '\0';

	name = strstr(buf, "DEVNAME=");
	if (!name || (name != buf && name[-1] != '\n'))
		return -ENODEV;
	name += 8;
	end = strchr(name, '\n');
	if (end)
		*end = '\0';
	/* A name below /dev, nothing that climbs out of it. */
	if (!*name || *name == '/' || strstr(name, ".."))
		return -ENODEV;
	n = strlen(name);
	if (n + 6 > len)
		return -ENAMETOOLONG;
	memcpy(path, "/dev/", 5);
	memcpy(path + 5, name, n + 1);
	return 0;
}

/*
 * Is the filesystem on /dev/NAME mounted by the ext4 driver?  It registers
 * every superblock it mounts as /sys/fs/ext4/NAME, also when it serves an
 * "ext2" or "ext3" mount (CONFIG_EXT4_USE_FOR_EXT2); the ext2 driver,
 * which shares the magic and keeps no i_version, registers nothing there.
 * The mount type in mountinfo cannot tell the two apart, so there is no
 * other witness: 1 yes, 0 no, -1 when /sys/fs/ext4 is not proven to be
 * sysfs (the caller then takes the answer without a data version, and
 * does not remember it).  NAME is looked up relative to the proven
 * directory and must be a directory of that same sysfs, not a mount on it
 * or a symlink out of it.  The kernel names the entry by the block
 * device's name with '/' as '!'.
 */
static int ext4_driver(const char *devpath)
{
	char name[DEV_PATH_MAX], *p;
	struct stat dir_sb, sb;
	int dir, ret;

	memcpy(name, devpath + 5, strlen(devpath + 5) + 1);
	for (p = name; *p; p++)
		if (*p == '/')
			*p = '!';
	dir = xs_raw_openat(AT_FDCWD, "/sys/fs/ext4",
			    O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return dir == -ENOENT ? 0 : -1;	/* ENOENT: no ext4 driver */
	if (!on_sysfs(dir) ||
	    xs_raw_fstatat(dir, "", &dir_sb, AT_EMPTY_PATH)) {
		xs_raw_close(dir);
		return -1;
	}
	ret = xs_raw_fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
	      S_ISDIR(sb.st_mode) && sb.st_dev == dir_sb.st_dev;
	xs_raw_close(dir);
	return ret;
}

static int is_the_device(const struct stat *sb, uint32_t major,
			 uint32_t minor)
{
	return S_ISBLK(sb->st_mode) && major(sb->st_rdev) == major &&
	       minor(sb->st_rdev) == minor;
}

/* Superblock of an open device, re-read once if its checksum is torn. */
static int read_super(int fd, struct xs_ext4_geom *g)
{
	uint8_t sb[EXT4_SB_SIZE];
	int ret, tries;

	for (tries = 0; tries < 2; tries++) {
		ret = pread_full(fd, sb, sizeof(sb), EXT4_SB_OFFSET);
		if (ret)
			return ret;
		ret = xs_ext4_parse_super(sb, sizeof(sb), g);
		if (ret != -EBADMSG)
			break;
	}
	return ret;
}

/*
 * An fd just opened by path: is it the device, and which filesystem does
 * it hold?  Done when a device's facts are learned (or learned again), not
 * on every call: the path was checked to name the device then, and only
 * root can replace a node in /dev.
 */
static int learn_geometry(int fd, uint32_t major, uint32_t minor,
			  struct xs_ext4_geom *g)
{
	struct stat sb;
	off_t end;
	int ret;

	ret = xs_raw_fstatat(fd, "", &sb, AT_EMPTY_PATH);
	if (ret)
		return ret;
	if (!is_the_device(&sb, major, minor))
		return -ENODEV;
	end = lseek(fd, 0, SEEK_END);
	if (end <= 0)
		return -ENODEV;
	ret = read_super(fd, g);
	if (ret)
		return ret;
	/* The filesystem must fit in the device it is read from. */
	if (g->blocks_count > (uint64_t)end / g->block_size)
		return -EINVAL;
	return 0;
}

/*
 * Is @g the superblock of the filesystem @fd is on?  ext4_statfs() (and
 * ext2_statfs()) set f_fsid = uuid_to_fsid(s_uuid): the UUID's two
 * little-endian 64-bit halves XORed, low word first.  glibc's fstatfs is
 * the bare system call (fstatfs64 on i386): no cancellation point, and
 * safe in a signal handler.
 */
static int fsid_matches(const struct xs_ext4_geom *g, int fd)
{
	struct statfs sfs;
	uint32_t v0, v1;

	if (fstatfs(fd, &sfs))
		return 0;
	v0 = xs_le32(g->uuid) ^ xs_le32(g->uuid + 8);
	v1 = xs_le32(g->uuid + 4) ^ xs_le32(g->uuid + 12);
	return (uint32_t)sfs.f_fsid.__val[0] == v0 &&
	       (uint32_t)sfs.f_fsid.__val[1] == v1;
}

/*
 * Make @u's geometry the one of @fs's filesystem, on the device @fd
 * (just opened).  A geometry proven under a unique mount ID is kept as
 * it is: the mount can only ever be of that filesystem.  Any other is
 * read again (and, if it changed, checked against the device again), and
 * proven with @fs->fd when there is one.  0 (*@changed: @u is to be
 * stored), -ESTALE if the device holds another filesystem than @fs's,
 * else -errno.
 */
static int make_current(int fd, const struct xs_ext4_fs *fs,
			union fact_words *u, int *changed)
{
	struct xs_ext4_geom g;
	int ret;

	*changed = 0;
	if ((u->f.flags & (F_GEOM | F_PROVEN)) == (F_GEOM | F_PROVEN) &&
	    fs->key)
		return 0;
	if (!(u->f.flags & F_GEOM) || read_super(fd, &g) ||
	    memcmp(&g, &u->f.geom, sizeof(g)) != 0) {
		ret = learn_geometry(fd, fs->major, fs->minor, &g);
		if (ret)
			return ret;
		u->f.geom = g;
		u->f.flags = (u->f.flags | F_GEOM) & ~F_PROVEN;
		*changed = 1;
	}
	if (fs->fd < 0 || (u->f.flags & F_PROVEN))
		return 0;
	if (!fsid_matches(&u->f.geom, fs->fd))
		return -ESTALE;
	u->f.flags |= F_PROVEN;
	*changed = 1;
	return 0;
}

static int64_t now_secs(void)
{
	struct timespec ts;

	/* clock_gettime is async-signal-safe. */
	if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts))
		return 0;
	return ts.tv_sec;
}

/*
 * Failures that will be the same on the next call, whoever makes it:
 * no such device node, not a block device, no filesystem the prober
 * handles.  Never a refusal (EACCES, EPERM: they depend on the caller's
 * credentials, which change at any time and differ between threads), a
 * resource shortage (EMFILE, ENOMEM...) or an I/O error.
 */
static int lasting(int err)
{
	switch (err) {
	case ENOENT: case ENODEV: case ENXIO: case ENOTDIR:
	case ENAMETOOLONG: case EINVAL: case EOPNOTSUPP: case EBADMSG:
		return 1;
	}
	return 0;
}

/*
 * Not cached (or no longer): learn the device's path and, if this caller
 * can open it, its geometry.  The facts are stored for the next call; the
 * open fd is the caller's.
 */
static __attribute__((noinline))
int learn(struct dev_slot *s, uint32_t seq, const struct xs_ext4_fs *fs,
	  union fact_words *u, struct xs_ext4_dev *d)
{
	struct stat sb;
	int fd, ret, changed, driver = 0;

	memset(u, 0, sizeof(*u));
	u->f.key = key_of(fs->major, fs->minor);
	u->f.fs_key = fs->key;
	ret = device_path(fs->major, fs->minor, u->f.path, sizeof(u->f.path));
	if (!ret)
		ret = xs_raw_fstatat(AT_FDCWD, u->f.path, &sb, 0);
	if (!ret && !is_the_device(&sb, fs->major, fs->minor))
		ret = -ENODEV;
	if (!ret)
		driver = ext4_driver(u->f.path);
	if (driver > 0)
		u->f.flags |= F_EXT4_DRIVER;
	fd = -1;
	if (!ret) {
		fd = xs_raw_openat(AT_FDCWD, u->f.path, DEV_OPEN_FLAGS);
		if (fd < 0)
			ret = fd;
	}
	if (fd >= 0)
		ret = make_current(fd, fs, u, &changed);
	/* Another filesystem than the file's: nothing to remember. */
	if (ret == -ESTALE) {
		xs_raw_close(fd);
		return ret;
	}
	if (ret && lasting(-ret)) {
		u->f.err = -ret;
		u->f.expires = now_secs() + NEGATIVE_SECS;
	}
	/*
	 * Stored: the geometry, a lasting failure, or just the path when
	 * this caller may not open the device (someone else may).
	 */
	if ((!ret || u->f.err || fd < 0) && driver >= 0)
		d->seq = facts_put(s, seq, u);
	if (ret) {
		if (fd >= 0)
			xs_raw_close(fd);
		return ret;
	}
	d->fd = fd;
	return 0;
}

int xs_ext4_dev_open(const struct xs_ext4_fs *fs, uint64_t ino,
		     struct xs_ext4_dev *d)
{
	uint64_t key = key_of(fs->major, fs->minor), itable = 0;
	struct dev_slot *s = slot_of(key, fs->key);
	union fact_words u;
	uint32_t seq = SEQ_NONE;
	int fd, ret, changed;

	d->fd = -1;
	d->slot = s;
	d->seq = SEQ_NONE;
	d->dev_key = key;
	d->fs_key = fs->key;
	d->fs_fd = fs->fd;
	if (!facts_get(s, key, fs->key, ino, &u, &itable, &seq) ||
	    (u.f.err && now_secs() >= u.f.expires)) {
		ret = learn(s, seq, fs, &u, d);
		if (ret)
			return ret;
		itable = 0;
	} else if (u.f.err) {
		return -u.f.err;
	} else {
		fd = xs_raw_openat(AT_FDCWD, u.f.path, DEV_OPEN_FLAGS);
		if (fd < 0) {
			/* The node is gone: find the device's name again. */
			if (fd == -ENOENT || fd == -ENXIO || fd == -ENODEV)
				facts_drop(s, seq);
			return fd;
		}
		d->fd = fd;
		d->seq = seq;
		ret = make_current(fd, fs, &u, &changed);
		if (ret) {
			xs_ext4_dev_close(d);
			return ret;
		}
		if (changed) {
			/* facts_put() empties the inode table cache too. */
			d->seq = facts_put(s, seq, &u);
			itable = 0;
		}
	}
	d->geom = u.f.geom;
	d->itable = itable;
	d->ext4_driver = !!(u.f.flags & F_EXT4_DRIVER);
	return 0;
}

void xs_ext4_dev_close(struct xs_ext4_dev *d)
{
	if (d->fd >= 0)
		xs_raw_close(d->fd);
	d->fd = -1;
}

int xs_ext4_dev_recheck(struct xs_ext4_dev *d)
{
	struct dev_slot *s = d->slot;
	union fact_words u;
	struct stat sb;
	uint32_t major, minor;
	uint64_t itable;
	uint32_t seq;

	if (read_super(d->fd, &u.f.geom) ||
	    memcmp(&u.f.geom, &d->geom, sizeof(d->geom)) == 0)
		return 0;
	/* Another filesystem: on the device the facts are about? */
	if (xs_raw_fstatat(d->fd, "", &sb, AT_EMPTY_PATH) ||
	    !S_ISBLK(sb.st_mode))
		return 0;
	major = major(sb.st_rdev);
	minor = minor(sb.st_rdev);
	if (learn_geometry(d->fd, major, minor, &u.f.geom))
		return 0;
	/* And the one the file is on (resized), not one made since. */
	if (d->fs_fd >= 0 && !fsid_matches(&u.f.geom, d->fs_fd))
		return 0;
	d->geom = u.f.geom;
	d->itable = 0;
	/* The cached facts, with the new geometry, if still those read. */
	if (d->seq != SEQ_NONE &&
	    facts_get(s, key_of(major, minor), d->fs_key, 0, &u, &itable,
		      &seq) &&
	    seq == d->seq && !u.f.err) {
		u.f.geom = d->geom;
		u.f.flags |= F_GEOM;
		if (d->fs_fd < 0)
			u.f.flags &= ~F_PROVEN;
		else
			u.f.flags |= F_PROVEN;
		d->seq = facts_put(s, seq, &u);
	} else {
		d->seq = SEQ_NONE;
	}
	return 1;
}

void xs_ext4_dev_set_itable(const struct xs_ext4_dev *d, uint32_t group,
			    uint64_t itable)
{
	struct dev_slot *s = d->slot;
	uint32_t seq;

	/*
	 * Only into the facts this probe read (the slot may hold another
	 * device by now); blocks past 2^37 (512 TiB of 4 KiB blocks) are
	 * not cached.
	 */
	if (d->seq == SEQ_NONE || !itable || (itable & ~IT_BLOCK_MASK) ||
	    !slot_claim(s, d->seq, &seq))
		return;
	__atomic_store_n(&s->itable[group % ITABLE_SLOTS],
			 (uint64_t)(group / ITABLE_SLOTS) << IT_BLOCK_BITS |
			 itable, __ATOMIC_RELAXED);
	slot_release(s, seq);
}

int xs_ext4_dev_pread(const struct xs_ext4_dev *d, void *buf, size_t len,
		      uint64_t off)
{
	uint64_t size = d->geom.blocks_count * d->geom.block_size;

	/* Checked against the device's size when the geometry was learned. */
	if (off > size || size - off < len)
		return -ERANGE;
	return pread_full(d->fd, buf, len, off);
}
