// SPDX-License-Identifier: LGPL-2.1-or-later
/* The printers of one directive's value, with stat's rules for flags. */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "out.h"
#include "spec.h"

/* Offset of the conversion character of the directive at @d ('%'). */
size_t directive_len(const char *d)
{
	size_t n = 1 + strspn(d + 1, SPEC_FLAGS);

	n += strspn(d + n, "0123456789");
	if (d[n] == '.')
		n += 1 + strspn(d + n + 1, "0123456789");
	return n;
}

/*
 * Keep only @allowed of the flags, then append @suffix, like stat's
 * make_format().  Returns the printf format in @s->fmt.
 */
static const char *make_format(struct spec *s, size_t len,
			       const char *allowed, const char *suffix)
{
	char *dst = s->fmt + 1;
	const char *src = dst, *end = s->fmt + len;

	while (src < end && strchr(SPEC_FLAGS, *src)) {
		if (strchr(allowed, *src))
			*dst++ = *src;
		src++;
	}
	memmove(dst, src, (size_t)(end - src));
	dst += end - src;
	strcpy(dst, suffix);
	return s->fmt;
}

/* Copy of the prefix, so that each out_*() may edit its own. */
static struct spec *spec_copy(struct spec *dst, const struct spec *src)
{
	*dst = *src;
	return dst;
}

/*
 * The common directives ("%s", "%-10s", "%05i": flags '-' and '0', a
 * width, no precision) are written here; printf() does the rest.  A walk
 * prints a few dozen of them per entry, and printf's parsing of a format
 * made anew each time was most of the tool's own time (bench/RESULTS.md).
 */
struct simple {
	size_t width;
	size_t precision;	/* strings only: the most bytes printed */
	bool left, zero, alt;	/* '-', '0', '#' */
	bool has_precision;
};

/*
 * Whether the first @len bytes of @s are a simple directive once the flags
 * not in @allowed are dropped (as make_format() drops them); a flag of
 * @hard (grouping, sign, alternate form) is left to printf.
 */
static bool simple_spec(const struct spec *s, size_t len, const char *allowed,
			const char *hard, struct simple *o)
{
	size_t i;

	*o = (struct simple){ 0 };
	for (i = 1; i < len && strchr(SPEC_FLAGS, s->fmt[i]); i++) {
		char c = s->fmt[i];

		if (!strchr(allowed, c))
			continue;
		if (strchr(hard, c))
			return false;
		if (c == '-')
			o->left = true;
		else if (c == '0')
			o->zero = true;
		else if (c == '#')
			o->alt = true;
	}
	for (; i < len && isdigit((unsigned char)s->fmt[i]); i++) {
		o->width = o->width * 10 + (size_t)(s->fmt[i] - '0');
		if (o->width > 4096)
			return false;
	}
	if (i < len && s->fmt[i] == '.') {
		o->has_precision = true;
		for (i++; i < len && isdigit((unsigned char)s->fmt[i]); i++) {
			o->precision = o->precision * 10 +
				       (size_t)(s->fmt[i] - '0');
			if (o->precision > 4096)
				return false;
		}
	}
	return i == len;
}

/* @n bytes of @str (a sign first, for @numeric ones) padded to the width. */
static int put_padded(const struct simple *o, const char *str, size_t n,
		      bool numeric)
{
	FILE *f = out_fp();
	size_t pad = o->width > n ? o->width - n : 0, i;
	int total = (int)(n + pad);

	if (o->left) {
		fwrite_unlocked(str, 1, n, f);
		for (i = 0; i < pad; i++)
			putc_unlocked(' ', f);
	} else if (o->zero && numeric) {
		if (*str == '-') {
			putc_unlocked('-', f);
			str++;
			n--;
		}
		for (i = 0; i < pad; i++)
			putc_unlocked('0', f);
		fwrite_unlocked(str, 1, n, f);
	} else {
		for (i = 0; i < pad; i++)
			putc_unlocked(' ', f);
		fwrite_unlocked(str, 1, n, f);
	}
	return total;
}

/* @v in @base into the end of @buf; returns where it starts. */
static char *digits(char *end, uintmax_t v, unsigned base)
{
	char *p = end;

	do
		*--p = "0123456789abcdef"[v % base];
	while (v /= base);
	return p;
}

int out_string(const struct spec *s, const char *arg)
{
	struct spec t;
	struct simple o;

	if (simple_spec(s, s->len, "-", "", &o)) {
		size_t n = strlen(arg);

		if (o.has_precision && o.precision < n)
			n = o.precision;
		return put_padded(&o, arg, n, false);
	}
	return fprintf(out_fp(), make_format(spec_copy(&t, s), s->len, "-",
					     "s"), arg);
}

static int out_int_len(const struct spec *s, size_t len, intmax_t arg)
{
	char buf[32], *p;
	struct spec t;
	struct simple o;

	if (simple_spec(s, len, "'-+ 0", "'+ ", &o) && !o.has_precision) {
		p = digits(buf + sizeof(buf), arg < 0 ? -(uintmax_t)arg :
						       (uintmax_t)arg, 10);
		if (arg < 0)
			*--p = '-';
		return put_padded(&o, p, (size_t)(buf + sizeof(buf) - p),
				  true);
	}
	return fprintf(out_fp(), make_format(spec_copy(&t, s), len, "'-+ 0",
					     PRIdMAX), arg);
}

void out_int(const struct spec *s, intmax_t arg)
{
	out_int_len(s, s->len, arg);
}

/*
 * stat passes %C's flags to printf, where of the flags only '-' changes
 * a string; 'I' (glibc's locale digits) is no flag in other C libraries'
 * printf (musl's prints nothing), so it is dropped: glibc ignores it here.
 */
void out_string_all_flags(const struct spec *s, const char *arg)
{
	struct spec t;

	fprintf(out_fp(), make_format(spec_copy(&t, s), s->len, "'-+ #0",
				      "s"), arg);
}

/* @arg in @base, or printf with @conv when the directive is not simple. */
static void out_unsigned(const struct spec *s, uintmax_t arg,
			 const char *allowed, const char *hard, unsigned base,
			 const char *conv)
{
	char buf[32], *p;
	struct spec t;
	struct simple o;

	if (simple_spec(s, s->len, allowed, hard, &o) && !o.has_precision &&
	    !(o.alt && o.zero)) {
		p = digits(buf + sizeof(buf), arg, base);
		/* '#': 0x before a hexadecimal, a leading 0 for an octal */
		if (o.alt && base == 16 && arg)
			p = memcpy(p - 2, "0x", 2);
		else if (o.alt && base == 8 && *p != '0')
			*--p = '0';
		put_padded(&o, p, (size_t)(buf + sizeof(buf) - p), true);
		return;
	}
	fprintf(out_fp(), make_format(spec_copy(&t, s), s->len, allowed, conv),
		arg);
}

void out_uint(const struct spec *s, uintmax_t arg)
{
	out_unsigned(s, arg, "'-0", "'", 10, PRIuMAX);
}

void out_uint_o(const struct spec *s, uintmax_t arg)
{
	out_unsigned(s, arg, "-#0", "", 8, PRIoMAX);
}

void out_uint_x(const struct spec *s, uintmax_t arg)
{
	out_unsigned(s, arg, "-#0", "", 16, PRIxMAX);
}

static const char *decimal_point(void)
{
	const char *dp = localeconv()->decimal_point;

	return dp && *dp ? dp : ".";
}

/*
 * Seconds since the Epoch as printf's %f would print them, with stat's
 * rules: the precision (default 9 with a bare '.') gives the digits of the
 * fraction, the width covers the whole number, and a negative time with a
 * fraction counts down from the next second, as a real number would.
 */
void out_epoch_sec(const struct spec *in, const struct xstat_time *t)
{
	struct spec s = *in;
	char *dot = memchr(s.fmt, '.', s.len);
	size_t sec_len = s.len;
	int width = 0, precision = 0, dp_len, divisor = 1, frac, int_len, i;
	bool frac_left = false, minus_zero = false;
	long long sec = t->tv_sec;
	const char *dp = decimal_point();

	dp_len = (int)strlen(dp);
	s.fmt[s.len] = '\0';
	if (dot) {
		sec_len = (size_t)(dot - s.fmt);
		if (isdigit((unsigned char)dot[1])) {
			long l = strtol(dot + 1, NULL, 10);

			precision = l <= INT_MAX ? (int)l : INT_MAX;
		} else {
			precision = 9;
		}
		if (precision && isdigit((unsigned char)dot[-1])) {
			char *p = dot;
			long l;

			*dot = '\0';
			do
				--p;
			while (isdigit((unsigned char)p[-1]));
			l = strtol(p, NULL, 10);
			width = l <= INT_MAX ? (int)l : INT_MAX;
			if (width > 1) {
				int w_d = dp_len < width ? width - dp_len : 0;

				p += *p == '0';
				sec_len = (size_t)(p - s.fmt);
				if (w_d > 1 && w_d - precision > 1) {
					char *dst = s.fmt, *src;

					for (src = dst; src < p; src++) {
						if (*src == '-')
							frac_left = true;
						else
							*dst++ = *src;
					}
					sec_len = (size_t)(dst - s.fmt);
					if (!frac_left)
						sec_len += (size_t)sprintf(dst,
							"%d", w_d - precision);
				}
			}
		}
	}
	for (i = precision; i < 9; i++)
		divisor *= 10;
	frac = (int)(t->tv_nsec / (unsigned)divisor);
	if (sec < 0 && t->tv_nsec != 0) {
		frac = 1000000000 / divisor - frac -
		       (t->tv_nsec % (unsigned)divisor != 0);
		sec += frac != 0;
		minus_zero = sec == 0;
	}
	if (minus_zero) {
		struct spec z = s;

		int_len = fprintf(out_fp(),
				  make_format(&z, sec_len, "'-+ 0", ".0f"),
				  -0.25);
	} else {
		int_len = out_int_len(&s, sec_len, sec);
	}
	if (precision) {
		int prec = precision < 9 ? precision : 9;
		int trailing_prec = precision - prec;
		int ilen = int_len < 0 ? 0 : int_len;
		int trailing_width = ilen < width && dp_len < width - ilen ?
				     width - ilen - dp_len - prec : 0;

		fprintf(out_fp(), "%s%.*d%-*.*d", dp, prec, frac,
			trailing_width, trailing_prec, 0);
	}
}

