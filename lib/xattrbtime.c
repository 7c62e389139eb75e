// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Creation time from the pseudo extended attributes of NTFS-3G
 * ("system.ntfs_crtime", a FUSE filesystem) and of the Linux CIFS/SMB3
 * client ("user.cifs.creationtime"): 8 bytes, an NT time (100 ns units
 * since 1601-01-01 UTC) in host byte order.  Both work unprivileged.
 *
 * The file is reached by an O_PATH descriptor - no open request reaches
 * the server - that must be the file stat'ed, and the attribute is read
 * through /proc/self/fd/N, which names exactly that inode (a symlink
 * itself when the link was not followed).  Any other length, the value 0
 * ("not set") or one outside the NT range leaves the bit cleared.  A FUSE
 * filesystem that does not know the attribute is remembered, so other
 * FUSE filesystems pay one round trip per mount.  NTFS-3G pays one per
 * call that asks for the creation time, unless AT_NO_ATTR_SYNC.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include "internal.h"
#include "syscall.h"

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

static const char *btime_xattr(uint32_t magic)
{
	switch (magic) {
	case XS_FUSE_SUPER_MAGIC:
		return "system.ntfs_crtime";
	case XS_CIFS_MAGIC:
	case XS_SMB2_MAGIC:
		return "user.cifs.creationtime";
	}
	return NULL;
}

void xs_xattr_btime(const struct xs_target *t, uint32_t magic,
		    uint32_t fsflags, struct xs_stat *st)
{
	const char *name = btime_xattr(magic);
	unsigned char value[16];
	char proc[32];
	int close_it, fd, err = 0;
	struct xs_time bt;
	uint64_t nt;
	ssize_t n;

	/*
	 * Every read is a server round trip (FUSE caches no xattrs), which
	 * AT_NO_ATTR_SYNC asks libxstat not to make.
	 */
	if (!name || (fsflags & XS_FSF_NO_FSPROBE) ||
	    (t->flags & AT_NO_ATTR_SYNC))
		return;
	fd = xs_open_path(t, st, &close_it);
	if (fd < 0)
		return;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = getxattr(proc, name, value, sizeof(value));
	if (n < 0)
		err = errno;
	if (close_it)
		close(fd);
	if (n < 0) {
		/* Not NTFS-3G (or an old CIFS client): stop asking here. */
		if (err == ENODATA || err == ENOTSUP || err == EOPNOTSUPP)
			xs_fs_set_flag(st, XS_FSF_NO_FSPROBE);
		return;
	}
	if (n != (ssize_t)sizeof(nt))
		return;
	memcpy(&nt, value, sizeof(nt));
	if (nt == 0 || xs_nt_time_to_unix(nt, &bt))
		return;
	st->btime = bt;
	st->mask |= XSTAT_REQUEST_BTIME;
}
