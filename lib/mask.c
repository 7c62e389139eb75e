// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Request/result mask translation between the xstat patch's bits and
 * statx(2)'s.  The low bits differ (xstat has one MODE bit where statx has
 * TYPE and MODE, and an RDEV bit statx lacks); ATIME..BTIME are equal:
 *
 *	XSTAT_REQUEST_*			STATX_*
 *	MODE		0x001		TYPE | MODE	0x003
 *	NLINK, UID, GID	0x002..0x008	NLINK, UID, GID	0x004..0x010
 *	RDEV		0x010		-
 *	ATIME..BTIME	0x020..0x800	ATIME..BTIME	0x020..0x800
 *	GEN, DATA_VERSION		-
 *
 * This runs on every call, so it is a few shifts and masks rather than a
 * loop over a table; the asserts below hold the layout it relies on.
 */
#include "internal.h"
#include "syscall.h"

/* Bits equal in both masks, and bits one place lower in xstat's. */
#define SAME_BITS	(XSTAT_REQUEST_ATIME | XSTAT_REQUEST_MTIME | \
			 XSTAT_REQUEST_CTIME | XSTAT_REQUEST_INO | \
			 XSTAT_REQUEST_SIZE | XSTAT_REQUEST_BLOCKS | \
			 XSTAT_REQUEST_BTIME)
#define SHIFTED_BITS	(XSTAT_REQUEST_NLINK | XSTAT_REQUEST_UID | \
			 XSTAT_REQUEST_GID)
#define STATX_MODE_BITS	(XS_STATX_TYPE | XS_STATX_MODE)

_Static_assert(XSTAT_REQUEST_ATIME == XS_STATX_ATIME &&
	       XSTAT_REQUEST_MTIME == XS_STATX_MTIME &&
	       XSTAT_REQUEST_CTIME == XS_STATX_CTIME &&
	       XSTAT_REQUEST_INO == XS_STATX_INO &&
	       XSTAT_REQUEST_SIZE == XS_STATX_SIZE &&
	       XSTAT_REQUEST_BLOCKS == XS_STATX_BLOCKS &&
	       XSTAT_REQUEST_BTIME == XS_STATX_BTIME, "equal bits");
_Static_assert(XSTAT_REQUEST_NLINK << 1 == XS_STATX_NLINK &&
	       XSTAT_REQUEST_UID << 1 == XS_STATX_UID &&
	       XSTAT_REQUEST_GID << 1 == XS_STATX_GID, "shifted bits");
_Static_assert(!((SHIFTED_BITS << 1 | SAME_BITS) & STATX_MODE_BITS),
	       "TYPE and MODE are apart");

uint32_t xs_mask_to_statx(uint64_t request)
{
	uint32_t out;

	out = (uint32_t)(request & SAME_BITS) |
	      (uint32_t)(request & SHIFTED_BITS) << 1;
	if (request & XSTAT_REQUEST_MODE)
		out |= STATX_MODE_BITS;
	return out;
}

/* An xstat bit is set only when every statx bit it stands for came back. */
uint64_t xs_mask_from_statx(uint32_t stx_mask)
{
	uint64_t out;

	out = (stx_mask & SAME_BITS) | (stx_mask >> 1 & SHIFTED_BITS);
	if ((stx_mask & STATX_MODE_BITS) == STATX_MODE_BITS)
		out |= XSTAT_REQUEST_MODE;
	return out;
}
