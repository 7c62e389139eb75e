/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * -c/--format, --printf and the layouts built from them: coreutils stat's
 * directives with the same meaning and output, plus %{name} directives for
 * what only libxstat returns.
 */
#ifndef XSTAT_TOOL_FORMAT_H
#define XSTAT_TOOL_FORMAT_H

#include <stdbool.h>
#include "quote.h"
#include "result.h"

struct format_opts {
	enum quoting_style n_style;	/* %N (stat 9.1: shell-escape-always) */
	enum quoting_style q_style;	/* %Qn and the layouts' File: line */
	bool backslash;			/* --printf: interpret \ escapes */
	bool fs;			/* -f: stat -f's directives */
	unsigned long long query;	/* what was asked for (the layout) */
};

/*
 * Exit 2 if @fmt has an invalid directive; else the request bits its
 * directives need, each of them and no other.
 */
unsigned long long format_check(const char *fmt, const struct format_opts *o);

/* Whether @fmt has a %N directive (then QUOTING_STYLE is read). */
bool format_has_N(const char *fmt);

/* Print @fmt for @r; false if a directive failed (message printed). */
bool format_print(const char *fmt, const struct file_result *r,
		  const struct format_opts *o);

/* Print @fmt for the file system @fs (-f). */
struct fs_result;
void format_print_fs(const char *fmt, const struct fs_result *fs,
		     const struct format_opts *o);

/*
 * The default layout: stat's, then the lines only libxstat has; the
 * Generation and Data version lines when @o->query asked for them.
 */
bool layout_print(const struct file_result *r, const struct format_opts *o);

/* What the default layout asks for: stat's fields and the birth time. */
#define LAYOUT_QUERY	(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME)

/* -t: stat's terse format, the name quoted as newer coreutils does. */
#define TERSE_FORMAT \
	"%Qn %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"

#endif
