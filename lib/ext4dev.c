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
 * or a shortage (EMFILE, ENFILE, ENOMEM) is never remembered here: it
 * costs the caller one failed open per call (per directory stream: the
 * caller keeps XS_REFUSED_DEVICE for its own life), and nothing else.
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
 * The facts live in ext4dev_cache.c (lock-free: xstat() may be called from
 * a signal handler that interrupted xstat()), the device's node and
 * superblock are read by ext4dev_read.c.  Only system calls (issued
 * directly, rawsys.h) and string functions are used; none of them is a
 * cancellation point, so a cancelled thread cannot leak the descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "ext4dev_int.h"
#include "internal.h"
#include "rawsys.h"

#define NEGATIVE_SECS	30

/* O_NONBLOCK: a node that is not the device (a FIFO) cannot block. */
#define DEV_OPEN_FLAGS	(O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)

/*
 * Is @u's geometry proven under a unique mount ID?  It is then kept as it
 * is: the mount can only ever be of that filesystem.
 */
static inline int settled(const struct xs_ext4_facts *f,
			  const struct xs_ext4_fs *fs)
{
	const uint32_t both = XS_EXT4_GEOM | XS_EXT4_PROVEN;

	return (f->flags & both) == both && fs->key;
}

/*
 * Make @f's geometry, not settled(), the one of @fs's filesystem, on the
 * device @fd (just opened): read again (and, if it changed, checked
 * against the device again), and proven with @fs->fd when there is one.
 * 0 (*@changed: @f is to be stored), -ESTALE if the device holds another
 * filesystem than @fs's, else -errno.
 */
static int make_current(int fd, const struct xs_ext4_fs *fs,
			struct xs_ext4_facts *f, int *changed)
{
	struct xs_ext4_geom g;
	int ret;

	*changed = 0;
	if (!(f->flags & XS_EXT4_GEOM) || xs_ext4_read_super(fd, &g) ||
	    memcmp(&g, &f->geom, sizeof(g)) != 0) {
		ret = xs_ext4_learn_geometry(fd, fs->major, fs->minor, &g);
		if (ret)
			return ret;
		f->geom = g;
		f->flags = (f->flags | XS_EXT4_GEOM) & ~XS_EXT4_PROVEN;
		*changed = 1;
	}
	if (fs->fd < 0 || (f->flags & XS_EXT4_PROVEN))
		return 0;
	if (!xs_ext4_fsid_matches(&f->geom, fs->fd))
		return -ESTALE;
	f->flags |= XS_EXT4_PROVEN;
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
 * Is the node at @path now the block device @rdev (makedev())?  0,
 * -ENODEV or -errno.
 */
static inline int node_is_device(const char *path, dev_t rdev)
{
	struct stat sb;
	int ret = xs_raw_fstatat(AT_FDCWD, path, &sb, 0);

	if (ret)
		return ret;
	return is_the_device(&sb, rdev) ? 0 : -ENODEV;
}

/*
 * Open the device at the cached path, once it is seen to be the device:
 * the node can have been replaced since it was learned (a FIFO or a
 * regular file bound over it, in this mount namespace), and a FIFO must
 * never be opened, a file never read as the filesystem.  fd or -errno.
 */
static inline __attribute__((always_inline)) int
open_node(const struct xs_ext4_facts *f)
{
	int ret = node_is_device(f->path, f->rdev);

	return ret ? ret : xs_raw_openat(AT_FDCWD, f->path, DEV_OPEN_FLAGS);
}

/*
 * Not cached (or no longer): learn the device's path and, if this caller
 * can open it, its geometry.  The facts are stored for the next call; the
 * open fd is the caller's.
 */
static int learn(struct dev_slot *s, uint32_t seq,
		 const struct xs_ext4_fs *fs, struct xs_ext4_facts *f,
		 struct xs_ext4_dev *d)
{
	int fd, ret, changed, driver = 0;

	memset(f, 0, sizeof(*f));
	f->key = key_of(fs->major, fs->minor);
	f->fs_key = fs->key;
	f->rdev = makedev(fs->major, fs->minor);
	ret = xs_ext4_device_path(fs->major, fs->minor, f->path,
				  sizeof(f->path));
	if (!ret)
		ret = node_is_device(f->path, f->rdev);
	if (!ret)
		driver = xs_ext4_driver(f->path);
	if (driver > 0)
		f->flags |= XS_EXT4_DRIVER;
	fd = -1;
	if (!ret) {
		fd = xs_raw_openat(AT_FDCWD, f->path, DEV_OPEN_FLAGS);
		if (fd < 0)
			ret = fd;
	}
	if (fd >= 0)
		ret = make_current(fd, fs, f, &changed);
	/* Another filesystem than the file's: nothing to remember. */
	if (ret == -ESTALE) {
		xs_raw_close(fd);
		return ret;
	}
	if (ret && lasting(-ret)) {
		f->err = -ret;
		f->expires = now_secs() + NEGATIVE_SECS;
	}
	/*
	 * Stored: the geometry, a lasting failure, or just the path when
	 * this caller may not open the device (someone else may).
	 */
	if ((!ret || f->err || fd < 0) && driver >= 0)
		d->seq = xs_ext4_facts_put(s, seq, f);
	if (ret) {
		if (fd >= 0)
			xs_raw_close(fd);
		return ret;
	}
	d->fd = fd;
	return 0;
}

/* open_rest()'s @fd when the hot path did not open the node. */
#define NOT_OPENED	INT_MIN

/*
 * The rest of xs_ext4_dev_open_fs() after its slot read (@got: the facts
 * are in @d->f, @seq and @itable read with them): facts not cached,
 * failed, expired or not settled, or a node that would not open (@fd).
 * Out of line, so the usual open pays for none of its registers.
 */
static __attribute__((noinline)) int
open_rest(struct xs_ext4_dev *d, int got, uint32_t seq, uint64_t itable,
	  int fd)
{
	const struct xs_ext4_fs *fs = &d->fs;
	struct dev_slot *s = d->slot;
	struct xs_ext4_facts *f = &d->f;
	int ret, changed;

	if (!got || (f->err && now_secs() >= f->expires)) {
		d->seq = SEQ_NONE;
		ret = learn(s, seq, fs, f, d);
		if (ret)
			return ret;
		itable = 0;
	} else if (f->err) {
		return -f->err;
	} else {
		if (fd == NOT_OPENED)
			fd = open_node(f);
		if (fd < 0) {
			/* The node is gone: find the device's name again. */
			if (fd == -ENOENT || fd == -ENXIO || fd == -ENODEV)
				xs_ext4_facts_drop(s, seq);
			return fd;
		}
		d->fd = fd;
		d->seq = seq;
		if (!settled(f, fs)) {
			ret = make_current(fd, fs, f, &changed);
			if (ret) {
				xs_ext4_dev_close(d);
				return ret;
			}
			if (changed) {
				/* Storing them empties the inode table cache. */
				d->seq = xs_ext4_facts_put(s, seq, f);
				itable = 0;
			}
		}
	}
	d->itable = itable;
	return 0;
}

/*
 * The facts are read from their slot into the device itself, its only
 * copy.  The usual open, of a device whose facts are settled, is the
 * slot read and the node's stat and open, and nothing else.
 */
int xs_ext4_dev_open_fs(struct xs_ext4_dev *d, uint64_t ino)
{
	const struct xs_ext4_fs *fs = &d->fs;
	uint64_t key = key_of(fs->major, fs->minor), itable = 0;
	struct dev_slot *s = xs_ext4_slot_of(key, fs->key);
	uint32_t seq = SEQ_NONE;
	int got, fd = NOT_OPENED;

	d->fd = -1;
	d->slot = s;
	got = xs_ext4_facts_get(s, key, fs->key, ino, &d->f, &itable, &seq);
	if (got && !d->f.err && settled(&d->f, fs)) {
		fd = open_node(&d->f);
		if (fd >= 0) {
			d->fd = fd;
			d->seq = seq;
			d->itable = itable;
			return 0;
		}
	}
	return open_rest(d, got, seq, itable, fd);
}

int xs_ext4_dev_recheck(struct xs_ext4_dev *d)
{
	struct dev_slot *s = d->slot;
	struct xs_ext4_geom g;
	struct xs_ext4_facts f;
	struct stat sb;
	uint32_t major, minor;
	uint64_t itable;
	uint32_t seq;

	if (xs_ext4_read_super(d->fd, &g) ||
	    memcmp(&g, &d->f.geom, sizeof(g)) == 0)
		return 0;
	/* Another filesystem: on the device the facts are about? */
	if (xs_raw_fstatat(d->fd, "", &sb, AT_EMPTY_PATH) ||
	    !S_ISBLK(sb.st_mode))
		return 0;
	major = major(sb.st_rdev);
	minor = minor(sb.st_rdev);
	if (xs_ext4_learn_geometry(d->fd, major, minor, &g))
		return 0;
	/* And the one the file is on (resized), not one made since. */
	if (d->fs.fd >= 0 && !xs_ext4_fsid_matches(&g, d->fs.fd))
		return 0;
	d->f.geom = g;
	d->itable = 0;
	/* The cached facts, with the new geometry, if still those read. */
	if (d->seq != SEQ_NONE &&
	    xs_ext4_facts_get(s, key_of(major, minor), d->fs.key, 0, &f,
			      &itable, &seq) &&
	    seq == d->seq && !f.err) {
		f.geom = g;
		f.flags |= XS_EXT4_GEOM;
		if (d->fs.fd < 0)
			f.flags &= ~XS_EXT4_PROVEN;
		else
			f.flags |= XS_EXT4_PROVEN;
		d->seq = xs_ext4_facts_put(s, seq, &f);
	} else {
		d->seq = SEQ_NONE;
	}
	return 1;
}
