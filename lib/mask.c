// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Request/result mask translation between the xstat patch's bits and
 * statx(2)'s.  The low bits differ (xstat has one MODE bit where statx has
 * TYPE and MODE, and an RDEV bit statx lacks); ATIME..BTIME are equal.
 */
#include "internal.h"
#include "syscall.h"

static const struct {
	uint64_t	xstat;
	uint32_t	statx;
	int		any;	/* from statx: any one of the bits will do */
} mask_map[] = {
	{ XSTAT_REQUEST_MODE, XS_STATX_TYPE | XS_STATX_MODE, 0 },
	{ XSTAT_REQUEST_NLINK, XS_STATX_NLINK, 0 },
	{ XSTAT_REQUEST_UID, XS_STATX_UID, 0 },
	{ XSTAT_REQUEST_GID, XS_STATX_GID, 0 },
	{ XSTAT_REQUEST_ATIME, XS_STATX_ATIME, 0 },
	{ XSTAT_REQUEST_MTIME, XS_STATX_MTIME, 0 },
	{ XSTAT_REQUEST_CTIME, XS_STATX_CTIME, 0 },
	{ XSTAT_REQUEST_INO, XS_STATX_INO, 0 },
	{ XSTAT_REQUEST_SIZE, XS_STATX_SIZE, 0 },
	{ XSTAT_REQUEST_BLOCKS, XS_STATX_BLOCKS, 0 },
	{ XSTAT_REQUEST_BTIME, XS_STATX_BTIME, 0 },
	/* Extra results.  The unique mount ID replaces the old one. */
	{ XSTAT_REQUEST_MNT_ID, XS_STATX_MNT_ID | XS_STATX_MNT_ID_UNIQUE, 1 },
	{ XSTAT_REQUEST_DIOALIGN, XS_STATX_DIOALIGN, 0 },
	{ XSTAT_REQUEST_SUBVOL, XS_STATX_SUBVOL, 0 },
	{ XSTAT_REQUEST_WRITE_ATOMIC, XS_STATX_WRITE_ATOMIC, 0 },
	{ XSTAT_REQUEST_DIO_READ_ALIGN, XS_STATX_DIO_READ_ALIGN, 0 },
	/*
	 * RDEV, GEN and DATA_VERSION have no statx bit; ATTRIBUTES neither:
	 * statx always returns them.
	 */
};

#define MASK_MAP_LEN (sizeof(mask_map) / sizeof(mask_map[0]))

uint32_t xs_mask_to_statx(uint64_t request)
{
	uint32_t out = 0;
	size_t i;

	for (i = 0; i < MASK_MAP_LEN; i++)
		if (request & mask_map[i].xstat)
			out |= mask_map[i].statx;
	return out;
}

/*
 * An xstat bit is set only when every statx bit it stands for came back
 * (or, for the mount ID, either of them).
 */
uint64_t xs_mask_from_statx(uint32_t stx_mask)
{
	uint64_t out = 0;
	size_t i;

	for (i = 0; i < MASK_MAP_LEN; i++) {
		uint32_t got = stx_mask & mask_map[i].statx;

		if (mask_map[i].any ? got != 0 : got == mask_map[i].statx)
			out |= mask_map[i].xstat;
	}
	return out;
}
