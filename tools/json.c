// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -j/--json to the tool's output: the records (written by json-record.c,
 * which the binding shares), the time they were taken, and the lines of
 * --changes.
 */
#include <stdio.h>
#include "json.h"
#include "json-record.h"
#include "out.h"

static struct xstat_time taken;
static bool have_taken;

void json_set_taken(const struct xstat_time *t)
{
	have_taken = t != NULL;
	if (t)
		taken = *t;
}

void json_print(const struct file_result *r)
{
	json_record(out_fp(), r, have_taken ? &taken : NULL);
}

void json_change(const char *path, const char *change, const char *from,
		 const char *also)
{
	FILE *f = out_fp();

	fprintf(f, "{\"path\":");
	if (json_string(f, path)) {
		fprintf(f, ",\"path_bytes\":");
		json_hex(f, path);
	}
	fprintf(f, ",\"change\":\"%s\"", change);
	if (from) {
		fprintf(f, ",\"from\":");
		if (json_string(f, from)) {
			fprintf(f, ",\"from_bytes\":");
			json_hex(f, from);
		}
	}
	if (also)
		fprintf(f, ",\"also\":\"%s\"", also);
	fprintf(f, "}\n");
}
