/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_ATTRS_H
#define LIBXSTAT_ATTRS_H

#include "internal.h"

/* attrs.c: file attributes by file_getattr(2) or FS_IOC_GETFLAGS. */
int xs_attrs_get(const struct xs_target *t, struct xs_stat *st);

/*
 * probe_ioctl.c: FS_IOC_GETVERSION / GETFLAGS on the reopened anchor; 0 or
 * -errno (-ENOTTY: the filesystem has no such ioctl).
 */
int xs_ioctl_getversion(const struct xs_target *t, const struct xs_stat *st,
			uint64_t *gen);
int xs_ioctl_getflags(const struct xs_target *t, const struct xs_stat *st,
		      uint32_t *flags);

#endif /* LIBXSTAT_ATTRS_H */
