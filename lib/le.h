/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Little-endian fields of on-disk and ioctl records, read byte by byte:
 * no alignment or host-endianness assumption.
 */
#ifndef LIBXSTAT_LE_H
#define LIBXSTAT_LE_H

#include <stdint.h>

static inline uint16_t xs_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t xs_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t xs_le64(const uint8_t *p)
{
	return (uint64_t)xs_le32(p) | (uint64_t)xs_le32(p + 4) << 32;
}

#endif
