/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --check-promises: the changes it makes, each on a fresh file of one
 * type in a directory of its own, and what each needs a change token to
 * promise before a token left equal by it is a broken promise.
 */
#ifndef XSTAT_TOOL_CHECK_CHANGES_H
#define XSTAT_TOOL_CHECK_CHANGES_H
#include <stddef.h>
#include <time.h>

enum ck_type { CK_REG, CK_DIR, CK_LNK, CK_NTYPES };

#define CK_TYPE(t)	(1u << (t))

/* What a change is, hence which promise flags it needs (CK_NEED_*). */
enum ck_kind {
	CK_DATA,	/* contents: EVERY_CHANGE */
	CK_META,	/* inode metadata: EVERY_CHANGE and METADATA */
	CK_NAMES,	/* a name of the file itself: EVERY_CHANGE and NAMES */
	CK_ENTRY,	/* an entry of the directory: EVERY_CHANGE */
};

/* One round's files: the directory @dfd holds the target, "t". */
struct ck_round {
	int		dfd;		/* the round's directory */
	enum ck_type	type;
	const char	*name;		/* the target's name, after a rename too */
	int		wfd;		/* regular target opened for writing */
	int		xfd;		/* another descriptor a change needs */
	int		sfd;		/* a source file (copy, reflink) */
	void		*map;		/* the target mapped shared */
	size_t		maplen;
	struct timespec	times[2];	/* the target's atime and mtime */
};

struct ck_change {
	const char	*name;
	unsigned	types;		/* CK_TYPE() of those it applies to */
	enum ck_kind	kind;
	/* after the target is made, before the first call: 0 or errno */
	int		(*prepare)(struct ck_round *r);
	/* the change itself, at once after the call: 0 or errno */
	int		(*make)(struct ck_round *r);
};

extern const struct ck_change ck_changes[];
extern const size_t ck_nchanges;

/* The size of a regular target, and the name of every target. */
#define CK_SIZE		8192
#define CK_TARGET	"t"

/* Make the target of @r->type in @r->dfd and fill @r; 0 or errno. */
int ck_round_setup(struct ck_round *r);

/* Close and unmap what the round holds (its files stay). */
void ck_round_release(struct ck_round *r);

/* Remove everything under the directory @dfd; 0 or errno. */
int ck_remove_under(int dfd);

#endif
