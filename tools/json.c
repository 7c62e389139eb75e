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
 * - an unsigned or signed 64-bit value is a JSON number when its magnitude
 *   is at most 2^53 (exact in every JSON parser) and a string of decimal
 *   digits otherwise.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "human.h"
#include "json.h"

#define EXACT_MAX	(1ULL << 53)

static void json_u64(unsigned long long v)
{
	printf(v <= EXACT_MAX ? "%llu" : "\"%llu\"", v);
}

static void json_s64(long long v)
{
	unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v :
					 (unsigned long long)v;

	printf(mag <= EXACT_MAX ? "%lld" : "\"%lld\"", v);
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

	putchar('"');
	while (i < n) {
		len = utf8_seq(s + i, n - i, &cp);
		if (!len) {
			fputs("\\ufffd", stdout);
			lossy = true;
			i++;
			continue;
		}
		if (cp == '"' || cp == '\\')
			printf("\\%c", (char)cp);
		else if (cp == '\n')
			fputs("\\n", stdout);
		else if (cp == '\t')
			fputs("\\t", stdout);
		else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
			 cp == 0x2028 || cp == 0x2029)
			printf("\\u%04x", cp);
		else
			fwrite(s + i, 1, len, stdout);
		i += len;
	}
	putchar('"');
	return lossy;
}

static void json_hex(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putchar('"');
	for (; *s; s++)
		printf("%02x", *s);
	putchar('"');
}

static void json_head(const struct file_result *r)
{
	/* "path" first: line-oriented readers match on the prefix */
	printf("{\"path\":");
	if (json_string(r->name)) {
		printf(",\"path_bytes\":");
		json_hex(r->name);
	} else {
		printf(",\"path_bytes\":null");
	}
	printf(",\"schema\":%d", JSON_SCHEMA);
}

static void json_dev(const char *name, const struct xstat_dev *d, bool ok)
{
	if (ok)
		printf(",\"%s\":{\"major\":%u,\"minor\":%u}", name, d->major,
		       d->minor);
	else
		printf(",\"%s\":null", name);
}

static void json_time(const char *name, const struct xstat_time *t, bool ok)
{
	if (!ok) {
		printf(",\"%s\":null", name);
		return;
	}
	printf(",\"%s\":{\"sec\":", name);
	json_s64(t->tv_sec);
	printf(",\"nsec\":%llu}", (unsigned long long)t->tv_nsec);
}

static void json_num(const char *name, unsigned long long v, bool ok)
{
	printf(",\"%s\":", name);
	if (ok)
		json_u64(v);
	else
		printf("null");
}

/* "promise":N,"flags":["every_change",...] */
static void json_promise_flags(unsigned long long promise)
{
	char names[PROMISE_NAMES_MAX];

	printf("\"promise\":");
	json_u64(promise);
	human_promise(names, sizeof(names), promise, "\",\"");
	printf(promise ? ",\"flags\":[\"%s\"]" : ",\"flags\":[]", names);
}

static void json_promises(const struct file_result *r)
{
	const struct xstat_change_token *tok =
		extra(r, XSTAT_REQUEST_CHANGE_TOKEN);
	const struct xstat_dv_promise *dvp =
		extra(r, XSTAT_REQUEST_DV_PROMISE);

	printf(",\"change_token\":");
	if (tok) {
		printf("{\"token\":");
		json_u64(tok->token);
		printf(",\"source\":\"%s\",",
		       human_token_source(tok->source));
		json_promise_flags(tok->promise);
		putchar('}');
	} else {
		printf("null");
	}
	printf(",\"dv_promise\":");
	if (dvp) {
		putchar('{');
		json_promise_flags(dvp->promise);
		putchar('}');
	} else {
		printf("null");
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

	printf(",\"mnt_id\":");
	if (mnt) {
		printf("{\"id\":");
		json_u64(mnt->mnt_id);
		printf(",\"unique\":%s}", mnt->unique ? "true" : "false");
	} else {
		printf("null");
	}
	printf(",\"attributes\":");
	if (at) {
		printf("{\"set\":");
		json_u64(at->attributes);
		printf(",\"known\":");
		json_u64(at->attributes_mask);
		putchar('}');
	} else {
		printf("null");
	}
	if (dio)
		printf(",\"dioalign\":{\"mem\":%u,\"offset\":%u}",
		       dio->mem_align, dio->offset_align);
	else
		printf(",\"dioalign\":null");
	json_num("subvol", sv ? sv->subvol : 0, sv != NULL);
	if (wa)
		printf(",\"write_atomic\":{\"unit_min\":%u,\"unit_max\":%u,"
		       "\"unit_max_opt\":%u,\"segments_max\":%u}",
		       wa->unit_min, wa->unit_max, wa->unit_max_opt,
		       wa->segments_max);
	else
		printf(",\"write_atomic\":null");
	json_num("dio_read_align", dr ? dr->offset_align : 0, dr != NULL);
	json_promises(r);
}

static void json_error(const struct file_result *r, const char *message)
{
	printf(",\"error\":{\"errno\":%d,\"message\":", r->err);
	json_string(message);
	printf("}}\n");
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
	printf("}\n");
}
