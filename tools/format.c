// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The format engine.  A directive is '%', printf flags, width, precision
 * and a conversion, as in stat(1): this file reads a format, prints its
 * text and escapes, and hands each directive to its conversion (conv.h).
 * The same walk, without a file, checks a format and says which request
 * bits it needs.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "conv.h"
#include "out.h"

/* What walk() does with a format. */
struct walk_job {
	const struct file_result *r;	/* print for this file, */
	const struct fs_result *fs;	/* or this file system, */
	unsigned long long need;	/* or collect the request bits */
};

static int octal(char c)
{
	return c >= '0' && c <= '7';
}

static int hexval(char c)
{
	return isdigit((unsigned char)c) ? c - '0' :
	       tolower((unsigned char)c) - 'a' + 10;
}

/*
 * A --printf backslash escape at @p (after '\'), printed if @print;
 * returns the characters it takes.
 */
static size_t out_escape(const char *p, bool print)
{
	static const char from[] = "abefnrtv\"\\",
			  to[] = "\a\b\x1b\f\n\r\t\v\"\\";
	const char *e;
	int v, n;

	if (octal(*p)) {
		for (v = 0, n = 0; n < 3 && octal(p[n]); n++)
			v = v * 8 + p[n] - '0';
		if (print)
			putc(v, out_fp());
		return (size_t)n;
	}
	if (*p == 'x' && isxdigit((unsigned char)p[1])) {
		v = hexval(p[1]);
		n = 2;
		if (isxdigit((unsigned char)p[2]))
			v = v * 16 + hexval(p[n++]);
		if (print)
			putc(v, out_fp());
		return (size_t)n;
	}
	if (!print)
		return *p != '\0';
	if (*p == '\0') {
		warn_msg(0, "warning: backslash at end of format");
		putc('\\', out_fp());
		return 0;
	}
	e = strchr(from, *p);
	if (e) {
		putc(to[e - from], out_fp());
	} else {
		char c[2] = { *p, '\0' };

		/* stat echoes the byte raw: a format can carry ESC too */
		warn_msg(0, "warning: unrecognized escape '\\%s'",
			 quote_printable(0, c));
		putc(*p, out_fp());
	}
	return 1;
}

/*
 * Walk @fmt: print it for @j->r or @j->fs, or with neither only check it
 * (exit 2 on an invalid directive) and collect the bits it needs.
 */
static bool walk(const char *fmt, struct walk_job *j,
		 const struct format_opts *o)
{
	const struct file_result *r = j->r;
	bool print = j->r || j->fs, ok = true;
	const char *b;

	for (b = fmt; *b; b++) {
		struct spec s;
		size_t len, skip;
		const struct named *n;
		char c, mod = 0;

		if (*b == '\\' && o->backslash) {
			b += out_escape(b + 1, print);
			continue;
		}
		if (*b != '%') {
			/* a run of plain text at once */
			len = strcspn(b, o->backslash ? "%\\" : "%");
			if (print)
				fwrite_unlocked(b, 1, len, out_fp());
			b += len - 1;
			continue;
		}
		len = directive_len(b);
		c = b[len];
		if (len + 2 > sizeof(s.fmt))
			usage_error("%s: directive too long",
				    quote_n(0, b, QS_LOCALE));
		memcpy(s.fmt, b, len);
		s.fmt[len] = '\0';
		s.len = len;
		b += len;
		switch (c) {
		case '\0':
			b--;
			/* fall through */
		case '%':
			if (len > 1) {
				s.fmt[len] = c;
				s.fmt[len + 1] = '\0';
				usage_error("%s: invalid directive",
					    quote_n(0, s.fmt, QS_LOCALE));
			}
			if (print)
				putc_unlocked('%', out_fp());
			continue;
		}
		if (o->fs) {
			/* stat -f: no names, no modifiers */
			if (j->fs)
				fs_conv(&s, c, j->fs);
			continue;
		}
		switch (c) {
		case '{':
			n = find_named(b + 1, &skip);
			if (!n) {
				s.fmt[len] = '\0';
				usage_error("%s: unknown field name",
					    quote_n(0, b, QS_LOCALE));
			}
			b += skip;
			j->need |= named_need(n);
			if (r)
				out_named(&s, n, r);
			continue;
		case 'H': case 'L': case 'Q':
			if ((c != 'Q' && (b[1] == 'd' || b[1] == 'r')) ||
			    (c == 'Q' && b[1] == 'n')) {
				mod = c;
				c = *++b;
			}
			break;
		}
		j->need |= file_conv_need(c);
		if (r)
			ok &= file_conv(&s, mod, c, r, o);
	}
	return ok;
}

unsigned long long format_check(const char *fmt, const struct format_opts *o)
{
	struct walk_job j = { NULL, NULL, 0 };

	walk(fmt, &j, o);
	return j.need;
}

bool format_has_N(const char *fmt)
{
	const char *b;

	for (b = fmt; (b = strchr(b, '%')); ) {
		size_t len = directive_len(b);

		if (b[len] == 'N')
			return true;
		b += len + (b[len] != '\0');
	}
	return false;
}

bool format_print(const char *fmt, const struct file_result *r,
		  const struct format_opts *o)
{
	struct walk_job j = { r, NULL, 0 };

	return walk(fmt, &j, o);
}

void format_print_fs(const char *fmt, const struct fs_result *fs,
		     const struct format_opts *o)
{
	struct walk_job j = { NULL, fs, 0 };

	walk(fmt, &j, o);
}
