// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The default layout, one entry a line: stat 9.1's lines (the name quoted
 * as newer coreutils does), then libxstat's; an extra result's line is
 * its layout column in fields.h.
 */
#include <stdio.h>
#include <sys/stat.h>
#include "fields.h"
#include "format.h"
#include "human.h"
#include "out.h"

struct layout_line {
	unsigned long long bit;		/* shown only if asked (0: always) */
	unsigned long long extra;	/* shown only if produced */
	const char *fmt;
};

static const struct layout_line layout[] = {
	{ 0, 0, "  File: %N\n"
		"  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n" },
	{ 0, 0, NULL },	/* the Device line: differs for devices */
	{ 0, 0, "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
		"Access: %x\nModify: %y\nChange: %z\n Birth: %w\n" },
	{ XSTAT_REQUEST_GEN, 0, "Generation: %{gen}\n" },
	{ XSTAT_REQUEST_DATA_VERSION, 0, "Data version: %{data_version}\n" },
	{ 0, 0, "Result mask: %#{result_mask}\n" },
	/*
	 * The extra results' lines (fields.h): mnt_id's ends in " (unique)"
	 * and the promises' in their names (layout_print).
	 */
#define XS_LAYOUT_ROW(NAME, name, bit, size, stx, json, layout, ...) \
	{ 0, bit, layout },
	XS_EXTRA_RESULTS(XS_LAYOUT_ROW)
#undef XS_LAYOUT_ROW
};

/* " (from ctime: every_change, metadata, ...)" after the token line. */
static void promise_tail(const struct file_result *r, unsigned long long bit)
{
	const struct xstat_change_token *tok;
	const struct xstat_dv_promise *dvp;
	char names[PROMISE_NAMES_MAX];

	if (bit == XSTAT_REQUEST_CHANGE_TOKEN) {
		tok = extra(r, bit);
		human_promise(names, sizeof(names), tok->promise, ", ");
		fprintf(out_fp(), " (from %s: %s)\n",
			human_token_source(tok->source), names);
	} else {
		dvp = extra(r, bit);
		human_promise(names, sizeof(names), dvp->promise, ", ");
		fprintf(out_fp(), " %s\n", names);
	}
}

bool layout_print(const struct file_result *r, const struct format_opts *o)
{
	struct format_opts lo = *o;
	const struct xstat_mnt_id *mnt;
	bool ok = true, device;
	size_t i;

	lo.n_style = o->q_style;
	lo.backslash = false;
	device = have(r, XSTAT_REQUEST_MODE) &&
		 (S_ISCHR(r->x->st_mode) || S_ISBLK(r->x->st_mode));
	for (i = 0; i < sizeof(layout) / sizeof(layout[0]); i++) {
		const struct layout_line *l = &layout[i];
		const char *fmt = l->fmt;

		if (l->extra && !fmt)
			continue;	/* an extra result with no line */

		/* asked for: shown, "?" if the value could not be had */
		if ((l->bit && !(o->query & l->bit) && !have(r, l->bit)) ||
		    (l->extra && !extra(r, l->extra)))
			continue;
		if (!fmt)
			fmt = device ?
			      "Device: %Hd,%Ld\tInode: %-10i  Links: %-5h"
			      " Device type: %Hr,%Lr\n" :
			      "Device: %Hd,%Ld\tInode: %-10i  Links: %h\n";
		ok &= format_print(fmt, r, &lo);
		if (l->extra == XSTAT_REQUEST_MNT_ID) {
			mnt = extra(r, XSTAT_REQUEST_MNT_ID);
			fprintf(out_fp(), mnt->unique ? " (unique)\n" : "\n");
		}
		if (l->extra & (XSTAT_REQUEST_CHANGE_TOKEN |
				XSTAT_REQUEST_DV_PROMISE))
			promise_tail(r, l->extra);
	}
	return ok;
}
