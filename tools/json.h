/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * -j/--json: one JSON object per file and line, valid for every name (any
 * byte string), an error record for a file that failed.  The schema is in
 * xstat(1); JSON_SCHEMA changes when a member changes meaning or goes.
 */
#ifndef XSTAT_TOOL_JSON_H
#define XSTAT_TOOL_JSON_H

#include "json-record.h"

/* The record of @r: its fields, or {"error":...} when r->ret < 0. */
void json_print(const struct file_result *r);

/*
 * "taken": the time read before the walk (or call) that gave the records
 * began, printed in each; NULL: null.  The snapshot's racy window
 * (xstat_compare(3)) is measured from it.
 */
void json_set_taken(const struct xstat_time *t);

/* --changes: {"path":...,"change":...[,"from":...][,"also":...]} */
void json_change(const char *path, const char *change, const char *from,
		 const char *also);

#endif
