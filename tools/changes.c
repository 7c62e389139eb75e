// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --changes and --save (changes.h).  The walk's entries are compared as
 * they come, under one lock (the walk's workers call concurrently; each
 * finds its old entry before, see find_old()): a name that still holds
 * the same file gets xstat_compare(3)'s verdict at once.  A name that is
 * new or holds another file is kept until the walk ends, because only
 * then is it known whether its file left another name (moved) or still
 * has it (a new hard link: new).  Then every snapshot name not seen and
 * not moved is gone.  The verdicts are printed at the end, sorted by the
 * path's bytes, so every output form has one order.
 *
 * --save writes each entry's record, as -r --json --change-token prints
 * it, while the walk goes (printed by each worker outside the lock), so
 * nothing changed between a comparison and a snapshot is lost: both are
 * of one reading.  Two kinds of entry wait for the end:
 * - one whose last change is within the racy window of the walk's start
 *   (its "taken"), where its token proves nothing yet: read again once
 *   the window has passed, and recorded with that later "taken" if it is
 *   the same, else as first read (racy again next time);
 * - one that could not be examined: its old record is kept, and so are
 *   those of the old entries below it, so it is compared next time.
 *
 * OLD is read only as far as needed at first (snapshot.h,
 * snapshot_load_deferred()): each entry's new record is made before it
 * is compared (with --save, printed into NEW), and where its text from
 * after the name up to "taken" is the old record's, the old result is
 * rebuilt from the new one instead of being parsed: making a record
 * costs less than parsing one.  An entry that changed is parsed then;
 * those the walk did not find, at the end.  A snapshot the reader
 * refuses is refused all the same, only later: exit 2, nothing listed,
 * NEW untouched.
 *
 * The snapshot's root may be spelled otherwise than DIR (DIR/, a relative
 * name): the tree is the same if DIR is the file the root's record
 * describes.  Names are looked up in the snapshot's spelling and reported
 * in DIR's.
 *
 * Memory: per snapshot entry, struct snap_ent (64 bytes on x86-64) and
 * its name in the snapshot's chunks (a piped snapshot: its record too),
 * a pointer (8) and the heads of two hash tables of 2-4 buckets an entry
 * (16-32); its result (216) only where it was parsed, or where the walk
 * did not find the same file at its name.  Besides: each verdict until
 * the end, the new names of this walk, and with --save the racy entries'
 * results.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "changes.h"
#include "json.h"
#include "json-record.h"
#include "out.h"
#include "quote.h"
#include "save.h"
#include "snapshot.h"

/* A name the walk found that the snapshot's same name does not explain. */
struct pending {
	struct pending	*next;
	bool		replaced;	/* the name was there: another file */
	size_t		len;
	char		*path;
	union xstat_buffer res;
};

/* A result kept for --save: read again after the racy window. */
struct reread {
	struct reread	*next;
	char		*path;
	ssize_t		ret;
	size_t		len;
	union xstat_buffer res;
};

/* One verdict, printed at the end; paths in DIR's spelling. */
struct report {
	char		*path;
	char		*from;
	const char	*change;
	const char	*also;
};

struct changes {
	const struct changes_opts *o;
	struct snapshot	snap;
	bool		have_snap;
	const char	*root;		/* DIR as given */
	const char	*snap_root;	/* the snapshot's spelling of it */
	bool		respell;	/* the two differ */
	char		*key;		/* a name in the snapshot's spelling */
	size_t		keycap;
	pthread_mutex_t	lock;
	struct pending	*pending;
	struct report	*reports;
	size_t		nreports, capreports;
	struct reread	*reread;
	struct save	save;
	bool		saving;
	atomic_bool	save_failed;	/* read by the workers unlocked */
	int		save_errno;
	struct xstat_time taken;	/* the walk's start */
	bool		unread;		/* some old entry is SNAP_UNREAD */
	bool		trouble;
	uint32_t	bad_line;	/* the first bad record met, or 0 */
	char		bad[512];	/* ...and what is wrong with it */
};

static const char *const verdict_name[] = {
	[XSTAT_SAME] = NULL,
	[XSTAT_SAME_UNPROVEN] = "unproven",
	[XSTAT_CHANGED_METADATA] = "metadata",
	[XSTAT_CHANGED_DATA] = "data",
	[XSTAT_OTHER_FILE] = "replaced",
};

/* The promise that proves "unchanged" (xstat_compare(3)). */
#define PROVES	(XSTAT_PROMISE_EVERY_CHANGE | XSTAT_PROMISE_PERSISTENT)
/* xstat_compare(3)'s racy window: a write may copy data this long. */
#define RACY_SEC	1

/* @path below @root: "" for @root itself. */
static const char *rel_of(const char *root, const char *path)
{
	size_t n = strlen(root);

	path += n;
	if (*path == '/' && n && root[n - 1] != '/')
		path++;
	return path;
}

/* @rel below @root, spelled as the walk spells it (malloc'd). */
static char *spell(const char *root, const char *rel)
{
	size_t a = strlen(root), b = strlen(rel);
	bool slash = b && a && root[a - 1] != '/';
	char *p = malloc(a + slash + b + 1);

	if (!p)
		return NULL;
	memcpy(p, root, a);
	if (slash)
		p[a] = '/';
	memcpy(p + a + slash, rel, b + 1);
	return p;
}

/* The walk's @path in the snapshot's spelling (c->lock held). */
static const char *key_of(struct changes *c, const char *path)
{
	const char *rel;
	size_t a, b;

	if (!c->respell)
		return path;
	rel = rel_of(c->root, path);
	a = strlen(c->snap_root);
	b = strlen(rel);
	if (a + b + 2 > c->keycap) {
		char *k = realloc(c->key, a + b + 2);

		if (!k)
			return NULL;
		c->key = k;
		c->keycap = a + b + 2;
	}
	memcpy(c->key, c->snap_root, a);
	if (b && a && c->snap_root[a - 1] != '/')
		c->key[a++] = '/';
	memcpy(c->key + a, rel, b + 1);
	return c->key;
}

/* A snapshot name in DIR's spelling (malloc'd). */
static char *dir_name(const struct changes *c, const char *snap_path)
{
	if (!c->respell)
		return strdup(snap_path);
	return spell(c->root, rel_of(c->snap_root, snap_path));
}

static void oom(struct changes *c)
{
	c->trouble = true;
	warn_msg(ENOMEM, "--changes");
}

/* Keep a verdict for the end (c->lock held); @path: DIR's spelling. */
static void report(struct changes *c, const char *path, const char *change,
		   char *from, const char *also)
{
	struct report *r;

	if (c->nreports == c->capreports) {
		size_t cap = c->capreports ? 2 * c->capreports : 256;

		r = realloc(c->reports, cap * sizeof(*r));
		if (!r) {
			free(from);
			oom(c);
			return;
		}
		c->reports = r;
		c->capreports = cap;
	}
	r = &c->reports[c->nreports];
	r->path = strdup(path);
	if (!r->path) {
		free(from);
		oom(c);
		return;
	}
	r->from = from;
	r->change = change;
	r->also = also;
	c->nreports++;
}

/* @e's result @res against @x. */
static int compare(const struct snap_ent *e, const struct snap_res *res,
		   const struct xstat *x, size_t len)
{
	return xstat_compare(&res->x, res->len, x, len,
			     e->flags & SNAP_TAKEN ? &e->taken : NULL, NULL);
}

static void keep(struct changes *c, const struct file_result *r,
		 bool replaced)
{
	struct pending *p = malloc(sizeof(*p));

	if (!p || !(p->path = strdup(r->name))) {
		free(p);
		oom(c);
		return;
	}
	p->replaced = replaced;
	p->len = r->buflen < sizeof(p->res) ? r->buflen : sizeof(p->res);
	memcpy(&p->res, r->x, p->len);
	p->next = c->pending;
	c->pending = p;
}

/* @e read now (c->lock held): false if its record is bad (kept). */
static bool resolve(struct changes *c, struct snap_ent *e)
{
	char err[sizeof(c->bad)];

	if (!snapshot_resolve(&c->snap, e, err, sizeof(err)))
		return true;
	if (!c->bad_line || e->lineno < c->bad_line) {
		c->bad_line = e->lineno;
		memcpy(c->bad, err, sizeof(c->bad));
	}
	return false;
}

/*
 * An entry's old record, as far as it is found without c->lock: the
 * snapshot's tables and its records' text do not change during the walk
 * (resolving an entry fills only that entry's result), so the lookup and
 * the comparison of the texts, the bulk of an entry's work, are made by
 * each worker on its own.  With the name respelled, c->key is shared:
 * then under the lock.
 */
struct old_entry {
	struct snap_ent	*e;
	bool		same_text;	/* its text after "path" is @r's */
	bool		oom;
};

/*
 * Is the old record @e's text (SNAP_LAZY) the new record's @text (@len
 * bytes, of @name), from the end of the "path" member up to "taken"?
 * The names were matched by the lookup; compared as text, a DIR spelled
 * otherwise than the snapshot's would make every entry differ and be
 * parsed.  @e's name has no escape (snapshot_load_deferred()); @text's
 * member ends after @name only where @name needed none either (an
 * escape is longer than the byte it stands for).
 */
static bool same_text(const struct snap_ent *e, const char *name,
		      const char *text, size_t len)
{
	static const char head[] = "{\"path\":\"";
	const size_t h = sizeof(head) - 1;
	size_t n = strlen(name), old = h + strlen(e->path), cut;

	if (!e->prefix_len || len <= h + n || memcmp(text, head, h) ||
	    memcmp(text + h, name, n) || text[h + n] != '"')
		return false;
	cut = snapshot_prefix_len(text, len);
	return cut > h + n && cut - (h + n) == e->prefix_len - old &&
	       !memcmp(text + h + n, e->line + old, e->prefix_len - old);
}

static void find_old(struct changes *c, const struct file_result *r,
		     const char *text, size_t len, struct old_entry *o)
{
	/* each worker's own: its entries come in runs of the file's order */
	static __thread size_t near;
	const char *key = key_of(c, r->name);
	struct snap_ent *e;

	o->e = NULL;
	o->same_text = false;
	o->oom = !key;
	if (!key)
		return;
	e = snapshot_find_near(&c->snap, key, &near);
	o->e = e;
	o->same_text = e && text && r->ret >= 0 &&
		       same_text(e, r->name, text, len);
}

/*
 * A SNAP_LAZY entry @o->e: rebuilt from @r into @tmp where the records
 * agree, else parsed.  Its result, or NULL if its record is bad (c->lock
 * held).
 */
static const struct snap_res *settle_lazy(struct changes *c,
					  const struct old_entry *o,
					  const struct file_result *r,
					  struct snap_res *tmp)
{
	if (o->same_text && !snapshot_rebuild(o->e, tmp, r->x, r->buflen))
		return tmp;
	return resolve(c, o->e) ? o->e->res : NULL;
}

/*
 * @e's result @res, rebuilt into the caller's @tmp, kept where the walk
 * leaves @e to be read again (settle(): a name not holding the same
 * file).  Most entries are the same file: theirs is not kept.
 */
static void keep_rebuilt(struct changes *c, struct snap_ent *e,
			 const struct snap_res *res,
			 const struct snap_res *tmp)
{
	if (res == tmp && !(e->flags & SNAP_SAME_FILE) &&
	    snapshot_keep(&c->snap, e, tmp))
		oom(c);
}

/* compare() for entry(): its verdict said, or false where none is. */
static bool verdict(struct changes *c, const struct file_result *r,
		    struct snap_ent *e, const struct snap_res *res)
{
	int v;

	e->flags |= SNAP_PRESENT;
	v = compare(e, res, r->x, r->buflen);
	if (v < 0) {
		c->trouble = true;
		warn_msg(errno, "cannot compare %s", quoteaf(r->name));
		return true;
	}
	if (v == XSTAT_OTHER_FILE)
		return false;
	e->flags |= SNAP_SAME_FILE;
	if (verdict_name[v])
		report(c, r->name, verdict_name[v], NULL, NULL);
	return true;
}

/* Compare one entry, found as @o (c->lock held).  Returns @o->e. */
static struct snap_ent *entry(struct changes *c, const struct file_result *r,
			      const struct old_entry *o)
{
	struct snap_ent *e = o->e;
	const struct snap_res *res = e ? e->res : NULL;
	struct snap_res tmp;
	bool said;

	if (o->oom) {
		oom(c);
		return NULL;
	}
	if (e && (e->flags & SNAP_LAZY) &&
	    !(res = settle_lazy(c, o, r, &tmp))) {
		/* the run ends with the snapshot's error: nothing to say */
		e->flags |= SNAP_PRESENT | SNAP_SAME_FILE;
		return e;
	}
	if (r->ret < 0) {
		/* reported on stderr by the walk; no verdict */
		c->trouble = true;
		if (e) {
			e->flags |= SNAP_PRESENT | SNAP_SAME_FILE |
				    SNAP_UNREAD | SNAP_UNREAD_BELOW;
			c->unread = true;
		}
		return e;
	}
	if (e && (e->flags & SNAP_FAILED)) {
		e->flags |= SNAP_PRESENT | SNAP_SAME_FILE;
		report(c, r->name, "unproven", NULL, NULL);
		return e;
	}
	said = e && verdict(c, r, e, res);
	if (e)
		keep_rebuilt(c, e, res, &tmp);
	if (!said)
		keep(c, r, e != NULL);
	return e;
}

/*
 * Would reading @x again after the racy window prove more?  Its last
 * change is within the window of the walk's start, and its token can
 * prove "unchanged" at all.
 */
static bool worth_rereading(const struct changes *c,
			    const struct file_result *r)
{
	const struct xstat_change_token *t =
		extra(r, XSTAT_REQUEST_CHANGE_TOKEN);
	const struct xstat_time *m;
	long long sec = c->taken.tv_sec - RACY_SEC;

	if (!t || (t->promise & PROVES) != PROVES ||
	    (t->promise & XSTAT_PROMISE_TICK))
		return false;
	if (have(r, XSTAT_REQUEST_CTIME))
		m = &r->x->st_ctim;	/* every write moves it */
	else
		return false;
	return m->tv_sec > sec ||
	       (m->tv_sec == sec && m->tv_nsec >= c->taken.tv_nsec);
}

static void keep_reread(struct changes *c, const struct file_result *r)
{
	struct reread *p = malloc(sizeof(*p));

	if (!p || !(p->path = strdup(r->name))) {
		free(p);
		oom(c);
		return;
	}
	p->ret = r->ret;
	p->len = r->buflen < sizeof(p->res) ? r->buflen : sizeof(p->res);
	memcpy(&p->res, r->x, p->len);
	p->next = c->reread;
	c->reread = p;
}

/* The record just printed into the new snapshot, ended. */
static void end_record(struct changes *c)
{
	if (!out_record_end(false)) {
		int err = errno;

		pthread_mutex_lock(&c->lock);
		if (!c->save_failed)
			c->save_errno = err;
		c->save_failed = true;
		pthread_mutex_unlock(&c->lock);
	}
}

/* @r's record into the new snapshot, printed by the calling thread. */
static void save_record(struct changes *c, const struct file_result *r)
{
	json_print(r);
	end_record(c);
}

/* A directory the walk could not read: what was below it is kept. */
static void unread_hook(const char *path, const void *ctx)
{
	struct changes *c = (struct changes *)ctx;
	struct snap_ent *e;
	const char *key;

	pthread_mutex_lock(&c->lock);
	c->trouble = true;
	key = key_of(c, path);
	e = key ? snapshot_find(&c->snap, key) : NULL;
	if (e) {
		e->flags |= SNAP_UNREAD_BELOW;
		c->unread = true;
	}
	pthread_mutex_unlock(&c->lock);
}

static bool print_hook(const struct file_result *r, const void *ctx)
{
	struct changes *c = (struct changes *)ctx;
	bool racy = c->saving && r->ret >= 0 && worth_rereading(c, r);
	struct snap_ent *e = NULL;
	struct old_entry old;
	bool later = racy, printed = false;
	char buf[JSON_RECORD_TEXT_MAX];
	const char *text = NULL;
	size_t len = 0;

	/*
	 * The entry's record first, to hold against OLD's: printed into NEW
	 * when it is saved now, else only made (--changes alone; a record
	 * too long for the buffer is compared as OLD's record is parsed).
	 */
	if (c->have_snap && r->ret >= 0 && c->saving) {
		if (!racy && !atomic_load(&c->save_failed)) {
			json_print(r);
			text = out_record_text(&len);
			printed = true;
		}
	} else if (c->have_snap && r->ret >= 0) {
		len = json_record_text(buf, r, &c->taken);
		text = len ? buf : NULL;
	}
	if (c->have_snap && !c->respell)
		find_old(c, r, text, len, &old);
	/* --save alone, an entry written now: nothing shared to touch */
	if (c->have_snap || racy || atomic_load(&c->save_failed)) {
		pthread_mutex_lock(&c->lock);
		if (c->have_snap && c->respell)
			find_old(c, r, text, len, &old);
		if (c->have_snap)
			e = entry(c, r, &old);
		if (racy)
			keep_reread(c, r);
		else if (r->ret < 0 && e)
			later = true;	/* its old record is kept */
		if (c->save_failed)
			later = true;
		pthread_mutex_unlock(&c->lock);
	}
	if (printed)
		end_record(c);	/* a failed save fails whole: no harm */
	else if (c->saving && !later)
		save_record(c, r);
	return true;
}

/* Is @e, not found by the walk, below an entry it could not examine? */
static bool unread_below(const struct changes *c, const struct snap_ent *e)
{
	const struct snap_ent *a;
	char *p, *slash;
	bool found = false;

	if (!c->unread)
		return false;
	p = strdup(e->path);
	if (!p)
		return true;	/* keep it: the safe side */
	while (!found && (slash = strrchr(p, '/')) && slash != p) {
		*slash = '\0';
		a = snapshot_find(&c->snap, p);
		found = a && (a->flags & SNAP_UNREAD_BELOW);
	}
	free(p);
	return found;
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
		    !identity_proven(&e->res->x, &p->res.x))
			continue;
		if (!(e->flags & SNAP_PRESENT) && unread_below(c, e))
			continue;
		v = compare(e, e->res, &p->res.x, p->len);
		if (v < 0 || v == XSTAT_OTHER_FILE)
			continue;
		e->flags |= SNAP_CLAIMED;
		report(c, p->path, "moved", dir_name(c, e->path),
		       v == XSTAT_SAME ? NULL : verdict_name[v]);
		return;
	}
	report(c, p->path, p->replaced ? "replaced" : "new", NULL, NULL);
}

/*
 * Is @root the tree the snapshot's root entry @r was taken of?  Another
 * filesystem or another directory at that name is an error, not a list of
 * every entry replaced.  A name spelled otherwise for the same directory
 * is the same tree.
 */
static bool same_root(const struct changes *c, const struct snap_ent *r,
		      const struct walk_opts *w)
{
	struct xstat_parameters p = { w->query };
	union xstat_buffer b;
	unsigned long long why = 0;
	ssize_t n;
	int v;

	n = xstat(AT_FDCWD, c->root, w->flags, &p, &b.x, sizeof(b));
	if (n < 0) {
		warn_msg(errno, "cannot stat %s", quoteaf(c->root));
		return false;
	}
	v = xstat_compare(&r->res->x, r->res->len, &b.x,
			  (size_t)n < sizeof(b) ? (size_t)n : sizeof(b),
			  NULL, &why);
	if (v == XSTAT_OTHER_FILE)
		warn_msg(0, "%s is a snapshot of %s, not of %s: another %s",
			 quote_n(0, c->o->snap, QS_SHELL_ESCAPE_ALWAYS),
			 quote_n(1, r->path, QS_SHELL_ESCAPE_ALWAYS),
			 quote_n(2, c->root, QS_SHELL_ESCAPE_ALWAYS),
			 why & XSTAT_DIFF_FS ? "filesystem" : "directory");
	else if (v < 0)
		warn_msg(errno, "cannot compare %s", quoteaf(c->root));
	return v >= 0 && v != XSTAT_OTHER_FILE;
}

/* Read OLD and refuse what cannot be compared: 0 or -1 (said). */
static int load(struct changes *c, const struct walk_opts *w)
{
	const char *snap = c->o->snap;
	const struct snap_ent *out;
	struct snap_ent *r;
	char err[512];
	FILE *f;
	int ret;

	f = fopen(snap, "re");
	if (!f) {
		warn_msg(errno, "cannot open %s", quoteaf(snap));
		return -1;
	}
	ret = snapshot_load_deferred(f, snap, &c->snap, err, sizeof(err));
	fclose(f);
	c->have_snap = true;
	if (ret) {
		warn_msg(0, "%s", err);
		return -1;
	}
	out = snapshot_set_root(&c->snap);
	r = c->snap.root;
	if ((r->flags & SNAP_LAZY) &&
	    snapshot_resolve(&c->snap, r, err, sizeof(err))) {
		warn_msg(0, "%s", err);
		return -1;
	}
	if (out) {
		warn_msg(0, "%s: %s is not under %s: the entries are not of "
			 "one tree", quote_n(0, snap, QS_SHELL_ESCAPE_ALWAYS),
			 quote_n(1, out->path, QS_SHELL_ESCAPE_ALWAYS),
			 quote_n(2, r->path, QS_SHELL_ESCAPE_ALWAYS));
		return -1;
	}
	if (r->flags & SNAP_FAILED) {
		warn_msg(0, "%s: its root %s could not be examined: no "
			 "snapshot of a tree", quoteaf(snap),
			 quote_n(1, r->path, QS_SHELL_ESCAPE_ALWAYS));
		return -1;
	}
	/* no "taken" anywhere: the walk asked for no change token */
	if (!c->snap.have_taken) {
		warn_msg(0, "%s was made without --change-token: it has no "
			 "change tokens to compare (make one with xstat -r "
			 "--save=SNAP DIR)", quoteaf(snap));
		return -1;
	}
	c->snap_root = r->path;
	c->respell = strcmp(r->path, c->root) != 0;
	return same_root(c, r, w) ? 0 : -1;
}

/* The first reading of @p, or the second if it is the same. */
static void save_reread(struct changes *c, struct reread *p,
			const struct walk_opts *w)
{
	struct xstat_parameters params = { w->query };
	union xstat_buffer b;
	struct file_result r = {
		.name = p->path, .dfd = AT_FDCWD, .path = p->path,
		.follow = !(w->flags & AT_SYMLINK_NOFOLLOW),
		.ret = p->ret, .x = &p->res.x, .buflen = p->len,
	};
	unsigned long long why = 0;
	struct xstat_time t;
	struct timespec ts;
	ssize_t n;
	int v;

	clock_gettime(CLOCK_REALTIME, &ts);
	t.tv_sec = ts.tv_sec;
	t.tv_nsec = (unsigned long long)ts.tv_nsec;
	memset(&b, 0, sizeof(b));
	n = xstat(AT_FDCWD, p->path, w->flags, &params, &b.x, sizeof(b));
	if (n >= 0) {
		v = xstat_compare(&p->res.x, p->len, &b.x,
				  (size_t)n < sizeof(b) ? (size_t)n :
				  sizeof(b), NULL, &why);
		/* the same in every field and token: proven from now on */
		if (v >= 0 && !(why & ~(XSTAT_DIFF_RACY | XSTAT_DIFF_WEAK |
					XSTAT_DIFF_NO_TOKEN))) {
			r.ret = n;
			r.x = &b.x;
			r.buflen = (size_t)n < sizeof(b) ? (size_t)n :
				   sizeof(b);
			json_set_taken(&t);
		}
	}
	save_record(c, &r);
	json_set_taken(&c->taken);
}

/* Sleep until @t's racy window has passed, at most RACY_SEC more. */
static void wait_window(const struct xstat_time *last)
{
	struct timespec now, until;
	long long ns;

	clock_gettime(CLOCK_REALTIME, &now);
	ns = (last->tv_sec + RACY_SEC - now.tv_sec) * 1000000000LL +
	     ((long long)last->tv_nsec - now.tv_nsec) + 1000000;
	if (ns <= 0)
		return;
	if (ns > RACY_SEC * 1000000000LL + 1000000)
		ns = RACY_SEC * 1000000000LL + 1000000;
	until.tv_sec = ns / 1000000000LL;
	until.tv_nsec = ns % 1000000000LL;
	while (nanosleep(&until, &until) < 0 && errno == EINTR)
		;
}

static void reread_all(struct changes *c, const struct walk_opts *w)
{
	struct xstat_time last = { 0, 0 };
	struct reread *p;

	for (p = c->reread; p; p = p->next) {
		const struct xstat_time *t = &p->res.x.st_ctim;

		if (t->tv_sec > last.tv_sec ||
		    (t->tv_sec == last.tv_sec && t->tv_nsec > last.tv_nsec))
			last = *t;
	}
	if (c->reread)
		wait_window(&last);
	while ((p = c->reread)) {
		c->reread = p->next;
		if (!c->save_failed)
			save_reread(c, p, w);
		free(p->path);
		free(p);
	}
}

/*
 * An old record, kept: as it was, or with its name in DIR's spelling
 * (the head that json_print() gives the new name, and the old record's
 * members from "schema" on).
 */
static void save_old(struct changes *c, const struct snap_ent *e)
{
	static const char schema[] = ",\"schema\":";
	struct file_result r = { .dfd = AT_FDCWD, .ret = -1, .err = EIO };
	char *name, *head = NULL;
	const char *from, *cut;
	size_t headlen = 0;
	FILE *mem;

	if (!c->respell) {
		fwrite(e->line, 1, e->line_len, c->save.fp);
		putc('\n', c->save.fp);
		return;
	}
	from = memmem(e->line, e->line_len, schema, sizeof(schema) - 1);
	name = dir_name(c, e->path);
	mem = open_memstream(&head, &headlen);
	if (!from || !name || !mem) {
		warn_msg(0, "--save: the old record of %s is not kept",
			 quoteaf(e->path));
		c->trouble = true;
		free(name);
		if (mem)
			fclose(mem);
		free(head);
		return;
	}
	r.name = r.path = name;
	out_drain();
	out_set_target(mem);
	json_print(&r);
	out_drain();
	out_set_target(c->save.fp);
	fclose(mem);
	cut = memmem(head, headlen, schema, sizeof(schema) - 1);
	if (cut)
		fwrite(head, 1, (size_t)(cut - head), c->save.fp);
	fwrite(from, 1, e->line_len - (size_t)(from - e->line), c->save.fp);
	putc('\n', c->save.fp);
	free(head);
	free(name);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct report *)a)->path,
		      ((const struct report *)b)->path);
}

/* A name for --names, and whether it is there no more. */
struct name {
	const char	*rel;
	bool		missing;
};

static int by_name(const void *a, const void *b)
{
	const struct name *x = a, *y = b;
	int d = strcmp(x->rel, y->rel);

	/* a name both gone and there again (moved away, made anew): there */
	return d ? d : (int)x->missing - (int)y->missing;
}

/*
 * A name gone whose parent is no directory now: the parent is listed
 * too (gone, moved or replaced), and rsync's --force takes what was below
 * it along.  Listed itself, it would make rsync say it vanished (the
 * implied parent) or is no directory.
 */
static bool parent_gone(const struct changes *c, const char *path)
{
	const char *rel = rel_of(c->root, path);
	const char *slash = strrchr(rel, '/');
	struct stat st;
	char *parent;
	bool gone;

	if (!slash)
		return false;	/* DIR itself */
	parent = strndup(path, (size_t)(slash - path));
	if (!parent)
		return false;
	gone = lstat(parent, &st) < 0 || !S_ISDIR(st.st_mode);
	free(parent);
	return gone;
}

/*
 * --names: each name once, below DIR ("." for DIR itself), a move's both
 * names; of a gone subtree its top only (see parent_gone()).
 */
static void print_names(struct changes *c)
{
	struct name *v = malloc((2 * c->nreports + 1) * sizeof(*v));
	size_t n = 0, i;

	if (!v) {
		oom(c);
		return;
	}
	for (i = 0; i < c->nreports; i++) {
		const struct report *r = &c->reports[i];
		bool gone = strcmp(r->change, "gone") == 0;

		if (!gone || !parent_gone(c, r->path))
			v[n++] = (struct name){ rel_of(c->root, r->path),
						gone };
		if (r->from && !parent_gone(c, r->from))
			v[n++] = (struct name){ rel_of(c->root, r->from),
						true };
	}
	qsort(v, n, sizeof(*v), by_name);
	for (i = 0; i < n; i++) {
		if (i && strcmp(v[i].rel, v[i - 1].rel) == 0)
			continue;
		fputs(*v[i].rel ? v[i].rel : ".", out_fp());
		putc('\n', out_fp());
		out_record_end(c->o->zero);
	}
	free(v);
}

static void print_reports(struct changes *c)
{
	size_t i;

	if (c->nreports)	/* no array at all when nothing changed */
		qsort(c->reports, c->nreports, sizeof(*c->reports), by_path);
	if (c->o->names) {
		print_names(c);
		return;
	}
	for (i = 0; i < c->nreports; i++) {
		const struct report *r = &c->reports[i];

		if (c->o->json) {
			json_change(r->path, r->change, r->from, r->also);
		} else {
			fprintf(out_fp(), "%s %s", r->change,
				quote_n(1, r->path, QS_SHELL_ESCAPE));
			if (r->from)
				fprintf(out_fp(), " from %s",
					quote_n(2, r->from, QS_SHELL_ESCAPE));
			if (r->also)
				fprintf(out_fp(), " (%s)", r->also);
			putc('\n', out_fp());
		}
		out_record_end(false);
	}
}

/*
 * OLD read whole, as far as the walk left it unread: -1 if a record is
 * bad (the first in the file said), or if no record has a "taken".
 */
static int finish_snapshot(struct changes *c)
{
	char err[sizeof(c->bad)];

	if (snapshot_finish(&c->snap, err, sizeof(err)) < 0) {
		/* a bad record met by the walk may come before */
		if (!c->bad_line)
			memcpy(c->bad, err, sizeof(c->bad));
		warn_msg(0, "%s", c->bad);
		return -1;
	}
	if (c->bad_line) {
		warn_msg(0, "%s", c->bad);
		return -1;
	}
	if (!c->snap.have_taken) {
		warn_msg(0, "%s was made without --change-token: it has no "
			 "change tokens to compare (make one with xstat -r "
			 "--save=SNAP DIR)", quoteaf(c->o->snap));
		return -1;
	}
	return 0;
}

/* After the walk: the kept names, the gone ones, the kept records. */
static void finish_compare(struct changes *c)
{
	struct pending *p;
	struct snap_ent *e;
	char *name;
	size_t i;

	while ((p = c->pending)) {
		c->pending = p->next;
		settle(c, p);
		free(p->path);
		free(p);
	}
	for (i = 0; i < c->snap.n; i++) {
		e = c->snap.ents[i];
		if (e->flags & (SNAP_PRESENT | SNAP_CLAIMED))
			continue;
		if (unread_below(c, e)) {
			e->flags |= SNAP_UNREAD;
			continue;
		}
		name = dir_name(c, e->path);
		if (!name) {
			oom(c);
			continue;
		}
		report(c, name, "gone", NULL, NULL);
		free(name);
	}
}

/* The walk's kept names and results, unused. */
static void drop_lists(struct changes *c)
{
	struct pending *p;
	struct reread *q;

	while ((p = c->pending)) {
		c->pending = p->next;
		free(p->path);
		free(p);
	}
	while ((q = c->reread)) {
		c->reread = q->next;
		free(q->path);
		free(q);
	}
}

static void free_all(struct changes *c)
{
	size_t i;

	for (i = 0; i < c->nreports; i++) {
		free(c->reports[i].path);
		free(c->reports[i].from);
	}
	free(c->reports);
	free(c->key);
	if (c->have_snap)
		snapshot_free(&c->snap);
}

int changes_run(const char *root, struct walk_opts *w,
		const struct changes_opts *o)
{
	struct changes c = { .o = o, .root = root, .snap_root = root };
	struct timespec ts;
	bool ok;
	size_t i;

	if (o->snap && load(&c, w) < 0) {
		free_all(&c);
		return 2;
	}
	if (o->save) {
		if (save_open(&c.save, o->save) < 0) {
			free_all(&c);
			return 2;
		}
		c.saving = true;
	}
	pthread_mutex_init(&c.lock, NULL);
	clock_gettime(CLOCK_REALTIME, &ts);
	c.taken.tv_sec = ts.tv_sec;
	c.taken.tv_nsec = (unsigned long long)ts.tv_nsec;
	json_set_taken(&c.taken);
	w->print = print_hook;
	w->unread = unread_hook;
	w->ctx = &c;
	w->error_records = true;
	if (c.saving)
		out_set_target(c.save.fp);
	ok = walk_tree(root, w);
	if (c.have_snap && finish_snapshot(&c) < 0) {
		/* the main thread's last records go with the temporary */
		out_drain();
		out_set_target(NULL);
		save_abort(&c.save);
		pthread_mutex_destroy(&c.lock);
		drop_lists(&c);
		free_all(&c);
		return 2;
	}
	if (c.have_snap)
		finish_compare(&c);
	if (c.saving) {
		reread_all(&c, w);
		for (i = 0; i < c.snap.n && !c.save_failed; i++)
			if (c.snap.ents[i]->flags & SNAP_UNREAD)
				save_old(&c, c.snap.ents[i]);
		if (!out_drain())
			c.save_failed = true;
		if (ferror(c.save.fp) && !c.save_errno)
			c.save_errno = EIO;
		out_set_target(NULL);
	}
	pthread_mutex_destroy(&c.lock);
	print_reports(&c);
	/* the list first: a snapshot is no use to one who lost the list */
	if (c.saving) {
		if (c.save_failed || !out_flush()) {
			if (c.save_failed)
				warn_msg(c.save_errno, "--save: cannot write %s",
					 quoteaf(o->save));
			save_abort(&c.save);
			c.trouble = true;
		} else if (save_commit(&c.save) < 0) {
			c.trouble = true;
		}
	}
	free_all(&c);
	if (!ok || c.trouble)
		return 2;
	return c.nreports ? 1 : 0;
}
