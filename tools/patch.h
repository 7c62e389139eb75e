/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --patch: the layout of the xstat() patch's own test program. */
#ifndef XSTAT_TOOL_PATCH_H
#define XSTAT_TOOL_PATCH_H

#include "result.h"

/* Print @r (its ret -1 on failure: only the "xstat(NAME) = -1" line). */
void patch_print(const struct file_result *r);

#endif
