// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading a snapshot (snapshot.h): lines of at most SNAP_LINE_MAX bytes,
 * each one JSON object of xstat(1)'s schema, parsed whole by simdjson
 * (json-tree.h: duplicate members rejected, a depth limit), then every member
 * the comparison reads checked: a number where a number belongs, within
 * its range, present exactly when result_mask says the field was
 * obtained.  Entries are kept in two hash tables: by name, and by inode
 * number (renames and hard links are found there).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "hugemem.h"
#include "json.h"
#include "snapshot.h"

#ifdef HAVE_SIMDJSON
#include "json-tree.h"

/* Deeper than any record xstat prints (two levels), and bounded. */
#define SNAP_DEPTH_MAX	64

/* The extra results rebuilt, in the library's (ascending bit) order. */
#define KEPT_EXTRAS	(XSTAT_REQUEST_CHANGE_TOKEN | \
			 XSTAT_REQUEST_DV_PROMISE | XSTAT_REQUEST_FS_ID)

struct reader {
	FILE		*f;
	char		*buf;
	size_t		start, end, cap;
	unsigned long	line;
	bool		eof;
};

struct ctx {
	char		*err;
	size_t		errlen;
	const char	*name;
	unsigned long	line;
	struct jt_tree	*tree;
	bool		lazy;		/* snapshot_load_deferred() */
};

static int fail(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct ctx *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->name)
		snprintf(c->err, c->errlen, "%s:%lu: %s", c->name, c->line,
			 msg);
	else	/* a part of the file: its line number is added later */
		snprintf(c->err, c->errlen, "%s", msg);
	return -1;
}

/*
 * The next line (without its newline) in *@line, *@len: 1; 0 at the end;
 * -1 for a line too long or one cut short (no newline at the end).
 */
static int next_line(struct reader *r, struct ctx *c, char **line,
		     size_t *len)
{
	char *nl;
	size_t n;

	for (;;) {
		nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl) {
			*line = r->buf + r->start;
			*len = (size_t)(nl - *line);
			r->start += *len + 1;
			c->line = ++r->line;
			return 1;
		}
		c->line = r->line + 1;
		if (r->end - r->start > SNAP_LINE_MAX)
			return fail(c, "line longer than %d bytes",
				    SNAP_LINE_MAX);
		if (r->eof) {
			if (r->end == r->start)
				return 0;
			return fail(c, "last line cut short (no newline): "
				    "a truncated snapshot");
		}
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
		n = fread(r->buf + r->end, 1, r->cap - r->end, r->f);
		r->end += n;
		if (n == 0) {
			if (ferror(r->f))
				return fail(c, "read error: %s",
					    strerror(errno));
			r->eof = true;
		}
	}
}

/* The member @key of the object @o, or NULL (also when @o is not one). */
static const struct jt_node *get(const struct jt_node *o, const char *key)
{
	const struct jt_node *m;
	size_t n = strlen(key);
	uint32_t i;

	if (!o || o->type != JT_OBJECT)
		return NULL;
	for (m = o + 1, i = 0; i < o->len; i++, m += m->next)
		if (m->keylen == n && m->key[0] == key[0] &&
		    !memcmp(m->key, key, n))
			return m;
	return NULL;
}

static bool is_type(const struct jt_node *v, enum jt_type type)
{
	return v && v->type == type;
}

static bool is_integer(const struct jt_node *v)
{
	return v && (v->type == JT_INT || v->type == JT_UINT);
}

/* Is @v the string @s, every byte (a NUL inside is a difference)? */
static bool is_str(const struct jt_node *v, const char *s)
{
	return is_type(v, JT_STRING) && v->len == strlen(s) &&
	       !memcmp(v->str, s, v->len);
}

/* 1 to 20 decimal digits, at most @max. */
static int get_digits(const char *s, size_t len, uint64_t max,
		      unsigned long long *out)
{
	uint64_t n = 0;
	size_t i;

	if (!len || len > 20)
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || n > (UINT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (uint64_t)(s[i] - '0');
	}
	if (n > max)
		return -1;
	*out = n;
	return 0;
}

/* An unsigned number: a JSON integer, or a string of decimal digits. */
static int get_u64(const struct jt_node *v, uint64_t max,
		   unsigned long long *out)
{
	uint64_t n;

	if (is_type(v, JT_STRING))
		return get_digits(v->str, v->len, max, out);
	if (is_type(v, JT_INT) && v->v.i >= 0)
		n = (uint64_t)v->v.i;
	else if (is_type(v, JT_UINT))
		n = v->v.u;
	else
		return -1;
	if (n > max)
		return -1;
	*out = n;
	return 0;
}

static int get_s64(const struct jt_node *v, long long *out)
{
	unsigned long long mag;
	int neg;

	if (is_type(v, JT_INT)) {
		*out = v->v.i;
		return 0;
	}
	if (!is_type(v, JT_STRING))
		return -1;
	neg = v->len && v->str[0] == '-';
	if (get_digits(v->str + neg, v->len - neg,
		       neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX, &mag))
		return -1;
	*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return 0;
}

static int get_u32(const struct jt_node *o, const char *key,
		   unsigned int *out)
{
	unsigned long long v;

	if (get_u64(get(o, key), UINT32_MAX, &v))
		return -1;
	*out = (unsigned int)v;
	return 0;
}

static int get_time(const struct jt_node *o, const char *key,
		    struct xstat_time *t)
{
	const struct jt_node *v = get(o, key);
	unsigned long long ns;

	if (!is_type(v, JT_OBJECT) || get_s64(get(v, "sec"), &t->tv_sec) ||
	    get_u64(get(v, "nsec"), 999999999, &ns))
		return -1;
	t->tv_nsec = ns;
	return 0;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* Lowercase hex of exactly @n bytes (n = 0: any even length) into @out. */
static int get_hex(const struct jt_node *v, unsigned char *out, size_t n,
		   size_t *got)
{
	const char *s;
	size_t len, i;

	if (!is_type(v, JT_STRING))
		return -1;
	s = v->str;
	len = v->len;
	if (len % 2 || (n && len != 2 * n))
		return -1;
	for (i = 0; i < len / 2; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
		if (!out[i])
			return -1;	/* no NUL in a name */
	}
	if (got)
		*got = len / 2;
	return 0;
}

#define CHUNK_ROOM	(SNAP_CHUNK - sizeof(struct snap_chunk))

/* @size bytes from @s's chunks, aligned for a struct snap_ent, or NULL. */
static void *snap_alloc(struct snapshot *s, size_t size)
{
	struct snap_chunk *c = s->chunks;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (size > CHUNK_ROOM)
		return NULL;
	if (!c || CHUNK_ROOM - c->used < size) {
		c = huge_alloc(SNAP_CHUNK);
		if (!c)
			return NULL;
		c->next = s->chunks;
		c->used = 0;
		s->chunks = c;
	}
	p = c->mem + c->used;
	c->used += size;
	return p;
}

/*
 * A name's hash, eight bytes a step: every name is hashed once as it is
 * read and once as the walk looks it up, and the names of a deep tree
 * are long.
 */
static uint32_t hash_path(const char *s, size_t n)
{
	const uint64_t k = 0xff51afd7ed558ccdULL;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 32;
	}
	for (w = 0; n; n--)
		w = (w << 8) | (unsigned char)s[n - 1];
	h = (h ^ w) * k;
	h ^= h >> 29;
	h *= k;
	return (uint32_t)(h >> 32);
}

/*
 * A new entry with its name: "path_bytes" (the exact bytes) when not
 * null, else "path".  NULL with the reason in *@why.
 */
static struct snap_ent *new_entry(struct snapshot *s,
				  const struct jt_node *o, const char **why)
{
	const struct jt_node *p = get(o, "path");
	const struct jt_node *b = get(o, "path_bytes");
	struct snap_ent *e;
	size_t n;

	*why = "bad or missing \"path\"";
	if (!is_type(p, JT_STRING) ||
	    (!is_type(b, JT_NULL) && !is_type(b, JT_STRING)))
		return NULL;
	n = is_type(b, JT_NULL) ? p->len : b->len / 2;
	/* \u0000 is valid JSON, but no name holds a NUL */
	if (!n || (is_type(b, JT_NULL) && memchr(p->str, '\0', n)))
		return NULL;
	e = snap_alloc(s, sizeof(*e) + n + 1);
	if (!e) {
		*why = "out of memory";
		return NULL;
	}
	memset(e, 0, sizeof(*e));
	if (is_type(b, JT_NULL))
		memcpy(e->path, p->str, n);
	else if (get_hex(b, (unsigned char *)e->path, 0, NULL))
		return NULL;
	e->path[n] = '\0';
	e->path_hash = hash_path(e->path, strlen(e->path));
	return e;
}

/* A field that must be there (its bit set) or is ignored. */
#define NEED(bit, ok, what) \
	do { \
		if ((mask & (bit)) && !(ok)) \
			return fail(c, "bad or missing \"%s\"", what); \
	} while (0)

static int get_extras(struct ctx *c, const struct jt_node *o, uint64_t mask,
		      struct snap_res *res)
{
	unsigned char *p = (unsigned char *)&res->x + sizeof(struct xstat);
	const struct jt_node *v;

	if (mask & XSTAT_REQUEST_CHANGE_TOKEN) {
		struct xstat_change_token t = { 0, 0, 0, 0 };
		const struct jt_node *src;

		v = get(o, "change_token");
		src = get(v, "source");
		if (!is_type(v, JT_OBJECT) ||
		    get_u64(get(v, "token"), UINT64_MAX, &t.token) ||
		    get_u64(get(v, "promise"), UINT64_MAX, &t.promise) ||
		    !is_type(src, JT_STRING))
			return fail(c, "bad or missing \"change_token\"");
		if (is_str(src, "ctime"))
			t.source = XSTAT_TOKEN_FROM_CTIME;
		else if (is_str(src, "data_version"))
			t.source = XSTAT_TOKEN_FROM_DATA_VERSION;
		memcpy(p, &t, sizeof(t));
		p += sizeof(t);
	}
	if (mask & XSTAT_REQUEST_DV_PROMISE) {
		struct xstat_dv_promise d;

		v = get(o, "dv_promise");
		if (!is_type(v, JT_OBJECT) ||
		    get_u64(get(v, "promise"), UINT64_MAX, &d.promise))
			return fail(c, "bad or missing \"dv_promise\"");
		memcpy(p, &d, sizeof(d));
		p += sizeof(d);
	}
	if (mask & XSTAT_REQUEST_FS_ID) {
		struct xstat_fs_id f;
		const struct jt_node *src, *id;

		memset(&f, 0, sizeof(f));
		v = get(o, "fs_id");
		src = get(v, "source");
		id = get(v, "id");
		if (!is_type(v, JT_OBJECT) || !is_type(src, JT_STRING))
			return fail(c, "bad or missing \"fs_id\"");
		/* the ID may hold zero bytes: read it as bytes, not a name */
		if (!is_type(id, JT_STRING) || id->len != 32)
			return fail(c, "bad \"fs_id\" id");
		{
			const char *h = id->str;
			int i;

			for (i = 0; i < 16; i++) {
				int hi = hexval(h[2 * i]);
				int lo = hexval(h[2 * i + 1]);

				if (hi < 0 || lo < 0)
					return fail(c, "bad \"fs_id\" id");
				f.id[i] = (unsigned char)(hi << 4 | lo);
			}
		}
		if (is_str(src, "uuid"))
			f.source = XSTAT_FS_ID_FROM_UUID;
		else if (is_str(src, "fsid"))
			f.source = XSTAT_FS_ID_FROM_FSID;
		else
			return fail(c, "unknown \"fs_id\" source");
		memcpy(p, &f, sizeof(f));
		p += sizeof(f);
	}
	res->len = (uint32_t)(p - (unsigned char *)&res->x);
	return 0;
}

static int get_result(struct ctx *c, const struct jt_node *o,
		      struct snap_res *res)
{
	struct xstat *x = &res->x;
	unsigned long long mask, v = 0;
	const struct jt_node *dev;

	if (get_u64(get(o, "result_mask"), UINT64_MAX, &mask))
		return fail(c, "bad or missing \"result_mask\"");
	/* Only the extras rebuilt here are in the rebuilt result. */
	mask &= ~XSTAT_REQUEST__EXTRA_RESULTS | KEPT_EXTRAS;
	if ((mask & (XSTAT_REQUEST_INO | XSTAT_REQUEST_MODE)) !=
	    (XSTAT_REQUEST_INO | XSTAT_REQUEST_MODE))
		return fail(c, "no inode number or mode: not a snapshot "
			    "(xstat -r --json --change-token DIR)");
	x->st_result_mask = mask;
	NEED(XSTAT_REQUEST_MODE, !get_u32(o, "mode", &x->st_mode), "mode");
	NEED(XSTAT_REQUEST_NLINK, !get_u32(o, "nlink", &x->st_nlink),
	     "nlink");
	NEED(XSTAT_REQUEST_UID, !get_u32(o, "uid", &x->st_uid), "uid");
	NEED(XSTAT_REQUEST_GID, !get_u32(o, "gid", &x->st_gid), "gid");
	dev = get(o, "dev");
	if (!is_type(dev, JT_OBJECT) ||
	    get_u32(dev, "major", &x->st_dev.major) ||
	    get_u32(dev, "minor", &x->st_dev.minor))
		return fail(c, "bad or missing \"dev\"");
	NEED(XSTAT_REQUEST_MTIME, !get_time(o, "mtime", &x->st_mtim), "mtime");
	NEED(XSTAT_REQUEST_CTIME, !get_time(o, "ctime", &x->st_ctim), "ctime");
	NEED(XSTAT_REQUEST_BTIME, !get_time(o, "btime", &x->st_btim), "btime");
	NEED(XSTAT_REQUEST_INO,
	     !get_u64(get(o, "ino"), UINT64_MAX, &x->st_ino),
	     "ino");
	NEED(XSTAT_REQUEST_SIZE,
	     !get_u64(get(o, "size"), UINT64_MAX, &x->st_size),
	     "size");
	NEED(XSTAT_REQUEST_GEN,
	     !get_u64(get(o, "gen"), UINT64_MAX, &x->st_gen),
	     "gen");
	NEED(XSTAT_REQUEST_DATA_VERSION,
	     !get_u64(get(o, "data_version"), UINT64_MAX, &v),
	     "data_version");
	if (mask & XSTAT_REQUEST_DATA_VERSION)
		x->st_data_version = v;
	return get_extras(c, o, mask, res);
}

static uint32_t hash_ino(uint64_t ino)
{
	return (uint32_t)((ino * 0x9E3779B97F4A7C15ULL) >> 32);
}

/* The entry named @path, whose hash is @h. */
static struct snap_ent *find_hashed(const struct snapshot *s,
				    const char *path, uint32_t h)
{
	uint32_t i = s->path_heads[h & (s->nbuckets - 1)];

	while (i) {
		struct snap_ent *e = s->ents[i - 1];

		if (e->path_hash == h && strcmp(e->path, path) == 0)
			return e;
		i = e->next_path;
	}
	return NULL;
}

struct snap_ent *snapshot_find(const struct snapshot *s, const char *path)
{
	if (!s->nbuckets)
		return NULL;
	return find_hashed(s, path, hash_path(path, strlen(path)));
}

struct snap_ent *snapshot_find_near(const struct snapshot *s,
				    const char *path, size_t *next)
{
	struct snap_ent *e;
	uint32_t h, i;

	if (!s->nbuckets)
		return NULL;
	/* the name itself, not its hash, first: it is the one mostly */
	if (*next < s->n) {
		e = s->ents[*next];
		if (strcmp(e->path, path) == 0) {
			++*next;
			return e;
		}
	}
	h = hash_path(path, strlen(path));
	for (i = s->path_heads[h & (s->nbuckets - 1)]; i; i = e->next_path) {
		e = s->ents[i - 1];
		if (e->path_hash == h && strcmp(e->path, path) == 0) {
			*next = i;
			return e;
		}
	}
	return NULL;
}

struct snap_ent *snapshot_next_ino(const struct snapshot *s,
				   const struct snap_ent *e)
{
	uint64_t ino = e->res->x.st_ino;
	uint32_t i = e->next_ino;

	while (i) {
		e = s->ents[i - 1];
		if (e->res->x.st_ino == ino)
			return (struct snap_ent *)e;
		i = e->next_ino;
	}
	return NULL;
}

struct snap_ent *snapshot_first_ino(const struct snapshot *s, uint64_t ino)
{
	uint32_t i;

	if (!s->nbuckets)
		return NULL;
	i = s->ino_heads[hash_ino(ino) & (s->nbuckets - 1)];
	while (i) {
		struct snap_ent *e = s->ents[i - 1];

		if (e->res->x.st_ino == ino)
			return e;
		i = e->next_ino;
	}
	return NULL;
}

/*
 * The inode index, once every entry's result is read: of those that
 * have one kept (not an error record, not one the walk found the same).
 */
static void index_ino(struct snapshot *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct snap_ent *e = s->ents[i];
		uint32_t *h;

		if (!e->res)
			continue;
		h = &s->ino_heads[hash_ino(e->res->x.st_ino) &
				  (s->nbuckets - 1)];
		e->next_ino = *h;
		*h = (uint32_t)i + 1;
	}
}

/*
 * The tables, once every entry is read (the inode index only where every
 * result is): duplicates are an error.
 */
static int index_all(struct ctx *c, struct snapshot *s)
{
	size_t i;

	s->nbuckets = 16;
	while (s->nbuckets < 2 * s->n)
		s->nbuckets *= 2;
	s->path_heads = huge_alloc(s->nbuckets * sizeof(uint32_t));
	s->ino_heads = huge_alloc(s->nbuckets * sizeof(uint32_t));
	if (!s->path_heads || !s->ino_heads)
		return fail(c, "out of memory");
	for (i = 0; i < s->n; i++) {
		struct snap_ent *e = s->ents[i];
		uint32_t *h;

		if (find_hashed(s, e->path, e->path_hash)) {
			c->line = i + 1;
			return fail(c, "the name %s is there twice", e->path);
		}
		h = &s->path_heads[e->path_hash & (s->nbuckets - 1)];
		e->next_path = *h;
		*h = (uint32_t)i + 1;
	}
	if (!c->lazy)
		index_ino(s);
	return 0;
}

static int check_schema(struct ctx *c, const struct jt_node *o)
{
	const struct jt_node *schema = get(o, "schema");

	if (!is_integer(schema) ||
	    (schema->type == JT_INT && schema->v.i < 1))
		return fail(c, "no \"schema\": not a snapshot of xstat --json");
	if (schema->type == JT_UINT || schema->v.i > JSON_SCHEMA)
		return fail(c, "schema %llu is newer than this xstat's (%d)",
			    schema->type == JT_UINT ?
			    (unsigned long long)schema->v.u :
			    (unsigned long long)schema->v.i, JSON_SCHEMA);
	return 0;
}

/* @e, its line @line (@len bytes) kept or @copy'd, appended to @s. */
static int append(struct ctx *c, struct snapshot *s, struct snap_ent *e,
		  const char *line, size_t len, bool copy)
{
	struct snap_ent **ents;

	/* a stream's lines are gone once parsed: copied (--save keeps them) */
	e->line = line;
	e->line_len = (uint32_t)len;
	e->lineno = (uint32_t)c->line;
	if (copy) {
		char *p = snap_alloc(s, len ? len : 1);

		if (!p)
			return fail(c, "out of memory");
		memcpy(p, line, len);
		e->line = p;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;

		ents = realloc(s->ents, cap * sizeof(*ents));
		if (!ents)
			return fail(c, "out of memory");
		s->ents = ents;
		s->cap = cap;
	}
	s->ents[s->n++] = e;
	return 0;
}

/* The members of the record @o after its name, into @e. */
static int fill_entry(struct ctx *c, struct snapshot *s,
		      const struct jt_node *o, struct snap_ent *e)
{
	const struct jt_node *taken;
	struct xstat_time t;

	if (get(o, "error")) {
		e->flags |= SNAP_FAILED;
		return 0;
	}
	taken = get(o, "taken");
	if (taken && !is_type(taken, JT_NULL)) {
		if (get_time(o, "taken", &t))
			return fail(c, "bad \"taken\"");
		e->taken = t;
		e->flags |= SNAP_TAKEN;
		s->have_taken = true;
	}
	e->res = snap_alloc(s, sizeof(*e->res));
	if (!e->res)
		return fail(c, "out of memory");
	memset(e->res, 0, sizeof(*e->res));
	return get_result(c, o, e->res);
}

static int add_entry(struct ctx *c, struct snapshot *s,
		     const struct jt_node *o, const char *line, size_t len,
		     bool copy)
{
	struct snap_ent *e;
	const char *why;

	if (check_schema(c, o))
		return -1;
	if (s->n >= UINT32_MAX - 1)
		return fail(c, "too many entries");
	e = new_entry(s, o, &why);
	if (!e)
		return fail(c, "%s", why);
	if (append(c, s, e, line, len, copy))
		return -1;
	return fill_entry(c, s, o, e);
}

size_t snapshot_prefix_len(const char *line, size_t len)
{
	static const char key[] = ",\"taken\":";
	const size_t k = sizeof(key) - 1;
	size_t i;

	if (len && line[len - 1] == '\n')
		len--;
	for (i = len; i >= k; i--)
		if (line[i - k] == ',' && !memcmp(line + i - k, key, k))
			return i - k;
	return 0;
}

/*
 * A JSON integer as json_print() writes one: -?(0|[1-9][0-9]*), its
 * magnitude at most 2^53 (larger ones it writes as strings), no -0
 * (simdjson reads that as a real).  Else false: the parser decides.
 */
static bool plain_int(const char **pp, const char *end, bool sign,
		      long long *out)
{
	const char *p = *pp;
	unsigned long long v = 0;
	bool neg = false;
	int digits = 0;

	if (sign && p < end && *p == '-') {
		neg = true;
		p++;
	}
	if (p >= end || *p < '0' || *p > '9' ||
	    (*p == '0' && p + 1 < end && p[1] >= '0' && p[1] <= '9'))
		return false;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (++digits > 16)
			return false;
		v = v * 10 + (unsigned long long)(*p - '0');
	}
	if (v > 1ULL << 53 || (neg && !v))
		return false;
	*out = neg ? -(long long)v : (long long)v;
	*pp = p;
	return true;
}

/* Does the text at *@pp start with the literal @lit?  Then past it. */
static bool lit(const char **pp, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *pp) < n || memcmp(*pp, lit, n))
		return false;
	*pp += n;
	return true;
}

/*
 * snapshot_load_deferred(): a record that starts and ends as json_print()
 * writes one, its name plain ASCII, is only cut out (a name in UTF-8 is
 * checked by the parser now: a name not in UTF-8 must not be taken for
 * one, e.g. as the snapshot's root).  False: to be parsed now.
 * Whatever is not read here is read before it is used (rebuilt from a
 * record of the same text, or parsed), so nothing is accepted unread.
 */
static bool add_lazy(struct ctx *c, struct snapshot *s, const char *line,
		     size_t len, bool copy, int *ret)
{
	const char *end = line + len, *p = line, *name, *tail;
	long long sec = 0, nsec = 0;
	bool taken = false;
	struct snap_ent *e;
	size_t n, cut;

	if (!lit(&p, end, "{\"path\":\""))
		return false;
	name = p;
	/* the name is used before its record is read: ASCII, so valid */
	for (; p < end && *p != '"'; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x80 ||
		    *p == '\\')
			return false;
	n = (size_t)(p - name);
	if (!n || !lit(&p, end, "\",\"path_bytes\":null,\"schema\":") ||
	    !plain_int(&p, end, false, &sec) ||
	    !lit(&p, end, ",\"size_needed\":"))
		return false;
	cut = snapshot_prefix_len(line, len);
	if (cut < (size_t)(p - line))
		return false;
	tail = line + cut + sizeof(",\"taken\":") - 1;
	if (!lit(&tail, end, "null}")) {
		if (!lit(&tail, end, "{\"sec\":") ||
		    !plain_int(&tail, end, true, &sec) ||
		    !lit(&tail, end, ",\"nsec\":") ||
		    !plain_int(&tail, end, false, &nsec) ||
		    nsec > 999999999 || !lit(&tail, end, "}}"))
			return false;
		taken = true;
	}
	if (tail != end)
		return false;
	*ret = -1;
	if (s->n >= UINT32_MAX - 1) {
		fail(c, "too many entries");
		return true;
	}
	e = snap_alloc(s, sizeof(*e) + n + 1);
	if (!e) {
		fail(c, "out of memory");
		return true;
	}
	memset(e, 0, sizeof(*e));
	memcpy(e->path, name, n);
	e->path[n] = '\0';
	e->path_hash = hash_path(name, n);
	e->flags = SNAP_LAZY;
	e->prefix_len = (uint32_t)cut;
	if (taken) {
		e->taken.tv_sec = sec;
		e->taken.tv_nsec = (unsigned long long)nsec;
		e->flags |= SNAP_TAKEN;
		s->have_taken = true;
	}
	*ret = append(c, s, e, line, len, copy);
	return true;
}

/* One line: its object, checked and added to @s.  0 or -1. */
static int parse_line(struct ctx *c, struct snapshot *s, const char *line,
		      size_t len, bool copy)
{
	const struct jt_node *o;
	char why[128];
	int ret;

	if (c->lazy && add_lazy(c, s, line, len, copy, &ret))
		return ret;
	if (jt_parse(c->tree, line, len, &o, why, sizeof(why)))
		return fail(c, "not JSON: %s", why);
	if (o->type != JT_OBJECT)
		return fail(c, "not a JSON object");
	return add_entry(c, s, o, line, len, copy);
}

/* A pipe or a terminal: line by line, through a bounded buffer. */
static int load_stream(struct ctx *c, FILE *f, struct snapshot *s)
{
	struct reader r = { .f = f, .cap = 2 * SNAP_LINE_MAX + 2 };
	size_t len = 0;
	char *line = NULL;
	int ret;

	r.buf = malloc(r.cap);
	c->tree = jt_new(SNAP_LINE_MAX, SNAP_DEPTH_MAX);
	if (!r.buf || !c->tree) {
		free(r.buf);
		jt_free(c->tree);
		return fail(c, "out of memory");
	}
	while ((ret = next_line(&r, c, &line, &len)) > 0) {
		ret = parse_line(c, s, line, len, true);
		if (ret)
			break;
	}
	free(r.buf);
	jt_free(c->tree);
	return ret;
}

/*
 * A regular file is read whole and its lines parsed by a few threads, each a
 * run of whole lines into a snapshot of its own, joined in file order.
 * The runs are cut at the first line starting after an equal share of
 * the bytes; each thread counts its own lines, and an error's line
 * number is known once the runs before it are counted.
 */
#define PARSERS_MAX	4
#define PART_MIN	(1024 * 1024)	/* smaller files: one thread */

struct part {
	struct snapshot	s;
	struct ctx	c;		/* .line: lines of this part read */
	char		err[512];
	const char	*p, *end;
	bool		last;		/* its end is the file's */
	int		ret;
};

static void *parse_part(void *arg)
{
	struct part *t = arg;
	const char *p = t->p, *nl;

	t->c.tree = jt_new(SNAP_LINE_MAX, SNAP_DEPTH_MAX);
	if (!t->c.tree) {
		t->ret = fail(&t->c, "out of memory");
		return NULL;
	}
	while (p < t->end) {
		nl = memchr(p, '\n', (size_t)(t->end - p));
		t->c.line++;
		if (!nl) {
			/* only the last part can end without a newline */
			t->ret = fail(&t->c, "last line cut short (no "
				      "newline): a truncated snapshot");
			break;
		}
		if (nl - p > SNAP_LINE_MAX) {
			t->ret = fail(&t->c, "line longer than %d bytes",
				      SNAP_LINE_MAX);
			break;
		}
		t->ret = parse_line(&t->c, &t->s, p, (size_t)(nl - p), false);
		if (t->ret)
			break;
		p = nl + 1;
	}
	jt_free(t->c.tree);
	return NULL;
}

/* Join the parts' entries and their memory, in order, into @s. */
static int join(struct ctx *c, struct part *parts, int n, struct snapshot *s)
{
	struct snap_chunk **tail = &s->chunks;
	size_t total = 0, k = 0;
	unsigned long lines = 0;
	int i;

	for (i = 0; i < n; i++)
		total += parts[i].s.n;
	s->ents = malloc((total ? total : 1) * sizeof(*s->ents));
	if (!s->ents)
		return fail(c, "out of memory");
	s->cap = total;
	for (i = 0; i < n; i++) {
		struct snapshot *q = &parts[i].s;
		size_t j;

		/* a part counted its own lines */
		for (j = 0; j < q->n; j++)
			q->ents[j]->lineno += (uint32_t)lines;
		lines += parts[i].c.line;
		memcpy(s->ents + k, q->ents, q->n * sizeof(*s->ents));
		k += q->n;
		s->have_taken |= q->have_taken;
		*tail = q->chunks;
		while (*tail)
			tail = &(*tail)->next;
		q->chunks = NULL;
		free(q->ents);
		q->ents = NULL;
		q->n = 0;
	}
	s->n = total;
	return 0;
}

static int load_text(struct ctx *c, const char *map, size_t size,
		       struct snapshot *s)
{
	struct part parts[PARSERS_MAX];
	pthread_t tid[PARSERS_MAX];
	bool started[PARSERS_MAX];
	const char *end = map + size, *cut = map, *from, *nl;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int n = cpus < 1 ? 1 : cpus > PARSERS_MAX ? PARSERS_MAX : (int)cpus;
	unsigned long lines = 0;
	int i, ret = 0;

	if (size < PART_MIN)
		n = 1;
	for (i = 0; i < n; i++) {
		memset(&parts[i], 0, sizeof(parts[i]));
		parts[i].c = *c;
		parts[i].c.name = NULL;
		parts[i].c.line = 0;
		parts[i].c.err = parts[i].err;
		parts[i].c.errlen = sizeof(parts[i].err);
		parts[i].p = cut;
		from = map + size / n * (i + 1);
		if (from < cut)
			from = cut;
		nl = i + 1 < n ? memchr(from, '\n', (size_t)(end - from))
			       : NULL;
		cut = nl ? nl + 1 : end;
		parts[i].end = cut;
	}
	for (i = 1; i < n; i++) {
		started[i] = !pthread_create(&tid[i], NULL, parse_part,
					     &parts[i]);
		if (!started[i])	/* parsed here, after the first */
			tid[i] = 0;
	}
	parse_part(&parts[0]);
	for (i = 1; i < n; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		else
			parse_part(&parts[i]);
	}
	/* The first error in the file; the parts before it were whole. */
	for (i = 0; i < n && !ret; i++) {
		if (parts[i].ret) {
			snprintf(c->err, c->errlen, "%s:%lu: %s", c->name,
				 lines + parts[i].c.line, parts[i].err);
			ret = -1;
		}
		lines += parts[i].c.line;
	}
	if (!ret)
		ret = join(c, parts, n, s);
	for (i = 0; i < n; i++)
		snapshot_free(&parts[i].s);
	return ret;
}

/*
 * A regular file's bytes, all in memory now: read into huge pages, as
 * the first touch of each 4 KiB page of a mapping costs more than the
 * read (the parsers and the walk touch every record); mapped where
 * huge_read_fits() says no.  1 loaded, 0 not a regular file or no
 * memory (to be read as a stream), -1 an error.
 */
static int text_of(struct ctx *c, FILE *f, struct snapshot *s)
{
	struct stat sb;
	size_t size, got = 0;
	ssize_t r;
	void *map;

	if (fileno(f) < 0 || fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode) ||
	    sb.st_size <= 0 || (uint64_t)sb.st_size > SIZE_MAX)
		return 0;
	size = (size_t)sb.st_size;
	if (!huge_read_fits(size)) {
		map = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
			   fileno(f), 0);
		if (map == MAP_FAILED)
			return 0;
		s->text = map;
		s->text_len = size;
		s->text_mapped = true;
		return load_text(c, s->text, size, s) ? -1 : 1;
	}
	s->text = huge_alloc(size);
	if (!s->text)
		return 0;
	s->text_len = size;
	/* from the start, as the mapping: a file shorter now ends early */
	while (got < size) {
		r = pread(fileno(f), s->text + got, size - got, (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return fail(c, "%s", strerror(errno));
		if (r == 0)
			break;
		got += (size_t)r;
	}
	if (!got)
		return fail(c, "no entries: an empty snapshot");
	return load_text(c, s->text, got, s) ? -1 : 1;
}

static int load(FILE *f, const char *name, struct snapshot *s, char *err,
		size_t errlen, bool lazy)
{
	struct ctx c = { err, errlen, name, 0, NULL, lazy };
	int ret;

	memset(s, 0, sizeof(*s));
	s->name = name;
	err[0] = '\0';
	ret = text_of(&c, f, s);
	if (ret < 0)
		return ret;
	ret = ret ? 0 : load_stream(&c, f, s);
	if (ret == 0 && s->n == 0)
		ret = fail(&c, "no entries: an empty snapshot");
	if (ret == 0)
		ret = index_all(&c, s);
	return ret;
}

int snapshot_load(FILE *f, const char *name, struct snapshot *s, char *err,
		  size_t errlen)
{
	return load(f, name, s, err, errlen, false);
}

int snapshot_load_deferred(FILE *f, const char *name, struct snapshot *s,
			   char *err, size_t errlen)
{
	return load(f, name, s, err, errlen, true);
}

int snapshot_resolve(struct snapshot *s, struct snap_ent *e, char *err,
		     size_t errlen)
{
	struct ctx c = { err, errlen, s->name, e->lineno, NULL, false };
	const struct jt_node *o, *p, *b;
	char why[128];

	if (!s->tree)
		s->tree = jt_new(SNAP_LINE_MAX, SNAP_DEPTH_MAX);
	if (!s->tree)
		return fail(&c, "out of memory");
	if (jt_parse(s->tree, e->line, e->line_len, &o, why, sizeof(why)))
		return fail(&c, "not JSON: %s", why);
	if (o->type != JT_OBJECT)
		return fail(&c, "not a JSON object");
	if (check_schema(&c, o))
		return -1;
	/* the name cut out is the record's (it had no escape) */
	p = get(o, "path");
	b = get(o, "path_bytes");
	if (!is_type(p, JT_STRING) || !is_type(b, JT_NULL) ||
	    p->len != strlen(e->path) || memcmp(p->str, e->path, p->len))
		return fail(&c, "bad or missing \"path\"");
	e->flags &= ~(uint32_t)(SNAP_LAZY | SNAP_TAKEN);
	memset(&e->taken, 0, sizeof(e->taken));
	return fill_entry(&c, s, o, e);
}

int snapshot_finish(struct snapshot *s, char *err, size_t errlen)
{
	size_t i;

	s->have_taken = false;
	for (i = 0; i < s->n; i++) {
		struct snap_ent *e = s->ents[i];

		if ((e->flags & SNAP_LAZY) &&
		    snapshot_resolve(s, e, err, errlen))
			return -1;
		if (e->flags & SNAP_TAKEN)
			s->have_taken = true;
	}
	index_ino(s);
	return 0;
}

static int get_time_of(const struct xstat_time *t, struct xstat_time *out)
{
	if (t->tv_nsec > 999999999)
		return -1;
	memset(out, 0, sizeof(*out));
	out->tv_sec = t->tv_sec;
	out->tv_nsec = t->tv_nsec;
	return 0;
}

/* get_result() and get_extras() on json_print()'s record of @x. */
static int rebuild(struct snap_res *res, const struct xstat *x,
		   size_t buflen)
{
	unsigned long long mask = x->st_result_mask &
				  (~XSTAT_REQUEST__EXTRA_RESULTS | KEPT_EXTRAS);
	struct xstat *y = &res->x;
	unsigned char *p = (unsigned char *)&res->x + sizeof(struct xstat);

	if ((mask & (XSTAT_REQUEST_INO | XSTAT_REQUEST_MODE)) !=
	    (XSTAT_REQUEST_INO | XSTAT_REQUEST_MODE))
		return -1;
	memset(res, 0, sizeof(*res));
	y->st_result_mask = mask;
	y->st_mode = x->st_mode;
	if (mask & XSTAT_REQUEST_NLINK)
		y->st_nlink = x->st_nlink;
	if (mask & XSTAT_REQUEST_UID)
		y->st_uid = x->st_uid;
	if (mask & XSTAT_REQUEST_GID)
		y->st_gid = x->st_gid;
	y->st_dev.major = x->st_dev.major;
	y->st_dev.minor = x->st_dev.minor;
	if (((mask & XSTAT_REQUEST_MTIME) &&
	     get_time_of(&x->st_mtim, &y->st_mtim)) ||
	    ((mask & XSTAT_REQUEST_CTIME) &&
	     get_time_of(&x->st_ctim, &y->st_ctim)) ||
	    ((mask & XSTAT_REQUEST_BTIME) &&
	     get_time_of(&x->st_btim, &y->st_btim)))
		return -1;
	y->st_ino = x->st_ino;
	if (mask & XSTAT_REQUEST_SIZE)
		y->st_size = x->st_size;
	if (mask & XSTAT_REQUEST_GEN)
		y->st_gen = x->st_gen;
	if (mask & XSTAT_REQUEST_DATA_VERSION)
		y->st_data_version = x->st_data_version;
	if (mask & XSTAT_REQUEST_CHANGE_TOKEN) {
		const struct xstat_change_token *a =
			xstat_extra(x, buflen, XSTAT_REQUEST_CHANGE_TOKEN);
		struct xstat_change_token t = { 0, 0, 0, 0 };

		if (!a)
			return -1;
		t.token = a->token;
		t.promise = a->promise;
		/* the record names these two; any other reads back as 0 */
		if (a->source == XSTAT_TOKEN_FROM_CTIME ||
		    a->source == XSTAT_TOKEN_FROM_DATA_VERSION)
			t.source = a->source;
		memcpy(p, &t, sizeof(t));
		p += sizeof(t);
	}
	if (mask & XSTAT_REQUEST_DV_PROMISE) {
		const struct xstat_dv_promise *a =
			xstat_extra(x, buflen, XSTAT_REQUEST_DV_PROMISE);
		struct xstat_dv_promise d;

		if (!a)
			return -1;
		memset(&d, 0, sizeof(d));
		d.promise = a->promise;
		memcpy(p, &d, sizeof(d));
		p += sizeof(d);
	}
	if (mask & XSTAT_REQUEST_FS_ID) {
		const struct xstat_fs_id *a =
			xstat_extra(x, buflen, XSTAT_REQUEST_FS_ID);
		struct xstat_fs_id f;

		/* "unknown" is refused when read */
		if (!a || (a->source != XSTAT_FS_ID_FROM_UUID &&
			   a->source != XSTAT_FS_ID_FROM_FSID))
			return -1;
		memset(&f, 0, sizeof(f));
		memcpy(f.id, a->id, sizeof(f.id));
		f.source = a->source;
		memcpy(p, &f, sizeof(f));
		p += sizeof(f);
	}
	res->len = (uint32_t)(p - (unsigned char *)&res->x);
	return 0;
}

int snapshot_rebuild(struct snap_ent *e, struct snap_res *res,
		     const struct xstat *x, size_t buflen)
{
	if (rebuild(res, x, buflen))
		return -1;
	e->flags &= ~(uint32_t)SNAP_LAZY;
	return 0;
}

int snapshot_keep(struct snapshot *s, struct snap_ent *e,
		  const struct snap_res *res)
{
	e->res = snap_alloc(s, sizeof(*e->res));
	if (!e->res)
		return -1;
	memcpy(e->res, res, sizeof(*res));
	return 0;
}

#else /* !HAVE_SIMDJSON */

int snapshot_load(FILE *f, const char *name, struct snapshot *s, char *err,
		  size_t errlen)
{
	(void)f;
	memset(s, 0, sizeof(*s));
	snprintf(err, errlen, "%s: this xstat was built without simdjson: "
		 "it cannot read snapshots", name);
	return -1;
}

int snapshot_load_deferred(FILE *f, const char *name, struct snapshot *s,
			   char *err, size_t errlen)
{
	return snapshot_load(f, name, s, err, errlen);
}

size_t snapshot_prefix_len(const char *line, size_t len)
{
	(void)line;
	(void)len;
	return 0;
}

int snapshot_rebuild(struct snap_ent *e, struct snap_res *res,
		     const struct xstat *x, size_t buflen)
{
	(void)e;
	(void)res;
	(void)x;
	(void)buflen;
	return -1;
}

int snapshot_keep(struct snapshot *s, struct snap_ent *e,
		  const struct snap_res *res)
{
	(void)s;
	(void)e;
	(void)res;
	return -1;
}

int snapshot_resolve(struct snapshot *s, struct snap_ent *e, char *err,
		     size_t errlen)
{
	(void)s;
	(void)e;
	snprintf(err, errlen, "no simdjson");
	return -1;
}

int snapshot_finish(struct snapshot *s, char *err, size_t errlen)
{
	(void)s;
	(void)err;
	(void)errlen;
	return 0;
}

struct snap_ent *snapshot_find(const struct snapshot *s, const char *path)
{
	(void)s;
	(void)path;
	return NULL;
}

struct snap_ent *snapshot_find_near(const struct snapshot *s,
				    const char *path, size_t *next)
{
	(void)s;
	(void)path;
	(void)next;
	return NULL;
}

struct snap_ent *snapshot_first_ino(const struct snapshot *s, uint64_t ino)
{
	(void)s;
	(void)ino;
	return NULL;
}

struct snap_ent *snapshot_next_ino(const struct snapshot *s,
				   const struct snap_ent *e)
{
	(void)s;
	(void)e;
	return NULL;
}
#endif

bool snapshot_under(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (strncmp(path, root, n))
		return false;
	return !path[n] || path[n] == '/' || (n && root[n - 1] == '/');
}

const struct snap_ent *snapshot_set_root(struct snapshot *s)
{
	size_t i, len, best = 0;

	s->root = NULL;
	for (i = 0; i < s->n; i++) {
		len = strlen(s->ents[i]->path);
		if (!s->root || len < best) {
			s->root = s->ents[i];
			best = len;
		}
	}
	for (i = 0; i < s->n; i++)
		if (!snapshot_under(s->ents[i]->path, s->root->path))
			return s->ents[i];
	return NULL;
}

void snapshot_free(struct snapshot *s)
{
	struct snap_chunk *c;

	while ((c = s->chunks)) {
		s->chunks = c->next;
		huge_free(c, SNAP_CHUNK);
	}
	free(s->ents);
	huge_free(s->path_heads, s->nbuckets * sizeof(uint32_t));
	huge_free(s->ino_heads, s->nbuckets * sizeof(uint32_t));
#ifdef HAVE_SIMDJSON
	jt_free(s->tree);
#endif
	if (s->text_mapped)
		munmap(s->text, s->text_len);
	else
		huge_free(s->text, s->text_len);
	memset(s, 0, sizeof(*s));
}
