/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_IDMAP_H
#define LIBXSTAT_IDMAP_H

#include <stdint.h>

/*
 * idmap.c: 1 if @shown_uid/@shown_gid are how the idmapped mount @mnt_id
 * shows raw owner @uid/@gid, 0 if not or if that cannot be told.
 */
int xs_idmap_same_owner(uint64_t mnt_id, uint32_t uid, uint32_t gid,
			uint32_t shown_uid, uint32_t shown_gid);

#endif /* LIBXSTAT_IDMAP_H */
