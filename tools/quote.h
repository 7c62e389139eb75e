/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * File name quoting the way coreutils 9.1 quotes it, so that xstat's
 * output and messages read like stat's and ls's, and no control byte of a
 * name ever reaches a terminal raw.
 */
#ifndef XSTAT_TOOL_QUOTE_H
#define XSTAT_TOOL_QUOTE_H

#include <stddef.h>

/* The values of QUOTING_STYLE, as ls(1) and stat(1) accept them. */
enum quoting_style {
	QS_LITERAL,
	QS_SHELL,
	QS_SHELL_ALWAYS,
	QS_SHELL_ESCAPE,
	QS_SHELL_ESCAPE_ALWAYS,
	QS_C,
	QS_C_MAYBE,
	QS_ESCAPE,
	QS_LOCALE,
	QS_CLOCALE,
};

/* Style named @name (exact or unambiguous prefix, as argmatch), or -1. */
int quoting_style_from_name(const char *name);

/*
 * @s quoted in @style, in a buffer owned by slot @slot (0..3) that the next
 * call with the same slot in the same thread reuses.  Aborts the program
 * on memory exhaustion, like coreutils' xalloc, since no output would
 * make sense then.
 */
const char *quote_n(int slot, const char *s, enum quoting_style style);

/* Free the calling thread's slots (a walk's worker, as it ends). */
void quote_release(void);

/* Messages: always quoted, like coreutils' quoteaf(). */
#define quoteaf(s)	quote_n(0, (s), QS_SHELL_ESCAPE_ALWAYS)

/*
 * @s with each control or unprintable character written as \ooo (one
 * escape a byte) and nothing else changed: for messages that echo text
 * which was not quoted, such as getopt's.
 */
const char *quote_printable(int slot, const char *s);

/* @s has a control or unprintable character in the current locale. */
int quote_has_nonprint(const char *s);

#endif
