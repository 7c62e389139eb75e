// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The change token of directories and symbolic links (test-token.c runs
 * it on every case).  Each kind of change is made right after a call,
 * well within one timestamp tick, and the next call's token must differ
 * wherever the earlier one promised every change.  A directory changes
 * when an entry is created, removed, linked or renamed in it; a symbolic
 * link when it is chowned, linked or renamed.
 *
 * The promise is held against an oracle of its own: with multigrain
 * timestamps every type promises every change on the strong cases,
 * except tmpfs directories, which take the changed entry's ctime rather
 * than a fine-grained time of their own and must say TICK (libxstat(7)).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "xstat.h"
#include "testhelp.h"
#include "token-types.h"

#define TOK	XSTAT_REQUEST_CHANGE_TOKEN
#define EVERY	XSTAT_PROMISE_EVERY_CHANGE
#define TICK	XSTAT_PROMISE_TICK
/* Sampled in make check, in full under XSTAT_CHECK_FULL=1 (th_rounds()). */
#define ROUNDS	((int)th_rounds(50, 200))

enum tt_kind {
	DIR_SWAP,	/* unlink one entry, create another */
	DIR_LINK,	/* link a file into it, unlink it the next round */
	DIR_SUBDIR,	/* rmdir one subdirectory, mkdir another */
	DIR_RENAME,	/* rename an entry within it */
	LNK_CHOWN,	/* lchown to the same owner: ctime only */
	LNK_LINK,	/* a second name for the link, removed the next round */
	LNK_RENAME,	/* rename it there and back */
	TT_NKINDS
};

static const char *const kind_name[TT_NKINDS] = {
	"dir unlink+create", "dir link/unlink", "dir rmdir+mkdir",
	"dir rename inside", "symlink lchown", "symlink link/unlink",
	"symlink rename",
};

static int is_dir_kind(enum tt_kind k)
{
	return k <= DIR_RENAME;
}

struct tt {
	char	dir[300];	/* the directory under test */
	char	keep[310];	/* a file beside it, linked into it */
	char	lnk[2][310];	/* the symlink's two names */
	int	at;		/* which of them it has now */
};

static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int setup(struct tt *t, const char *top)
{
	char p[400];

	th_pathf(t->dir, sizeof(t->dir), "%s/tt-dir", top);
	th_pathf(t->keep, sizeof(t->keep), "%s/tt-keep", top);
	th_pathf(t->lnk[0], sizeof(t->lnk[0]), "%s/tt-lnk0", top);
	th_pathf(t->lnk[1], sizeof(t->lnk[1]), "%s/tt-lnk1", top);
	t->at = 0;
	if (mkdir(t->dir, 0755) || touch(t->keep) ||
	    symlink("tt-keep", t->lnk[0]))
		return -1;
	th_pathf(p, sizeof(p), "%s/e0", t->dir);
	if (touch(p))
		return -1;
	th_pathf(p, sizeof(p), "%s/r0", t->dir);
	if (touch(p))
		return -1;
	th_pathf(p, sizeof(p), "%s/s0", t->dir);
	return mkdir(p, 0755);
}

static void teardown(const struct tt *t)
{
	th_rmrf(t->dir);
	unlink(t->keep);
	unlink(t->lnk[0]);
	unlink(t->lnk[1]);
}

/* The @i-th change of kind @k: 0, or -1 with errno set. */
static int change(struct tt *t, enum tt_kind k, int i)
{
	char a[400], b[400];
	int from = i & 1, to = !(i & 1);

	switch (k) {
	case DIR_SWAP:
		th_pathf(a, sizeof(a), "%s/e%d", t->dir, from);
		th_pathf(b, sizeof(b), "%s/e%d", t->dir, to);
		return unlink(a) || touch(b) ? -1 : 0;
	case DIR_LINK:
		th_pathf(a, sizeof(a), "%s/l", t->dir);
		return from ? unlink(a) : link(t->keep, a);
	case DIR_SUBDIR:
		th_pathf(a, sizeof(a), "%s/s%d", t->dir, from);
		th_pathf(b, sizeof(b), "%s/s%d", t->dir, to);
		return rmdir(a) || mkdir(b, 0755) ? -1 : 0;
	case DIR_RENAME:
		th_pathf(a, sizeof(a), "%s/r%d", t->dir, from);
		th_pathf(b, sizeof(b), "%s/r%d", t->dir, to);
		return rename(a, b);
	case LNK_CHOWN:
		return fchownat(AT_FDCWD, t->lnk[t->at], (uid_t)-1, (gid_t)-1,
				AT_SYMLINK_NOFOLLOW);
	case LNK_LINK:
		if (from)
			return unlink(t->lnk[!t->at]);
		return linkat(AT_FDCWD, t->lnk[t->at], AT_FDCWD,
			      t->lnk[!t->at], 0);
	case LNK_RENAME:
		if (rename(t->lnk[t->at], t->lnk[!t->at]))
			return -1;
		t->at = !t->at;
		return 0;
	default:
		errno = EINVAL;
		return -1;
	}
}

/* The token of the kind's file, by path or by a descriptor: 0 or -1. */
static int token(const struct tt *t, enum tt_kind k, uint64_t mask,
		 int by_fd, struct xstat_change_token *tok)
{
	struct xstat_parameters p = { mask };
	const struct xstat_change_token *e;
	const char *path = is_dir_kind(k) ? t->dir : t->lnk[t->at];
	union xstat_buffer b;
	ssize_t ret;
	int fd;

	if (by_fd) {
		fd = open(path, is_dir_kind(k) ?
			  O_RDONLY | O_DIRECTORY | O_CLOEXEC :
			  O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -1;
		ret = fxstat(fd, 0, &p, &b.x, sizeof(b));
		close(fd);
	} else {
		ret = xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p, &b.x,
			    sizeof(b));
	}
	if (ret < 0)
		return -1;
	e = xstat_extra_change_token(&b.x, (size_t)ret);
	if (!e)
		return -1;
	*tok = *e;
	return 0;
}

/* One kind, one mask, one way of asking: 0 or 1 (failed). */
static int run_kind(struct tt *t, enum tt_kind k, uint64_t mask, int by_fd,
		    const char *label, int want_every)
{
	struct xstat_change_token prev, tok;
	int i, missed = 0, none = 0, wrong = 0, dishonest = 0;

	if (token(t, k, mask, by_fd, &prev))
		none++;
	for (i = 0; i < ROUNDS; i++) {
		if (change(t, k, i)) {
			fprintf(stderr, "%s: %s: %s\n", label, kind_name[k],
				strerror(errno));
			return 1;
		}
		if (token(t, k, mask, by_fd, &tok)) {
			none++;
			continue;
		}
		dishonest += !(tok.promise & EVERY) == !(tok.promise & TICK);
		wrong += !!(tok.promise & EVERY) != want_every;
		missed += (prev.promise & EVERY) && tok.token == prev.token;
		prev = tok;
	}
	if (!missed && !none && !wrong && !dishonest)
		return 0;
	fprintf(stderr, "FAIL: %s: %s, mask %#llx, %s: %d missed, %d "
		"without a token, %d not promising %s, %d neither every-change "
		"nor tick, of %d\n", label, kind_name[k],
		(unsigned long long)mask, by_fd ? "fxstat" : "xstat", missed,
		none, wrong, want_every ? "every change" : "tick", dishonest,
		ROUNDS);
	return 1;
}

int tt_check(const char *top, const char *label, const char *type,
	     int strong)
{
	static const uint64_t masks[] = {
		TOK, TOK | XSTAT_REQUEST__BASIC_STATS,
		TOK | XSTAT_REQUEST_DATA_VERSION,
	};
	struct tt t;
	int k, by_fd, failed = 0;
	size_t m;

	if (setup(&t, top)) {
		fprintf(stderr, "%s: setup: %s\n", label, strerror(errno));
		teardown(&t);
		return 1;
	}
	for (k = 0; k < TT_NKINDS; k++) {
		/* the oracle: tmpfs directories take their entries' ctime */
		int want_every = strong &&
			!(is_dir_kind((enum tt_kind)k) && !strcmp(type, "tmpfs"));

		for (m = 0; m < sizeof(masks) / sizeof(masks[0]); m++)
			for (by_fd = 0; by_fd < 2; by_fd++)
				failed |= run_kind(&t, (enum tt_kind)k,
						   masks[m], by_fd, label,
						   want_every);
	}
	teardown(&t);
	return failed;
}
