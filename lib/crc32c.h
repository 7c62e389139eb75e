/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as ext4's
 * metadata_csum uses it: the caller passes the running value and there is
 * no implicit inversion at either end.  The standard CRC-32C of a message
 * is ~xs_crc32c(~0, msg, len).  xs_crc32c() uses the CPU's crc32
 * instruction where there is one; xs_crc32c_table() is the portable
 * version, kept callable so tests can hold the two to the same answers.
 */
#ifndef LIBXSTAT_CRC32C_H
#define LIBXSTAT_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t xs_crc32c(uint32_t crc, const void *buf, size_t len);
uint32_t xs_crc32c_table(uint32_t crc, const void *buf, size_t len);
/*
 * The CRC of the eight bytes of @prefix, least significant first, then
 * of @buf: what a checksum seeded with a fixed prefix (ext4's inode
 * number and generation) takes, in one call.
 */
uint32_t xs_crc32c_prefixed(uint32_t crc, uint64_t prefix, const void *buf,
			    size_t len);
int xs_crc32c_insn_available(void);

#endif
