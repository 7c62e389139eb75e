/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --save=NEW: a file replaced whole or not at all.  It is written as an
 * unnamed file in NEW's directory (O_TMPFILE), or where the filesystem
 * has none as ".NEW.xstat-XXXXXX" beside NEW; at the end it is flushed,
 * fsync'd, given a name and renamed over NEW, and the directory fsync'd.
 * It gets NEW's mode where NEW exists, else 0600 (a snapshot lists every
 * name).  SIGINT, SIGTERM, SIGHUP and SIGPIPE remove a named temporary
 * before the signal takes its course; after SIGKILL an unnamed one
 * vanishes with the process, a named one stays as ".NEW.xstat-XXXXXX".
 */
#ifndef XSTAT_TOOL_SAVE_H
#define XSTAT_TOOL_SAVE_H

#include <stdbool.h>
#include <stdio.h>

struct save {
	const char	*path;		/* NEW, as given */
	FILE		*fp;		/* write here */
	int		dirfd;		/* NEW's directory */
	bool		unnamed;	/* O_TMPFILE: no name yet */
};

/*
 * Start writing @path: 0, or -1 with a message on stderr (NEW is not a
 * regular file, its directory cannot be written...).
 */
int save_open(struct save *s, const char *path);

/* Make the file NEW: 0, or -1 with a message; NEW untouched then. */
int save_commit(struct save *s);

/* Give up: the temporary goes, NEW untouched. */
void save_abort(struct save *s);

#endif
