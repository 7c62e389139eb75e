// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The JSON record of one file: the one writer, compiled into the tool and
 * into the Python binding (libxstat.records), so that the two agree byte
 * for byte by construction.  Only libc, the public header, fields.h and
 * human.c.  Conventions (documented in xstat(1)):
 * - every member of the schema is always present; a value that was not
 *   obtained (its result-mask bit clear, an extra result not produced) is
 *   null, never left out and never 0;
 * - "path" is the name as UTF-8: each byte that is not part of valid UTF-8
 *   becomes U+FFFD, and then "path_bytes" holds the exact bytes in
 *   lowercase hex (else it is null);
 * - control characters, U+007F-U+009F, U+2028 and U+2029 are written as
 *   \u escapes, so no ESC or newline is ever raw;
 * - "type" is the file type as stat -c %F names it;
 * - an unsigned or signed 64-bit value is a JSON number when its magnitude
 *   is at most 2^53 (exact in every JSON parser) and a string of decimal
 *   digits otherwise.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "fields.h"
#include "human.h"
#include "json-record.h"

/* How fields.h's rows are shown (their json column). */
enum { JSON_NONE, JSON_NUM, JSON_OBJ, JSON_OWN };

#define EXACT_MAX	(1ULL << 53)

/*
 * A record is built in one buffer on the stack and handed to its stream
 * with one call: a stdio call per member costs more than making the
 * member (some seventy of them a record).  A record longer than the
 * buffer (a long name) goes out in as many writes as it needs; with no
 * stream (json_record_text()) it is only marked too long.
 */
#define JB_SIZE	JSON_RECORD_TEXT_MAX

struct jb {
	FILE	*f;		/* NULL: json_record_text()'s buffer */
	size_t	len;
	bool	over;		/* ...and the record did not fit */
	char	*buf;		/* JB_SIZE bytes */
};

static void jb_flush(struct jb *b)
{
	if (!b->f)
		b->over |= b->len > 0;
	else if (b->len)
		fwrite(b->buf, 1, b->len, b->f);
	b->len = 0;
}

/* @s, longer than the room left: out through the stream. */
static void jb_put_long(struct jb *b, const char *s, size_t n)
{
	jb_flush(b);
	if (n > JB_SIZE) {
		if (b->f)
			fwrite(s, 1, n, b->f);
		else
			b->over = true;
		return;
	}
	memcpy(b->buf, s, n);
	b->len = n;
}

static inline void jb_put(struct jb *b, const char *s, size_t n)
{
	if (n > JB_SIZE - b->len) {
		jb_put_long(b, s, n);
		return;
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

#define jb_lit(b, s)	jb_put(b, s, sizeof(s) - 1)

static void jb_str(struct jb *b, const char *s)
{
	jb_put(b, s, strlen(s));
}

static inline void jb_char(struct jb *b, char c)
{
	if (b->len == JB_SIZE)
		jb_flush(b);
	b->buf[b->len++] = c;
}

/* @v in decimal, two digits a step. */
static void jb_dec(struct jb *b, unsigned long long v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char d[20];
	size_t i = sizeof(d);

	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		i -= 2;
		memcpy(d + i, pairs + 2 * r, 2);
	}
	if (v >= 10) {
		i -= 2;
		memcpy(d + i, pairs + 2 * v, 2);
	} else {
		d[--i] = (char)('0' + v);
	}
	jb_put(b, d + i, sizeof(d) - i);
}

static void jb_u64(struct jb *b, unsigned long long v)
{
	if (v <= EXACT_MAX) {
		jb_dec(b, v);
		return;
	}
	jb_char(b, '"');
	jb_dec(b, v);
	jb_char(b, '"');
}

static void jb_s64(struct jb *b, long long v)
{
	unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v :
					 (unsigned long long)v;
	bool quote = mag > EXACT_MAX;

	if (quote)
		jb_char(b, '"');
	if (v < 0)
		jb_char(b, '-');
	jb_dec(b, mag);
	if (quote)
		jb_char(b, '"');
}

static void jb_hex2(struct jb *b, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	jb_char(b, hex[c >> 4]);
	jb_char(b, hex[c & 15]);
}

/* Length of the valid UTF-8 sequence at @s (0: invalid), its code point. */
static size_t utf8_seq(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned char c = s[0];
	unsigned lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		*cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		*cp = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0;	/* no overlong forms */
		if (c == 0xed)
			hi = 0x9f;	/* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		*cp = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;
		if (c == 0xf4)
			hi = 0x8f;	/* nothing past U+10FFFF */
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	return len;
}

/* Does byte @c stand for itself in a JSON string (printable ASCII)? */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* @s as a JSON string; returns whether it had to replace bytes. */
static bool jb_string(struct jb *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), i = 0, run, len;
	bool lossy = false;
	unsigned cp;

	jb_char(b, '"');
	while (i < n) {
		for (run = i; run < n && plain(s[run]); run++)
			;
		if (run > i) {
			jb_put(b, str + i, run - i);
			i = run;
			if (i == n)
				break;
		}
		len = utf8_seq(s + i, n - i, &cp);
		if (!len) {
			jb_lit(b, "\\ufffd");
			lossy = true;
			i++;
			continue;
		}
		if (cp == '"' || cp == '\\') {
			jb_char(b, '\\');
			jb_char(b, (char)cp);
		} else if (cp == '\n') {
			jb_lit(b, "\\n");
		} else if (cp == '\t') {
			jb_lit(b, "\\t");
		} else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
			   cp == 0x2028 || cp == 0x2029) {
			jb_lit(b, "\\u");
			jb_hex2(b, (unsigned char)(cp >> 8));
			jb_hex2(b, (unsigned char)cp);
		} else {
			jb_put(b, str + i, len);
		}
		i += len;
	}
	jb_char(b, '"');
	return lossy;
}

static void jb_hex(struct jb *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	jb_char(b, '"');
	for (; *s; s++)
		jb_hex2(b, *s);
	jb_char(b, '"');
}

bool json_string(FILE *f, const char *str)
{
	char mem[JB_SIZE];
	struct jb b = { .f = f, .buf = mem };
	bool lossy = jb_string(&b, str);

	jb_flush(&b);
	return lossy;
}

void json_hex(FILE *f, const char *str)
{
	char mem[JB_SIZE];
	struct jb b = { .f = f, .buf = mem };

	jb_hex(&b, str);
	jb_flush(&b);
}

static void json_head(struct jb *b, const char *name)
{
	/* "path" first: line-oriented readers match on the prefix */
	jb_lit(b, "{\"path\":");
	if (jb_string(b, name)) {
		jb_lit(b, ",\"path_bytes\":");
		jb_hex(b, name);
	} else {
		jb_lit(b, ",\"path_bytes\":null");
	}
	jb_lit(b, ",\"schema\":");
	jb_dec(b, JSON_SCHEMA);
}

/* ,"@name": of a member whose name is a string literal */
#define KEY(name)	",\"" name "\":"

static void json_dev(struct jb *b, const char *key, size_t keylen,
		     const struct xstat_dev *d, bool ok)
{
	jb_put(b, key, keylen);
	if (!ok) {
		jb_lit(b, "null");
		return;
	}
	jb_lit(b, "{\"major\":");
	jb_dec(b, d->major);
	jb_lit(b, ",\"minor\":");
	jb_dec(b, d->minor);
	jb_char(b, '}');
}

static void json_time(struct jb *b, const char *key, size_t keylen,
		      const struct xstat_time *t, bool ok)
{
	jb_put(b, key, keylen);
	if (!ok) {
		jb_lit(b, "null");
		return;
	}
	jb_lit(b, "{\"sec\":");
	jb_s64(b, t->tv_sec);
	jb_lit(b, ",\"nsec\":");
	jb_dec(b, (unsigned long long)t->tv_nsec);
	jb_char(b, '}');
}

static void json_num(struct jb *b, const char *key, size_t keylen,
		     unsigned long long v, bool ok)
{
	jb_put(b, key, keylen);
	if (ok)
		jb_u64(b, v);
	else
		jb_lit(b, "null");
}

#define JSON_DEV(b, name, d, ok) \
	json_dev(b, KEY(name), sizeof(KEY(name)) - 1, d, ok)
#define JSON_TIME(b, name, t, ok) \
	json_time(b, KEY(name), sizeof(KEY(name)) - 1, t, ok)
#define JSON_NUM(b, name, v, ok) \
	json_num(b, KEY(name), sizeof(KEY(name)) - 1, v, ok)

/*
 * The flags' names of the last promise named, per caller: a tree gives
 * the same few promises record after record, and naming them is dearer
 * than the rest of a record's numbers.
 */
enum { PROMISE_OF_TOKEN, PROMISE_OF_DV, PROMISE_CALLERS };

struct promise_names {
	bool			valid;
	unsigned long long	promise;
	size_t			len;
	char			names[PROMISE_NAMES_MAX];
};

static __thread struct promise_names promise_cache[PROMISE_CALLERS];

/* "promise":N,"flags":["every_change",...] */
static void json_promise_flags(struct jb *b, unsigned long long promise,
			       unsigned caller)
{
	struct promise_names *c = &promise_cache[caller];

	if (!c->valid || c->promise != promise) {
		human_promise(c->names, sizeof(c->names), promise, "\",\"");
		c->len = strlen(c->names);
		c->promise = promise;
		c->valid = true;
	}
	jb_lit(b, "\"promise\":");
	jb_u64(b, promise);
	if (!promise) {
		jb_lit(b, ",\"flags\":[]");
		return;
	}
	jb_lit(b, ",\"flags\":[\"");
	jb_put(b, c->names, c->len);
	jb_lit(b, "\"]");
}

/*
 * The extra results whose record is not made from their members (json
 * OWN in fields.h): {"id":"hex","source":"uuid"|"fsid"|"unknown"}, the
 * token with its source and promise, and the data version's promise.
 */
static void json_own_fs_id(struct jb *b, const void *p)
{
	const struct xstat_fs_id *e = p;
	int i;

	jb_lit(b, "{\"id\":\"");
	for (i = 0; i < 16; i++)
		jb_hex2(b, e->id[i]);
	jb_lit(b, "\",\"source\":\"");
	jb_str(b, e->source == XSTAT_FS_ID_FROM_UUID ? "uuid" :
		  e->source == XSTAT_FS_ID_FROM_FSID ? "fsid" : "unknown");
	jb_lit(b, "\"}");
}

static void json_own_change_token(struct jb *b, const void *p)
{
	const struct xstat_change_token *e = p;

	jb_lit(b, "{\"token\":");
	jb_u64(b, e->token);
	jb_lit(b, ",\"source\":\"");
	jb_str(b, human_token_source(e->source));
	jb_lit(b, "\",");
	json_promise_flags(b, e->promise, PROMISE_OF_TOKEN);
	jb_char(b, '}');
}

static void json_own_dv_promise(struct jb *b, const void *p)
{
	const struct xstat_dv_promise *e = p;

	jb_char(b, '{');
	json_promise_flags(b, e->promise, PROMISE_OF_DV);
	jb_char(b, '}');
}

/* The members of the payloads (fields.h), as the record shows them. */
enum member_kind { MK_U8, MK_U32, MK_U64, MK_BOOL32, MK_PROMISE,
		   MK_BYTES16 };

static const struct member {
	unsigned long long bit;
	const char *key;
	unsigned short off;
	unsigned char kind;
} members[] = {
#define XS_MEMBER_ROW(NAME, name, member, kind, directive, base, key, ...) \
	{ XSTAT_REQUEST_##NAME, key,					\
	  offsetof(struct xstat_##name, member), MK_##kind },
	XS_EXTRA_MEMBERS(XS_MEMBER_ROW)
#undef XS_MEMBER_ROW
};

#define NR_MEMBERS	(sizeof(members) / sizeof(members[0]))

static void json_member(struct jb *b, const struct member *m, const void *p)
{
	const unsigned char *v = (const unsigned char *)p + m->off;
	unsigned long long v64;
	unsigned int v32;

	switch (m->kind) {
	case MK_U8:
		jb_u64(b, *v);
		break;
	case MK_U32:
		memcpy(&v32, v, sizeof(v32));
		jb_u64(b, v32);
		break;
	case MK_BOOL32:
		memcpy(&v32, v, sizeof(v32));
		if (v32)
			jb_lit(b, "true");
		else
			jb_lit(b, "false");
		break;
	default:	/* the 64-bit kinds; BYTES16 has a writer of its own */
		memcpy(&v64, v, sizeof(v64));
		jb_u64(b, v64);
		break;
	}
}

/* NUM: the payload's one member, as a number. */
static void json_extra_num(struct jb *b, unsigned long long bit,
			   const void *p)
{
	size_t i;

	for (i = 0; i < NR_MEMBERS; i++)
		if (members[i].bit == bit) {
			json_member(b, &members[i], p);
			return;
		}
}

/* OBJ: {"key":value,...} of the payload's members. */
static void json_extra_obj(struct jb *b, unsigned long long bit,
			   const void *p)
{
	char sep = '{';
	size_t i;

	for (i = 0; i < NR_MEMBERS; i++) {
		if (members[i].bit != bit)
			continue;
		jb_char(b, sep);
		jb_char(b, '"');
		jb_str(b, members[i].key);
		jb_lit(b, "\":");
		json_member(b, &members[i], p);
		sep = ',';
	}
	jb_char(b, '}');
}

#define JSON_EXTRA_NUM(b, name, bit, p)	json_extra_num(b, bit, p)
#define JSON_EXTRA_OBJ(b, name, bit, p)	json_extra_obj(b, bit, p)
#define JSON_EXTRA_OWN(b, name, bit, p)	json_own_##name(b, p)

/* The members of the extra results, each null when not produced. */
static void json_extras(struct jb *b, const struct file_result *r)
{
	const void *p;

#define JSON_EXTRA_NONE(b, name, bit, p)	(void)0
#define XS_EXTRA_JSON(NAME, name, bit, size, stx, json, ...)		\
	if (JSON_##json != JSON_NONE) {					\
		jb_lit(b, KEY(#name));					\
		p = extra(r, bit);					\
		if (p)							\
			JSON_EXTRA_##json(b, name, bit, p);		\
		else							\
			jb_lit(b, "null");				\
	}
	XS_EXTRA_RESULTS(XS_EXTRA_JSON)
#undef XS_EXTRA_JSON
#undef JSON_EXTRA_NONE
}

/* "type": stat's %F ("regular file", "directory", ...), or null. */
static void json_type(struct jb *b, const struct file_result *r)
{
	jb_lit(b, KEY("type"));
	if (have(r, XSTAT_REQUEST_MODE))
		jb_string(b, human_type(r->x->st_mode, r->x->st_size,
					have(r, XSTAT_REQUEST_SIZE)));
	else
		jb_lit(b, "null");
}

static void jb_error_record(struct jb *b, const char *name, int err)
{
	json_head(b, name);
	jb_lit(b, ",\"error\":{\"errno\":");
	if (err < 0) {
		jb_char(b, '-');
		jb_dec(b, 0ULL - (unsigned long long)err);
	} else {
		jb_dec(b, (unsigned long long)err);
	}
	jb_lit(b, ",\"message\":");
	jb_string(b, strerror(err));
	jb_lit(b, "}}\n");
}

void json_error_record(FILE *f, const char *name, int err)
{
	char mem[JB_SIZE];
	struct jb b = { .f = f, .buf = mem };

	jb_error_record(&b, name, err);
	jb_flush(&b);
}

/*
 * "why_missing", after the extras (its row in fields.h is NONE: the
 * member names its fields rather than its payload's members): each
 * requested class (3) field the result lacks, with its reason
 * (human_why()), {"data_version":"refused"}; {} when none is missing,
 * null without the reasons.
 */
static void json_why_missing(struct jb *b, const struct file_result *r)
{
	const struct xstat_why_missing *w =
		extra(r, XSTAT_REQUEST_WHY_MISSING);
	const char *field;
	char sep = '{';
	unsigned i = 0, code;

	jb_lit(b, KEY("why_missing"));
	if (!w) {
		jb_lit(b, "null");
		return;
	}
	while (human_why_next(w, &i, &field, &code)) {
		jb_char(b, sep);
		jb_char(b, '"');
		jb_str(b, field);
		jb_lit(b, "\":\"");
		jb_str(b, human_why(code));
		jb_char(b, '"');
		sep = ',';
	}
	if (sep == '{')
		jb_char(b, '{');
	jb_char(b, '}');
}

static void jb_record(struct jb *b, const struct file_result *r,
		      const struct xstat_time *taken)
{
	const struct xstat *x = r->x;

	if (r->ret < 0) {
		jb_error_record(b, r->name, r->err);
		return;
	}
	json_head(b, r->name);
	JSON_NUM(b, "size_needed", (unsigned long long)r->ret, true);
	JSON_NUM(b, "result_mask", x->st_result_mask, true);
	JSON_NUM(b, "mode", x->st_mode, have(r, XSTAT_REQUEST_MODE));
	json_type(b, r);
	JSON_NUM(b, "nlink", x->st_nlink, have(r, XSTAT_REQUEST_NLINK));
	JSON_NUM(b, "uid", x->st_uid, have(r, XSTAT_REQUEST_UID));
	JSON_NUM(b, "gid", x->st_gid, have(r, XSTAT_REQUEST_GID));
	JSON_DEV(b, "rdev", &x->st_rdev, have(r, XSTAT_REQUEST_RDEV));
	JSON_DEV(b, "dev", &x->st_dev, true);
	JSON_TIME(b, "atime", &x->st_atim, have(r, XSTAT_REQUEST_ATIME));
	JSON_TIME(b, "mtime", &x->st_mtim, have(r, XSTAT_REQUEST_MTIME));
	JSON_TIME(b, "ctime", &x->st_ctim, have(r, XSTAT_REQUEST_CTIME));
	JSON_TIME(b, "btime", &x->st_btim, have(r, XSTAT_REQUEST_BTIME));
	JSON_NUM(b, "ino", x->st_ino, have(r, XSTAT_REQUEST_INO));
	JSON_NUM(b, "size", x->st_size, have(r, XSTAT_REQUEST_SIZE));
	JSON_NUM(b, "blksize", x->st_blksize, true);
	JSON_NUM(b, "blocks", x->st_blocks, have(r, XSTAT_REQUEST_BLOCKS));
	JSON_NUM(b, "gen", x->st_gen, have(r, XSTAT_REQUEST_GEN));
	JSON_NUM(b, "data_version", x->st_data_version,
		 have(r, XSTAT_REQUEST_DATA_VERSION));
	json_extras(b, r);
	json_why_missing(b, r);
	JSON_TIME(b, "taken", taken, taken != NULL);
	jb_lit(b, "}\n");
}

void json_record(FILE *f, const struct file_result *r,
		 const struct xstat_time *taken)
{
	char mem[JB_SIZE];
	struct jb b = { .f = f, .buf = mem };

	jb_record(&b, r, taken);
	jb_flush(&b);
}

size_t json_record_text(char *buf, const struct file_result *r,
			const struct xstat_time *taken)
{
	struct jb b = { .f = NULL, .buf = buf };

	jb_record(&b, r, taken);
	return b.over ? 0 : b.len;
}
