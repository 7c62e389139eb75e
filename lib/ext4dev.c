// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Device cache of the ext4 prober.  Opening a block device costs a sysfs
 * read, two stats and an open, and every probe of the same filesystem
 * needs the same fd and superblock, so each device is opened once.
 *
 * A small fixed table (no allocation) under one mutex.  A user holds a
 * reference while it reads, outside the lock; a dropped or evicted entry
 * keeps its fd until the last reference goes, so no fd is closed under a
 * reader.  Entries are keyed by device and effective uid: after a
 * setuid() the process gets its own answer instead of reusing a root fd,
 * and the first probe that sees the new uid closes the fds opened under
 * another one.  The uid is re-read at most every 10 ms (and at once in a
 * child after fork()), so a raw-device fd outlives a privilege drop by
 * at most that long plus one call.
 * A refusal (EACCES/EPERM: not root) or a device that cannot be used (no
 * node in /dev, a superblock the prober does not handle) is remembered
 * for NEGATIVE_SECS, so it is not retried on every call but is noticed
 * eventually if things change (a node appears, the device is re-made).
 *
 * The device is read buffered, never with O_DIRECT: ext4 copies a
 * changed inode into the block device's page cache when it dirties it, so
 * a buffered read sees a just-created file; the disk itself may not have
 * it until the journal commits.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "ext4dev.h"

/* configure (AC_SYS_LARGEFILE) gives i386 a 64-bit off_t for pread. */
_Static_assert(sizeof(off_t) == 8, "64-bit file offsets");

#define DEV_SLOTS	16
#define NEGATIVE_SECS	30
#define ITABLE_SLOTS	32	/* per device, direct-mapped by group */

enum slot_state { SLOT_FREE, SLOT_LIVE, SLOT_DEAD };

struct dev_slot {
	enum slot_state		state;
	uint32_t		major, minor;
	uid_t			euid;
	int			fd;	/* -1: unusable, see err */
	int			err;
	int64_t			expires;	/* of an unusable entry */
	unsigned		refs;
	uint64_t		stamp;	/* last use, for eviction */
	uint64_t		size;
	struct xs_ext4_geom	geom;
	/* group -> inode table block; it_block 0 = empty (never valid) */
	uint32_t		it_group[ITABLE_SLOTS];
	uint64_t		it_block[ITABLE_SLOTS];
};

static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t dev_once = PTHREAD_ONCE_INIT;
static struct dev_slot dev_slots[DEV_SLOTS];
static uint64_t dev_clock;
static uid_t dev_euid;		/* of the last call; under dev_lock */

/*
 * The effective uid is re-read at most every EUID_RECHECK_NS, and on the
 * first probe after fork(): geteuid() is a system call, and on a kernel
 * with page-table isolation as costly as the pread of the inode itself.
 */
#define EUID_RECHECK_NS	10000000LL
static _Atomic int64_t euid_read_at;	/* CLOCK_MONOTONIC_COARSE ns; 0: never */
static _Atomic uid_t euid_known;

/*
 * fork() while another thread holds the lock would leave it locked in
 * the child for ever: take it around fork (it is never held across I/O).
 */
static void fork_prepare(void)
{
	pthread_mutex_lock(&dev_lock);
}

static void fork_done(void)
{
	pthread_mutex_unlock(&dev_lock);
}

/* A child is often forked to drop privileges: it reads its uid afresh. */
static void fork_child(void)
{
	__atomic_store_n(&euid_read_at, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&dev_lock);
}

static void dev_init(void)
{
	pthread_atfork(fork_prepare, fork_done, fork_child);
}

static int pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n;

	if (off > (uint64_t)INT64_MAX - len)
		return -EINVAL;
	do
		n = pread(fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;	/* short read: no guess */
}

/* /dev/NAME of a block device from DEVNAME in its sysfs uevent file. */
static int device_path(uint32_t major, uint32_t minor, char *path,
		       size_t len)
{
	char buf[1024], *name, *end;
	ssize_t n;
	int fd;

	snprintf(buf, sizeof(buf), "/sys/dev/block/%u:%u/uevent", major,
		 minor);
	fd = open(buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return -ENODEV;
	buf[n] = '\0';

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
	if ((size_t)snprintf(path, len, "/dev/%s", name) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int is_the_device(const struct stat *sb, uint32_t major,
			 uint32_t minor)
{
	return S_ISBLK(sb->st_mode) && major(sb->st_rdev) == major &&
	       minor(sb->st_rdev) == minor;
}

/* Superblock of an open device, re-read once if its checksum is torn. */
static int read_super(int fd, uint64_t size, struct xs_ext4_geom *g)
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
	if (ret)
		return ret;
	/* The filesystem must fit in the device it is read from. */
	if (g->blocks_count > size / g->block_size)
		return -EINVAL;
	return 0;
}

/*
 * Open the device read-only.  stat() first: the node must be the block
 * device itself, so nothing else (a FIFO that would block, a tty) is ever
 * opened; fstat() after: it is still that device.
 */
static int open_device(uint32_t major, uint32_t minor, int *fdp,
		       uint64_t *size, struct xs_ext4_geom *g)
{
	char path[256];
	struct stat sb;
	off_t end;
	int fd, ret;

	ret = device_path(major, minor, path, sizeof(path));
	if (ret)
		return ret;
	if (stat(path, &sb))
		return -errno;
	if (!is_the_device(&sb, major, minor))
		return -ENODEV;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	ret = -ENODEV;
	if (fstat(fd, &sb) || !is_the_device(&sb, major, minor))
		goto fail;
	end = lseek(fd, 0, SEEK_END);
	ret = -ENODEV;
	if (end <= 0)
		goto fail;
	*size = (uint64_t)end;
	ret = read_super(fd, *size, g);
	if (ret)
		goto fail;
	*fdp = fd;
	return 0;
fail:
	close(fd);
	return ret;
}

static int64_t now_secs(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts))
		return 0;
	return ts.tv_sec;
}

static uid_t current_euid(void)
{
	int64_t last = __atomic_load_n(&euid_read_at, __ATOMIC_ACQUIRE), now;
	struct timespec ts;
	uid_t euid;

	if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts))
		return geteuid();
	now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + 1;
	if (last && now - last >= 0 && now - last < EUID_RECHECK_NS)
		return __atomic_load_n(&euid_known, __ATOMIC_RELAXED);
	euid = geteuid();
	__atomic_store_n(&euid_known, euid, __ATOMIC_RELAXED);
	__atomic_store_n(&euid_read_at, now, __ATOMIC_RELEASE);
	return euid;
}

/*
 * Failures worth remembering: they will be the same on the next call.
 * Not resource shortages (EMFILE, ENOMEM...) or I/O errors.
 */
static int lasting(int err)
{
	switch (err) {
	case EACCES: case EPERM: case ENOENT: case ENODEV: case ENXIO:
	case EINVAL: case EOPNOTSUPP: case EROFS: case ENOTDIR:
	case ENAMETOOLONG: case EBADMSG:
		return 1;
	}
	return 0;
}

static struct dev_slot *find_live(uint32_t major, uint32_t minor,
				  uid_t euid)
{
	struct dev_slot *s;

	for (s = dev_slots; s < dev_slots + DEV_SLOTS; s++) {
		if (s->state != SLOT_LIVE || s->major != major ||
		    s->minor != minor || s->euid != euid)
			continue;
		/* An old failure is forgotten: try the device again. */
		if (s->fd < 0 && now_secs() >= s->expires) {
			s->state = SLOT_FREE;
			return NULL;
		}
		return s;
	}
	return NULL;
}

/* A free slot, else the least recently used idle one (its fd returned). */
static struct dev_slot *take_slot(int *close_fd)
{
	struct dev_slot *s, *victim = NULL;

	*close_fd = -1;
	for (s = dev_slots; s < dev_slots + DEV_SLOTS; s++) {
		if (s->state == SLOT_FREE)
			return s;
		if (s->state == SLOT_LIVE && !s->refs &&
		    (!victim || s->stamp < victim->stamp))
			victim = s;
	}
	if (victim)
		*close_fd = victim->fd;
	return victim;
}

static int use_slot(struct dev_slot *s, uint64_t ino,
		    struct xs_ext4_devref *ref)
{
	uint32_t group;
	unsigned i;

	s->stamp = ++dev_clock;
	if (s->fd < 0)
		return -s->err;
	s->refs++;
	ref->slot = s;
	ref->fd = s->fd;
	ref->size = s->size;
	ref->geom = s->geom;
	/* The inode table of @ino's group, if a probe found it before. */
	ref->itable = 0;
	if (ino >= 1 && ino <= s->geom.inodes_count) {
		group = xs_ext4_group_of(&s->geom, ino);
		i = group % ITABLE_SLOTS;
		if (s->it_group[i] == group)
			ref->itable = s->it_block[i];
	}
	return 0;
}

static int insert(uint32_t major, uint32_t minor, uid_t euid, int fd,
		  int err, uint64_t size, const struct xs_ext4_geom *g,
		  uint64_t ino, struct xs_ext4_devref *ref)
{
	struct dev_slot *s;
	int old_fd = -1, ret;

	pthread_mutex_lock(&dev_lock);
	s = find_live(major, minor, euid);
	if (s) {
		/* Another thread opened it meanwhile: use that one. */
		ret = use_slot(s, ino, ref);
		pthread_mutex_unlock(&dev_lock);
		if (fd >= 0)
			close(fd);
		return ret;
	}
	s = take_slot(&old_fd);
	if (!s) {
		/* Every slot is being read right now: no probe this time. */
		pthread_mutex_unlock(&dev_lock);
		if (fd >= 0)
			close(fd);
		return err ? -err : -EBUSY;
	}
	memset(s, 0, sizeof(*s));
	s->state = SLOT_LIVE;
	s->major = major;
	s->minor = minor;
	s->euid = euid;
	s->fd = fd;
	s->err = err;
	if (fd < 0)
		s->expires = now_secs() + NEGATIVE_SECS;
	s->size = size;
	if (g)
		s->geom = *g;
	ret = use_slot(s, ino, ref);
	pthread_mutex_unlock(&dev_lock);
	if (old_fd >= 0)
		close(old_fd);
	return ret;
}

/*
 * Retire the devices opened under another effective uid; their fds are
 * returned in @fds (closed by the caller, outside the lock) unless a
 * reader still holds them.
 */
static int retire_foreign(uid_t euid, int *fds)
{
	struct dev_slot *s;
	int n = 0;

	for (s = dev_slots; s < dev_slots + DEV_SLOTS; s++) {
		if (s->state != SLOT_LIVE || s->euid == euid || s->fd < 0)
			continue;
		s->state = SLOT_DEAD;
		if (!s->refs) {
			fds[n++] = s->fd;
			s->state = SLOT_FREE;
		}
	}
	return n;
}

int xs_ext4_dev_get(uint32_t major, uint32_t minor, uint64_t ino,
		    struct xs_ext4_devref *ref)
{
	uid_t euid = current_euid();
	struct xs_ext4_geom g;
	struct dev_slot *s;
	uint64_t size = 0;
	int fd = -1, ret, n = 0, stale[DEV_SLOTS];

	pthread_once(&dev_once, dev_init);
	pthread_mutex_lock(&dev_lock);
	if (euid != dev_euid) {
		n = retire_foreign(euid, stale);
		dev_euid = euid;
	}
	s = find_live(major, minor, euid);
	ret = s ? use_slot(s, ino, ref) : 0;
	pthread_mutex_unlock(&dev_lock);
	while (n--)
		close(stale[n]);
	if (s)
		return ret;

	/* Open outside the lock: sysfs and the device may be slow. */
	ret = open_device(major, minor, &fd, &size, &g);
	if (ret && lasting(-ret))
		return insert(major, minor, euid, -1, -ret, 0, NULL, ino, ref);
	if (ret)
		return ret;
	return insert(major, minor, euid, fd, 0, size, &g, ino, ref);
}

void xs_ext4_dev_put(struct xs_ext4_devref *ref)
{
	struct dev_slot *s = ref->slot;
	int fd = -1;

	if (!s)
		return;
	pthread_mutex_lock(&dev_lock);
	if (s->refs)
		s->refs--;
	if (s->state == SLOT_DEAD && !s->refs) {
		fd = s->fd;
		s->state = SLOT_FREE;
	}
	pthread_mutex_unlock(&dev_lock);
	if (fd >= 0)
		close(fd);
	ref->slot = NULL;
	ref->fd = -1;
}

int xs_ext4_dev_recheck(struct xs_ext4_devref *ref)
{
	struct dev_slot *s = ref->slot;
	struct xs_ext4_geom g;

	if (read_super(ref->fd, ref->size, &g) == 0 &&
	    memcmp(&g, &ref->geom, sizeof(g)) == 0)
		return 0;
	/* Another filesystem, or none readable: open afresh next time. */
	pthread_mutex_lock(&dev_lock);
	if (s->state == SLOT_LIVE)
		s->state = SLOT_DEAD;
	pthread_mutex_unlock(&dev_lock);
	return 1;
}

void xs_ext4_dev_set_itable(const struct xs_ext4_devref *ref,
			    uint32_t group, uint64_t itable)
{
	struct dev_slot *s = ref->slot;
	unsigned i = group % ITABLE_SLOTS;

	pthread_mutex_lock(&dev_lock);
	s->it_group[i] = group;
	s->it_block[i] = itable;
	pthread_mutex_unlock(&dev_lock);
}

int xs_ext4_dev_pread(const struct xs_ext4_devref *ref, void *buf,
		      size_t len, uint64_t off)
{
	if (off > ref->size || ref->size - off < len)
		return -ERANGE;
	return pread_full(ref->fd, buf, len, off);
}
