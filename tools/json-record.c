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

static void json_u64(FILE *f, unsigned long long v)
{
	fprintf(f, v <= EXACT_MAX ? "%llu" : "\"%llu\"", v);
}

static void json_s64(FILE *f, long long v)
{
	unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v :
					 (unsigned long long)v;

	fprintf(f, mag <= EXACT_MAX ? "%lld" : "\"%lld\"", v);
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

/* @s as a JSON string; returns whether it had to replace bytes. */
bool json_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), i = 0, len;
	bool lossy = false;
	unsigned cp;

	putc('"', f);
	while (i < n) {
		len = utf8_seq(s + i, n - i, &cp);
		if (!len) {
			fputs("\\ufffd", f);
			lossy = true;
			i++;
			continue;
		}
		if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (char)cp);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
			 cp == 0x2028 || cp == 0x2029)
			fprintf(f, "\\u%04x", cp);
		else
			fwrite(s + i, 1, len, f);
		i += len;
	}
	putc('"', f);
	return lossy;
}

void json_hex(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putc('"', f);
	for (; *s; s++)
		fprintf(f, "%02x", *s);
	putc('"', f);
}

static void json_head(FILE *f, const char *name)
{
	/* "path" first: line-oriented readers match on the prefix */
	fprintf(f, "{\"path\":");
	if (json_string(f, name)) {
		fprintf(f, ",\"path_bytes\":");
		json_hex(f, name);
	} else {
		fprintf(f, ",\"path_bytes\":null");
	}
	fprintf(f, ",\"schema\":%d", JSON_SCHEMA);
}

static void json_dev(FILE *f, const char *name, const struct xstat_dev *d,
		     bool ok)
{
	if (ok)
		fprintf(f, ",\"%s\":{\"major\":%u,\"minor\":%u}", name,
			d->major, d->minor);
	else
		fprintf(f, ",\"%s\":null", name);
}

static void json_time(FILE *f, const char *name, const struct xstat_time *t,
		      bool ok)
{
	if (!ok) {
		fprintf(f, ",\"%s\":null", name);
		return;
	}
	fprintf(f, ",\"%s\":{\"sec\":", name);
	json_s64(f, t->tv_sec);
	fprintf(f, ",\"nsec\":%llu}", (unsigned long long)t->tv_nsec);
}

static void json_num(FILE *f, const char *name, unsigned long long v,
		     bool ok)
{
	fprintf(f, ",\"%s\":", name);
	if (ok)
		json_u64(f, v);
	else
		fprintf(f, "null");
}

/* "promise":N,"flags":["every_change",...] */
static void json_promise_flags(FILE *f, unsigned long long promise)
{
	char names[PROMISE_NAMES_MAX];

	fprintf(f, "\"promise\":");
	json_u64(f, promise);
	human_promise(names, sizeof(names), promise, "\",\"");
	fprintf(f, promise ? ",\"flags\":[\"%s\"]" : ",\"flags\":[]", names);
}

/*
 * The extra results whose record is not made from their members (json
 * OWN in fields.h): {"id":"hex","source":"uuid"|"fsid"|"unknown"}, the
 * token with its source and promise, and the data version's promise.
 */
static void json_own_fs_id(FILE *f, const void *p)
{
	const struct xstat_fs_id *e = p;
	int i;

	fprintf(f, "{\"id\":\"");
	for (i = 0; i < 16; i++)
		fprintf(f, "%02x", e->id[i]);
	fprintf(f, "\",\"source\":\"%s\"}",
		e->source == XSTAT_FS_ID_FROM_UUID ? "uuid" :
		e->source == XSTAT_FS_ID_FROM_FSID ? "fsid" : "unknown");
}

static void json_own_change_token(FILE *f, const void *p)
{
	const struct xstat_change_token *e = p;

	fprintf(f, "{\"token\":");
	json_u64(f, e->token);
	fprintf(f, ",\"source\":\"%s\",", human_token_source(e->source));
	json_promise_flags(f, e->promise);
	putc('}', f);
}

static void json_own_dv_promise(FILE *f, const void *p)
{
	const struct xstat_dv_promise *e = p;

	putc('{', f);
	json_promise_flags(f, e->promise);
	putc('}', f);
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

static void json_member(FILE *f, const struct member *m, const void *p)
{
	const unsigned char *b = (const unsigned char *)p + m->off;
	unsigned long long v64;
	unsigned int v32;

	switch (m->kind) {
	case MK_U8:
		json_u64(f, *b);
		break;
	case MK_U32:
		memcpy(&v32, b, sizeof(v32));
		json_u64(f, v32);
		break;
	case MK_BOOL32:
		memcpy(&v32, b, sizeof(v32));
		fputs(v32 ? "true" : "false", f);
		break;
	default:	/* the 64-bit kinds; BYTES16 has a writer of its own */
		memcpy(&v64, b, sizeof(v64));
		json_u64(f, v64);
		break;
	}
}

/* NUM: the payload's one member, as a number. */
static void json_extra_num(FILE *f, unsigned long long bit, const void *p)
{
	size_t i;

	for (i = 0; i < NR_MEMBERS; i++)
		if (members[i].bit == bit) {
			json_member(f, &members[i], p);
			return;
		}
}

/* OBJ: {"key":value,...} of the payload's members. */
static void json_extra_obj(FILE *f, unsigned long long bit, const void *p)
{
	const char *sep = "{";
	size_t i;

	for (i = 0; i < NR_MEMBERS; i++) {
		if (members[i].bit != bit)
			continue;
		fprintf(f, "%s\"%s\":", sep, members[i].key);
		json_member(f, &members[i], p);
		sep = ",";
	}
	putc('}', f);
}

#define JSON_EXTRA_NUM(f, name, bit, p)	json_extra_num(f, bit, p)
#define JSON_EXTRA_OBJ(f, name, bit, p)	json_extra_obj(f, bit, p)
#define JSON_EXTRA_OWN(f, name, bit, p)	json_own_##name(f, p)

/* The members of the extra results, each null when not produced. */
static void json_extras(FILE *f, const struct file_result *r)
{
	const void *p;

#define JSON_EXTRA_NONE(f, name, bit, p)	(void)0
#define XS_EXTRA_JSON(NAME, name, bit, size, stx, json, ...)		\
	if (JSON_##json != JSON_NONE) {					\
		fprintf(f, ",\"" #name "\":");				\
		p = extra(r, bit);					\
		if (p)							\
			JSON_EXTRA_##json(f, name, bit, p);		\
		else							\
			fputs("null", f);				\
	}
	XS_EXTRA_RESULTS(XS_EXTRA_JSON)
#undef XS_EXTRA_JSON
#undef JSON_EXTRA_NONE
}

/* "type": stat's %F ("regular file", "directory", ...), or null. */
static void json_type(FILE *f, const struct file_result *r)
{
	fprintf(f, ",\"type\":");
	if (have(r, XSTAT_REQUEST_MODE))
		json_string(f, human_type(r->x->st_mode, r->x->st_size,
					  have(r, XSTAT_REQUEST_SIZE)));
	else
		fprintf(f, "null");
}

void json_error_record(FILE *f, const char *name, int err)
{
	json_head(f, name);
	fprintf(f, ",\"error\":{\"errno\":%d,\"message\":", err);
	json_string(f, strerror(err));
	fprintf(f, "}}\n");
}

/*
 * "why_missing", after the extras (its row in fields.h is NONE: the
 * member names its fields rather than its payload's members): each
 * requested class (3) field the result lacks, with its reason
 * (human_why()), {"data_version":"refused"}; {} when none is missing,
 * null without the reasons.
 */
static void json_why_missing(FILE *f, const struct file_result *r)
{
	const struct xstat_why_missing *w =
		extra(r, XSTAT_REQUEST_WHY_MISSING);
	const char *field, *sep = "";
	unsigned i, code;

	fprintf(f, ",\"why_missing\":");
	if (!w) {
		fputs("null", f);
		return;
	}
	putc('{', f);
	for (i = 0; i < HUMAN_WHY_FIELDS; i++) {
		code = human_why_field(w, i, &field);
		if (code == XSTAT_WHY_PRESENT ||
		    code == XSTAT_WHY_NOT_REQUESTED)
			continue;
		fprintf(f, "%s\"%s\":\"%s\"", sep, field, human_why(code));
		sep = ",";
	}
	putc('}', f);
}

void json_record(FILE *f, const struct file_result *r,
		 const struct xstat_time *taken)
{
	const struct xstat *x = r->x;

	if (r->ret < 0) {
		json_error_record(f, r->name, r->err);
		return;
	}
	json_head(f, r->name);
	json_num(f, "size_needed", (unsigned long long)r->ret, true);
	json_num(f, "result_mask", x->st_result_mask, true);
	json_num(f, "mode", x->st_mode, have(r, XSTAT_REQUEST_MODE));
	json_type(f, r);
	json_num(f, "nlink", x->st_nlink, have(r, XSTAT_REQUEST_NLINK));
	json_num(f, "uid", x->st_uid, have(r, XSTAT_REQUEST_UID));
	json_num(f, "gid", x->st_gid, have(r, XSTAT_REQUEST_GID));
	json_dev(f, "rdev", &x->st_rdev, have(r, XSTAT_REQUEST_RDEV));
	json_dev(f, "dev", &x->st_dev, true);
	json_time(f, "atime", &x->st_atim, have(r, XSTAT_REQUEST_ATIME));
	json_time(f, "mtime", &x->st_mtim, have(r, XSTAT_REQUEST_MTIME));
	json_time(f, "ctime", &x->st_ctim, have(r, XSTAT_REQUEST_CTIME));
	json_time(f, "btime", &x->st_btim, have(r, XSTAT_REQUEST_BTIME));
	json_num(f, "ino", x->st_ino, have(r, XSTAT_REQUEST_INO));
	json_num(f, "size", x->st_size, have(r, XSTAT_REQUEST_SIZE));
	json_num(f, "blksize", x->st_blksize, true);
	json_num(f, "blocks", x->st_blocks, have(r, XSTAT_REQUEST_BLOCKS));
	json_num(f, "gen", x->st_gen, have(r, XSTAT_REQUEST_GEN));
	json_num(f, "data_version", x->st_data_version,
		 have(r, XSTAT_REQUEST_DATA_VERSION));
	json_extras(f, r);
	json_why_missing(f, r);
	json_time(f, "taken", taken, taken != NULL);
	fprintf(f, "}\n");
}
