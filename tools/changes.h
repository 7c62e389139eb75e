/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --changes=SNAP: walk a tree again and say, one line per entry, what
 * changed since the snapshot SNAP (xstat -r --save=SNAP DIR, or -r --json
 * --change-token DIR) was taken: new, gone, replaced, moved, data,
 * metadata or unproven.  Each entry's verdict is xstat_compare(3)'s.
 * --save=NEW: the same walk writes the tree's new snapshot.
 */
#ifndef XSTAT_TOOL_CHANGES_H
#define XSTAT_TOOL_CHANGES_H

#include <stdbool.h>
#include "walk.h"

struct changes_opts {
	const char	*snap;		/* --changes=OLD, or NULL */
	const char	*save;		/* --save=NEW, or NULL */
	bool		json;		/* --json: one object per line */
	bool		names;		/* --names: bare names below DIR */
	bool		zero;		/* -0: names end with NUL */
};

/*
 * Compare the tree @root against the snapshot o->snap and/or save its
 * snapshot to o->save; @w: the walk's options (query, flags, threads),
 * its print hook is set here.  Returns 0 (nothing changed), 1 (something
 * reported) or 2 (trouble, said on stderr), as diff(1).  With trouble
 * in some entries only, what could be compared is printed and NEW is
 * saved all the same, with those entries' old records.
 */
int changes_run(const char *root, struct walk_opts *w,
		const struct changes_opts *o);

#endif
