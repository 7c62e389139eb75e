// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Device cache of the ext4 prober.  Opening a block device costs a sysfs
 * read, two stats and an open, and every probe of the same filesystem
 * needs the same fd and superblock, so each device is opened once.
 *
 * A small fixed table (no allocation).  A user holds a reference while it
 * reads; a dropped or evicted entry keeps its fd until the last reference
 * goes, so no fd is closed under a reader.  The reference count and the
 * entry's state share one atomic word, so the device of the last probe is
 * found and referenced with one compare-and-swap and released with one
 * atomic subtraction, without the mutex; everything else (opening,
 * evicting, retiring) changes entries under the mutex.
 *
 * Entries are keyed by device and effective uid: after a setuid() the
 * process gets its own answer instead of reusing a root fd,
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
#include "rawsys.h"

/* configure (AC_SYS_LARGEFILE) gives i386 a 64-bit off_t for pread. */
_Static_assert(sizeof(off_t) == 8, "64-bit file offsets");

#define DEV_SLOTS	16
#define NEGATIVE_SECS	30
#define ITABLE_SLOTS	32	/* per device, direct-mapped by group */

/*
 * An entry's life: FREE -> BUSY (filled under the mutex) -> LIVE ->
 * DEAD (retired while referenced) -> FREE, or LIVE -> BUSY (evicted when
 * unreferenced).  Only a LIVE entry can gain a reference, and only an
 * unreferenced one can be evicted, both by compare-and-swap on @pin: the
 * fields below it never change while anyone holds a reference.
 */
enum slot_state { SLOT_FREE, SLOT_LIVE, SLOT_DEAD, SLOT_BUSY };
#define PIN_STATE(w)	((w) & 3U)
#define PIN_REF		4U		/* one reference */

/* Inode table cache entry: group / ITABLE_SLOTS, then a 37-bit block. */
#define IT_BLOCK_BITS	37
#define IT_BLOCK_MASK	((1ULL << IT_BLOCK_BITS) - 1)

struct dev_slot {
	uint32_t		pin;	/* references << 2 | state; atomic */
	uint32_t		major, minor;
	uid_t			euid;
	int			fd;	/* -1: unusable, see err */
	int			err;
	int64_t			expires;	/* of an unusable entry */
	int64_t			stamp;	/* last use, for eviction; atomic */
	uint64_t		size;
	struct xs_ext4_geom	geom;
	/* group -> inode table block, direct-mapped; 0 = empty; atomic */
	uint64_t		itable[ITABLE_SLOTS];
};

static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t dev_once = PTHREAD_ONCE_INIT;
static struct dev_slot dev_slots[DEV_SLOTS];
static struct dev_slot *dev_hint;	/* of the last lookup; atomic */
static uid_t dev_euid;		/* of the last call; under dev_lock */

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
	xs_euid_forget();
	pthread_mutex_unlock(&dev_lock);
}

static void dev_init(void)
{
	pthread_atfork(fork_prepare, fork_done, fork_child);
}

XS_HOT
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

static uint32_t pin_word(struct dev_slot *s)
{
	return __atomic_load_n(&s->pin, __ATOMIC_ACQUIRE);
}

/* Take a reference if @s is LIVE: 1, else 0. */
static int pin(struct dev_slot *s)
{
	uint32_t w = __atomic_load_n(&s->pin, __ATOMIC_RELAXED);

	do {
		if (PIN_STATE(w) != SLOT_LIVE)
			return 0;
	} while (!__atomic_compare_exchange_n(&s->pin, &w, w + PIN_REF, 1,
					      __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	return 1;
}

/* Move @s from state @from (any references) to @to; 0 if not in @from. */
static int set_state(struct dev_slot *s, uint32_t from, uint32_t to,
		     uint32_t *refs)
{
	uint32_t w = __atomic_load_n(&s->pin, __ATOMIC_RELAXED);

	do {
		if (PIN_STATE(w) != from)
			return 0;
	} while (!__atomic_compare_exchange_n(&s->pin, &w,
					      (w & ~3U) | to, 1,
					      __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	*refs = w >> 2;
	return 1;
}

/* Unreferenced LIVE -> BUSY, to be refilled; 0 if referenced meanwhile. */
static int claim_idle(struct dev_slot *s)
{
	uint32_t w = SLOT_LIVE;

	return __atomic_compare_exchange_n(&s->pin, &w, SLOT_BUSY, 0,
					   __ATOMIC_ACQ_REL,
					   __ATOMIC_RELAXED);
}

/* Drop a reference; the last one to a retired entry frees it. */
static void unpin(struct dev_slot *s)
{
	int fd = -1;

	if (__atomic_sub_fetch(&s->pin, PIN_REF, __ATOMIC_ACQ_REL) !=
	    SLOT_DEAD)
		return;
	/* DEAD and unreferenced: nobody else can reach it any more. */
	pthread_mutex_lock(&dev_lock);
	fd = s->fd;
	__atomic_store_n(&s->pin, SLOT_FREE, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&dev_lock);
	if (fd >= 0)
		close(fd);
}

/* Under dev_lock. */
static struct dev_slot *find_live(uint32_t major, uint32_t minor,
				  uid_t euid)
{
	struct dev_slot *s;

	for (s = dev_slots; s < dev_slots + DEV_SLOTS; s++) {
		if (PIN_STATE(pin_word(s)) != SLOT_LIVE || s->major != major ||
		    s->minor != minor || s->euid != euid)
			continue;
		/* An old failure is forgotten: try the device again. */
		if (s->fd < 0 && now_secs() >= s->expires && claim_idle(s)) {
			__atomic_store_n(&s->pin, SLOT_FREE, __ATOMIC_RELEASE);
			return NULL;
		}
		return s;
	}
	return NULL;
}

/*
 * Under dev_lock: a free entry, else the least recently used idle one
 * (its fd returned in @close_fd), claimed BUSY; NULL if all are in use.
 */
static struct dev_slot *take_slot(int *close_fd)
{
	struct dev_slot *s, *victim;
	int64_t vstamp = 0, stamp;
	uint32_t w;
	int tries;

	*close_fd = -1;
	/* A victim can be referenced between the scan and the claim. */
	for (tries = 0; tries < 4; tries++) {
		victim = NULL;
		for (s = dev_slots; s < dev_slots + DEV_SLOTS; s++) {
			w = pin_word(s);
			if (w == SLOT_FREE) {
				__atomic_store_n(&s->pin, SLOT_BUSY,
						 __ATOMIC_RELAXED);
				return s;
			}
			stamp = __atomic_load_n(&s->stamp, __ATOMIC_RELAXED);
			if (w == SLOT_LIVE && (!victim || stamp < vstamp)) {
				victim = s;
				vstamp = stamp;
			}
		}
		if (!victim)
			return NULL;
		if (claim_idle(victim)) {
			*close_fd = victim->fd;
			return victim;
		}
	}
	return NULL;
}

/* Fill @ref from @s, which the caller holds a reference to. */
static void fill_ref(struct dev_slot *s, uint64_t ino, int64_t now,
		     struct xs_ext4_devref *ref)
{
	uint32_t group;
	uint64_t e;

	__atomic_store_n(&s->stamp, now, __ATOMIC_RELAXED);
	ref->slot = s;
	ref->fd = s->fd;
	ref->size = s->size;
	ref->geom = &s->geom;
	/* The inode table of @ino's group, if a probe found it before. */
	ref->itable = 0;
	if (ino >= 1 && ino <= s->geom.inodes_count) {
		group = xs_ext4_group_of(&s->geom, ino);
		e = __atomic_load_n(&s->itable[group % ITABLE_SLOTS],
				    __ATOMIC_RELAXED);
		if (e >> IT_BLOCK_BITS == group / ITABLE_SLOTS)
			ref->itable = e & IT_BLOCK_MASK;
	}
}

/* Under dev_lock: a reference to @s, or its remembered failure. */
static int use_slot(struct dev_slot *s, uint64_t ino, int64_t now,
		    struct xs_ext4_devref *ref)
{
	if (s->fd < 0)
		return -s->err;
	__atomic_add_fetch(&s->pin, PIN_REF, __ATOMIC_ACQUIRE);
	fill_ref(s, ino, now, ref);
	return 0;
}

static int insert(uint32_t major, uint32_t minor, uid_t euid, int fd,
		  int err, uint64_t size, const struct xs_ext4_geom *g,
		  uint64_t ino, int64_t now, struct xs_ext4_devref *ref)
{
	struct dev_slot *s;
	int old_fd = -1, ret, i;

	pthread_mutex_lock(&dev_lock);
	s = find_live(major, minor, euid);
	if (s) {
		/* Another thread opened it meanwhile: use that one. */
		ret = use_slot(s, ino, now, ref);
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
	/* BUSY: nobody else reads these fields until it is LIVE. */
	s->major = major;
	s->minor = minor;
	s->euid = euid;
	s->fd = fd;
	s->err = err;
	s->expires = fd < 0 ? now_secs() + NEGATIVE_SECS : 0;
	s->size = size;
	if (g)
		s->geom = *g;
	else
		memset(&s->geom, 0, sizeof(s->geom));
	for (i = 0; i < ITABLE_SLOTS; i++)
		__atomic_store_n(&s->itable[i], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->stamp, now, __ATOMIC_RELAXED);
	__atomic_store_n(&s->pin, SLOT_LIVE, __ATOMIC_RELEASE);
	ret = use_slot(s, ino, now, ref);
	if (!ret)
		__atomic_store_n(&dev_hint, s, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&dev_lock);
	if (old_fd >= 0)
		close(old_fd);
	return ret;
}

/*
 * Under dev_lock: retire the devices opened under another effective uid;
 * their fds are returned in @fds (closed by the caller, outside the lock)
 * unless a reader still holds them (then its unpin closes them).
 */
static int retire_foreign(uid_t euid, int *fds)
{
	struct dev_slot *s;
	uint32_t refs;
	int n = 0;

	for (s = dev_slots; s < dev_slots + DEV_SLOTS; s++) {
		if (PIN_STATE(pin_word(s)) != SLOT_LIVE || s->euid == euid ||
		    s->fd < 0)
			continue;
		if (set_state(s, SLOT_LIVE, SLOT_DEAD, &refs) && !refs) {
			fds[n++] = s->fd;
			__atomic_store_n(&s->pin, SLOT_FREE, __ATOMIC_RELEASE);
		}
	}
	return n;
}

/* The device of the last lookup, without the mutex: 0, else -EAGAIN. */
static int get_hinted(uint32_t major, uint32_t minor, uid_t euid,
		      uint64_t ino, int64_t now, struct xs_ext4_devref *ref)
{
	struct dev_slot *s = __atomic_load_n(&dev_hint, __ATOMIC_ACQUIRE);

	if (!s || !pin(s))
		return -EAGAIN;
	if (s->major != major || s->minor != minor || s->euid != euid ||
	    s->fd < 0) {
		unpin(s);
		return -EAGAIN;
	}
	fill_ref(s, ino, now, ref);
	return 0;
}

/* Not the device of the last lookup: the table under the mutex. */
static __attribute__((noinline))
int get_locked(uint32_t major, uint32_t minor, uid_t euid, uint64_t ino,
	       int64_t now, struct xs_ext4_devref *ref)
{
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
	ret = s ? use_slot(s, ino, now, ref) : 0;
	if (s && !ret)
		__atomic_store_n(&dev_hint, s, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&dev_lock);
	while (n--)
		close(stale[n]);
	if (s)
		return ret;

	/* Open outside the lock: sysfs and the device may be slow. */
	ret = open_device(major, minor, &fd, &size, &g);
	if (ret && lasting(-ret))
		return insert(major, minor, euid, -1, -ret, 0, NULL, ino, now,
			      ref);
	if (ret)
		return ret;
	return insert(major, minor, euid, fd, 0, size, &g, ino, now, ref);
}

XS_HOT
int xs_ext4_dev_get(uint32_t major, uint32_t minor, uint64_t ino,
		    struct xs_ext4_devref *ref)
{
	int64_t now;
	uid_t euid = xs_euid_current(&now);

	if (get_hinted(major, minor, euid, ino, now, ref) == 0)
		return 0;
	return get_locked(major, minor, euid, ino, now, ref);
}

XS_HOT
void xs_ext4_dev_put(struct xs_ext4_devref *ref)
{
	struct dev_slot *s = ref->slot;

	if (!s)
		return;
	unpin(s);
	ref->slot = NULL;
	ref->fd = -1;
}

int xs_ext4_dev_recheck(struct xs_ext4_devref *ref)
{
	struct dev_slot *s = ref->slot;
	struct xs_ext4_geom g;
	uint32_t refs;

	if (read_super(ref->fd, ref->size, &g) == 0 &&
	    memcmp(&g, ref->geom, sizeof(g)) == 0)
		return 0;
	/*
	 * Another filesystem, or none readable: open afresh next time.  The
	 * caller's reference keeps the entry; its xs_ext4_dev_put frees it.
	 */
	pthread_mutex_lock(&dev_lock);
	set_state(s, SLOT_LIVE, SLOT_DEAD, &refs);
	pthread_mutex_unlock(&dev_lock);
	return 1;
}

void xs_ext4_dev_set_itable(const struct xs_ext4_devref *ref,
			    uint32_t group, uint64_t itable)
{
	struct dev_slot *s = ref->slot;

	/* Blocks past 2^37 (512 TiB of 4 KiB blocks) are not cached. */
	if (itable && !(itable & ~IT_BLOCK_MASK))
		__atomic_store_n(&s->itable[group % ITABLE_SLOTS],
				 (uint64_t)(group / ITABLE_SLOTS) <<
				 IT_BLOCK_BITS | itable, __ATOMIC_RELAXED);
}

XS_HOT
int xs_ext4_dev_pread(const struct xs_ext4_devref *ref, void *buf,
		      size_t len, uint64_t off)
{
	if (off > ref->size || ref->size - off < len)
		return -ERANGE;
	return pread_full(ref->fd, buf, len, off);
}
