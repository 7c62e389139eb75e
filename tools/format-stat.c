// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stat(1)'s file directives, and the request bit each needs.  A field
 * whose result-mask bit is clear prints "?" (birth time: "-" and 0, as
 * stat prints an unknown birth time).
 */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "conv.h"
#include "human.h"
#include "names.h"
#include "out.h"

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

unsigned long long file_conv_need(char c)
{
	switch (c) {
	case 'N': case 'm':
		/* a symlink's target, a directory's own mount point */
		return XSTAT_REQUEST_MODE;
	case 'F':
		/* "regular empty file" */
		return XSTAT_REQUEST_MODE | XSTAT_REQUEST_SIZE;
	case 'r': case 'R': case 't': case 'T':
		/* 0 for a file that is not a device (rdev_is_zero) */
		return XSTAT_REQUEST_RDEV | XSTAT_REQUEST_MODE;
	case 'w': case 'W':
		return XSTAT_REQUEST_BTIME;
	}
	return conv_bit(c);
}

bool file_conv(const struct spec *s, char mod, char c,
	       const struct file_result *r, const struct format_opts *o)
{
	const struct xstat *x = r->x;
	unsigned long long bit = conv_bit(c);
	const char *name;
	char mode[11];

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
		name = user_name(x->st_uid);
		out_string(s, name ? name : "UNKNOWN");
		break;
	case 'g':
		out_uint(s, x->st_gid);
		break;
	case 'G':
		name = group_name(x->st_gid);
		out_string(s, name ? name : "UNKNOWN");
		break;
	case 'm':
		return out_mount_point(s, r);
	case 's':
		out_int(s, (intmax_t)x->st_size);
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
		putc('?', out_fp());
		break;
	}
	return true;
}
