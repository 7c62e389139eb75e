// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Quoting of file names, byte for byte as gnulib's quotearg (coreutils
 * 9.1) does it in the C and UTF-8 locales.  A name is cut into units (one
 * byte, or one multibyte character); each unit has a class, and the style
 * decides from the classes whether to quote and how to write each unit.
 */
#include <ctype.h>
#include <langinfo.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
#include "quote.h"

enum unit_class {
	U_PLAIN,	/* never a problem: letters, digits, printable chars */
	U_SHELL,	/* special to a shell: forces shell quoting */
	U_SQUOTE,	/* ' */
	U_BACKSLASH,
	U_QMARK,	/* a glob character, but never escaped */
	U_CESC,		/* \a \b \f \v: escaped only by backslash styles */
	U_SESC,		/* \n \r \t: also force shell quoting */
	U_NONPRINT,	/* unprintable bytes, each written as \ooo */
};

struct unit {
	size_t len;
	enum unit_class cls;
	char esc;	/* the letter of a U_CESC or U_SESC */
	bool compat;	/* also fine inside C double quotes, unescaped */
};

struct buf {
	char *p;
	size_t len, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;

		while (cap < b->len + n + 1)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p) {
			fputs("xstat: memory exhausted\n", stderr);
			exit(1);
		}
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void putc_(struct buf *b, char c)
{
	put(b, &c, 1);
}

static bool unibyte_locale(void)
{
	return MB_CUR_MAX == 1;
}

/* The unit at @s[@i] of the @n-byte name. */
static struct unit next_unit(const char *s, size_t i, size_t n)
{
	struct unit u = { 1, U_PLAIN, 0, false };
	unsigned char c = (unsigned char)s[i];

	switch (c) {
	case '?':
		u.cls = U_QMARK;
		return u;
	case '\a': u.esc = 'a'; u.cls = U_CESC; return u;
	case '\b': u.esc = 'b'; u.cls = U_CESC; return u;
	case '\f': u.esc = 'f'; u.cls = U_CESC; return u;
	case '\v': u.esc = 'v'; u.cls = U_CESC; return u;
	case '\n': u.esc = 'n'; u.cls = U_SESC; return u;
	case '\r': u.esc = 'r'; u.cls = U_SESC; return u;
	case '\t': u.esc = 't'; u.cls = U_SESC; return u;
	case '\\':
		u.cls = U_BACKSLASH;
		return u;
	case '{': case '}':
		/* special only when the whole name */
		if (n == 1) {
			u.cls = U_SHELL;
			u.compat = true;
		}
		return u;
	case '#': case '~':
		/* special only at the start of a word */
		if (i == 0) {
			u.cls = U_SHELL;
			u.compat = true;
		}
		return u;
	case ' ':
		u.cls = U_SHELL;
		u.compat = true;
		return u;
	case '!': case '"': case '$': case '&': case '(': case ')':
	case '*': case ';': case '<': case '=': case '>': case '[':
	case '^': case '`': case '|':
		u.cls = U_SHELL;
		return u;
	case '\'':
		u.cls = U_SQUOTE;
		u.compat = true;
		return u;
	}
	if (isascii(c) && (isalnum(c) || strchr("%+,-./:]_", c))) {
		u.compat = true;
		return u;
	}
	if (unibyte_locale()) {
		u.compat = isprint(c) != 0;
	} else {
		mbstate_t st;
		wchar_t w;
		size_t r;

		memset(&st, 0, sizeof(st));
		r = mbrtowc(&w, s + i, n - i, &st);
		if (r == (size_t)-1 || r == 0) {
			u.compat = false;		/* one bad byte */
		} else if (r == (size_t)-2) {
			u.len = n - i;			/* truncated: the rest */
			u.compat = false;
		} else {
			u.len = r;
			u.compat = iswprint((wint_t)w) != 0;
		}
	}
	if (!u.compat)
		u.cls = U_NONPRINT;
	return u;
}

struct shell_state {
	struct buf *b;
	bool in_dollar;		/* inside a $'...' part */
};

/* Open (or continue) a $'...' part for one escape. */
static void start_esc(struct shell_state *s)
{
	if (!s->in_dollar) {
		put(s->b, "'$'", 3);
		s->in_dollar = true;
	}
	putc_(s->b, '\\');
}

/* Back from a $'...' part to the plain single quotes. */
static void end_esc(struct shell_state *s)
{
	if (s->in_dollar) {
		put(s->b, "''", 2);
		s->in_dollar = false;
	}
}

static void put_octal(struct buf *b, unsigned char c)
{
	char o[3] = { '0' + (c >> 6), '0' + ((c >> 3) & 7), '0' + (c & 7) };

	put(b, o, 3);
}

/* Whether shell (or shell-escape, with @esc) style must add quotes. */
static bool shell_needs_quotes(const char *s, size_t n, bool esc)
{
	size_t i;

	if (n == 0)
		return true;
	for (i = 0; i < n;) {
		struct unit u = next_unit(s, i, n);

		switch (u.cls) {
		case U_SHELL: case U_SQUOTE: case U_BACKSLASH:
		case U_QMARK: case U_SESC:
			return true;
		case U_CESC: case U_NONPRINT:
			if (esc)
				return true;
			break;
		case U_PLAIN:
			break;
		}
		i += u.len;
	}
	return false;
}

static void quote_shell_always(struct buf *b, const char *s, size_t n,
			       bool esc)
{
	struct shell_state st = { b, false };
	bool squote = false, compat = true;
	size_t i, k;

	for (i = 0; i < n;) {
		struct unit u = next_unit(s, i, n);

		squote |= u.cls == U_SQUOTE;
		compat &= u.compat;
		i += u.len;
	}
	/* An apostrophe and nothing else odd: "it's" reads better. */
	if (squote && compat) {
		putc_(b, '"');
		put(b, s, n);
		putc_(b, '"');
		return;
	}
	putc_(b, '\'');
	for (i = 0; i < n; i += k) {
		struct unit u = next_unit(s, i, n);

		k = u.len;
		switch (u.cls) {
		case U_SQUOTE:
			/* closes a $'...' part as well as the plain quotes */
			put(b, "'\\''", 4);
			st.in_dollar = false;
			continue;
		case U_CESC: case U_SESC:
			if (esc) {
				start_esc(&st);
				putc_(b, u.esc);
				continue;
			}
			break;
		case U_NONPRINT:
			if (esc) {
				size_t j;

				for (j = 0; j < k; j++) {
					start_esc(&st);
					put_octal(b, (unsigned char)s[i + j]);
				}
				continue;
			}
			break;
		default:
			break;
		}
		end_esc(&st);
		put(b, s + i, k);
	}
	putc_(b, '\'');
}

/* The quotation marks of locale and clocale styles, as gnulib picks them. */
static void locale_quotes(enum quoting_style style, const char **l,
			  const char **r)
{
	const char *cs = nl_langinfo(CODESET);

	if (cs && strcmp(cs, "UTF-8") == 0) {
		*l = "\xe2\x80\x98";
		*r = "\xe2\x80\x99";
	} else if (style == QS_CLOCALE) {
		*l = *r = "\"";
	} else {
		*l = *r = "'";
	}
}

/* Whether c-maybe style must add the double quotes. */
static bool c_needs_quotes(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n;) {
		struct unit u = next_unit(s, i, n);

		if (s[i] == '"' || u.cls == U_CESC || u.cls == U_SESC ||
		    u.cls == U_NONPRINT)
			return true;
		i += u.len;
	}
	return false;
}

/* The C-like styles: backslash escapes inside @l ... @r. */
static void quote_c(struct buf *b, const char *s, size_t n, const char *l,
		    const char *r)
{
	size_t rl = strlen(r), i, k;

	put(b, l, strlen(l));
	for (i = 0; i < n; i += k) {
		struct unit u = next_unit(s, i, n);

		k = u.len;
		if (rl && i + rl <= n && memcmp(s + i, r, rl) == 0)
			putc_(b, '\\');
		switch (u.cls) {
		case U_BACKSLASH:
			put(b, "\\\\", 2);
			break;
		case U_CESC: case U_SESC:
			putc_(b, '\\');
			putc_(b, u.esc);
			break;
		case U_NONPRINT: {
			size_t j;

			for (j = 0; j < k; j++) {
				putc_(b, '\\');
				put_octal(b, (unsigned char)s[i + j]);
			}
			break;
		}
		default:
			put(b, s + i, k);
			break;
		}
	}
	put(b, r, rl);
}

static void quote_into(struct buf *b, const char *s, enum quoting_style style)
{
	size_t n = strlen(s);
	const char *l, *r;

	switch (style) {
	case QS_LITERAL:
		put(b, s, n);
		return;
	case QS_SHELL:
	case QS_SHELL_ESCAPE:
		if (!shell_needs_quotes(s, n, style == QS_SHELL_ESCAPE)) {
			put(b, s, n);
			return;
		}
		quote_shell_always(b, s, n, style == QS_SHELL_ESCAPE);
		return;
	case QS_SHELL_ALWAYS:
	case QS_SHELL_ESCAPE_ALWAYS:
		quote_shell_always(b, s, n, style == QS_SHELL_ESCAPE_ALWAYS);
		return;
	case QS_C_MAYBE:
		if (!c_needs_quotes(s, n)) {
			put(b, s, n);
			return;
		}
		/* fall through */
	case QS_C:
		quote_c(b, s, n, "\"", "\"");
		return;
	case QS_ESCAPE:
		quote_c(b, s, n, "", "");
		return;
	case QS_LOCALE:
	case QS_CLOCALE:
		locale_quotes(style, &l, &r);
		quote_c(b, s, n, l, r);
		return;
	}
}

/* per thread: the walk's workers quote names at the same time */
static __thread struct buf slots[4], printable_slots[4];

void quote_release(void)
{
	int i;

	for (i = 0; i < 4; i++) {
		free(slots[i].p);
		free(printable_slots[i].p);
		slots[i] = printable_slots[i] = (struct buf){ 0 };
	}
}

const char *quote_n(int slot, const char *s, enum quoting_style style)
{
	struct buf *b = &slots[slot & 3];

	b->len = 0;
	put(b, "", 0);
	quote_into(b, s, style);
	return b->p;
}

int quote_has_nonprint(const char *s)
{
	size_t n = strlen(s), i;

	for (i = 0; i < n;) {
		struct unit u = next_unit(s, i, n);

		if (u.cls == U_CESC || u.cls == U_SESC || u.cls == U_NONPRINT)
			return 1;
		i += u.len;
	}
	return 0;
}

const char *quote_printable(int slot, const char *s)
{
	struct buf *b = &printable_slots[slot & 3];
	size_t n = strlen(s), i, j;

	b->len = 0;
	put(b, "", 0);
	for (i = 0; i < n; i += j) {
		struct unit u = next_unit(s, i, n);

		if (u.cls != U_CESC && u.cls != U_SESC &&
		    u.cls != U_NONPRINT) {
			put(b, s + i, u.len);
			j = u.len;
			continue;
		}
		for (j = 0; j < u.len; j++) {
			putc_(b, '\\');
			put_octal(b, (unsigned char)s[i + j]);
		}
	}
	return b->p;
}

static const char *const style_names[] = {
	[QS_LITERAL] = "literal",
	[QS_SHELL] = "shell",
	[QS_SHELL_ALWAYS] = "shell-always",
	[QS_SHELL_ESCAPE] = "shell-escape",
	[QS_SHELL_ESCAPE_ALWAYS] = "shell-escape-always",
	[QS_C] = "c",
	[QS_C_MAYBE] = "c-maybe",
	[QS_ESCAPE] = "escape",
	[QS_LOCALE] = "locale",
	[QS_CLOCALE] = "clocale",
};

int quoting_style_from_name(const char *name)
{
	size_t n = strlen(name), i;
	int found = -1;

	for (i = 0; i < sizeof(style_names) / sizeof(style_names[0]); i++) {
		if (strcmp(name, style_names[i]) == 0)
			return (int)i;
		if (strncmp(name, style_names[i], n) == 0) {
			if (found >= 0)
				return -1;	/* ambiguous prefix */
			found = (int)i;
		}
	}
	return n ? found : -1;
}
