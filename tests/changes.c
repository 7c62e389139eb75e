// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The changes of tests/changes.h, one place for the data version's and
 * the change token's tests: a kind of change both must see is made the
 * same way in both.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include "testhelp.h"
#include "changes.h"

const char *const chg_name[CHG_NKINDS] = {
	"append write", "same-size overwrite", "mmap store + msync", "chmod",
	"chown", "setxattr", "utimensat", "truncate", "link", "rename",
};

int chg_open(struct chg_target *t, const char *dir, const char *name,
	     mode_t mode)
{
	static const char zero[8192];

	th_pathf(t->path, sizeof(t->path), "%s/%s", dir, name);
	th_pathf(t->other, sizeof(t->other), "%s/%s.other", dir, name);
	unlink(t->other);
	t->fd = open(t->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (t->fd < 0 || write(t->fd, zero, sizeof(zero)) != sizeof(zero))
		return -1;
	t->map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
	return t->map == MAP_FAILED ? -1 : 0;
}

void chg_close(struct chg_target *t)
{
	munmap(t->map, 4096);
	close(t->fd);
	unlink(t->path);
	unlink(t->other);
}

int chg_make(struct chg_target *t, enum chg_kind c, int i)
{
	struct timespec ts[2] = { { 1000000 + i, 0 }, { 2000000 + i, 0 } };
	char b[16];

	memset(b, 'a' + i % 26, sizeof(b));
	switch (c) {
	case CHG_APPEND:
		return pwrite(t->fd, b, 1, 8192 + i) != 1;
	case CHG_OVERWRITE:
		return pwrite(t->fd, b, sizeof(b), 0) != sizeof(b);
	case CHG_MMAP_STORE:
		/* msync cleans the page: the next store faults again. */
		t->map[i % 4096] = b[0];
		return msync(t->map, 4096, MS_SYNC) != 0;
	case CHG_CHMOD:
		return fchmod(t->fd, i % 2 ? 0600 : 0644) != 0;
	case CHG_CHOWN:
		/* nobody may only "change" to its own group: still a change */
		return fchown(t->fd, (uid_t)-1, getegid()) != 0;
	case CHG_SETXATTR:
		return fsetxattr(t->fd, "user.change", b, 1 + i % 8, 0) != 0;
	case CHG_UTIMENSAT:
		return futimens(t->fd, ts) != 0;
	case CHG_TRUNCATE:
		return ftruncate(t->fd, 4096 * (2 + (i + 1) % 2)) != 0;
	case CHG_LINK:
		return i % 2 ? unlink(t->other) != 0
			     : link(t->path, t->other) != 0;
	case CHG_RENAME:
		return rename(t->path, t->other) || rename(t->other, t->path);
	default:
		return 1;
	}
}
