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
};

/* Exit 2 if @fmt has an invalid directive (@backslash: --printf). */
void format_check(const char *fmt, bool backslash);

/* Whether @fmt has a %N directive (then QUOTING_STYLE is read). */
bool format_has_N(const char *fmt);

/* Print @fmt for @r; false if a directive failed (message printed). */
bool format_print(const char *fmt, const struct file_result *r,
		  const struct format_opts *o);

/* The default layout: stat's, then the lines only libxstat has. */
bool layout_print(const struct file_result *r, const struct format_opts *o);

/* -t: stat's terse format, the name quoted as newer coreutils does. */
#define TERSE_FORMAT \
	"%Qn %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"

#endif
