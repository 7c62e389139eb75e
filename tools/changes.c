// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --changes (changes.h).  The walk's entries are compared as they come,
 * under one lock (the walk's workers print concurrently): a name that
 * still holds the same file gets xstat_compare(3)'s verdict at once.  A
 * name that is new or holds another file is kept until the walk ends,
 * because only then is it known whether its file left another name
 * (moved) or still has it (a new hard link: new).  Then every snapshot
 * name not seen and not moved is gone.
 *
 * Memory: per snapshot entry, struct snap_ent (232 bytes on x86-64) and
 * its name in the snapshot's chunks, a pointer (8) and the heads of two
 * hash tables of 2-4 buckets an entry (16-32): 260-280 bytes and the
 * name.  Besides: the new names of this walk, each with its result.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "changes.h"
#include "json.h"
#include "out.h"
#include "quote.h"
#include "snapshot.h"

/* A name the walk found that the snapshot's same name does not explain. */
struct pending {
	struct pending	*next;
	bool		replaced;	/* the name was there: another file */
	size_t		len;
	char		*path;
	union xstat_buffer res;
};

struct changes {
	struct snapshot	snap;
	pthread_mutex_t	lock;
	struct pending	*pending;
	bool		json;
	bool		reported;
	bool		trouble;
};

static const char *const verdict_name[] = {
	[XSTAT_SAME] = NULL,
	[XSTAT_SAME_UNPROVEN] = "unproven",
	[XSTAT_CHANGED_METADATA] = "metadata",
	[XSTAT_CHANGED_DATA] = "data",
	[XSTAT_OTHER_FILE] = "replaced",
};

/* One line: "CHANGE PATH" (and " from FROM"), or its JSON object. */
static void report(struct changes *c, const char *path, const char *change,
		   const char *from, const char *also)
{
	c->reported = true;
	if (c->json) {
		json_change(path, change, from, also);
		return;
	}
	fprintf(out_fp(), "%s %s", change, quote_n(1, path, QS_SHELL_ESCAPE));
	if (from)
		fprintf(out_fp(), " from %s",
			quote_n(2, from, QS_SHELL_ESCAPE));
	if (also)
		fprintf(out_fp(), " (%s)", also);
	putc('\n', out_fp());
}

static int compare(const struct changes *c, const struct snap_ent *e,
		   const struct xstat *x, size_t len)
{
	return xstat_compare(&e->res.x, e->len, x, len,
			     c->snap.have_taken ? &c->snap.taken : NULL,
			     NULL);
}

static void keep(struct changes *c, const struct file_result *r,
		 bool replaced)
{
	struct pending *p = malloc(sizeof(*p));

	if (!p || !(p->path = strdup(r->name))) {
		free(p);
		c->trouble = true;
		warn_msg(ENOMEM, "--changes");
		return;
	}
	p->replaced = replaced;
	p->len = r->buflen < sizeof(p->res) ? r->buflen : sizeof(p->res);
	memcpy(&p->res, r->x, p->len);
	p->next = c->pending;
	c->pending = p;
}

static void entry(struct changes *c, const struct file_result *r)
{
	struct snap_ent *e = snapshot_find(&c->snap, r->name);
	int v;

	if (r->ret < 0) {
		/* reported on stderr by the walk; no verdict */
		c->trouble = true;
		if (e)
			e->flags |= SNAP_PRESENT | SNAP_SAME_FILE;
		return;
	}
	if (e && (e->flags & SNAP_FAILED)) {
		e->flags |= SNAP_PRESENT | SNAP_SAME_FILE;
		report(c, r->name, "unproven", NULL, NULL);
		return;
	}
	if (e) {
		e->flags |= SNAP_PRESENT;
		v = compare(c, e, r->x, r->buflen);
		if (v < 0) {
			c->trouble = true;
			warn_msg(errno, "cannot compare %s", quoteaf(r->name));
			return;
		}
		if (v != XSTAT_OTHER_FILE) {
			e->flags |= SNAP_SAME_FILE;
			if (verdict_name[v])
				report(c, r->name, verdict_name[v], NULL,
				       NULL);
			return;
		}
	}
	keep(c, r, e != NULL);
}

static bool print_hook(const struct file_result *r, const void *ctx)
{
	struct changes *c = (struct changes *)ctx;

	pthread_mutex_lock(&c->lock);
	entry(c, r);
	pthread_mutex_unlock(&c->lock);
	return true;
}

/* Do both results name the file by more than its inode number? */
static bool identity_proven(const struct xstat *a, const struct xstat *b)
{
	return a->st_result_mask & b->st_result_mask &
	       (XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN);
}

/*
 * A kept name: moved here, if its file's name in the snapshot is gone
 * (and not already given to another new name); else new or replaced.
 * A snapshot name that is there again, with another file, is a move's
 * origin only where the creation time or generation proves it: else the
 * inode number may have been reused by a new file.
 */
static void settle(struct changes *c, struct pending *p)
{
	struct snap_ent *e = snapshot_first_ino(&c->snap, p->res.x.st_ino);
	int v;

	for (; e; e = snapshot_next_ino(&c->snap, e)) {
		if (e->flags & (SNAP_SAME_FILE | SNAP_CLAIMED))
			continue;
		if ((e->flags & SNAP_PRESENT) &&
		    !identity_proven(&e->res.x, &p->res.x))
			continue;
		v = compare(c, e, &p->res.x, p->len);
		if (v < 0 || v == XSTAT_OTHER_FILE)
			continue;
		e->flags |= SNAP_CLAIMED;
		report(c, p->path, "moved", e->path,
		       v == XSTAT_SAME ? NULL : verdict_name[v]);
		return;
	}
	report(c, p->path, p->replaced ? "replaced" : "new", NULL, NULL);
}

/*
 * Is @root the tree the snapshot's root entry @r was taken of?  Another
 * filesystem or another directory at that name is an error, not a list of
 * every entry replaced.
 */
static bool same_root(const struct snap_ent *r, const char *root,
		      const struct walk_opts *w)
{
	struct xstat_parameters p = { w->query };
	union xstat_buffer b;
	unsigned long long why = 0;
	ssize_t n;
	int v;

	n = xstat(AT_FDCWD, root, w->flags, &p, &b.x, sizeof(b));
	if (n < 0) {
		warn_msg(errno, "cannot stat %s", quoteaf(root));
		return false;
	}
	v = xstat_compare(&r->res.x, r->len, &b.x,
			  (size_t)n < sizeof(b) ? (size_t)n : sizeof(b),
			  NULL, &why);
	if (v == XSTAT_OTHER_FILE)
		warn_msg(0, "the snapshot is of another %s than %s",
			 why & XSTAT_DIFF_FS ? "filesystem" : "directory",
			 quoteaf(root));
	else if (v < 0)
		warn_msg(errno, "cannot compare %s", quoteaf(root));
	return v >= 0 && v != XSTAT_OTHER_FILE;
}

int changes_run(const char *snap, const char *root, struct walk_opts *w,
		bool json)
{
	struct changes c = { .json = json };
	struct snap_ent *r;
	struct pending *p;
	char err[512];
	bool ok;
	FILE *f;
	size_t i;

	f = fopen(snap, "re");
	if (!f) {
		warn_msg(errno, "cannot open %s", quoteaf(snap));
		return 2;
	}
	if (snapshot_load(f, snap, root, &c.snap, err, sizeof(err))) {
		fclose(f);
		snapshot_free(&c.snap);
		warn_msg(0, "%s", err);
		return 2;
	}
	fclose(f);
	r = snapshot_find(&c.snap, root);
	if (!r || (r->flags & SNAP_FAILED)) {
		warn_msg(0, "%s has no entry for %s: a snapshot of another "
			 "tree", quoteaf(snap), quote_n(1, root, QS_SHELL_ESCAPE));
		snapshot_free(&c.snap);
		return 2;
	}
	if (!same_root(r, root, w)) {
		snapshot_free(&c.snap);
		return 2;
	}
	pthread_mutex_init(&c.lock, NULL);
	w->print = print_hook;
	w->ctx = &c;
	w->error_records = true;
	ok = walk_tree(root, w);
	while ((p = c.pending)) {
		c.pending = p->next;
		if (!c.trouble)
			settle(&c, p);
		free(p->path);
		free(p);
	}
	for (i = 0; i < c.snap.n && !c.trouble; i++) {
		r = c.snap.ents[i];
		if (!(r->flags & (SNAP_PRESENT | SNAP_CLAIMED)))
			report(&c, r->path, "gone", NULL, NULL);
	}
	pthread_mutex_destroy(&c.lock);
	snapshot_free(&c.snap);
	if (!ok || c.trouble)
		return 2;
	return c.reported ? 1 : 0;
}
