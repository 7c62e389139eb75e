/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --changes=SNAP: walk a tree again and say, one line per entry, what
 * changed since the snapshot SNAP (xstat -r --json --change-token DIR)
 * was taken: new, gone, replaced, moved, data, metadata or unproven.
 * Each entry's verdict is xstat_compare(3)'s.
 */
#ifndef XSTAT_TOOL_CHANGES_H
#define XSTAT_TOOL_CHANGES_H

#include <stdbool.h>
#include "walk.h"

/*
 * Compare the tree @root against the snapshot file @snap; @w: the walk's
 * options (query, flags, threads), its print hook is set here.  @json:
 * one JSON object per line.  Returns 0 (nothing changed), 1 (something
 * reported) or 2 (trouble, said on stderr), as diff(1).
 */
int changes_run(const char *snap, const char *root, struct walk_opts *w,
		bool json);

#endif
