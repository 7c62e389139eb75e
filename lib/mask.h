/* SPDX-License-Identifier: LGPL-2.1-or-later */
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
 *	the other extra results: the statx bit of their row in fields.h,
 *	three (DIOALIGN) or two (those after it) places below theirs
 *
 * This runs twice on every call, so it is shifts and masks rather than a
 * loop over a table, inlined where it is used; the asserts below hold the
 * layout it relies on.
 */
#ifndef LIBXSTAT_MASK_H
#define LIBXSTAT_MASK_H

#include "internal.h"
#include "fields.h"
#include "syscall.h"

/* Bits equal in both masks. */
#define XS_MASK_SAME	(XSTAT_REQUEST_ATIME | XSTAT_REQUEST_MTIME | \
			 XSTAT_REQUEST_CTIME | XSTAT_REQUEST_INO | \
			 XSTAT_REQUEST_SIZE | XSTAT_REQUEST_BLOCKS | \
			 XSTAT_REQUEST_BTIME)
/* xstat bits one place below their statx bits. */
#define XS_MASK_UP1	(XSTAT_REQUEST_NLINK | XSTAT_REQUEST_UID | \
			 XSTAT_REQUEST_GID)
/*
 * xstat bits three and two places above their statx bits: the rows of
 * fields.h with a statx bit, by the distance between the two.
 */
#define XS_ROW_DOWN3(NAME, name, bit, size, stx, ...) \
	| ((stx) && (bit) >> 3 == (stx) ? (bit) : 0)
#define XS_ROW_DOWN2(NAME, name, bit, size, stx, ...) \
	| ((stx) && (bit) >> 2 == (stx) ? (bit) : 0)
#define XS_ROW_STX(NAME, name, bit, size, stx, ...)	| ((stx) ? (bit) : 0)
#define XS_MASK_DOWN3	(0ULL XS_EXTRA_RESULTS(XS_ROW_DOWN3))
#define XS_MASK_DOWN2	(0ULL XS_EXTRA_RESULTS(XS_ROW_DOWN2))
#define XS_MASK_STATX_MODE	(XS_STATX_TYPE | XS_STATX_MODE)
#define XS_MASK_STATX_MNT	(XS_STATX_MNT_ID | XS_STATX_MNT_ID_UNIQUE)

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
/* A new distance is a new group here: every row with a statx bit is in one. */
_Static_assert((XS_MASK_DOWN3 | XS_MASK_DOWN2) ==
	       (0ULL XS_EXTRA_RESULTS(XS_ROW_STX)) &&
	       (XS_MASK_DOWN3 & XS_MASK_DOWN2) == 0,
	       "each statx bit of fields.h is two or three places below");
/* Every statx bit has one source: the groups do not overlap. */
_Static_assert(((XS_MASK_SAME ^ XS_MASK_UP1 << 1 ^ XS_MASK_DOWN3 >> 3 ^
		 XS_MASK_DOWN2 >> 2 ^ XS_MASK_STATX_MODE ^ XS_MASK_STATX_MNT) ==
		(XS_MASK_SAME | XS_MASK_UP1 << 1 | XS_MASK_DOWN3 >> 3 |
		 XS_MASK_DOWN2 >> 2 | XS_MASK_STATX_MODE | XS_MASK_STATX_MNT)),
	       "groups apart");

/* The statx bits of the extra results. */
#define XS_MASK_STATX_EXTRAS (XS_MASK_DOWN3 >> 3 | XS_MASK_DOWN2 >> 2 | \
			      XS_MASK_STATX_MNT)

/* Classes (0) to (2): the bits of every call. */
static inline uint32_t xs_mask_to_statx_basic(uint64_t request)
{
	uint32_t out;

	out = (uint32_t)(request & XS_MASK_SAME) |
	      (uint32_t)(request & XS_MASK_UP1) << 1;
	if (request & XSTAT_REQUEST_MODE)
		out |= XS_MASK_STATX_MODE;
	return out;
}

static inline uint64_t xs_mask_from_statx_basic(uint32_t stx_mask)
{
	uint64_t m = stx_mask, out;

	out = (m & XS_MASK_SAME) | (m >> 1 & XS_MASK_UP1);
	if ((stx_mask & XS_MASK_STATX_MODE) == XS_MASK_STATX_MODE)
		out |= XSTAT_REQUEST_MODE;
	return out;
}

/* Class (4), the extra results, for a request that has one. */
static inline uint32_t xs_mask_to_statx_extras(uint64_t request)
{
	uint32_t out = (uint32_t)((request & XS_MASK_DOWN3) >> 3) |
		       (uint32_t)((request & XS_MASK_DOWN2) >> 2);

	if (request & XSTAT_REQUEST_MNT_ID)
		out |= XS_MASK_STATX_MNT;
	return out;
}

/* All of it: the extra results translated only when present. */
static inline uint32_t xs_mask_to_statx(uint64_t request)
{
	uint32_t out = xs_mask_to_statx_basic(request);

	if (request & XS_EXTRAS)
		out |= xs_mask_to_statx_extras(request);
	return out;
}

/*
 * An xstat bit is set only when every statx bit it stands for came back
 * (or, for the mount ID, either of them).
 */
static inline uint64_t xs_mask_from_statx(uint32_t stx_mask)
{
	uint64_t m = stx_mask, out = xs_mask_from_statx_basic(stx_mask);

	if (stx_mask & XS_MASK_STATX_EXTRAS) {
		out |= (m << 3 & XS_MASK_DOWN3) | (m << 2 & XS_MASK_DOWN2);
		if (stx_mask & XS_MASK_STATX_MNT)
			out |= XSTAT_REQUEST_MNT_ID;
	}
	return out;
}

/*
 * One rule for every timestamp from the kernel, in both backends and on
 * both paths: a nanosecond field of 1e9 or more is not a time (ext4
 * decodes 30 bits of it from disk, so an image can carry 1073741823).
 * Its bit is cleared and its value zeroed, as for a time not obtained.
 */
#define XS_NSEC_VALID(ns)	((uint64_t)(ns) < 1000000000U)

#endif /* LIBXSTAT_MASK_H */
