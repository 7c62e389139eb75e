// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The format engine.  A directive is '%', printf flags, width, precision
 * and a conversion, as in stat(1); each conversion keeps only the flags
 * stat keeps for it, so that "xstat -c" and "stat -c" print the same bytes.
 * A field whose result-mask bit is clear prints "?" (birth time: "-" and 0,
 * as stat prints an unknown birth time).
 */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include "format.h"
#include "human.h"
#include "out.h"

static const char printf_flags[] = "'-+ #0I";

/* A directive's prefix ('%' flags width precision), with room to edit. */
struct spec {
	char fmt[64];
	size_t len;
};

/* Offset of the conversion character of the directive at @d ('%'). */
static size_t directive_len(const char *d)
{
	size_t n = 1 + strspn(d + 1, printf_flags);

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

	while (src < end && strchr(printf_flags, *src)) {
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

static int out_string(const struct spec *s, const char *arg)
{
	struct spec t;

	return printf(make_format(spec_copy(&t, s), s->len, "-", "s"), arg);
}

static int out_int_len(const struct spec *s, size_t len, intmax_t arg)
{
	struct spec t;

	return printf(make_format(spec_copy(&t, s), len, "'-+ 0", PRIdMAX),
		      arg);
}

static void out_uint(const struct spec *s, uintmax_t arg)
{
	struct spec t;

	printf(make_format(spec_copy(&t, s), s->len, "'-0", PRIuMAX), arg);
}

static void out_uint_o(const struct spec *s, uintmax_t arg)
{
	struct spec t;

	printf(make_format(spec_copy(&t, s), s->len, "-#0", PRIoMAX), arg);
}

static void out_uint_x(const struct spec *s, uintmax_t arg)
{
	struct spec t;

	printf(make_format(spec_copy(&t, s), s->len, "-#0", PRIxMAX), arg);
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
static void out_epoch_sec(const struct spec *in, const struct xstat_time *t)
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

		int_len = printf(make_format(&z, sec_len, "'-+ 0", ".0f"),
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

		printf("%s%.*d%-*.*d", dp, prec, frac, trailing_width,
		       trailing_prec, 0);
	}
}

static void out_human_time(const struct spec *s, const struct xstat_time *t)
{
	char buf[HUMAN_TIME_MAX];

	human_time(buf, t);
	out_string(s, buf);
}

static unsigned long long dev_of(const struct xstat_dev *d)
{
	return makedev(d->major, d->minor);
}

/* %N: the quoted name, and for a symlink " -> " and its quoted target. */
static bool out_quoted_name(const struct spec *s, const struct file_result *r,
			    enum quoting_style style)
{
	char *target;
	ssize_t n;
	size_t size;

	out_string(s, quote_n(1, r->name, style));
	if (!r->path || !have(r, XSTAT_REQUEST_MODE) ||
	    !S_ISLNK(r->x->st_mode))
		return true;
	size = have(r, XSTAT_REQUEST_SIZE) ? r->x->st_size + 1 : 256;
	for (;;) {
		target = malloc(size);
		if (!target) {
			warn_msg(ENOMEM, "cannot read symbolic link %s",
				 quoteaf(r->name));
			return false;
		}
		n = readlinkat(r->dfd, r->path, target, size);
		if (n < 0 || (size_t)n < size)
			break;
		free(target);
		size *= 2;
	}
	if (n < 0) {
		warn_msg(errno, "cannot read symbolic link %s",
			 quoteaf(r->name));
		free(target);
		return false;
	}
	target[n] = '\0';
	printf(" -> ");
	out_string(s, quote_n(1, target, style));
	free(target);
	return true;
}

/* Device and inode of @path, by xstat() like everything else here. */
static bool dev_ino(const char *path, struct xstat_dev *dev,
		    unsigned long long *ino)
{
	struct xstat_parameters p = { XSTAT_REQUEST_INO };
	struct xstat x;

	if (xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x)) < 0)
		return false;
	*dev = x.st_dev;
	*ino = x.st_ino;
	return true;
}

/*
 * %m: climb from the file's directory until ".." is on another device or
 * is the same directory (the root).  Unlike stat, bind mounts of single
 * files are not looked up in the mount table.
 */
static bool out_mount_point(const struct spec *s, const struct file_result *r)
{
	struct xstat_dev dev, pdev;
	unsigned long long ino, pino;
	char *path, *real = NULL;
	size_t n;

	if (!r->path) {
		/* a descriptor has no name to climb from: say so, as stat
		   fails (with a message) to find the mount point of "-" */
		warn_msg(0, "cannot find the mount point of standard input");
		out_string(s, "?");
		return false;
	}
	n = strlen(r->path);
	path = malloc(n + 4096);
	if (!path)
		goto fail;
	strcpy(path, r->path);
	if (!have(r, XSTAT_REQUEST_MODE) || !S_ISDIR(r->x->st_mode)) {
		char *slash = strrchr(path, '/');

		if (!slash)
			strcpy(path, ".");
		else if (slash == path)
			path[1] = '\0';
		else
			*slash = '\0';
	}
	if (!dev_ino(path, &dev, &ino))
		goto fail;
	while (strlen(path) + 4 < n + 4096) {
		strcat(path, "/..");
		if (!dev_ino(path, &pdev, &pino))
			goto fail;
		if (pdev.major != dev.major || pdev.minor != dev.minor ||
		    pino == ino) {
			path[strlen(path) - 3] = '\0';
			break;
		}
		ino = pino;
	}
	real = realpath(path, NULL);
	if (!real)
		goto fail;
	out_string(s, real);
	free(real);
	free(path);
	return true;
fail:
	warn_msg(errno, "cannot find the mount point of %s",
		 quoteaf(r->name));
	free(path);
	out_string(s, "?");
	return false;
}

/* %C: the SELinux context, or "?" and an error as stat gives. */
static bool out_context(const struct spec *s, const struct file_result *r)
{
	struct spec t = *s;
	char ctx[4096];
	ssize_t n;

	if (!r->path)
		n = fgetxattr(0, "security.selinux", ctx, sizeof(ctx) - 1);
	else if (r->follow)
		n = getxattr(r->path, "security.selinux", ctx,
			     sizeof(ctx) - 1);
	else
		n = lgetxattr(r->path, "security.selinux", ctx,
			      sizeof(ctx) - 1);
	/* stat keeps every flag here */
	if (n < 0) {
		warn_msg(errno, "failed to get security context of %s",
			 quoteaf(r->name));
		printf(strcat(t.fmt, "s"), "?");
		return false;
	}
	ctx[n] = '\0';
	printf(strcat(t.fmt, "s"), ctx);
	return true;
}

/* %{name}: libxstat's own fields, found by name. */
enum named_kind { NK_DEC, NK_HEX };

struct named {
	const char *name;
	unsigned long long bit;		/* 0: always there */
	enum named_kind kind;
	/* false if absent (an extra result that was not produced) */
	bool (*get)(const struct file_result *r, unsigned long long *v);
};

static bool get_gen(const struct file_result *r, unsigned long long *v)
{
	*v = r->x->st_gen;
	return true;
}

static bool get_dv(const struct file_result *r, unsigned long long *v)
{
	*v = r->x->st_data_version;
	return true;
}

static bool get_mask(const struct file_result *r, unsigned long long *v)
{
	*v = r->x->st_result_mask;
	return true;
}

static bool get_size_needed(const struct file_result *r,
			    unsigned long long *v)
{
	*v = (unsigned long long)r->ret;
	return true;
}

#define EXTRA_GETTER(fn, type, bit, expr)				\
static bool fn(const struct file_result *r, unsigned long long *v)	\
{									\
	const type *e = extra(r, bit);					\
									\
	if (!e)								\
		return false;						\
	*v = (expr);							\
	return true;							\
}

EXTRA_GETTER(get_mnt_id, struct xstat_mnt_id, XSTAT_REQUEST_MNT_ID,
	     e->mnt_id)
EXTRA_GETTER(get_mnt_unique, struct xstat_mnt_id, XSTAT_REQUEST_MNT_ID,
	     e->unique)
EXTRA_GETTER(get_attr, struct xstat_attributes, XSTAT_REQUEST_ATTRIBUTES,
	     e->attributes)
EXTRA_GETTER(get_attr_mask, struct xstat_attributes,
	     XSTAT_REQUEST_ATTRIBUTES, e->attributes_mask)
EXTRA_GETTER(get_dio_mem, struct xstat_dioalign, XSTAT_REQUEST_DIOALIGN,
	     e->mem_align)
EXTRA_GETTER(get_dio_offset, struct xstat_dioalign, XSTAT_REQUEST_DIOALIGN,
	     e->offset_align)
EXTRA_GETTER(get_subvol, struct xstat_subvol, XSTAT_REQUEST_SUBVOL,
	     e->subvol)
EXTRA_GETTER(get_wa_min, struct xstat_write_atomic,
	     XSTAT_REQUEST_WRITE_ATOMIC, e->unit_min)
EXTRA_GETTER(get_wa_max, struct xstat_write_atomic,
	     XSTAT_REQUEST_WRITE_ATOMIC, e->unit_max)
EXTRA_GETTER(get_wa_max_opt, struct xstat_write_atomic,
	     XSTAT_REQUEST_WRITE_ATOMIC, e->unit_max_opt)
EXTRA_GETTER(get_wa_segs, struct xstat_write_atomic,
	     XSTAT_REQUEST_WRITE_ATOMIC, e->segments_max)
EXTRA_GETTER(get_dio_read, struct xstat_dio_read_align,
	     XSTAT_REQUEST_DIO_READ_ALIGN, e->offset_align)
EXTRA_GETTER(get_token, struct xstat_change_token,
	     XSTAT_REQUEST_CHANGE_TOKEN, e->token)
EXTRA_GETTER(get_token_promise, struct xstat_change_token,
	     XSTAT_REQUEST_CHANGE_TOKEN, e->promise)
EXTRA_GETTER(get_token_source, struct xstat_change_token,
	     XSTAT_REQUEST_CHANGE_TOKEN, e->source)
EXTRA_GETTER(get_dv_promise, struct xstat_dv_promise,
	     XSTAT_REQUEST_DV_PROMISE, e->promise)

static const struct named named[] = {
	{ "gen", XSTAT_REQUEST_GEN, NK_DEC, get_gen },
	{ "data_version", XSTAT_REQUEST_DATA_VERSION, NK_DEC, get_dv },
	{ "result_mask", 0, NK_HEX, get_mask },
	{ "size_needed", 0, NK_DEC, get_size_needed },
	{ "mnt_id", 0, NK_DEC, get_mnt_id },
	{ "mnt_id_unique", 0, NK_DEC, get_mnt_unique },
	{ "attributes", 0, NK_HEX, get_attr },
	{ "attributes_mask", 0, NK_HEX, get_attr_mask },
	{ "dio_mem_align", 0, NK_DEC, get_dio_mem },
	{ "dio_offset_align", 0, NK_DEC, get_dio_offset },
	{ "subvol", 0, NK_DEC, get_subvol },
	{ "atomic_unit_min", 0, NK_DEC, get_wa_min },
	{ "atomic_unit_max", 0, NK_DEC, get_wa_max },
	{ "atomic_unit_max_opt", 0, NK_DEC, get_wa_max_opt },
	{ "atomic_segments_max", 0, NK_DEC, get_wa_segs },
	{ "dio_read_offset_align", 0, NK_DEC, get_dio_read },
	{ "change_token", 0, NK_HEX, get_token },
	{ "token_promise", 0, NK_HEX, get_token_promise },
	{ "token_source", 0, NK_DEC, get_token_source },
	{ "dv_promise", 0, NK_HEX, get_dv_promise },
};

/* The entry for the name from @p (after '{') to '}', or NULL. */
static const struct named *find_named(const char *p, size_t *skip)
{
	const char *end = strchr(p, '}');
	size_t i;

	if (!end)
		return NULL;
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (strlen(named[i].name) == (size_t)(end - p) &&
		    memcmp(named[i].name, p, (size_t)(end - p)) == 0) {
			*skip = (size_t)(end - p) + 1;
			return &named[i];
		}
	}
	return NULL;
}

static void out_named(const struct spec *s, const struct named *n,
		      const struct file_result *r)
{
	unsigned long long v;

	if ((n->bit && !have(r, n->bit)) || !n->get(r, &v)) {
		out_string(s, "?");
		return;
	}
	if (n->kind == NK_HEX)
		out_uint_x(s, v);
	else
		out_uint(s, v);
}

/* The result-mask bit a stat conversion needs (0: none). */
static unsigned long long conv_bit(char c)
{
	switch (c) {
	case 'a': case 'A': case 'f': case 'F':	return XSTAT_REQUEST_MODE;
	case 'h':	return XSTAT_REQUEST_NLINK;
	case 'u': case 'U':	return XSTAT_REQUEST_UID;
	case 'g': case 'G':	return XSTAT_REQUEST_GID;
	case 'r': case 'R': case 't': case 'T':	return XSTAT_REQUEST_RDEV;
	case 'x': case 'X':	return XSTAT_REQUEST_ATIME;
	case 'y': case 'Y':	return XSTAT_REQUEST_MTIME;
	case 'z': case 'Z':	return XSTAT_REQUEST_CTIME;
	case 'i':	return XSTAT_REQUEST_INO;
	case 's':	return XSTAT_REQUEST_SIZE;
	case 'b':	return XSTAT_REQUEST_BLOCKS;
	}
	return 0;
}

/*
 * The library leaves the rdev bit clear for files that are not devices;
 * stat(2) defines their st_rdev as 0, and stat prints that.
 */
static bool rdev_is_zero(const struct file_result *r, unsigned long long bit)
{
	return bit == XSTAT_REQUEST_RDEV && have(r, XSTAT_REQUEST_MODE) &&
	       !S_ISCHR(r->x->st_mode) && !S_ISBLK(r->x->st_mode) &&
	       r->x->st_rdev.major == 0 && r->x->st_rdev.minor == 0;
}

/* One stat conversion @c (with modifier @mod 'H', 'L', 'Q' or 0). */
static bool out_conv(const struct spec *s, char mod, char c,
		     const struct file_result *r, const struct format_opts *o)
{
	const struct xstat *x = r->x;
	unsigned long long bit = conv_bit(c);
	char mode[11];
	struct passwd *pw;
	struct group *gr;

	if (bit && !have(r, bit) && !rdev_is_zero(r, bit)) {
		out_string(s, "?");
		return true;
	}
	switch (c) {
	case 'n':
		out_string(s, mod == 'Q' ? quote_n(1, r->name, o->q_style) :
					   r->name);
		break;
	case 'N':
		return out_quoted_name(s, r, o->n_style);
	case 'd':
		out_uint(s, mod == 'H' ? x->st_dev.major :
			    mod == 'L' ? x->st_dev.minor : dev_of(&x->st_dev));
		break;
	case 'D':
		out_uint_x(s, dev_of(&x->st_dev));
		break;
	case 'i':
		out_uint(s, x->st_ino);
		break;
	case 'a':
		out_uint_o(s, x->st_mode & 07777);
		break;
	case 'A':
		human_mode(mode, x->st_mode);
		out_string(s, mode);
		break;
	case 'f':
		out_uint_x(s, x->st_mode);
		break;
	case 'F':
		out_string(s, human_type(x->st_mode, x->st_size,
					 have(r, XSTAT_REQUEST_SIZE)));
		break;
	case 'h':
		out_uint(s, x->st_nlink);
		break;
	case 'u':
		out_uint(s, x->st_uid);
		break;
	case 'U':
		pw = getpwuid(x->st_uid);
		out_string(s, pw ? pw->pw_name : "UNKNOWN");
		break;
	case 'g':
		out_uint(s, x->st_gid);
		break;
	case 'G':
		gr = getgrgid(x->st_gid);
		out_string(s, gr ? gr->gr_name : "UNKNOWN");
		break;
	case 'm':
		return out_mount_point(s, r);
	case 's':
		out_int_len(s, s->len, (intmax_t)x->st_size);
		break;
	case 'r':
		out_uint(s, mod == 'H' ? x->st_rdev.major :
			    mod == 'L' ? x->st_rdev.minor :
					 dev_of(&x->st_rdev));
		break;
	case 'R':
		out_uint_x(s, dev_of(&x->st_rdev));
		break;
	case 't':
		out_uint_x(s, x->st_rdev.major);
		break;
	case 'T':
		out_uint_x(s, x->st_rdev.minor);
		break;
	case 'B':
		out_uint(s, 512);
		break;
	case 'b':
		out_uint(s, x->st_blocks);
		break;
	case 'o':
		out_uint(s, x->st_blksize);
		break;
	case 'w':
		if (have(r, XSTAT_REQUEST_BTIME))
			out_human_time(s, &x->st_btim);
		else
			out_string(s, "-");
		break;
	case 'W': {
		static const struct xstat_time zero;

		out_epoch_sec(s, have(r, XSTAT_REQUEST_BTIME) ? &x->st_btim :
								&zero);
		break;
	}
	case 'x':
		out_human_time(s, &x->st_atim);
		break;
	case 'X':
		out_epoch_sec(s, &x->st_atim);
		break;
	case 'y':
		out_human_time(s, &x->st_mtim);
		break;
	case 'Y':
		out_epoch_sec(s, &x->st_mtim);
		break;
	case 'z':
		out_human_time(s, &x->st_ctim);
		break;
	case 'Z':
		out_epoch_sec(s, &x->st_ctim);
		break;
	case 'C':
		return out_context(s, r);
	default:
		putchar('?');
		break;
	}
	return true;
}

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
	static const char from[] = "abefnrtv\"\\", to[] = "\a\b\x1b\f\n\r\t\v\"\\";
	const char *e;
	int v, n;

	if (octal(*p)) {
		for (v = 0, n = 0; n < 3 && octal(p[n]); n++)
			v = v * 8 + p[n] - '0';
		if (print)
			putchar(v);
		return (size_t)n;
	}
	if (*p == 'x' && isxdigit((unsigned char)p[1])) {
		v = hexval(p[1]);
		n = 2;
		if (isxdigit((unsigned char)p[2]))
			v = v * 16 + hexval(p[n++]);
		if (print)
			putchar(v);
		return (size_t)n;
	}
	if (!print)
		return *p != '\0';
	if (*p == '\0') {
		warn_msg(0, "warning: backslash at end of format");
		putchar('\\');
		return 0;
	}
	e = strchr(from, *p);
	if (e) {
		putchar(to[e - from]);
	} else {
		char c[2] = { *p, '\0' };

		/* stat echoes the byte raw: a format can carry ESC too */
		warn_msg(0, "warning: unrecognized escape '\\%s'",
			 quote_printable(0, c));
		putchar(*p);
	}
	return 1;
}

/*
 * Walk @fmt: with @r NULL only check it (exit 2 on an invalid directive),
 * else print it.
 */
static bool walk(const char *fmt, const struct file_result *r,
		 const struct format_opts *o)
{
	bool ok = true;
	const char *b;

	for (b = fmt; *b; b++) {
		struct spec s;
		size_t len, skip;
		const struct named *n;
		char c, mod = 0;

		if (*b == '\\' && o->backslash) {
			b += out_escape(b + 1, r != NULL);
			continue;
		}
		if (*b != '%') {
			if (r)
				putchar(*b);
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
			if (r)
				putchar('%');
			continue;
		case '{':
			n = find_named(b + 1, &skip);
			if (!n) {
				s.fmt[len] = '\0';
				usage_error("%s: unknown field name",
					    quote_n(0, b, QS_LOCALE));
			}
			b += skip;
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
		if (r)
			ok &= out_conv(&s, mod, c, r, o);
	}
	return ok;
}

void format_check(const char *fmt, bool backslash)
{
	struct format_opts o = { .backslash = backslash };

	walk(fmt, NULL, &o);
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
	return walk(fmt, r, o);
}

/*
 * The default layout, one entry a line: stat 9.1's lines (the name quoted
 * as newer coreutils does), then libxstat's.  A new field is a new entry.
 */
struct layout_line {
	unsigned long long bit;		/* shown only if set (0: always) */
	unsigned long long extra;	/* shown only if produced */
	const char *fmt;
};

static const struct layout_line layout[] = {
	{ 0, 0, "  File: %N\n"
		"  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n" },
	{ 0, 0, NULL },	/* the Device line: differs for devices */
	{ 0, 0, "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
		"Access: %x\nModify: %y\nChange: %z\n Birth: %w\n" },
	{ XSTAT_REQUEST_GEN, 0, "Generation: %{gen}\n" },
	{ XSTAT_REQUEST_DATA_VERSION, 0, "Data version: %{data_version}\n" },
	{ 0, 0, "Result mask: %#{result_mask}\n" },
	{ 0, XSTAT_REQUEST_MNT_ID, "Mount ID: %{mnt_id}" },
	{ 0, XSTAT_REQUEST_ATTRIBUTES,
	  "Attributes: %#{attributes} (known: %#{attributes_mask})\n" },
	{ 0, XSTAT_REQUEST_DIOALIGN,
	  "DIO align: memory %{dio_mem_align}, "
	  "offset %{dio_offset_align}\n" },
	{ 0, XSTAT_REQUEST_SUBVOL, "Subvolume: %{subvol}\n" },
	{ 0, XSTAT_REQUEST_WRITE_ATOMIC,
	  "Atomic write: unit min %{atomic_unit_min}, max %{atomic_unit_max},"
	  " max opt %{atomic_unit_max_opt},"
	  " segments %{atomic_segments_max}\n" },
	{ 0, XSTAT_REQUEST_DIO_READ_ALIGN,
	  "DIO read align: offset %{dio_read_offset_align}\n" },
	/* the promises' names follow (layout_print) */
	{ 0, XSTAT_REQUEST_CHANGE_TOKEN, "Change token: %#{change_token}" },
	{ 0, XSTAT_REQUEST_DV_PROMISE, "Data version promise:" },
};

/* " (from ctime: every_change, metadata, ...)" after the token line. */
static void promise_tail(const struct file_result *r, unsigned long long bit)
{
	const struct xstat_change_token *tok;
	const struct xstat_dv_promise *dvp;
	char names[PROMISE_NAMES_MAX];

	if (bit == XSTAT_REQUEST_CHANGE_TOKEN) {
		tok = extra(r, bit);
		human_promise(names, sizeof(names), tok->promise, ", ");
		printf(" (from %s: %s)\n", human_token_source(tok->source),
		       names);
	} else {
		dvp = extra(r, bit);
		human_promise(names, sizeof(names), dvp->promise, ", ");
		printf(" %s\n", names);
	}
}

bool layout_print(const struct file_result *r, const struct format_opts *o)
{
	struct format_opts lo = *o;
	const struct xstat_mnt_id *mnt;
	bool ok = true, device;
	size_t i;

	lo.n_style = o->q_style;
	lo.backslash = false;
	device = have(r, XSTAT_REQUEST_MODE) &&
		 (S_ISCHR(r->x->st_mode) || S_ISBLK(r->x->st_mode));
	for (i = 0; i < sizeof(layout) / sizeof(layout[0]); i++) {
		const struct layout_line *l = &layout[i];
		const char *fmt = l->fmt;

		if ((l->bit && !have(r, l->bit)) ||
		    (l->extra && !extra(r, l->extra)))
			continue;
		if (!fmt)
			fmt = device ?
			      "Device: %Hd,%Ld\tInode: %-10i  Links: %-5h"
			      " Device type: %Hr,%Lr\n" :
			      "Device: %Hd,%Ld\tInode: %-10i  Links: %h\n";
		ok &= format_print(fmt, r, &lo);
		if (l->extra == XSTAT_REQUEST_MNT_ID) {
			mnt = extra(r, XSTAT_REQUEST_MNT_ID);
			printf(mnt->unique ? " (unique)\n" : "\n");
		}
		if (l->extra & (XSTAT_REQUEST_CHANGE_TOKEN |
				XSTAT_REQUEST_DV_PROMISE))
			promise_tail(r, l->extra);
	}
	return ok;
}
