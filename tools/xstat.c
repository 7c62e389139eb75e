// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xstat - print extended file status, laid out as coreutils stat(1) does,
 * in a user's format (-c, --printf), tersely (-t), as JSON (-j) or as the
 * xstat() patch's test program did (--patch).  This file reads the command
 * line and examines each file; the other files of tools/ print.  Uses only
 * the public header, like any application.
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/vfs.h>
#include "xstat.h"
#include "changes.h"
#include "check-promises.h"
#include "format.h"
#include "fs.h"
#include "json.h"
#include "out.h"
#include "patch.h"
#include "quote.h"
#include "result.h"
#include "walk.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

enum output { OUT_LAYOUT, OUT_FORMAT, OUT_TERSE, OUT_JSON, OUT_PATCH };

struct options {
	unsigned long long query;	/* what is asked for, in the end */
	unsigned long long mask;	/* -m, -a: instead of the default */
	unsigned long long add;		/* -e and the extras' options */
	bool mask_set, no_basic;	/* -m or -a given; -O */
	unsigned flags;
	bool force_sync, no_sync;
	enum output output;
	const char *format;		/* -c, --printf */
	struct format_opts fo;
	bool recursive, xdev;		/* -r, -x */
	unsigned threads;		/* --threads */
	int max_depth;			/* --max-depth; -1: none */
	bool zero;			/* -0: records end with NUL */
	bool file_system;		/* -f */
	bool no_progress;		/* --no-progress */
	const char *changes;		/* --changes=SNAP */
	const char *save;		/* --save=NEW */
	bool names;			/* --names */
};

enum {
	OPT_EXTRA = 0x100,	/* + the extra's bit number - 14 */
	OPT_PRINTF = 0x200,
	OPT_PATCH,
	OPT_CACHED,
	OPT_TOKEN,
	OPT_DV_PROMISE,
	OPT_THREADS,
	OPT_MAX_DEPTH,
	OPT_NO_PROGRESS,
	OPT_CHANGES,
	OPT_SAVE,
	OPT_NAMES,
};

static const struct option longopts[] = {
	{ "force-sync", no_argument, NULL, 'F' },
	{ "no-sync", no_argument, NULL, 'N' },
	{ "cached", required_argument, NULL, OPT_CACHED },
	{ "dereference", no_argument, NULL, 'L' },
	{ "no-basic-stats", no_argument, NULL, 'O' },
	{ "mask", required_argument, NULL, 'm' },
	{ "all", no_argument, NULL, 'a' },
	{ "format", required_argument, NULL, 'c' },
	{ "printf", required_argument, NULL, OPT_PRINTF },
	{ "terse", no_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'j' },
	{ "patch", no_argument, NULL, OPT_PATCH },
	{ "recursive", no_argument, NULL, 'r' },
	{ "one-file-system", no_argument, NULL, 'x' },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "max-depth", required_argument, NULL, OPT_MAX_DEPTH },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "extended", no_argument, NULL, 'e' },
	{ "file-system", no_argument, NULL, 'f' },
	{ "zero", no_argument, NULL, '0' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "mnt-id", no_argument, NULL, OPT_EXTRA + 0 },
	{ "attributes", no_argument, NULL, OPT_EXTRA + 1 },
	{ "dioalign", no_argument, NULL, OPT_EXTRA + 2 },
	{ "subvol", no_argument, NULL, OPT_EXTRA + 3 },
	{ "write-atomic", no_argument, NULL, OPT_EXTRA + 4 },
	{ "dio-read-align", no_argument, NULL, OPT_EXTRA + 5 },
	{ "change-token", no_argument, NULL, OPT_TOKEN },
	{ "dv-promise", no_argument, NULL, OPT_DV_PROMISE },
	{ "changes", required_argument, NULL, OPT_CHANGES },
	{ "save", required_argument, NULL, OPT_SAVE },
	{ "names", no_argument, NULL, OPT_NAMES },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf(
"Usage: xstat [OPTION]... FILE...\n"
"Print extended file status with xstat(3); FILE - is standard input.\n"
"\n"
"  -L, --dereference      follow a final symbolic link\n"
"  -F, --force-sync       synchronise attributes with the server first\n"
"  -N, --no-sync          use cached attributes, never synchronise\n"
"      --cached=MODE      always (-N), never (-F) or default\n"
"  -O, --no-basic-stats   do not request the basic stats\n"
"  -m, --mask=MASK        request MASK (0x hex, 0 octal, decimal) and\n"
"                         what FORMAT needs, instead of the default\n"
"  -a, --all              request every defined result, extras included\n"
"  -e, --extended         also request the generation and data version\n"
"      --mnt-id, --attributes, --dioalign, --subvol, --write-atomic,\n"
"      --dio-read-align   also request that extra result\n"
"      --change-token     also request the change token and its promise\n"
"                         (with --json also the file system's lasting ID:\n"
"                         with -r, a snapshot for --changes)\n"
"      --dv-promise       also request what the data version promises\n"
"  -c, --format=FORMAT    print FORMAT (stat's directives) and a newline\n"
"      --printf=FORMAT    like --format, with \\ escapes, no newline\n"
"  -t, --terse            print the information in terse form\n"
"  -j, --json             print one JSON object per file\n"
"      --patch            print as the xstat() patch's test program did\n"
"  -f, --file-system      print the status of the file system, as stat -f\n"
"  -0, --zero             end each record with NUL, not newline\n"
"  -r, --recursive        also every entry under each directory FILE\n"
"  -x, --one-file-system  with -r, do not enter other file systems\n"
"      --threads=N        with -r, read N directories at once\n"
"      --max-depth=N      with -r, go at most N levels below FILE\n"
"      --no-progress      with -r, no progress line on a terminal\n"
"      --changes=SNAP     with -r, print what changed since the snapshot\n"
"                         SNAP, one entry a line (with --json, objects);\n"
"                         exit 0: nothing, 1: changes, 2: trouble\n"
"      --save=NEW         with -r, write the tree's snapshot to NEW in the\n"
"                         same walk (alone: the first snapshot)\n"
"      --names            with --changes, print only the names below DIR\n"
"                         (a move: both), for rsync --files-from; with -0\n"
"                         each ends with NUL\n"
"      --check-promises DIR  test the change token's promises in a scratch\n"
"                         directory under DIR (--check-promises --help)\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show the version and exit\n"
"\n"
"FORMAT directives are those of stat(1) (%%a %%A %%b %%B %%C %%d %%D %%Hd %%Ld\n"
"%%f %%F %%g %%G %%h %%i %%m %%n %%N %%Qn %%o %%s %%r %%R %%Hr %%Lr %%t %%T %%u %%U\n"
"%%w %%W %%x %%X %%y %%Y %%z %%Z) and libxstat's: %%{gen} %%{data_version}\n"
"%%{result_mask} %%{size_needed} %%{mnt_id} %%{attributes} ...; see xstat(1).\n"
"Only what the output shows is requested: FORMAT's fields, else stat's\n"
"fields and the birth time.  With -f: stat -f's directives (%%a %%b %%c %%d\n"
"%%f %%i %%l %%n %%s %%S %%t %%T).\n");
}

/* MASK: decimal, 0x hex or 0 octal digits only: no sign, no blanks. */
static unsigned long long parse_mask(const char *s)
{
	unsigned long long v = 0;
	const char *p = s;
	unsigned base = 10, d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	if (!*p)
		goto bad;
	for (; *p; p++) {
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			goto bad;
		if (d >= base || v > (~0ULL - d) / base)
			goto bad;
		v = v * base + d;
	}
	return v;
bad:
	usage_error("invalid mask: %s", quote_n(0, s, QS_LOCALE));
}

/* --max-depth=N: 0 to INT_MAX, decimal. */
static int parse_depth(const char *s)
{
	long v = 0;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9' && v <= INT_MAX; p++)
		v = v * 10 + (*p - '0');
	if (p == s || *p || v > INT_MAX)
		usage_error("invalid depth: %s", quote_n(0, s, QS_LOCALE));
	return (int)v;
}

/* --threads=N: 1 to WALK_THREADS_MAX, decimal. */
static unsigned parse_threads(const char *s)
{
	unsigned long v = 0;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9' && v <= WALK_THREADS_MAX; p++)
		v = v * 10 + (unsigned long)(*p - '0');
	if (p == s || *p || v < 1 || v > WALK_THREADS_MAX)
		usage_error("invalid number of threads: %s (1 to %d)",
			    quote_n(0, s, QS_LOCALE), WALK_THREADS_MAX);
	return (unsigned)v;
}

static void set_output(struct options *o, enum output out)
{
	static const char *const names[] = {
		[OUT_FORMAT] = "--format/--printf", [OUT_TERSE] = "--terse",
		[OUT_JSON] = "--json", [OUT_PATCH] = "--patch",
	};

	if (o->output != OUT_LAYOUT && o->output != out &&
	    /* as stat: a format wins over --terse */
	    !(o->output == OUT_TERSE && out == OUT_FORMAT) &&
	    !(o->output == OUT_FORMAT && out == OUT_TERSE))
		usage_error("%s and %s are mutually exclusive",
			    names[o->output], names[out]);
	if (o->output != OUT_FORMAT)
		o->output = out;
}

/* QUOTING_STYLE, as stat reads it; @dflt when unset or invalid. */
static enum quoting_style env_style(enum quoting_style dflt)
{
	const char *q = getenv("QUOTING_STYLE");
	int s;

	if (!q)
		return dflt;
	s = quoting_style_from_name(q);
	if (s >= 0)
		return (enum quoting_style)s;
	warn_msg(0, "ignoring invalid value of environment variable "
		 "QUOTING_STYLE: %s", quote_n(0, q, QS_LOCALE));
	return dflt;
}

#define SHORT_OPTIONS	"FNLOm:aec:tjfrx0hV"

/*
 * A command line error in getopt's (glibc's, coreutils') words, written
 * by the tool so that they do not depend on the C library (musl's getopt
 * words them otherwise), with its control characters escaped: getopt's
 * messages echo an unknown option as it was typed, and "xstat *" makes
 * options of file names - a file "--\033]0;..." must not reach the
 * terminal raw.
 */
static void __attribute__((noreturn, format(printf, 1, 2)))
bad_option(const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "xstat: %s\n", quote_printable(0, msg));
	fputs("Try 'xstat --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

/*
 * The long option @arg ("--name[=value]") names, as getopt_long() finds
 * it: its exact name, else the one option its prefix abbreviates;
 * @*next is set when it takes the next argument as its value.
 */
static const struct option *check_long_option(const char *arg, bool *next)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name), i;
	const struct option *found = NULL;
	bool ambiguous = false;
	char list[2048] = "";

	for (i = 0; longopts[i].name; i++) {
		const struct option *o = &longopts[i];

		if (strncmp(o->name, name, len))
			continue;
		if (strlen(o->name) == len) {
			found = o;
			ambiguous = false;
			break;
		}
		if (found && (found->has_arg != o->has_arg ||
			      found->val != o->val))
			ambiguous = true;
		if (!found)
			found = o;
	}
	if (ambiguous) {
		for (i = 0; longopts[i].name; i++)
			if (!strncmp(longopts[i].name, name, len))
				snprintf(list + strlen(list),
					 sizeof(list) - strlen(list),
					 " '--%s'", longopts[i].name);
		bad_option("option '%s' is ambiguous; possibilities:%s", arg,
			   list);
	}
	if (!found)
		bad_option("unrecognized option '%s'", arg);
	if (eq && found->has_arg == no_argument)
		bad_option("option '--%s' doesn't allow an argument",
			   found->name);
	*next = !eq && found->has_arg == required_argument;
	return found;
}

/*
 * The first command line error getopt_long() would find (it takes
 * options anywhere before "--"), reported before it is asked.
 */
static void check_options(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const struct option *l = NULL;
		const char *a = argv[i], *p;
		bool next = false;

		if (!strcmp(a, "--"))
			return;
		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] == '-') {
			l = check_long_option(a, &next);
		} else {
			for (p = a + 1; *p; p++) {
				const char *o = *p == ':' ? NULL :
						strchr(SHORT_OPTIONS, *p);

				if (!o)
					bad_option("invalid option -- '%c'",
						   *p);
				if (o[1] == ':') {
					next = !p[1];
					break;
				}
			}
		}
		if (!next || ++i < argc)
			continue;
		if (l)
			bad_option("option '--%s' requires an argument",
				   l->name);
		bad_option("option requires an argument -- '%c'",
			   a[strlen(a) - 1]);
	}
}

/*
 * Ask for what the output shows: a format's fields, each of them and no
 * other; else the default of the layout (stat's fields and the birth
 * time; the patch's program asked for everything).  -m or -a replace the
 * default; -e and the extras' options add to it.
 */
static void choose_query(struct options *o)
{
	unsigned long long need = 0, base = LAYOUT_QUERY;

	if (o->output == OUT_FORMAT)
		need = format_check(o->format, &o->fo);
	else if (o->output == OUT_TERSE)
		need = format_check(TERSE_FORMAT, &o->fo);
	if (o->output == OUT_FORMAT || o->output == OUT_TERSE)
		base = 0;
	else if (o->output == OUT_PATCH)
		base = XSTAT_REQUEST__EXTENDED_STATS;
	if (o->mask_set)
		base = o->mask;
	if (o->no_basic)
		base &= ~XSTAT_REQUEST__BASIC_STATS;
	/* JSON with a token is a snapshot: the filesystem's lasting ID too */
	if (o->output == OUT_JSON && (o->add & XSTAT_REQUEST_CHANGE_TOKEN))
		o->add |= XSTAT_REQUEST_FS_ID;
	o->query = base | o->add | need;
	/*
	 * JSON (and the snapshot --save writes in it) says why a class (3)
	 * field it asked for is missing; --changes makes each entry's record
	 * as the snapshot has it, to hold against the old one (changes.c)
	 */
	if ((o->output == OUT_JSON || o->save || o->changes) &&
	    (o->query & (XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN |
			 XSTAT_REQUEST_DATA_VERSION)))
		o->query |= XSTAT_REQUEST_WHY_MISSING;
	o->fo.query = o->query;
}

static void parse(int argc, char **argv, struct options *o)
{
	int c;

	check_options(argc, argv);
	opterr = 0;
	while ((c = getopt_long(argc, argv, SHORT_OPTIONS, longopts,
				NULL)) != -1) {
		switch (c) {
		case 'F':
			o->force_sync = true;
			break;
		case 'N':
			o->no_sync = true;
			break;
		case OPT_CACHED:
			if (strcmp(optarg, "always") == 0) {
				o->no_sync = true;
				o->force_sync = false;
			} else if (strcmp(optarg, "never") == 0) {
				o->force_sync = true;
				o->no_sync = false;
			} else if (strcmp(optarg, "default") == 0) {
				o->force_sync = o->no_sync = false;
			} else {
				/* both quoted as the locale quotes, as stat */
				usage_error("invalid argument %s for %s",
					    quote_n(0, optarg, QS_LOCALE),
					    quote_n(1, "--cached",
						    QS_LOCALE));
			}
			break;
		case 'L':
			o->flags &= ~AT_SYMLINK_NOFOLLOW;
			break;
		case 'O':
			o->no_basic = true;
			break;
		case 'm':
			o->mask = parse_mask(optarg);
			o->mask_set = true;
			break;
		case 'a':
			o->mask = XSTAT_REQUEST__ALL_STATS;
			o->mask_set = true;
			break;
		case 'e':
			o->add |= XSTAT_REQUEST_GEN |
				  XSTAT_REQUEST_DATA_VERSION;
			break;
		case 'f':
			o->file_system = true;
			break;
		case '0':
			o->zero = true;
			break;
		case OPT_MAX_DEPTH:
			o->max_depth = parse_depth(optarg);
			break;
		case OPT_NO_PROGRESS:
			o->no_progress = true;
			break;
		case 'c':
		case OPT_PRINTF:
			set_output(o, OUT_FORMAT);
			o->format = optarg;
			o->fo.backslash = c == OPT_PRINTF;
			break;
		case 't':
			set_output(o, OUT_TERSE);
			break;
		case 'j':
			set_output(o, OUT_JSON);
			break;
		case OPT_PATCH:
			set_output(o, OUT_PATCH);
			break;
		case 'r':
			o->recursive = true;
			break;
		case 'x':
			o->xdev = true;
			break;
		case OPT_THREADS:
			o->threads = parse_threads(optarg);
			break;
		case OPT_EXTRA + 0: case OPT_EXTRA + 1: case OPT_EXTRA + 2:
		case OPT_EXTRA + 3: case OPT_EXTRA + 4: case OPT_EXTRA + 5:
			/* the extra bits, in option order */
			o->add |= XSTAT_REQUEST_MNT_ID << (c - OPT_EXTRA);
			break;
		case OPT_TOKEN:
			o->add |= XSTAT_REQUEST_CHANGE_TOKEN;
			break;
		case OPT_CHANGES:
			o->changes = optarg;
			o->add |= XSTAT_REQUEST_CHANGE_TOKEN |
				  XSTAT_REQUEST_FS_ID;
			break;
		case OPT_SAVE:
			o->save = optarg;
			o->add |= XSTAT_REQUEST_CHANGE_TOKEN |
				  XSTAT_REQUEST_FS_ID;
			break;
		case OPT_NAMES:
			o->names = true;
			break;
		case OPT_DV_PROMISE:
			o->add |= XSTAT_REQUEST_DV_PROMISE;
			break;
		case 'h':
			usage();
			exit(out_finish(0));
		case 'V':
			printf("xstat (libxstat) %s\n", PACKAGE_VERSION);
			exit(out_finish(0));
		default:
			/* what check_options() found nothing wrong with */
			bad_option("invalid option");
		}
	}
	if (o->force_sync && o->no_sync)
		usage_error("-F (--force-sync) and -N (--no-sync) are "
			    "mutually exclusive");
	if (optind >= argc)
		usage_error("missing operand");
	if (o->changes && (!o->recursive || argc - optind != 1 ||
			   o->file_system || o->mask_set ||
			   (o->output != OUT_LAYOUT && o->output != OUT_JSON)))
		usage_error("--changes takes -r, one DIR and no other output "
			    "than --json");
	if (o->save && (!o->recursive || argc - optind != 1 ||
			o->file_system || o->mask_set ||
			(!o->changes && o->output != OUT_LAYOUT)))
		usage_error("--save takes -r and one DIR; alone it prints "
			    "nothing (no output option)");
	if (o->names && (!o->changes || o->output != OUT_LAYOUT))
		usage_error("--names takes --changes and no other output "
			    "option");
	if (o->zero && o->changes && !o->names)
		usage_error("-0 with --changes takes --names: a verdict's "
			    "line is quoted, it needs no NUL");
	if ((o->xdev || o->threads || o->max_depth >= 0) && !o->recursive)
		usage_error("-x, --threads and --max-depth need -r "
			    "(--recursive)");
	if (o->file_system && (o->recursive || o->output == OUT_JSON ||
			       o->output == OUT_PATCH))
		usage_error("-f (--file-system) prints stat -f's layout or a "
			    "format: not with -r, --json or --patch");
	if (o->zero && o->output == OUT_FORMAT && o->fo.backslash)
		usage_error("--printf adds no newline to replace: "
			    "write \\0 in its FORMAT instead of -0");
	if (o->force_sync)
		o->flags |= AT_FORCE_ATTR_SYNC;
	else
		o->flags |= AT_NO_AUTOMOUNT;	/* as stat, unless syncing */
	if (o->no_sync)
		o->flags |= AT_NO_ATTR_SYNC;
	o->fo.fs = o->file_system;
	choose_query(o);
	/* stat 9.1: %N quotes as QUOTING_STYLE says, else shell-escape-always;
	   the name in layouts and %Qn: shell-escape, as newer coreutils */
	o->fo.n_style = QS_SHELL_ESCAPE_ALWAYS;
	o->fo.q_style = QS_SHELL_ESCAPE;
	if (o->output == OUT_FORMAT) {
		if (format_has_N(o->format))
			o->fo.n_style = o->fo.q_style =
				env_style(QS_SHELL_ESCAPE_ALWAYS);
	} else if (o->output == OUT_LAYOUT || o->output == OUT_TERSE) {
		o->fo.q_style = env_style(QS_SHELL_ESCAPE);
	}
}

/* Print @r in the chosen form; false if something could not be printed. */
static bool print_result(const struct file_result *r, const struct options *o)
{
	bool ok = true;

	switch (o->output) {
	case OUT_JSON:
		json_print(r);
		break;
	case OUT_PATCH:
		patch_print(r);
		break;
	case OUT_FORMAT:
		ok = format_print(o->format, r, &o->fo);
		if (!o->fo.backslash)
			putc('\n', out_fp());
		break;
	case OUT_TERSE:
		ok = format_print(TERSE_FORMAT, r, &o->fo);
		break;
	case OUT_LAYOUT:
		ok = layout_print(r, &o->fo);
		break;
	}
	out_record_end(o->zero);
	return ok;
}

/* -f: the file system of @name; false if that failed. */
static bool show_fs(const char *name, const struct options *o)
{
	struct fs_result fs = { .name = name };
	int ret;

	if (strcmp(name, "-") == 0) {
		/* as stat: a descriptor is no file system to name */
		warn_msg(0, "using %s to denote standard input does not work "
			 "in file system mode", quoteaf("-"));
		return false;
	}
	ret = statfs(name, &fs.st);
	if (ret < 0) {
		/* stat -f's words */
		warn_msg(errno, "cannot read file system information for %s",
			 quoteaf(name));
		return false;
	}
	switch (o->output) {
	case OUT_FORMAT:
		format_print_fs(o->format, &fs, &o->fo);
		if (!o->fo.backslash)
			putc('\n', out_fp());
		break;
	case OUT_TERSE:
		format_print_fs(FS_TERSE, &fs, &o->fo);
		break;
	default:
		format_print_fs(FS_LAYOUT, &fs, &o->fo);
		break;
	}
	out_record_end(o->zero);
	return true;
}

/*
 * The time before the records of this operand: JSON's "taken", for a
 * snapshot's racy window (xstat_compare(3)); null without a token.
 */
static void set_taken(void)
{
	struct xstat_time t;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	t.tv_sec = ts.tv_sec;
	t.tv_nsec = (unsigned long long)ts.tv_nsec;
	json_set_taken(&t);
}

/* Examine one file and print it; false if it failed. */
static bool show(const char *name, const struct options *o)
{
	struct xstat_parameters params = { o->query };
	union {
		struct xstat	x;
		unsigned char	room[1024];
	} buf;
	struct file_result r = {
		.name = name, .dfd = AT_FDCWD, .path = name,
		.follow = !(o->flags & AT_SYMLINK_NOFOLLOW),
		.x = &buf.x, .buflen = sizeof(buf),
	};
	bool ok;

	memset(&buf, 0, sizeof(buf));
	if (o->query & XSTAT_REQUEST_CHANGE_TOKEN)
		set_taken();
	if (strcmp(name, "-") == 0) {
		r.path = NULL;
		r.ret = -1;
		errno = EBADF;
		if (!out_stdin_closed())
			r.ret = fxstat(0, o->flags & (AT_FORCE_ATTR_SYNC |
						      AT_NO_ATTR_SYNC),
				       &params, &buf.x, sizeof(buf));
	} else {
		r.ret = xstat(AT_FDCWD, name, o->flags, &params, &buf.x,
			      sizeof(buf));
	}
	if (r.ret < 0) {
		r.err = errno;
		if (o->output == OUT_JSON || o->output == OUT_PATCH)
			print_result(&r, o);
		if (!r.path)
			warn_msg(r.err, "cannot stat standard input");
		else
			warn_msg(r.err, "cannot stat %s", quoteaf(name));
		return false;
	}
	if ((size_t)r.ret < r.buflen)
		r.buflen = (size_t)r.ret;
	ok = print_result(&r, o);
	return ok;
}

static bool walk_print(const struct file_result *r, const void *ctx)
{
	return print_result(r, ctx);
}

/* -r: walk @name (standard input, "-", is examined alone). */
static bool walk(const char *name, const struct options *o)
{
	struct walk_opts w = {
		.flags = o->flags, .query = o->query, .xdev = o->xdev,
		.error_records = o->output == OUT_JSON ||
				 o->output == OUT_PATCH,
		.threads = o->threads ? o->threads : WALK_THREADS,
		.max_depth = o->max_depth,
		/* a terminal to show it on, and the output is not there */
		.progress = !o->no_progress && isatty(2) && !isatty(1),
		.print = walk_print, .ctx = o,
	};

	if (strcmp(name, "-") == 0)
		return show(name, o);
	if (o->query & XSTAT_REQUEST_CHANGE_TOKEN)
		set_taken();
	return walk_tree(name, &w);
}

/* --changes, --save: 0, 1 or 2 as diff(1); the walk's options as -r's. */
static int run_changes(const char *name, const struct options *o)
{
	struct walk_opts w = {
		.flags = o->flags, .query = o->query, .xdev = o->xdev,
		.threads = o->threads ? o->threads : WALK_THREADS,
		.max_depth = o->max_depth,
		.progress = !o->no_progress && isatty(2) && !isatty(1),
	};
	struct changes_opts c = {
		.snap = o->changes, .save = o->save,
		.json = o->output == OUT_JSON, .names = o->names,
		.zero = o->zero,
	};

	return changes_run(name, &w, &c);
}

int main(int argc, char **argv)
{
	struct options o = {
		.flags = AT_SYMLINK_NOFOLLOW,
		.output = OUT_LAYOUT,
		.max_depth = -1,
	};
	int status = 0, i;

	out_init();
	setlocale(LC_ALL, "");
	/* getopt's messages name the program as ours do */
	argv[0] = (char *)"xstat";
	if (check_promises_asked(argc, argv))
		return check_promises_main(argc, argv);
	parse(argc, argv, &o);
	if (o.changes || o.save)
		return out_finish(run_changes(argv[optind], &o));
	for (i = optind; i < argc; i++) {
		bool ok = o.file_system ? show_fs(argv[i], &o) :
			  o.recursive ? walk(argv[i], &o) : show(argv[i], &o);

		if (!ok)
			status = 1;
		/* output lost: no point in examining the other files */
		if (!out_flush())
			break;
	}
	return out_finish(status);
}
