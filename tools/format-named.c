// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * %{name}: the fields only libxstat returns, found by name; each names
 * the request bit it needs, so that a format asks for what it prints.
 * The extra results' directives are their members' rows of fields.h.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "conv.h"
#include "fields.h"
#include "human.h"

enum named_kind { NK_DEC, NK_HEX, NK_WHY };

struct named {
	const char *name;
	unsigned long long bit;		/* 0: always there */
	unsigned long long need;	/* the request bit (0: none) */
	enum named_kind kind;
	/* struct xstat's: false if absent; NULL: a payload's member */
	bool (*get)(const struct file_result *r, unsigned long long *v);
	unsigned short off;		/* the member's, in the payload */
	unsigned char size;		/* its bytes: 1, 4 or 8 */
};

static bool get_gen(const struct file_result *r, unsigned long long *v)
{
	*v = r->x->st_gen;
	return true;
}

static bool get_dv(const struct file_result *r, unsigned long long *v)
{
	*v = r->x->st_data_version;
	return true;
}

static bool get_mask(const struct file_result *r, unsigned long long *v)
{
	*v = r->x->st_result_mask;
	return true;
}

static bool get_size_needed(const struct file_result *r,
			    unsigned long long *v)
{
	*v = (unsigned long long)r->ret;
	return true;
}

/* A member of an extra result's payload: false if it was not produced. */
static bool get_member(const struct named *n, const struct file_result *r,
		       unsigned long long *v)
{
	const unsigned char *p = extra(r, n->need);
	unsigned int v32;

	if (!p)
		return false;
	p += n->off;
	if (n->size == 1) {
		*v = *p;
	} else if (n->size == 4) {
		memcpy(&v32, p, sizeof(v32));
		*v = v32;
	} else {
		memcpy(v, p, sizeof(*v));
	}
	return true;
}

static const struct named named[] = {
	{ "gen", XSTAT_REQUEST_GEN, XSTAT_REQUEST_GEN, NK_DEC, get_gen, 0, 0 },
	{ "data_version", XSTAT_REQUEST_DATA_VERSION,
	  XSTAT_REQUEST_DATA_VERSION, NK_DEC, get_dv, 0, 0 },
	{ "result_mask", 0, 0, NK_HEX, get_mask, 0, 0 },
	{ "size_needed", 0, 0, NK_DEC, get_size_needed, 0, 0 },
	/* the members of fields.h with a directive (BYTES16 has none) */
#define XS_NAMED_ROW(NAME, name, member, kind, directive, base, ...)	\
	{ directive, 0, XSTAT_REQUEST_##NAME, NK_##base, NULL,		\
	  offsetof(struct xstat_##name, member),			\
	  sizeof(((struct xstat_##name *)0)->member) },
	XS_EXTRA_MEMBERS(XS_NAMED_ROW)
#undef XS_NAMED_ROW
	{ "why_missing", 0, XSTAT_REQUEST_WHY_MISSING, NK_WHY, NULL, 0, 0 },
};

/*
 * %{why_missing}: each requested class (3) field the result lacks, as
 * FIELD=REASON joined by ',' ("data_version=refused"), "-" when none is
 * missing, "?" without the reasons (a library too old to give them).
 */
static void out_why_missing(const struct spec *s, const struct file_result *r)
{
	const struct xstat_why_missing *w =
		extra(r, XSTAT_REQUEST_WHY_MISSING);
	char buf[HUMAN_WHY_FIELDS * 32] = "";
	const char *field;
	unsigned i = 0, code;
	size_t n = 0;

	if (!w) {
		out_string(s, "?");
		return;
	}
	while (human_why_next(w, &i, &field, &code))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s=%s",
				      n ? "," : "", field, human_why(code));
	out_string(s, n ? buf : "-");
}

/* The entry for the name from @p (after '{') to '}', or NULL. */
const struct named *find_named(const char *p, size_t *skip)
{
	const char *end = strchr(p, '}');
	size_t i;

	if (!end)
		return NULL;
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (named[i].name && strlen(named[i].name) == (size_t)(end - p) &&
		    memcmp(named[i].name, p, (size_t)(end - p)) == 0) {
			*skip = (size_t)(end - p) + 1;
			return &named[i];
		}
	}
	return NULL;
}

void out_named(const struct spec *s, const struct named *n,
		      const struct file_result *r)
{
	unsigned long long v;

	if (n->kind == NK_WHY) {
		out_why_missing(s, r);
		return;
	}
	if ((n->bit && !have(r, n->bit)) ||
	    !(n->get ? n->get(r, &v) : get_member(n, r, &v))) {
		out_string(s, "?");
		return;
	}
	if (n->kind == NK_HEX)
		out_uint_x(s, v);
	else
		out_uint(s, v);
}

unsigned long long named_need(const struct named *n)
{
	return n->need;
}
