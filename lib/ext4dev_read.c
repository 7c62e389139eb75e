// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading the block device of the ext4 prober: its /dev node (from
 * sysfs, proven to be sysfs), whether the ext4 driver mounts it, its
 * superblock and the proof that it is the mounted filesystem's (the
 * reads of its blocks are inline in ext4dev.h).  Only system calls
 * (issued directly, rawsys.h) and string functions: async-signal-safe,
 * no cancellation point.
 *
 * The device is read buffered, never with O_DIRECT: ext4 copies a
 * changed inode into the block device's page cache when it dirties it, so
 * a buffered read sees a just-created file; the disk itself may not have
 * it until the journal commits.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include "ext4dev_int.h"
#include "internal.h"
#include "le.h"
#include "rawsys.h"
#include "decimal.h"

/* configure (AC_SYS_LARGEFILE) gives i386 a 64-bit off_t for lseek. */
_Static_assert(sizeof(off_t) == 8, "64-bit file offsets");

#define XS_SYSFS_MAGIC	0x62656572

/* Is @fd on sysfs?  A chroot or mount namespace can plant any /sys. */
static int on_sysfs(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == XS_SYSFS_MAGIC;
}

int xs_ext4_device_path(uint32_t major, uint32_t minor, char *path,
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
	got = XS_EINTR(xs_raw_read(fd, buf, sizeof(buf) - 1));
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
int xs_ext4_driver(const char *devpath)
{
	char name[XS_EXT4_PATH_MAX], *p;
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

int xs_ext4_read_super(int fd, struct xs_ext4_geom *g)
{
	uint8_t sb[EXT4_SB_SIZE];
	int ret, tries;

	for (tries = 0; tries < 2; tries++) {
		ret = xs_ext4_pread_full(fd, sb, sizeof(sb), EXT4_SB_OFFSET);
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
int xs_ext4_learn_geometry(int fd, uint32_t major, uint32_t minor,
			   struct xs_ext4_geom *g)
{
	struct stat sb;
	off_t end;
	int ret;

	ret = xs_raw_fstatat(fd, "", &sb, AT_EMPTY_PATH);
	if (ret)
		return ret;
	if (!is_the_device(&sb, makedev(major, minor)))
		return -ENODEV;
	end = lseek(fd, 0, SEEK_END);
	if (end <= 0)
		return -ENODEV;
	ret = xs_ext4_read_super(fd, g);
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
int xs_ext4_fsid_matches(const struct xs_ext4_geom *g, int fd)
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
