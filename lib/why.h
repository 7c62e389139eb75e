/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Why a class (3) field is missing, as the sources that failed to give it
 * note it into the call's own record (struct xs_stat's why_*), below every
 * layer that reads a field: the probes, the supplements, the streams' raw
 * batches.  The errno of each kind of failure maps to its XSTAT_WHY_* code
 * here and nowhere else; why.c decides, after the call, between these
 * notes and the filesystem's facts.
 */
#ifndef LIBXSTAT_WHY_H
#define LIBXSTAT_WHY_H

#include <errno.h>
#include "internal.h"

/*
 * @code as the reason for each of @fields still missing from @st: the
 * last note of a field stands.  Dies with the record.
 */
static inline void xs_why_note(struct xs_stat *st, uint64_t fields,
			       uint8_t code)
{
	fields &= ~st->mask;
	if (fields & XSTAT_REQUEST_BTIME)
		st->why_btime = code;
	if (fields & XSTAT_REQUEST_GEN)
		st->why_gen = code;
	if (fields & XSTAT_REQUEST_DATA_VERSION)
		st->why_dv = code;
}

/*
 * A read that did not prove it is this file's, now: a checksum that would
 * not match, another filesystem on the device than the file's, an inode
 * that is not the one stat described, a record out of range.
 */
static inline int xs_why_unverified(int err)
{
	switch (err) {
	case ESTALE: case EBADMSG: case EUCLEAN: case ERANGE: case EINVAL:
	case EPROTO:
		return 1;
	}
	return 0;
}

/*
 * The note of a refusal of what reading a field takes (@needs, fs.h's
 * XS_NEEDS_*), until why.c settles it (xs_why_fill_missing()): whether
 * it is PRIVILEGE, the caller's lack, or REFUSED despite it takes a
 * system call (geteuid, capget), paid only by a caller who asks for the
 * reasons.  Never a public XSTAT_WHY_* value.
 */
#define XS_WHY_REFUSAL		0xf0
#define XS_WHY_REFUSED_NEEDING(needs)	(XS_WHY_REFUSAL | (needs))

/*
 * Opening or reading the filesystem's block device failed with @err.
 * Opening one takes @needs (XS_NEEDS_ROOT: root, or its group): a
 * refusal is the caller's lack without it, a refusal despite it with (a
 * container's device rules, a security module).  No node, or no sysfs
 * naming it: NO_DEVICE.
 */
static inline uint8_t xs_why_device(int err, unsigned needs)
{
	switch (err) {
	case EACCES: case EPERM:
		return XS_WHY_REFUSED_NEEDING(needs);
	case ENOENT: case ENODEV: case ENXIO: case ENOTDIR: case ENAMETOOLONG:
		return XSTAT_WHY_NO_DEVICE;
	}
	return xs_why_unverified(err) ? XSTAT_WHY_UNVERIFIED : XSTAT_WHY_UNKNOWN;
}

/*
 * A request any caller may make (FS_IOC_GETVERSION, the file handle's
 * name_to_handle_at) failed with @err.
 */
static inline uint8_t xs_why_ioctl(int err)
{
	switch (err) {
	case ENOTTY: case EOPNOTSUPP:
		return XSTAT_WHY_NO_SOURCE;
	case EACCES: case EPERM:
		return XSTAT_WHY_REFUSED;
	case ENOSYS:
		return XSTAT_WHY_KERNEL;
	}
	return xs_why_unverified(err) ? XSTAT_WHY_UNVERIFIED : XSTAT_WHY_UNKNOWN;
}

#endif /* LIBXSTAT_WHY_H */
