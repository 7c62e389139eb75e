/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_HANDLE_H
#define LIBXSTAT_HANDLE_H

#include "internal.h"
#include "mntid.h"

/*
 * The handle of a file (struct xs_handle, xs_name_to_handle()) is taken
 * by mntid.h's calls; its generation is read by the filesystem's row
 * (fs.h: xs_fs_handle_gen(), the layouts in handle.c).
 */

#endif /* LIBXSTAT_HANDLE_H */
