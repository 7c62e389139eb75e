/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Human-readable forms of times, modes and file types, as stat(1) prints. */
#ifndef XSTAT_TOOL_HUMAN_H
#define XSTAT_TOOL_HUMAN_H

#include <stddef.h>
#include "xstat.h"

/* Room for any human_time() or seconds.nanoseconds result. */
#define HUMAN_TIME_MAX	64

/*
 * "YYYY-MM-DD HH:MM:SS.NNNNNNNNN +ZZZZ" in local time, the year as wide as
 * it needs (never wrapped); "SECONDS.NNNNNNNNN" if the time cannot be
 * broken down (out of range of time_t or of struct tm).
 */
void human_time(char *buf, const struct xstat_time *t);

/* "SECONDS.NNNNNNNNN", signed, the form used when a date cannot be made. */
void seconds_time(char *buf, const struct xstat_time *t);

/* "-rwxr-xr-x": 10 characters and a NUL. */
void human_mode(char buf[11], unsigned mode);

/* "regular file", "directory"... as gnulib's file_type(). */
const char *human_type(unsigned mode, unsigned long long size, int size_known);

/*
 * The names of the XSTAT_PROMISE_* flags set in @promise, lowest bit
 * first, joined by @sep ("every_change, metadata, ..."), into @buf;
 * unknown bits as a hex number.  PROMISE_NAMES_MAX holds any of them.
 */
#define PROMISE_NAMES_MAX	256
void human_promise(char *buf, size_t len, unsigned long long promise,
		   const char *sep);

/* "data_version", "ctime" or "unknown" for an XSTAT_TOKEN_FROM_* value. */
const char *human_token_source(unsigned int source);

/*
 * XSTAT_REQUEST_WHY_MISSING in words, one spelling for %{why_missing}
 * and JSON's "why_missing" (xstat(1)): human_why_next() steps *@i (from
 * 0) through the class (3) fields of HUMAN_WHY_FIELDS to the next one
 * @w gives a reason for (neither present nor not requested), puts its
 * %{name} ("btime", "gen", "data_version") in *@field and its code in
 * *@code, and returns 0 past the last; human_why(): the code's name,
 * the XSTAT_WHY_* suffix in lower case ("no_source", "refused"...), a
 * code this xstat does not know as "unknown".
 */
#define HUMAN_WHY_FIELDS	3
int human_why_next(const struct xstat_why_missing *w, unsigned int *i,
		   const char **field, unsigned int *code);
const char *human_why(unsigned int code);

#endif
