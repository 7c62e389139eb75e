// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * JSON records.  Conventions (documented in xstat(1)):
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
#include <stdio.h>
#include <string.h>
#include "human.h"
#include "json.h"
#include "out.h"

#define EXACT_MAX	(1ULL << 53)

/*
 * The pieces of a record go out through these, not printf: a walk prints
 * some 70 a record, and parsing a format for each was most of the time a
 * walk with --json took.
 */
static void put(const char *s, size_t n)
{
	fwrite_unlocked(s, 1, n, out_fp());
}

static void puts_(const char *s)
{
	fputs_unlocked(s, out_fp());
}

/* ,"@name": */
static void json_key(const char *name)
{
	FILE *f = out_fp();

	fputs_unlocked(",\"", f);
	fputs_unlocked(name, f);
	fputs_unlocked("\":", f);
}

/* @mag in decimal after @neg's minus, as a string if @quote. */
static void json_digits(unsigned long long mag, bool neg, bool quote)
{
	char buf[24], *p = buf + sizeof(buf);

	if (quote)
		*--p = '"';
	do {
		*--p = (char)('0' + mag % 10);
		mag /= 10;
	} while (mag);
	if (neg)
		*--p = '-';
	if (quote)
		*--p = '"';
	put(p, (size_t)(buf + sizeof(buf) - p));
}

static void json_u64(unsigned long long v)
{
	json_digits(v, false, v > EXACT_MAX);
}

static void json_s64(long long v)
{
	unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v :
					 (unsigned long long)v;

	json_digits(mag, v < 0, mag > EXACT_MAX);
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
static bool json_string(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), i = 0, len;
	bool lossy = false;
	unsigned cp;

	size_t run = 0;		/* plain bytes before i, not yet out */

	putc_unlocked('"', out_fp());
	while (i < n) {
		/* printable ASCII but '"' and '\\': as it is */
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' &&
		    s[i] != '\\') {
			run++;
			i++;
			continue;
		}
		put((const char *)s + i - run, run);
		run = 0;
		len = utf8_seq(s + i, n - i, &cp);
		if (!len) {
			puts_("\\ufffd");
			lossy = true;
			i++;
			continue;
		}
		if (cp == '"' || cp == '\\')
			fprintf(out_fp(), "\\%c", (char)cp);
		else if (cp == '\n')
			puts_("\\n");
		else if (cp == '\t')
			puts_("\\t");
		else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
			 cp == 0x2028 || cp == 0x2029)
			fprintf(out_fp(), "\\u%04x", cp);
		else
			put((const char *)s + i, len);
		i += len;
	}
	put((const char *)s + i - run, run);
	putc_unlocked('"', out_fp());
	return lossy;
}

/* @n bytes of @s in lowercase hex. */
static void json_hex_bytes(const unsigned char *s, size_t n)
{
	static const char digit[] = "0123456789abcdef";
	FILE *f = out_fp();

	for (; n; s++, n--) {
		putc_unlocked(digit[*s >> 4], f);
		putc_unlocked(digit[*s & 15], f);
	}
}

static void json_hex(const char *str)
{
	putc_unlocked('"', out_fp());
	json_hex_bytes((const unsigned char *)str, strlen(str));
	putc_unlocked('"', out_fp());
}

static void json_head(const struct file_result *r)
{
	/* "path" first: line-oriented readers match on the prefix */
	puts_("{\"path\":");
	if (json_string(r->name)) {
		puts_(",\"path_bytes\":");
		json_hex(r->name);
	} else {
		puts_(",\"path_bytes\":null");
	}
	json_key("schema");
	json_u64(JSON_SCHEMA);
}

static void json_dev(const char *name, const struct xstat_dev *d, bool ok)
{
	json_key(name);
	if (!ok) {
		puts_("null");
		return;
	}
	puts_("{\"major\":");
	json_u64(d->major);
	puts_(",\"minor\":");
	json_u64(d->minor);
	putc_unlocked('}', out_fp());
}

static void json_time(const char *name, const struct xstat_time *t, bool ok)
{
	json_key(name);
	if (!ok) {
		puts_("null");
		return;
	}
	puts_("{\"sec\":");
	json_s64(t->tv_sec);
	puts_(",\"nsec\":");
	json_digits((unsigned long long)t->tv_nsec, false, false);
	putc_unlocked('}', out_fp());
}

static void json_num(const char *name, unsigned long long v, bool ok)
{
	json_key(name);
	if (ok)
		json_u64(v);
	else
		puts_("null");
}

/* "promise":N,"flags":["every_change",...] */
static void json_promise_flags(unsigned long long promise)
{
	char names[PROMISE_NAMES_MAX];

	puts_("\"promise\":");
	json_u64(promise);
	if (!promise) {
		puts_(",\"flags\":[]");
		return;
	}
	human_promise(names, sizeof(names), promise, "\",\"");
	puts_(",\"flags\":[\"");
	puts_(names);
	puts_("\"]");
}

static void json_fs_id(const struct file_result *r)
{
	const struct xstat_fs_id *f = extra(r, XSTAT_REQUEST_FS_ID);

	puts_(",\"fs_id\":");
	if (!f) {
		puts_("null");
		return;
	}
	puts_("{\"id\":\"");
	json_hex_bytes(f->id, 16);
	puts_("\",\"source\":\"");
	puts_(f->source == XSTAT_FS_ID_FROM_UUID ? "uuid" :
	      f->source == XSTAT_FS_ID_FROM_FSID ? "fsid" : "unknown");
	puts_("\"}");
}

static void json_mnt_id_reusable(const struct file_result *r)
{
	const struct xstat_mnt_id_reusable *m =
		extra(r, XSTAT_REQUEST_MNT_ID_REUSABLE);

	json_num("mnt_id_reusable", m ? m->mnt_id : 0, m != NULL);
}

static struct xstat_time taken;
static bool have_taken;

void json_set_taken(const struct xstat_time *t)
{
	have_taken = t != NULL;
	if (t)
		taken = *t;
}

void json_change(const char *path, const char *change, const char *from,
		 const char *also)
{
	puts_("{\"path\":");
	if (json_string(path)) {
		puts_(",\"path_bytes\":");
		json_hex(path);
	}
	fprintf(out_fp(), ",\"change\":\"%s\"", change);
	if (from) {
		puts_(",\"from\":");
		if (json_string(from)) {
			puts_(",\"from_bytes\":");
			json_hex(from);
		}
	}
	if (also)
		fprintf(out_fp(), ",\"also\":\"%s\"", also);
	puts_("}\n");
}

static void json_promises(const struct file_result *r)
{
	const struct xstat_change_token *tok =
		extra(r, XSTAT_REQUEST_CHANGE_TOKEN);
	const struct xstat_dv_promise *dvp =
		extra(r, XSTAT_REQUEST_DV_PROMISE);

	puts_(",\"change_token\":");
	if (tok) {
		puts_("{\"token\":");
		json_u64(tok->token);
		puts_(",\"source\":\"");
		puts_(human_token_source(tok->source));
		puts_("\",");
		json_promise_flags(tok->promise);
		putc('}', out_fp());
	} else {
		puts_("null");
	}
	puts_(",\"dv_promise\":");
	if (dvp) {
		putc('{', out_fp());
		json_promise_flags(dvp->promise);
		putc('}', out_fp());
	} else {
		puts_("null");
	}
}

static void json_extras(const struct file_result *r)
{
	const struct xstat_mnt_id *mnt = extra(r, XSTAT_REQUEST_MNT_ID);
	const struct xstat_attributes *at = extra(r, XSTAT_REQUEST_ATTRIBUTES);
	const struct xstat_dioalign *dio = extra(r, XSTAT_REQUEST_DIOALIGN);
	const struct xstat_subvol *sv = extra(r, XSTAT_REQUEST_SUBVOL);
	const struct xstat_write_atomic *wa =
		extra(r, XSTAT_REQUEST_WRITE_ATOMIC);
	const struct xstat_dio_read_align *dr =
		extra(r, XSTAT_REQUEST_DIO_READ_ALIGN);

	puts_(",\"mnt_id\":");
	if (mnt) {
		puts_("{\"id\":");
		json_u64(mnt->mnt_id);
		fprintf(out_fp(), ",\"unique\":%s}",
			mnt->unique ? "true" : "false");
	} else {
		puts_("null");
	}
	puts_(",\"attributes\":");
	if (at) {
		puts_("{\"set\":");
		json_u64(at->attributes);
		puts_(",\"known\":");
		json_u64(at->attributes_mask);
		putc('}', out_fp());
	} else {
		puts_("null");
	}
	if (dio)
		fprintf(out_fp(), ",\"dioalign\":{\"mem\":%u,\"offset\":%u}",
		       dio->mem_align, dio->offset_align);
	else
		puts_(",\"dioalign\":null");
	json_num("subvol", sv ? sv->subvol : 0, sv != NULL);
	if (wa)
		fprintf(out_fp(),
			",\"write_atomic\":{\"unit_min\":%u,\"unit_max\":%u,"
			"\"unit_max_opt\":%u,\"segments_max\":%u}",
			wa->unit_min, wa->unit_max, wa->unit_max_opt,
			wa->segments_max);
	else
		puts_(",\"write_atomic\":null");
	json_num("dio_read_align", dr ? dr->offset_align : 0, dr != NULL);
	json_promises(r);
}

/* "type": stat's %F ("regular file", "directory", ...), or null. */
static void json_type(const struct file_result *r)
{
	puts_(",\"type\":");
	if (have(r, XSTAT_REQUEST_MODE))
		json_string(human_type(r->x->st_mode, r->x->st_size,
				       have(r, XSTAT_REQUEST_SIZE)));
	else
		puts_("null");
}

static void json_error(const struct file_result *r, const char *message)
{
	fprintf(out_fp(), ",\"error\":{\"errno\":%d,\"message\":", r->err);
	json_string(message);
	puts_("}}\n");
}

void json_print(const struct file_result *r)
{
	const struct xstat *x = r->x;

	json_head(r);
	if (r->ret < 0) {
		json_error(r, strerror(r->err));
		return;
	}
	json_num("size_needed", (unsigned long long)r->ret, true);
	json_num("result_mask", x->st_result_mask, true);
	json_num("mode", x->st_mode, have(r, XSTAT_REQUEST_MODE));
	json_type(r);
	json_num("nlink", x->st_nlink, have(r, XSTAT_REQUEST_NLINK));
	json_num("uid", x->st_uid, have(r, XSTAT_REQUEST_UID));
	json_num("gid", x->st_gid, have(r, XSTAT_REQUEST_GID));
	json_dev("rdev", &x->st_rdev, have(r, XSTAT_REQUEST_RDEV));
	json_dev("dev", &x->st_dev, true);
	json_time("atime", &x->st_atim, have(r, XSTAT_REQUEST_ATIME));
	json_time("mtime", &x->st_mtim, have(r, XSTAT_REQUEST_MTIME));
	json_time("ctime", &x->st_ctim, have(r, XSTAT_REQUEST_CTIME));
	json_time("btime", &x->st_btim, have(r, XSTAT_REQUEST_BTIME));
	json_num("ino", x->st_ino, have(r, XSTAT_REQUEST_INO));
	json_num("size", x->st_size, have(r, XSTAT_REQUEST_SIZE));
	json_num("blksize", x->st_blksize, true);
	json_num("blocks", x->st_blocks, have(r, XSTAT_REQUEST_BLOCKS));
	json_num("gen", x->st_gen, have(r, XSTAT_REQUEST_GEN));
	json_num("data_version", x->st_data_version,
		 have(r, XSTAT_REQUEST_DATA_VERSION));
	json_extras(r);
	json_fs_id(r);
	json_mnt_id_reusable(r);
	json_time("taken", &taken, have_taken);
	puts_("}\n");
}
