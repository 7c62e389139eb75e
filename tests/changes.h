/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A file changed in each of the ways a data version or a change token
 * must see: tests/test-ext4-dv.c (the data version) and tests/test-token.c
 * (the change token) make the same changes and compare what they see.
 */
#ifndef XSTAT_TESTS_CHANGES_H
#define XSTAT_TESTS_CHANGES_H

#include <sys/types.h>

enum chg_kind {
	CHG_APPEND, CHG_OVERWRITE, CHG_MMAP_STORE, CHG_CHMOD, CHG_CHOWN,
	CHG_SETXATTR, CHG_UTIMENSAT, CHG_TRUNCATE, CHG_LINK, CHG_RENAME,
	CHG_NKINDS
};

/* "append write", ...: a test's name and what its messages say. */
extern const char *const chg_name[CHG_NKINDS];

struct chg_target {
	char		path[300];
	char		other[310];	/* path.other: for link and rename */
	int		fd;		/* read-write */
	char		*map;		/* its first 4096 bytes, shared */
};

/*
 * Create @dir/@name with @mode: 8192 zero bytes, open and mapped.  0, or
 * -1 with errno set.  chg_close() unmaps, closes and removes it.
 */
int chg_open(struct chg_target *t, const char *dir, const char *name,
	     mode_t mode);
void chg_close(struct chg_target *t);

/* The @i-th change of kind @c (@i varies what is written): 0, or 1. */
int chg_make(struct chg_target *t, enum chg_kind c, int i);

#endif
