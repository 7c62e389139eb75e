// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xstat --check-promises DIR: is the change token's promise kept on the
 * file system of DIR?  For each file type, each change that applies to it
 * (check-changes.c) and each way of asking (xstat() by path, fxstat() on
 * a descriptor, a directory stream), a few rounds of: a fresh target,
 * a call, the change at once, a call.  A change within the timestamp tick
 * of the call is the one a ctime can miss, so a round whose call and
 * change straddle a tick of the coarse clock is made again.
 *
 * A token left equal by a change its promise covers is a broken promise
 * (exit status 1); so is an unchanged data version whose promise covers
 * the change.  A cell that got fewer rounds than asked (every round
 * straddled a tick, as when its writes are throttled) is unmeasured, not
 * kept: without a broken promise or an error, such a run exits 3.
 * Everything happens in a scratch directory made under DIR and removed at
 * the end, on error and on SIGINT, SIGTERM or SIGHUP.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include "xstat.h"
#include "check-changes.h"
#include "check-promises.h"
#include "fs.h"
#include "out.h"
#include "quote.h"

#define ROUNDS_DEFAULT	8
#define ROUNDS_MAX	100000
/* rounds made again because they straddled a tick, at most, per cell */
#define RETRIES		100

enum way { W_PATH, W_FD, W_STREAM, W_NWAYS };

static const char *const way_names[W_NWAYS] = {
	"xstat", "fxstat", "dirstream",
};
static const char *const type_names[CK_NTYPES] = {
	"regular", "directory", "symlink",
};

static const struct xstat_parameters params = {
	.request_mask = XSTAT_REQUEST__BASIC_STATS |
			XSTAT_REQUEST_DATA_VERSION |
			XSTAT_REQUEST_CHANGE_TOKEN | XSTAT_REQUEST_DV_PROMISE,
};

/* What one call saw. */
struct seen {
	bool		has_token, has_dv;
	uint64_t	token, promise;
	uint64_t	dv, dv_promise;
	struct xstat_time ctime;
};

/* One cell: a type, a change, a way, over its rounds. */
struct cell {
	unsigned	rounds, token_moved, token_broken;
	unsigned	dv_rounds, dv_moved, dv_broken, ctime_moved;
	uint64_t	promise, dv_promise;	/* of the first round */
	int		skip_errno;		/* the change cannot be made */
	int		error;			/* errno of a failure */
	const char	*error_what;
};

struct run {
	const char	*dir;
	int		scratch;	/* the scratch directory */
	int		rounds;
	bool		json;
	char		fs[64];
	unsigned	ok, broken, unmeasured, skipped, errors;
};

/* The exit status of a run whose only fault is an unmeasured cell. */
#define EXIT_UNMEASURED	3

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

bool check_promises_asked(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--check-promises"))
			return true;
	return false;
}

static void usage(void)
{
	printf(
"Usage: xstat --check-promises [--rounds=N] [--json] DIR\n"
"Make every kind of change to a regular file, a directory and a symbolic\n"
"link in a scratch directory under DIR, each right after asking for its\n"
"change token, and tell whether the token (and the data version, and the\n"
"ctime) moved wherever the promise the library reports says it must.\n"
"\n"
"      --rounds=N   rounds per type, change and way of asking (default %d)\n"
"  -j, --json       print one JSON object per cell\n"
"  -h, --help       show this help and exit\n"
"\n"
"Exit status: 0 every promise kept, 1 a promise broken, 2 an error,\n"
"3 a cell measured in fewer rounds than asked (and none broken).\n",
	       ROUNDS_DEFAULT);
}

static int parse_rounds(const char *s)
{
	long v = 0;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9' && v <= ROUNDS_MAX; p++)
		v = v * 10 + (*p - '0');
	if (p == s || *p || v < 1 || v > ROUNDS_MAX)
		usage_error("invalid number of rounds: %s (1 to %d)",
			    quote_n(0, s, QS_LOCALE), ROUNDS_MAX);
	return (int)v;
}

static void parse(int argc, char **argv, struct run *run)
{
	static const struct option longopts[] = {
		{ "check-promises", no_argument, NULL, 'C' },
		{ "rounds", required_argument, NULL, 'R' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			break;
		case 'R':
			run->rounds = parse_rounds(optarg);
			break;
		case 'j':
			run->json = true;
			break;
		case 'h':
			usage();
			exit(0);
		default:
			usage_error("--check-promises takes only --rounds "
				    "and --json");
		}
	}
	if (argc - optind != 1)
		usage_error("--check-promises needs one directory");
	run->dir = argv[optind];
}

/* The mount's type from /proc/self/mountinfo, else statfs's name. */
static void fs_name(struct run *run, const struct stat *st,
		    unsigned long magic)
{
	char line[4096], buf[32];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	unsigned maj, min;

	snprintf(run->fs, sizeof(run->fs), "%s", fs_type_name(magic, buf));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");
		char type[48];

		if (sscanf(line, "%*u %*u %u:%u", &maj, &min) != 2 || !sep ||
		    makedev(maj, min) != st->st_dev ||
		    sscanf(sep + 3, "%47s", type) != 1)
			continue;
		snprintf(run->fs, sizeof(run->fs), "%s", type);
		break;
	}
	fclose(f);
}

static int from_stream(int dfd, const char *name, union xstat_buffer *b,
		       size_t *len)
{
	struct xstat_dir *d = xstat_opendir(dfd, "", AT_EMPTY_PATH, &params);
	const struct xstat_dirent *e;
	int ret = ENOENT;

	if (!d)
		return errno;
	errno = 0;
	while ((e = xstat_readdir(d))) {
		if (strcmp(e->d_name, name))
			continue;
		ret = e->d_error;
		if (!ret) {
			*len = e->d_xstat_len < sizeof(*b) ?
			       e->d_xstat_len : sizeof(*b);
			memcpy(b, e->d_xstat, *len);
		}
		break;
	}
	if (!e && errno)
		ret = errno;
	xstat_closedir(d);
	return ret;
}

static int ask(enum way w, const struct ck_round *r, int fd, struct seen *s)
{
	union xstat_buffer b;
	const struct xstat_change_token *t;
	const struct xstat_dv_promise *p;
	size_t len = 0;
	ssize_t n;
	int ret;

	if (w == W_STREAM) {
		ret = from_stream(r->dfd, r->name, &b, &len);
		if (ret)
			return ret;
	} else {
		n = w == W_PATH ? xstat(r->dfd, r->name, AT_SYMLINK_NOFOLLOW,
					&params, &b.x, sizeof(b)) :
				  fxstat(fd, 0, &params, &b.x, sizeof(b));
		if (n < 0)
			return errno;
		len = (size_t)n < sizeof(b) ? (size_t)n : sizeof(b);
	}
	memset(s, 0, sizeof(*s));
	t = xstat_extra_change_token(&b.x, len);
	p = xstat_extra_dv_promise(&b.x, len);
	if (t) {
		s->has_token = true;
		s->token = t->token;
		s->promise = t->promise;
	}
	if (b.x.st_result_mask & XSTAT_REQUEST_DATA_VERSION) {
		s->has_dv = true;
		s->dv = b.x.st_data_version;
		s->dv_promise = p ? p->promise : 0;
	}
	s->ctime = b.x.st_ctim;
	return 0;
}

static uint64_t needs(const struct ck_change *c)
{
	return XSTAT_PROMISE_EVERY_CHANGE |
	       (c->kind == CK_META ? XSTAT_PROMISE_METADATA : 0) |
	       (c->kind == CK_NAMES ? XSTAT_PROMISE_NAMES : 0);
}

static int open_target(const struct ck_round *r)
{
	int flags = O_NOFOLLOW | O_CLOEXEC;

	if (r->type == CK_LNK)
		flags |= O_PATH;
	else if (r->type == CK_DIR)
		flags |= O_RDONLY | O_DIRECTORY;
	else
		flags |= O_RDONLY;
	return openat(r->dfd, r->name, flags);
}

static long coarse_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME_COARSE, &ts);
	return (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void fail(struct cell *cell, const char *what, int e)
{
	if (!cell->error) {
		cell->error = e;
		cell->error_what = what;
	}
}

/* The changes a file system may refuse: the cell is skipped, not failed. */
static bool unsupported(int e)
{
	return e == EINVAL || e == EOPNOTSUPP || e == ENOTTY ||
	       e == ENOSYS || e == EXDEV || e == EPERM || e == EACCES;
}

/*
 * One round in the directory "r" of the scratch directory: 1 if it must
 * be made again (it straddled a tick), else 0 (the cell says what
 * happened).
 */
static int one_round(const struct run *run, const struct ck_change *c,
		     enum ck_type type, enum way w, struct cell *cell)
{
	struct ck_round r = { .type = type };
	struct seen before, after;
	int fd = -1, e, again = 0;
	uint64_t need = needs(c);
	long t0;

	if (mkdirat(run->scratch, "r", 0755)) {
		fail(cell, "mkdir", errno);
		return 0;
	}
	r.dfd = openat(run->scratch, "r", O_RDONLY | O_DIRECTORY |
		       O_NOFOLLOW | O_CLOEXEC);
	if (r.dfd < 0) {
		fail(cell, "open", errno);
		goto remove;
	}
	e = ck_round_setup(&r);
	if (e) {
		fail(cell, "setup", e);
		goto out;
	}
	if (c->prepare) {
		e = c->prepare(&r);
		if (e) {
			if (unsupported(e))
				cell->skip_errno = e;
			else
				fail(cell, "prepare", e);
			goto out;
		}
	}
	if (w == W_FD && (fd = open_target(&r)) < 0) {
		fail(cell, "open", errno);
		goto out;
	}

	t0 = coarse_now();
	e = ask(w, &r, fd, &before);
	if (e) {
		fail(cell, way_names[w], e);
		goto out;
	}
	e = c->make(&r);
	if (coarse_now() != t0) {
		again = 1;
		goto out;
	}
	if (e) {
		if (unsupported(e))
			cell->skip_errno = e;
		else
			fail(cell, c->name, e);
		goto out;
	}
	e = ask(w, &r, fd, &after);
	if (e) {
		fail(cell, way_names[w], e);
		goto out;
	}

	if (!cell->rounds) {
		cell->promise = before.promise;
		cell->dv_promise = before.dv_promise;
	}
	cell->rounds++;
	if (!before.has_token || !after.has_token) {
		fail(cell, "no change token", ENODATA);
		goto out;
	}
	if (before.token != after.token)
		cell->token_moved++;
	else if ((before.promise & need) == need)
		cell->token_broken++;
	if (before.has_dv && after.has_dv) {
		cell->dv_rounds++;
		if (before.dv != after.dv)
			cell->dv_moved++;
		else if ((before.dv_promise & need) == need)
			cell->dv_broken++;
	}
	if (before.ctime.tv_sec != after.ctime.tv_sec ||
	    before.ctime.tv_nsec != after.ctime.tv_nsec)
		cell->ctime_moved++;
out:
	if (fd >= 0)
		close(fd);
	ck_round_release(&r);
	if (r.dfd >= 0) {
		e = ck_remove_under(r.dfd);
		if (e)
			fail(cell, "remove", e);
		close(r.dfd);
	}
remove:
	if (unlinkat(run->scratch, "r", AT_REMOVEDIR))
		fail(cell, "remove", errno);
	return again;
}

static void run_cell(const struct run *run, const struct ck_change *c,
		     enum ck_type type, enum way w, struct cell *cell)
{
	int i, tries = 0;

	memset(cell, 0, sizeof(*cell));
	/*
	 * The store is into a fresh mapping, so it faults on every file
	 * system; a store into a page already mapped writable and dirty is
	 * seen by no timestamp or counter (xstat.h) and is not made.
	 */
	for (i = 0; i < run->rounds && !stop_signal; i++) {
		if (one_round(run, c, type, w, cell) && ++tries < RETRIES)
			i--;
		if (cell->error || cell->skip_errno)
			break;
	}
}

static void flag_names(FILE *f, uint64_t p, bool json)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} flags[] = {
		{ XSTAT_PROMISE_EVERY_CHANGE, "every" },
		{ XSTAT_PROMISE_TICK, "tick" },
		{ XSTAT_PROMISE_METADATA, "meta" },
		{ XSTAT_PROMISE_NAMES, "names" },
	};
	const char *sep = "";
	size_t i;

	if (json)
		fputc('[', f);
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (!(p & flags[i].bit))
			continue;
		fprintf(f, json ? "%s\"%s\"" : "%s%s", sep, flags[i].name);
		sep = json ? "," : "+";
	}
	if (json)
		fputc(']', f);
	else if (!*sep)
		fputc('-', f);
}

/* "every+meta+names": the flags a verdict depends on, for the table. */
static const char *promise_names(uint64_t p, char buf[32])
{
	snprintf(buf, 32, "%s%s%s", p & XSTAT_PROMISE_EVERY_CHANGE ?
		 "every" : p & XSTAT_PROMISE_TICK ? "tick" : "none",
		 p & XSTAT_PROMISE_METADATA ? "+meta" : "",
		 p & XSTAT_PROMISE_NAMES ? "+names" : "");
	return buf;
}

enum verdict { V_OK, V_BROKEN, V_UNMEASURED, V_SKIPPED, V_ERROR };

/*
 * A broken promise is one whatever the rounds; a cell with fewer rounds
 * than asked (ticks straddled past the retries, a signal) has not been
 * measured enough to call its promise kept.
 */
static enum verdict cell_verdict(const struct run *run,
				 const struct cell *cell)
{
	if (cell->error)
		return V_ERROR;
	if (cell->skip_errno)
		return V_SKIPPED;
	if (cell->token_broken || cell->dv_broken)
		return V_BROKEN;
	if (cell->rounds < (unsigned)run->rounds)
		return V_UNMEASURED;
	return V_OK;
}

static const char *verdict(const struct run *run, const struct cell *cell,
			   char *buf, size_t len)
{
	switch (cell_verdict(run, cell)) {
	case V_ERROR:
		snprintf(buf, len, "error: %s: %s", cell->error_what,
			 strerror(cell->error));
		break;
	case V_SKIPPED:
		snprintf(buf, len, "skipped: %s", strerror(cell->skip_errno));
		break;
	case V_BROKEN:
		snprintf(buf, len, "BROKEN");
		break;
	case V_UNMEASURED:
		snprintf(buf, len, "unmeasured: %u of %d rounds",
			 cell->rounds, run->rounds);
		break;
	default:
		snprintf(buf, len, "ok");
	}
	return buf;
}

static const char *const verdict_names[] = {
	[V_OK] = "ok", [V_BROKEN] = "broken", [V_UNMEASURED] = "unmeasured",
	[V_SKIPPED] = "skipped", [V_ERROR] = "error",
};

static void print_json(const struct run *run, const struct ck_change *c,
		       enum ck_type type, enum way w, const struct cell *cell)
{
	FILE *f = out_fp();

	fprintf(f, "{\"fs\":\"%s\",\"type\":\"%s\",\"change\":\"%s\","
		"\"way\":\"%s\",\"rounds\":%u,\"token_moved\":%u,"
		"\"token_broken\":%u,", run->fs, type_names[type], c->name,
		way_names[w], cell->rounds, cell->token_moved,
		cell->token_broken);
	if (cell->dv_rounds)
		fprintf(f, "\"dv_rounds\":%u,\"dv_moved\":%u,"
			"\"dv_broken\":%u,\"dv_promise\":", cell->dv_rounds,
			cell->dv_moved, cell->dv_broken);
	if (cell->dv_rounds)
		flag_names(f, cell->dv_promise, true);
	else
		fputs("\"dv_rounds\":0,\"dv_moved\":null,\"dv_broken\":null,"
		      "\"dv_promise\":null", f);
	fprintf(f, ",\"ctime_moved\":%u,\"promise\":", cell->ctime_moved);
	if (cell->rounds)
		flag_names(f, cell->promise, true);
	else
		fputs("null", f);
	fputs(",\"needs\":", f);
	flag_names(f, needs(c), true);
	fprintf(f, ",\"rounds_asked\":%d,\"verdict\":\"%s\"", run->rounds,
		verdict_names[cell_verdict(run, cell)]);
	fprintf(f, ",\"errno\":%d}\n",
		cell->error ? cell->error : cell->skip_errno);
	out_record_end(false);
}

static void count(const char *s, unsigned n, unsigned rounds, FILE *f)
{
	char buf[24];

	if (!rounds)
		snprintf(buf, sizeof(buf), "%s", s);
	else
		snprintf(buf, sizeof(buf), "%u/%u", n, rounds);
	fprintf(f, "%-7s", buf);
}

static void print_row(const struct run *run, const struct ck_change *c,
		      enum ck_type type, enum way w, const struct cell *cell)
{
	FILE *f = out_fp();
	char buf[128], pbuf[32];

	fprintf(f, "%-10s%-14s%-10s", type_names[type], c->name,
		way_names[w]);
	count("-", cell->token_moved, cell->rounds, f);
	count("-", cell->dv_moved, cell->dv_rounds, f);
	count("-", cell->ctime_moved, cell->rounds, f);
	fprintf(f, "%-17s%s\n",
		cell->rounds ? promise_names(cell->promise, pbuf) : "-",
		verdict(run, cell, buf, sizeof(buf)));
	out_record_end(false);
}

/* Everything the scratch directory holds, and itself. */
static int remove_scratch(int parent, const char *name, int scratch)
{
	int e = ck_remove_under(scratch);

	close(scratch);
	if (unlinkat(parent, name, AT_REMOVEDIR) && !e)
		e = errno;
	return e;
}

static void check_all(struct run *run)
{
	enum ck_type type;
	enum way w;
	size_t i;

	for (type = 0; type < CK_NTYPES; type++)
		for (i = 0; i < ck_nchanges; i++) {
			const struct ck_change *c = &ck_changes[i];

			if (!(c->types & CK_TYPE(type)))
				continue;
			for (w = 0; w < W_NWAYS; w++) {
				struct cell cell;

				if (stop_signal)
					return;
				run_cell(run, c, type, w, &cell);
				if (run->json)
					print_json(run, c, type, w, &cell);
				else
					print_row(run, c, type, w, &cell);
				switch (cell_verdict(run, &cell)) {
				case V_ERROR:
					run->errors++;
					break;
				case V_SKIPPED:
					run->skipped++;
					break;
				case V_BROKEN:
					run->broken++;
					break;
				case V_UNMEASURED:
					run->unmeasured++;
					break;
				default:
					run->ok++;
				}
			}
		}
}

int check_promises_main(int argc, char **argv)
{
	struct run run = { .rounds = ROUNDS_DEFAULT, .scratch = -1 };
	char name[] = ".xstat-check-promises.XXXXXX";
	struct statfs sfs;
	struct stat st;
	int parent, e, i, status;

	parse(argc, argv, &run);
	parent = open(run.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (parent < 0 || fstat(parent, &st) || fstatfs(parent, &sfs)) {
		warn_msg(errno, "cannot open directory %s",
			 quote_n(0, run.dir, QS_LOCALE));
		return EXIT_USAGE;
	}
	if (faccessat(parent, ".", W_OK | X_OK, AT_EACCESS)) {
		warn_msg(errno, "cannot make a scratch directory in %s",
			 quote_n(0, run.dir, QS_LOCALE));
		close(parent);
		return EXIT_USAGE;
	}
	fs_name(&run, &st, (unsigned long)sfs.f_type);

	catch_signals();
	/* a random name, made with mkdirat(): nothing of DIR's is touched */
	for (i = 0, e = EEXIST; i < 100 && e == EEXIST; i++) {
		unsigned long v = (unsigned long)random() ^
				  ((unsigned long)getpid() << 12) ^
				  (unsigned long)coarse_now();
		int k;

		for (k = 0; k < 6; k++, v /= 36)
			name[sizeof(name) - 7 + k] =
				"0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
		e = mkdirat(parent, name, 0700) ? errno : 0;
	}
	if (!e) {
		run.scratch = openat(parent, name, O_RDONLY | O_DIRECTORY |
				     O_NOFOLLOW | O_CLOEXEC);
		if (run.scratch < 0) {
			e = errno;
			unlinkat(parent, name, AT_REMOVEDIR);
		}
	}
	if (e) {
		warn_msg(e, "cannot make a scratch directory in %s",
			 quote_n(0, run.dir, QS_LOCALE));
		close(parent);
		return EXIT_USAGE;
	}

	if (!run.json) {
		fprintf(out_fp(), "%s (%s), %d round%s a cell, uid %u\n"
			"%-10s%-14s%-10s%-7s%-7s%-7s%-17s%s\n",
			quote_n(0, run.dir, QS_LOCALE), run.fs, run.rounds,
			run.rounds == 1 ? "" : "s", (unsigned)geteuid(),
			"type", "change", "way", "token", "dv", "ctime",
			"promise", "verdict");
		out_record_end(false);
	}
	check_all(&run);

	e = remove_scratch(parent, name, run.scratch);
	close(parent);
	if (e) {
		warn_msg(e, "cannot remove %s/%s",
			 quote_n(0, run.dir, QS_LOCALE), name);
		run.errors++;
	}
	if (stop_signal) {
		out_flush();
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
		return EXIT_USAGE;
	}
	if (!run.json) {
		fprintf(out_fp(), "%u cells: %u kept, %u broken, "
			"%u unmeasured, %u skipped, %u errors\n",
			run.ok + run.broken + run.unmeasured + run.skipped +
			run.errors, run.ok, run.broken, run.unmeasured,
			run.skipped, run.errors);
		out_record_end(false);
	}
	status = run.broken ? 1 : run.errors ? EXIT_USAGE :
		 run.unmeasured ? EXIT_UNMEASURED : 0;
	return out_finish(status);
}
