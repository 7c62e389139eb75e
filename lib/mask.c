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
} mask_map[] = {
	{ XSTAT_REQUEST_MODE,	XS_STATX_TYPE | XS_STATX_MODE },
	{ XSTAT_REQUEST_NLINK,	XS_STATX_NLINK },
	{ XSTAT_REQUEST_UID,	XS_STATX_UID },
	{ XSTAT_REQUEST_GID,	XS_STATX_GID },
	{ XSTAT_REQUEST_ATIME,	XS_STATX_ATIME },
	{ XSTAT_REQUEST_MTIME,	XS_STATX_MTIME },
	{ XSTAT_REQUEST_CTIME,	XS_STATX_CTIME },
	{ XSTAT_REQUEST_INO,	XS_STATX_INO },
	{ XSTAT_REQUEST_SIZE,	XS_STATX_SIZE },
	{ XSTAT_REQUEST_BLOCKS,	XS_STATX_BLOCKS },
	{ XSTAT_REQUEST_BTIME,	XS_STATX_BTIME },
	/* RDEV, GEN and DATA_VERSION have no statx bit. */
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

/* An xstat bit is set only when every statx bit it stands for came back. */
uint64_t xs_mask_from_statx(uint32_t stx_mask)
{
	uint64_t out = 0;
	size_t i;

	for (i = 0; i < MASK_MAP_LEN; i++)
		if ((stx_mask & mask_map[i].statx) == mask_map[i].statx)
			out |= mask_map[i].xstat;
	return out;
}
