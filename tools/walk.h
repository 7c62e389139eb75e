/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * -r/--recursive: every entry of a tree, through the directory streams of
 * xstat_opendir(3), a few threads each reading one directory at a time.
 * The caller prints; the walk decides what to read and reports failures.
 */
#ifndef XSTAT_TOOL_WALK_H
#define XSTAT_TOOL_WALK_H

#include <stdbool.h>
#include "result.h"

/* The default number of threads, and the most -r takes (--threads). */
#define WALK_THREADS		4
#define WALK_THREADS_MAX	64

struct walk_opts {
	unsigned flags;		/* xstat()'s: AT_SYMLINK_NOFOLLOW unless -L */
	unsigned long long query;
	bool xdev;		/* -x: do not enter other file systems */
	bool error_records;	/* print a failed entry too (JSON, patch) */
	unsigned threads;
	int max_depth;		/* --max-depth: levels below the root; -1 */
	bool progress;		/* a progress line on stderr */
	/* Print one entry; false if something could not be printed. */
	bool (*print)(const struct file_result *r, const void *ctx);
	const void *ctx;
	/*
	 * If set: a directory whose entry was printed could not be read
	 * (or only in part); called after its failure is reported on
	 * stderr.  No error record is printed for it: its entry's record
	 * stands, one record a path.
	 */
	void (*unread)(const char *path, const void *ctx);
};

/*
 * Print @root and, if it is a directory, everything under it.  Output of
 * one entry is never interleaved with another's.  False if any entry
 * failed (reported on stderr); the walk goes on past failures.
 */
bool walk_tree(const char *root, const struct walk_opts *o);

#endif
