// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * %{name}: the fields only libxstat returns, found by name; each names
 * the request bit it needs, so that a format asks for what it prints.
 */
#include <stdio.h>
#include <string.h>
#include "conv.h"
#include "human.h"

enum named_kind { NK_DEC, NK_HEX, NK_WHY };

struct named {
	const char *name;
	unsigned long long bit;		/* 0: always there */
	unsigned long long need;	/* the request bit (0: none) */
	enum named_kind kind;
	/* false if absent (an extra result that was not produced) */
	bool (*get)(const struct file_result *r, unsigned long long *v);
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

#define EXTRA_GETTER(fn, type, bit, expr)				\
static bool fn(const struct file_result *r, unsigned long long *v)	\
{									\
	const type *e = extra(r, bit);					\
									\
	if (!e)								\
		return false;						\
	*v = (expr);							\
	return true;							\
}

EXTRA_GETTER(get_mnt_id, struct xstat_mnt_id, XSTAT_REQUEST_MNT_ID,
	     e->mnt_id)
EXTRA_GETTER(get_mnt_unique, struct xstat_mnt_id, XSTAT_REQUEST_MNT_ID,
	     e->unique)
EXTRA_GETTER(get_mnt_reusable, struct xstat_mnt_id_reusable,
	     XSTAT_REQUEST_MNT_ID_REUSABLE, e->mnt_id)
EXTRA_GETTER(get_attr, struct xstat_attributes, XSTAT_REQUEST_ATTRIBUTES,
	     e->attributes)
EXTRA_GETTER(get_attr_mask, struct xstat_attributes,
	     XSTAT_REQUEST_ATTRIBUTES, e->attributes_mask)
EXTRA_GETTER(get_dio_mem, struct xstat_dioalign, XSTAT_REQUEST_DIOALIGN,
	     e->mem_align)
EXTRA_GETTER(get_dio_offset, struct xstat_dioalign, XSTAT_REQUEST_DIOALIGN,
	     e->offset_align)
EXTRA_GETTER(get_subvol, struct xstat_subvol, XSTAT_REQUEST_SUBVOL,
	     e->subvol)
EXTRA_GETTER(get_wa_min, struct xstat_write_atomic,
	     XSTAT_REQUEST_WRITE_ATOMIC, e->unit_min)
EXTRA_GETTER(get_wa_max, struct xstat_write_atomic,
	     XSTAT_REQUEST_WRITE_ATOMIC, e->unit_max)
EXTRA_GETTER(get_wa_max_opt, struct xstat_write_atomic,
	     XSTAT_REQUEST_WRITE_ATOMIC, e->unit_max_opt)
EXTRA_GETTER(get_wa_segs, struct xstat_write_atomic,
	     XSTAT_REQUEST_WRITE_ATOMIC, e->segments_max)
EXTRA_GETTER(get_dio_read, struct xstat_dio_read_align,
	     XSTAT_REQUEST_DIO_READ_ALIGN, e->offset_align)
EXTRA_GETTER(get_token, struct xstat_change_token,
	     XSTAT_REQUEST_CHANGE_TOKEN, e->token)
EXTRA_GETTER(get_token_promise, struct xstat_change_token,
	     XSTAT_REQUEST_CHANGE_TOKEN, e->promise)
EXTRA_GETTER(get_token_source, struct xstat_change_token,
	     XSTAT_REQUEST_CHANGE_TOKEN, e->source)
EXTRA_GETTER(get_dv_promise, struct xstat_dv_promise,
	     XSTAT_REQUEST_DV_PROMISE, e->promise)

static const struct named named[] = {
	{ "gen", XSTAT_REQUEST_GEN, XSTAT_REQUEST_GEN, NK_DEC, get_gen },
	{ "data_version", XSTAT_REQUEST_DATA_VERSION,
	  XSTAT_REQUEST_DATA_VERSION, NK_DEC, get_dv },
	{ "result_mask", 0, 0, NK_HEX, get_mask },
	{ "size_needed", 0, 0, NK_DEC, get_size_needed },
	{ "mnt_id", 0, XSTAT_REQUEST_MNT_ID, NK_DEC, get_mnt_id },
	{ "mnt_id_unique", 0, XSTAT_REQUEST_MNT_ID, NK_DEC, get_mnt_unique },
	{ "mnt_id_reusable", 0, XSTAT_REQUEST_MNT_ID_REUSABLE, NK_DEC,
	  get_mnt_reusable },
	{ "attributes", 0, XSTAT_REQUEST_ATTRIBUTES, NK_HEX, get_attr },
	{ "attributes_mask", 0, XSTAT_REQUEST_ATTRIBUTES,
	  NK_HEX, get_attr_mask },
	{ "dio_mem_align", 0, XSTAT_REQUEST_DIOALIGN, NK_DEC, get_dio_mem },
	{ "dio_offset_align", 0, XSTAT_REQUEST_DIOALIGN,
	  NK_DEC, get_dio_offset },
	{ "subvol", 0, XSTAT_REQUEST_SUBVOL, NK_DEC, get_subvol },
	{ "atomic_unit_min", 0, XSTAT_REQUEST_WRITE_ATOMIC,
	  NK_DEC, get_wa_min },
	{ "atomic_unit_max", 0, XSTAT_REQUEST_WRITE_ATOMIC,
	  NK_DEC, get_wa_max },
	{ "atomic_unit_max_opt", 0,
	  XSTAT_REQUEST_WRITE_ATOMIC, NK_DEC, get_wa_max_opt },
	{ "atomic_segments_max", 0,
	  XSTAT_REQUEST_WRITE_ATOMIC, NK_DEC, get_wa_segs },
	{ "dio_read_offset_align", 0,
	  XSTAT_REQUEST_DIO_READ_ALIGN, NK_DEC, get_dio_read },
	{ "change_token", 0, XSTAT_REQUEST_CHANGE_TOKEN, NK_HEX, get_token },
	{ "token_promise", 0, XSTAT_REQUEST_CHANGE_TOKEN,
	  NK_HEX, get_token_promise },
	{ "token_source", 0, XSTAT_REQUEST_CHANGE_TOKEN,
	  NK_DEC, get_token_source },
	{ "dv_promise", 0, XSTAT_REQUEST_DV_PROMISE, NK_HEX, get_dv_promise },
	{ "why_missing", 0, XSTAT_REQUEST_WHY_MISSING, NK_WHY, NULL },
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
	unsigned i, code;
	size_t n = 0;

	if (!w) {
		out_string(s, "?");
		return;
	}
	for (i = 0; i < HUMAN_WHY_FIELDS; i++) {
		code = human_why_field(w, i, &field);
		if (code == XSTAT_WHY_PRESENT ||
		    code == XSTAT_WHY_NOT_REQUESTED)
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s=%s",
				      n ? "," : "", field, human_why(code));
	}
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
		if (strlen(named[i].name) == (size_t)(end - p) &&
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
	if ((n->bit && !have(r, n->bit)) || !n->get(r, &v)) {
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
