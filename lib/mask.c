// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Request/result mask translation between the xstat patch's bits and
 * statx(2)'s.  The low bits differ (xstat has one MODE bit where statx has
 * TYPE and MODE, and an RDEV bit statx lacks); ATIME..BTIME are equal:
 *
 *	XSTAT_REQUEST_*			STATX_*
 *	MODE		0x00001		TYPE | MODE	0x00003
 *	NLINK, UID, GID	0x00002..8	NLINK, UID, GID	0x00004..0x10	<< 1
 *	RDEV		0x00010		-
 *	ATIME..BTIME	0x00020..0x800	ATIME..BTIME	0x00020..0x800
 *	GEN, DATA_VERSION		-
 *	MNT_ID		0x04000		MNT_ID | MNT_ID_UNIQUE	(either)
 *	ATTRIBUTES	0x08000		- (statx always returns them)
 *	DIOALIGN	0x10000		DIOALIGN	0x02000		>> 3
 *	SUBVOL, WRITE_ATOMIC,		SUBVOL, WRITE_ATOMIC,
 *	DIO_READ_ALIGN	0x20000..8000	DIO_READ_ALIGN	0x08000..20000	>> 2
 *
 * This runs twice on every call, so it is shifts and masks rather than a
 * loop over a table; the asserts below hold the layout it relies on.
 */
#include "internal.h"
#include "syscall.h"

/* Bits equal in both masks. */
#define SAME_BITS	(XSTAT_REQUEST_ATIME | XSTAT_REQUEST_MTIME | \
			 XSTAT_REQUEST_CTIME | XSTAT_REQUEST_INO | \
			 XSTAT_REQUEST_SIZE | XSTAT_REQUEST_BLOCKS | \
			 XSTAT_REQUEST_BTIME)
/* xstat bits one place below their statx bits. */
#define UP1_BITS	(XSTAT_REQUEST_NLINK | XSTAT_REQUEST_UID | \
			 XSTAT_REQUEST_GID)
/* xstat bits three and two places above their statx bits. */
#define DOWN3_BITS	XSTAT_REQUEST_DIOALIGN
#define DOWN2_BITS	(XSTAT_REQUEST_SUBVOL | XSTAT_REQUEST_WRITE_ATOMIC | \
			 XSTAT_REQUEST_DIO_READ_ALIGN)
#define STATX_MODE_BITS	(XS_STATX_TYPE | XS_STATX_MODE)
#define STATX_MNT_BITS	(XS_STATX_MNT_ID | XS_STATX_MNT_ID_UNIQUE)

_Static_assert(XSTAT_REQUEST_ATIME == XS_STATX_ATIME &&
	       XSTAT_REQUEST_MTIME == XS_STATX_MTIME &&
	       XSTAT_REQUEST_CTIME == XS_STATX_CTIME &&
	       XSTAT_REQUEST_INO == XS_STATX_INO &&
	       XSTAT_REQUEST_SIZE == XS_STATX_SIZE &&
	       XSTAT_REQUEST_BLOCKS == XS_STATX_BLOCKS &&
	       XSTAT_REQUEST_BTIME == XS_STATX_BTIME, "equal bits");
_Static_assert(XSTAT_REQUEST_NLINK << 1 == XS_STATX_NLINK &&
	       XSTAT_REQUEST_UID << 1 == XS_STATX_UID &&
	       XSTAT_REQUEST_GID << 1 == XS_STATX_GID, "bits << 1");
_Static_assert(XSTAT_REQUEST_DIOALIGN >> 3 == XS_STATX_DIOALIGN, "bit >> 3");
_Static_assert(XSTAT_REQUEST_SUBVOL >> 2 == XS_STATX_SUBVOL &&
	       XSTAT_REQUEST_WRITE_ATOMIC >> 2 == XS_STATX_WRITE_ATOMIC &&
	       XSTAT_REQUEST_DIO_READ_ALIGN >> 2 == XS_STATX_DIO_READ_ALIGN,
	       "bits >> 2");
/* Every statx bit has one source: the groups do not overlap. */
_Static_assert(((SAME_BITS ^ UP1_BITS << 1 ^ DOWN3_BITS >> 3 ^
		 DOWN2_BITS >> 2 ^ STATX_MODE_BITS ^ STATX_MNT_BITS) ==
		(SAME_BITS | UP1_BITS << 1 | DOWN3_BITS >> 3 |
		 DOWN2_BITS >> 2 | STATX_MODE_BITS | STATX_MNT_BITS)),
	       "groups apart");

uint32_t xs_mask_to_statx(uint64_t request)
{
	uint32_t out;

	out = (uint32_t)(request & SAME_BITS) |
	      (uint32_t)(request & UP1_BITS) << 1 |
	      (uint32_t)((request & DOWN3_BITS) >> 3) |
	      (uint32_t)((request & DOWN2_BITS) >> 2);
	if (request & XSTAT_REQUEST_MODE)
		out |= STATX_MODE_BITS;
	if (request & XSTAT_REQUEST_MNT_ID)
		out |= STATX_MNT_BITS;
	return out;
}

/*
 * An xstat bit is set only when every statx bit it stands for came back
 * (or, for the mount ID, either of them).
 */
uint64_t xs_mask_from_statx(uint32_t stx_mask)
{
	uint64_t m = stx_mask, out;

	out = (m & SAME_BITS) | (m >> 1 & UP1_BITS) |
	      (m << 3 & DOWN3_BITS) | (m << 2 & DOWN2_BITS);
	if ((stx_mask & STATX_MODE_BITS) == STATX_MODE_BITS)
		out |= XSTAT_REQUEST_MODE;
	if (stx_mask & STATX_MNT_BITS)
		out |= XSTAT_REQUEST_MNT_ID;
	return out;
}
