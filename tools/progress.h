/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The progress line of a long walk (-r) on a terminal's stderr: entries,
 * directories, errors and the rate, redrawn a few times a second by a
 * thread of its own and cleared at the end.  The walk adds its counts
 * once a directory; NULL stands for no progress line.
 */
#ifndef XSTAT_TOOL_PROGRESS_H
#define XSTAT_TOOL_PROGRESS_H

struct progress;

/* Start showing (after a second: short walks show nothing); NULL if not. */
struct progress *progress_start(void);

void progress_add(struct progress *p, unsigned long entries,
		  unsigned long dirs, unsigned long errors);

/* Stop, clear the line, free @p (NULL: nothing to do). */
void progress_stop(struct progress *p);

#endif
