// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Creation time from a pseudo extended attribute, named by the
 * filesystem's row (fs.h btime_xattr): NTFS-3G's "system.ntfs_crtime" (a
 * FUSE filesystem, fs_fuse.c) and the Linux CIFS/SMB3 client's
 * "user.cifs.creationtime" (fs_network.c): 8 bytes, an NT time (100 ns units
 * since 1601-01-01 UTC) in host byte order.  Both work unprivileged.
 *
 * The attribute is read from the anchored inode itself: getxattrat(2)
 * (Linux 6.13+) with AT_EMPTY_PATH where the anchor is the caller's open
 * descriptor, else on the anchor's entry in /proc/self/fd, which opens
 * nothing; before 6.13 by the path /proc/self/fd/N.  Either way after
 * proving that /proc/self/fd is procfs, and the entry must reach the
 * anchored inode (device and inode number) before and after the read.
 * Any other length, the value 0 ("not set") or one outside the
 * NT range leaves the bit cleared.  No answer here is a verdict for the
 * filesystem: one file without the attribute (ENODATA) says nothing
 * about the next, and a FUSE passthrough can join filesystems that have
 * the namespace and filesystems that do not (EOPNOTSUPP); a FUSE server
 * that answered ENOSYS once is answered EOPNOTSUPP by the kernel itself,
 * with no round trip.  With AT_NO_ATTR_SYNC nothing is asked: every read
 * is a server round trip (FUSE caches no xattrs).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include "fs.h"
#include "backend_statx.h"
#include "syscall.h"
#include "rawsys.h"
#include "anchor.h"
#include "decimal.h"

#define NT_TICKS_PER_SEC	10000000ULL
/* Seconds from 1601-01-01 to 1970-01-01: 369 years, 89 of them leap. */
#define NT_EPOCH_OFFSET		11644473600LL

int xs_nt_time_to_unix(uint64_t nt, struct xs_time *t)
{
	/* FILETIME is a signed quantity in Windows: above 2^63 is invalid. */
	if (nt > (uint64_t)INT64_MAX)
		return -ERANGE;
	t->sec = (int64_t)(nt / NT_TICKS_PER_SEC) - NT_EPOCH_OFFSET;
	t->nsec = (uint32_t)(nt % NT_TICKS_PER_SEC) * 100;
	return 0;
}

/* getxattrat(2): the same number on every architecture. */
#define XS_NR_getxattrat	464

struct xs_xattr_args {
	uint64_t	value;
	uint32_t	size;
	uint32_t	flags;
};

static int getxattrat_unsupported;	/* ENOSYS seen: before 6.13 */

/*
 * Does @path, looked up from @dfd, reach @st's inode (device and inode
 * number)?  Asked with AT_STATX_DONT_SYNC: the cached attributes tell the
 * inode, and no request reaches a FUSE or network server.  Where statx
 * is missing or refused, fstatat answers; where neither can, the answer
 * is no: an unchecked entry is never read.
 */
static int names_inode(int dfd, const char *path, const struct xs_stat *st)
{
	struct xs_ident k;

	return xs_kernel_ident(dfd, path, AT_NO_ATTR_SYNC, XS_STATX_INO,
			       &k) == 0 &&
	       k.ino == st->ino && k.dev_major == st->dev_major &&
	       k.dev_minor == st->dev_minor;
}

/*
 * getxattrat on the anchored inode (it refuses O_PATH descriptors:
 * xs_anchor_at_get()), opening nothing.  A procfs entry can still be
 * another process's (a planted /proc/self that is a symlink into a real
 * procfs): it must reach the anchored inode before and after the read.
 */
static ssize_t by_getxattrat(const struct xs_target *t,
			     const struct xs_stat *st, const char *name,
			     void *value, size_t size)
{
	struct xs_xattr_args args = { (uintptr_t)value, (uint32_t)size, 0 };
	struct xs_anchor_at at;
	long n;

	if (__atomic_load_n(&getxattrat_unsupported, __ATOMIC_RELAXED))
		return -ENOSYS;
	n = xs_anchor_at_get(t, &at);
	if (n)
		return n;
	if (at.proc >= 0 && !names_inode(at.dfd, at.name, st)) {
		n = -ESTALE;
	} else {
		n = syscall(XS_NR_getxattrat, at.dfd, at.name, at.flags, name,
			    &args, sizeof(args));
		if (n < 0)
			n = -errno;
		else if (at.proc >= 0 && !names_inode(at.dfd, at.name, st))
			n = -ESTALE;
	}
	xs_anchor_at_put(&at);
	if (n == -ENOSYS)
		__atomic_store_n(&getxattrat_unsupported, 1, __ATOMIC_RELAXED);
	return n;
}

/*
 * Before 6.13 getxattr takes only a path: /proc/self/fd/N, looked up
 * again from the root by each call.  /proc/self/fd is proven to be procfs
 * first, and the path must reach the anchored inode before and after the
 * read (names_inode(): never taken on trust).
 */
static ssize_t by_proc(int fd, const struct xs_stat *st, const char *name,
		       void *value, size_t size)
{
	char proc[40];
	ssize_t n;
	int pd = xs_proc_fd_dir();

	if (pd < 0)
		return pd;
	close(pd);
	memcpy(proc, "/proc/self/fd/", 14);
	xs_fd_name(proc + 14, fd);
	if (!names_inode(AT_FDCWD, proc, st))
		return -ESTALE;
	n = getxattr(proc, name, value, size);
	if (n < 0)
		return -errno;
	if (!names_inode(AT_FDCWD, proc, st))
		return -ESTALE;
	return n;
}

int xs_xattr_probe(const struct xs_fs *fs, const struct xs_target *t,
		   uint64_t want, uint32_t fsflags, struct xs_stat *st)
{
	const char *name = fs->btime_xattr;
	unsigned char value[16];
	struct xs_time bt;
	uint64_t nt;
	ssize_t n;

	(void)fsflags;
	if (!(want & XSTAT_REQUEST_BTIME) || !name || !t->anchored ||
	    (t->flags & AT_NO_ATTR_SYNC))
		return 0;
	n = by_getxattrat(t, st, name, value, sizeof(value));
	if (n == -ENOSYS)
		n = by_proc(t->dfd, st, name, value, sizeof(value));
	if (n != (ssize_t)sizeof(nt))
		return 0;
	memcpy(&nt, value, sizeof(nt));
	if (nt == 0 || xs_nt_time_to_unix(nt, &bt))
		return 0;
	st->btime = bt;
	st->mask |= XSTAT_REQUEST_BTIME;
	return 0;
}
