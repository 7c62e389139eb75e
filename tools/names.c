// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The id-to-name caches.  One table per thread, so that the walk's
 * workers take no lock to read them; the cost is one lookup per id per
 * thread.  An id that has no name is cached as such.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "names.h"

#define SLOTS		64	/* per table: a power of two */
#define NAME_ROOM	48	/* longer names are not cached */
#define LOOKUP_BUF	16384	/* getpwuid_r()'s room, grown on ERANGE */

struct slot {
	unsigned	id;
	bool		used;
	bool		known;	/* the id has a name */
	char		name[NAME_ROOM];
};

struct table {
	struct slot	slot[SLOTS];
	char		*big;	/* the last name too long for a slot */
};

static __thread struct table users, groups;

/* The uncached lookup: a name into malloc'ed memory, or NULL. */
static char *lookup(unsigned id, bool group)
{
	size_t size = LOOKUP_BUF;
	char *buf = NULL, *name = NULL;
	int err;

	for (;;) {
		char *nbuf = realloc(buf, size);
		struct passwd pw, *pwp = NULL;
		struct group gr, *grp = NULL;

		if (!nbuf)
			break;
		buf = nbuf;
		if (group) {
			err = getgrgid_r(id, &gr, buf, size, &grp);
			if (!err && grp)
				name = strdup(grp->gr_name);
		} else {
			err = getpwuid_r(id, &pw, buf, size, &pwp);
			if (!err && pwp)
				name = strdup(pwp->pw_name);
		}
		if (err != ERANGE)
			break;
		size *= 2;
	}
	free(buf);
	return name;
}

static const char *cached(struct table *t, unsigned id, bool group)
{
	/* ids cluster at small numbers: the low bits spread them */
	struct slot *s = &t->slot[id & (SLOTS - 1)];
	char *name;

	if (s->used && s->id == id)
		return s->known ? s->name : NULL;
	name = lookup(id, group);
	if (name && strlen(name) >= NAME_ROOM) {
		free(t->big);
		t->big = name;
		return name;
	}
	s->used = true;
	s->id = id;
	s->known = name != NULL;
	if (name)
		strcpy(s->name, name);
	free(name);
	return s->known ? s->name : NULL;
}

const char *user_name(uid_t uid)
{
	return cached(&users, uid, false);
}

const char *group_name(gid_t gid)
{
	return cached(&groups, gid, true);
}
