/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The JSON record of one file (json-record.c): written by the tool (-j,
 * snapshots) and by the Python binding from this one source.  The schema
 * is in xstat(1); JSON_SCHEMA changes when a member changes meaning or
 * goes.
 */
#ifndef XSTAT_TOOL_JSON_RECORD_H
#define XSTAT_TOOL_JSON_RECORD_H

#include <stdbool.h>
#include <stdio.h>
#include "result.h"

#define JSON_SCHEMA	1

/*
 * The line of @r to @f: its fields, or its error record when r->ret < 0.
 * @taken: the record's "taken" (NULL: null).
 */
void json_record(FILE *f, const struct file_result *r,
		 const struct xstat_time *taken);

/*
 * The same line into @buf, which holds JSON_RECORD_TEXT_MAX bytes (no NUL
 * is added): its length, or 0 if it is longer (a long name).
 */
#define JSON_RECORD_TEXT_MAX	4096
size_t json_record_text(char *buf, const struct file_result *r,
			const struct xstat_time *taken);

/* The line of a file @name that could not be examined: errno @err. */
void json_error_record(FILE *f, const char *name, int err);

/* @str as a JSON string; true if bytes that are not UTF-8 were replaced. */
bool json_string(FILE *f, const char *str);
/* @str's bytes in lowercase hex, as a JSON string. */
void json_hex(FILE *f, const char *str);

#endif
