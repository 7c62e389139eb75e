/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A snapshot: what `xstat -r --json --change-token DIR` printed (or
 * --save wrote), read back for --changes.  The file sat on disk between runs, so it is input
 * not to be trusted: it is parsed by simdjson, one line at a time and
 * each line at most SNAP_LINE_MAX bytes, and every member the comparison
 * uses is checked for its type and range.  Anything else is an error
 * with the line number, never a guess.
 */
#ifndef XSTAT_TOOL_SNAPSHOT_H
#define XSTAT_TOOL_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "xstat.h"

struct jt_tree;

/* The longest line: a PATH_MAX name escaped (6 bytes a byte) and in hex. */
#define SNAP_LINE_MAX	(64 * 1024)

/* What the walk found of an entry (snap_ent.flags). */
#define SNAP_PRESENT	0x1	/* its name is there */
#define SNAP_SAME_FILE	0x2	/* ...and holds the same file */
#define SNAP_CLAIMED	0x4	/* the file moved: reported at its new name */
#define SNAP_FAILED	0x8	/* an error record: no result */
#define SNAP_TAKEN	0x10	/* .taken holds the record's "taken" */
#define SNAP_UNREAD	0x20	/* could not be examined now: kept */
#define SNAP_UNREAD_BELOW 0x40	/* nor what is below it */
#define SNAP_LAZY	0x80	/* only its name and "taken" read yet */

/*
 * The part of an entry's result the comparison reads - struct xstat and
 * the change token, data version promise and filesystem ID - rebuilt in
 * the library's layout.
 */
struct snap_res {
	uint32_t	len;		/* bytes of the result */
	/* last: struct xstat ends in its flexible array of extras */
	union {
		struct xstat	x;
		xstat_u64	w[(sizeof(struct xstat) + 24 + 8 + 24) / 8];
	};
};

/*
 * One entry: its name (bytes) and its result, once read.  The result is
 * apart: a SNAP_LAZY entry has none yet, and one rebuilt from the walk's
 * new result (snapshot_rebuild()) needs none kept unless the walk keeps
 * it for later (snapshot_keep()) - most entries of a large snapshot.
 */
struct snap_ent {
	struct snap_res	*res;		/* NULL: not read, failed or unkept */
	uint32_t	next_path;	/* hash chains: index + 1, 0 ends */
	uint32_t	next_ino;
	uint32_t	flags;
	uint32_t	line_len;
	uint32_t	prefix_len;	/* SNAP_LAZY: line up to ,"taken": */
	uint32_t	lineno;		/* its line in the file */
	uint32_t	path_hash;	/* of path: made by the parsing threads */
	const char	*line;		/* the record as read, no newline */
	struct xstat_time taken;	/* its racy window's end (SNAP_TAKEN) */
	char		path[];
};

/*
 * The entries and their names are cut from chunks of SNAP_CHUNK bytes
 * (huge_alloc()'s: one huge page each, header included).
 */
#define SNAP_CHUNK	(2 * 1024 * 1024)

struct snap_chunk {
	struct snap_chunk	*next;
	size_t			used;
	char			mem[];
};

struct snapshot {
	struct snap_chunk *chunks;	/* the newest first */
	struct snap_ent	**ents;
	size_t		n, cap;
	uint32_t	*path_heads;	/* buckets: index + 1, 0 empty */
	uint32_t	*ino_heads;
	size_t		nbuckets;
	struct snap_ent	*root;		/* the entry every other is under */
	char		*text;		/* a regular file's bytes: the records */
	size_t		text_len;
	bool		text_mapped;	/* mapped, not huge_alloc()'d */
	bool		have_taken;	/* some record has "taken" */
	const char	*name;		/* the file, for messages */
	struct jt_tree	*tree;		/* snapshot_resolve()'s parser */
};

/*
 * Read the snapshot @f (named @name in messages).  0, or -1 with a
 * message in @err.  Each entry keeps its record's text (->line).
 */
int snapshot_load(FILE *f, const char *name, struct snapshot *s, char *err,
		  size_t errlen);

/*
 * Find the snapshot's root: its shortest name, which every other name
 * must be under.  NULL if they are; else the first entry that is not
 * (s->root is then the shortest name all the same).
 */
const struct snap_ent *snapshot_set_root(struct snapshot *s);

/*
 * The same, deferred where it can be (for --changes, which makes each
 * entry's new record: cheaper than parsing the old one): a record that looks as xstat prints
 * it, its name plain ASCII ("path_bytes" null, no escape), is only cut out
 * (SNAP_LAZY: its name, its "taken" and where that member starts); the
 * others are parsed at once.  The name index is built, the inode index
 * only by snapshot_finish().  A SNAP_LAZY entry's result is rebuilt from
 * the new result whose record text is the same but for the name
 * (snapshot_rebuild()), or read by snapshot_resolve(); snapshot_finish()
 * reads what is left.
 */
int snapshot_load_deferred(FILE *f, const char *name, struct snapshot *s,
			   char *err, size_t errlen);

/*
 * Where the member "taken" starts in the record @line (@len bytes, a
 * newline at the end or not) as json_print() writes it: the last
 * ,"taken": (none can be inside a string: its quotes would be escaped),
 * or 0 if there is none.
 */
size_t snapshot_prefix_len(const char *line, size_t len);

/*
 * @e (SNAP_LAZY) from the new result @x (@buflen bytes) whose record's
 * text from after "path" up to "taken" is @e's: into @res, exactly what
 * reading @e's record would give (the name is not in the result); @e is
 * then read, its result @res (the caller's: snapshot_keep() keeps it).
 * 0; -1 where the text would not be read as a snapshot entry (then
 * snapshot_resolve() says why).
 */
int snapshot_rebuild(struct snap_ent *e, struct snap_res *res,
		     const struct xstat *x, size_t buflen);

/*
 * @res, rebuilt for @e, kept as its result (the inode index and the
 * comparisons after the walk read it).  0, or -1 out of memory.  One
 * thread at a time (@s's memory).
 */
int snapshot_keep(struct snapshot *s, struct snap_ent *e,
		  const struct snap_res *res);

/*
 * Read @e's record (SNAP_LAZY) now, as snapshot_load() would have: 0, or
 * -1 with "NAME:LINE: reason" in @err.  One thread at a time (s->tree,
 * @s's memory).
 */
int snapshot_resolve(struct snapshot *s, struct snap_ent *e, char *err,
		     size_t errlen);

/*
 * After snapshot_load_deferred() and the walk: every entry still
 * SNAP_LAZY read (the first error of the file in @err, -1), then the
 * inode index built.  0 or -1.
 */
int snapshot_finish(struct snapshot *s, char *err, size_t errlen);

/* Is @path @root itself or below it? */
bool snapshot_under(const char *path, const char *root);
void snapshot_free(struct snapshot *s);

/* The entry named @path, or NULL. */
struct snap_ent *snapshot_find(const struct snapshot *s, const char *path);
/*
 * snapshot_find(), trying first the entry at index *@next: a walk meets
 * the names mostly in the order of the walk that wrote the snapshot, so
 * that entry is usually the one, and sequential memory is cheaper than a
 * hash chain's (a cache miss at each step).  *@next is then the index
 * after the entry found.
 */
struct snap_ent *snapshot_find_near(const struct snapshot *s,
				    const char *path, size_t *next);

/*
 * The entries whose inode number is @ino: first, then snapshot_next_ino.
 * Only those with a result (->res) are indexed.
 */
struct snap_ent *snapshot_first_ino(const struct snapshot *s, uint64_t ino);
struct snap_ent *snapshot_next_ino(const struct snapshot *s,
				   const struct snap_ent *e);

#endif
