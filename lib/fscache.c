// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-device facts: the filesystem type (statfs magic) of each st_dev seen,
 * and what libxstat learned it cannot do there.  Direct-mapped, fixed size,
 * lock-free: a slot is a key word and a value word, and a reader accepts
 * the value only if the key is the same before and after reading it.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include "internal.h"

#define FSCACHE_SLOTS	64	/* a power of two */

struct fs_slot {
	uint64_t	key;	/* dev + 1, 0 = empty or being written */
	uint64_t	value;	/* magic | flags << 32 | mount tag << 40 */
};

static struct fs_slot fs_slots[FSCACHE_SLOTS];

static uint64_t key_of(uint32_t dev_major, uint32_t dev_minor)
{
	return (((uint64_t)dev_major << 32) | dev_minor) + 1;
}

static uint64_t dev_key(const struct xs_stat *st)
{
	return key_of(st->dev_major, st->dev_minor);
}

static struct fs_slot *slot_of(uint64_t key)
{
	uint64_t h = key * 0x9E3779B97F4A7C15ULL;

	return &fs_slots[h >> 58 & (FSCACHE_SLOTS - 1)];
}

/*
 * Sequentially consistent loads and stores, no fences: on x86 the loads
 * are plain moves, and writes happen once per device.  A writer empties
 * the key, writes the value, then publishes the key; a reader that sees
 * the same key before and after reading the value read a value written
 * for that key.
 */
static int slot_read(struct fs_slot *s, uint64_t key, uint64_t *value)
{
	uint64_t v;

	if (__atomic_load_n(&s->key, __ATOMIC_SEQ_CST) != key)
		return 0;
	v = __atomic_load_n(&s->value, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&s->key, __ATOMIC_SEQ_CST) != key)
		return 0;
	*value = v;
	return 1;
}

static void slot_write(struct fs_slot *s, uint64_t key, uint64_t value)
{
	__atomic_store_n(&s->key, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&s->value, value, __ATOMIC_SEQ_CST);
	__atomic_store_n(&s->key, key, __ATOMIC_SEQ_CST);
}

/*
 * statfs of the file itself.  A path is opened with O_PATH, which opens no
 * device, FIFO or socket, and checked to be the file that was stat'ed.
 */
static int lookup_magic(const struct xs_target *t, const struct xs_stat *st,
			uint32_t *magic)
{
	struct statfs sfs;
	struct stat sb;
	int fd, ret;

	if (t->path[0] == '\0' && (t->flags & AT_EMPTY_PATH)) {
		ret = t->dfd == AT_FDCWD ? statfs(".", &sfs)
					 : fstatfs(t->dfd, &sfs);
		if (ret)
			return -errno;
		*magic = (uint32_t)sfs.f_type;
		return 0;
	}

	fd = openat(t->dfd, t->path, O_PATH | O_CLOEXEC |
		    ((t->flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0));
	if (fd < 0)
		return -errno;
	ret = 0;
	if (fstat(fd, &sb) || fstatfs(fd, &sfs))
		ret = -errno;
	else if (major(sb.st_dev) != st->dev_major ||
		 minor(sb.st_dev) != st->dev_minor || sb.st_ino != st->ino)
		ret = -ESTALE;
	else
		*magic = (uint32_t)sfs.f_type;
	close(fd);
	return ret;
}

static uint32_t lookup_and_store(const struct xs_target *t,
				 const struct xs_stat *st, uint32_t *fsflags)
{
	uint64_t key = dev_key(st);
	uint32_t magic = 0;

	*fsflags = 0;
	if (lookup_magic(t, st, &magic))
		return 0;
	slot_write(slot_of(key), key,
		   magic | (uint64_t)(st->mnt_tag & 0xffffff) << 40);
	return magic;
}

/* Same device, but another mount than the one the entry was made for? */
static int other_mount(uint64_t value, uint32_t mnt_tag)
{
	uint32_t tag = (uint32_t)(value >> 40);

	return tag && mnt_tag && tag != (mnt_tag & 0xffffff);
}

XS_HOT
uint32_t xs_fs_magic_cached(uint32_t dev_major, uint32_t dev_minor,
			    uint32_t mnt_tag, uint32_t *fsflags)
{
	uint64_t key = key_of(dev_major, dev_minor), value;

	if (slot_read(slot_of(key), key, &value) &&
	    !other_mount(value, mnt_tag)) {
		*fsflags = (uint32_t)(value >> 32) & 0xff;
		return (uint32_t)value;
	}
	return 0;
}

XS_HOT
uint32_t xs_fs_magic(const struct xs_target *t, const struct xs_stat *st,
		     uint32_t *fsflags)
{
	uint32_t magic = xs_fs_magic_cached(st->dev_major, st->dev_minor,
					    st->mnt_tag, fsflags);

	return magic ? magic : lookup_and_store(t, st, fsflags);
}

/*
 * Device numbers are reused: a loop device unmounted and formatted anew,
 * an anonymous dev_t handed to the next tmpfs.  When what the cache says
 * disagrees with what the file shows, look again.
 */
uint32_t xs_fs_magic_refresh(const struct xs_target *t,
			     const struct xs_stat *st, uint32_t *fsflags)
{
	return lookup_and_store(t, st, fsflags);
}

void xs_fs_set_flag(const struct xs_stat *st, uint32_t flag)
{
	uint64_t key = dev_key(st), value;
	struct fs_slot *s = slot_of(key);

	if (slot_read(s, key, &value) && !((value >> 32) & 0xff & flag))
		slot_write(s, key, value | (uint64_t)flag << 32);
}
