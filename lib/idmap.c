// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Owners on idmapped mounts: is the uid/gid stat reported the mount's
 * view of the uid/gid stored in a raw inode?
 *
 * On a mount idmapped with mount_setattr(MOUNT_ATTR_IDMAP) the kernel
 * shows every owner through the mount's idmapping: the on-disk id is
 * looked up among the extents "first lower count" (ids first .. first +
 * count - 1 appear as lower ..), and an id no extent covers appears as
 * the overflow id.  statmount(2) gives those extents as the caller's user
 * namespace sees them (Linux 6.15+), so the raw id can be mapped exactly
 * as stat did.  A raw probe (probe_ext4.c) uses this instead of comparing
 * raw and reported owners directly, which on such a mount would reject
 * every file whose owner the mapping moves and accept an inode whose raw
 * owner happens to equal another file's mapped one.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "syscall.h"
#include "decimal.h"
#include "idmap.h"

/*
 * Room for the extents of both maps: a line is at most 33 bytes, and
 * idmappings of more than a few extents are rare.  On the stack: xstat()
 * stays async-signal-safe (no malloc), and only calls on idmapped mounts
 * come here.  A mount whose maps do not fit is answered "not the same"
 * (the probe's fields stay cleared).
 */
#define IDMAP_BUF	2048

struct idmap_buf {
	struct xs_statmount	sm;
	char			str[IDMAP_BUF];
};

#define ID_INVALID	0xffffffffUL	/* (uid_t)-1 */

/* One decimal number, after blanks; NULL if malformed or too large. */
static const char *number(const char *s, unsigned long *v)
{
	uint64_t n;

	s = xs_get_u64(s, &n);
	if (!s || n > ID_INVALID)
		return NULL;
	*v = (unsigned long)n;
	return s;
}

/*
 * 1 if @id, the raw owner, shows as @shown through the @n extents at
 * @s; 0 if not.  An unmapped raw id shows as the overflow id, which no
 * extent produces: then @shown must not be any extent's image.
 */
static int maps_to(const char *s, const char *end, uint32_t n,
		   uint32_t id, uint32_t shown)
{
	unsigned long first, lower, count;
	int image = 0;
	const char *p;

	if (!n)		/* no idmapping: ids are shown as stored */
		return id == shown;
	for (; n; n--) {
		if (s >= end || !memchr(s, '\0', (size_t)(end - s)))
			return 0;
		p = number(s, &first);
		p = p ? number(p, &lower) : NULL;
		p = p ? number(p, &count) : NULL;
		if (!p || *p || !count)
			return 0;
		/*
		 * A lower id of -1: the extent's ids are not visible from
		 * this user namespace, and show as the overflow id.
		 */
		if (id >= first && id - first < count && lower != ID_INVALID)
			return shown == lower + (id - first);
		if (lower != ID_INVALID && shown >= lower &&
		    shown - lower < count)
			image = 1;
		s = p + 1;
	}
	return !image;
}

/*
 * 1 if @shown_uid/@shown_gid are what mount @mnt_id (a unique mount ID)
 * shows for raw owner @uid/@gid; 0 if not, or if the mount's idmapping
 * cannot be read (statmount missing, older than 6.15, maps too large).
 * A mount without an idmapping shows ids as stored.
 */
int xs_idmap_same_owner(uint64_t mnt_id, uint32_t uid, uint32_t gid,
			uint32_t shown_uid, uint32_t shown_gid)
{
	const uint64_t maps = XS_STATMOUNT_MNT_UIDMAP | XS_STATMOUNT_MNT_GIDMAP;
	struct xs_mnt_id_req req = { sizeof(req), 0, mnt_id,
				     maps | XS_STATMOUNT_MNT_BASIC };
	struct idmap_buf b;
	const char *end;
	int ret = 0;

	memset(&b.sm, 0, sizeof(b.sm));
	if (syscall(XS_NR_statmount, &req, &b, sizeof(b), 0) ||
	    !(b.sm.mask & XS_STATMOUNT_MNT_BASIC))
		goto out;
	/* Not idmapped (the kernel then gives no maps): ids as stored. */
	if (!(b.sm.mnt_attr & XS_MOUNT_ATTR_IDMAP)) {
		ret = uid == shown_uid && gid == shown_gid;
		goto out;
	}
	if ((b.sm.mask & maps) != maps || b.sm.size < sizeof(b.sm) ||
	    b.sm.size > sizeof(b) || b.sm.mnt_uidmap >= IDMAP_BUF ||
	    b.sm.mnt_gidmap >= IDMAP_BUF)
		goto out;
	end = (const char *)&b + b.sm.size;
	ret = maps_to(b.str + b.sm.mnt_uidmap, end, b.sm.mnt_uidmap_num,
		      uid, shown_uid) &&
	      maps_to(b.str + b.sm.mnt_gidmap, end, b.sm.mnt_gidmap_num,
		      gid, shown_gid);
out:
	return ret;
}
