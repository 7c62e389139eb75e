// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --check-promises: the changes.  Each is as small as the kind allows and
 * leaves the size, mode, owner and times alone where it can (chmod and
 * chown to what the file has, utimes to the times it has), so that only
 * the ctime or a data version can show it: those are the changes a
 * promise is most likely to miss.  Everything is made relative to the
 * round's directory descriptor, never by a path from elsewhere.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include "check-changes.h"

#define XATTR_NAME	"user.xstat-check"
#define REG_MODE	0644
#define DIR_MODE	0755

static int err(int ret)
{
	return ret < 0 ? errno : 0;
}

/* A regular file @name of CK_SIZE bytes of @fill; its fd, or -errno. */
static int make_file(int dfd, const char *name, int fill)
{
	char buf[CK_SIZE];
	int fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
			REG_MODE);

	if (fd < 0)
		return -errno;
	memset(buf, fill, sizeof(buf));
	if (pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf)) {
		int e = errno ? errno : ENOSPC;

		close(fd);
		return -e;
	}
	return fd;
}

int ck_round_setup(struct ck_round *r)
{
	int fd;

	r->name = CK_TARGET;
	r->wfd = r->xfd = r->sfd = -1;
	r->map = NULL;
	switch (r->type) {
	case CK_REG:
		fd = make_file(r->dfd, CK_TARGET, 'a');
		if (fd < 0)
			return -fd;
		r->wfd = fd;
		return 0;
	case CK_DIR:
		/* an entry to remove or rename, a directory to remove */
		if (mkdirat(r->dfd, CK_TARGET, DIR_MODE) ||
		    mkdirat(r->dfd, CK_TARGET "/sub", DIR_MODE))
			return errno;
		fd = make_file(r->dfd, CK_TARGET "/e", 'e');
		if (fd < 0)
			return -fd;
		close(fd);
		return 0;
	default:
		return err(symlinkat("no-such-target", r->dfd, CK_TARGET));
	}
}

void ck_round_release(struct ck_round *r)
{
	if (r->map)
		munmap(r->map, r->maplen);
	if (r->wfd >= 0)
		close(r->wfd);
	if (r->xfd >= 0)
		close(r->xfd);
	if (r->sfd >= 0)
		close(r->sfd);
	r->map = NULL;
	r->wfd = r->xfd = r->sfd = -1;
}

int ck_remove_under(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return errno;
	}
	while ((e = readdir(d))) {
		int sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!unlinkat(dfd, e->d_name, 0))
			continue;
		if (errno != EISDIR && errno != EPERM) {
			ret = errno;
			continue;
		}
		sub = openat(dfd, e->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			ret = errno;
			continue;
		}
		if (!ret)
			ret = ck_remove_under(sub);
		close(sub);
		if (unlinkat(dfd, e->d_name, AT_REMOVEDIR) && !ret)
			ret = errno;
	}
	closedir(d);
	return ret;
}

/* Data. */

static int make_write(struct ck_round *r)
{
	return pwrite(r->wfd, "c", 1, 100) == 1 ? 0 : errno ? errno : EIO;
}

static int prep_direct(struct ck_round *r)
{
	r->xfd = openat(r->dfd, r->name, O_WRONLY | O_DIRECT | O_CLOEXEC);
	return r->xfd < 0 ? errno : 0;
}

static int make_direct(struct ck_round *r)
{
	static char buf[4096] __attribute__((aligned(4096)));

	memset(buf, 'd', sizeof(buf));
	return pwrite(r->xfd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf) ?
	       0 : errno ? errno : EIO;
}

/* A fresh shared mapping: the first store faults, whatever the page. */
static int prep_mapped(struct ck_round *r)
{
	void *p = mmap(NULL, CK_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		       r->wfd, 0);

	if (p == MAP_FAILED)
		return errno;
	r->map = p;
	r->maplen = CK_SIZE;
	return 0;
}

static int make_mapped(struct ck_round *r)
{
	((volatile char *)r->map)[200] = 'm';
	return 0;
}

static int make_truncate(struct ck_round *r)
{
	return err(ftruncate(r->wfd, CK_SIZE / 2));
}

static int make_fallocate(struct ck_round *r)
{
	return err(fallocate(r->wfd, 0, CK_SIZE, 4096));
}

static int make_punch(struct ck_round *r)
{
	return err(fallocate(r->wfd, FALLOC_FL_PUNCH_HOLE |
			     FALLOC_FL_KEEP_SIZE, 0, 4096));
}

static int prep_source(struct ck_round *r)
{
	int fd = make_file(r->dfd, "s", 'b');

	if (fd < 0)
		return -fd;
	r->sfd = fd;
	return 0;
}

static int make_copy(struct ck_round *r)
{
	loff_t in = 0, out = 0;
	ssize_t n = copy_file_range(r->sfd, &in, r->wfd, &out, 4096, 0);

	return n > 0 ? 0 : n < 0 ? errno : EIO;
}

static int make_reflink(struct ck_round *r)
{
	return err(ioctl(r->wfd, FICLONE, r->sfd));
}

/* Metadata. */

static int make_chmod(struct ck_round *r)
{
	return err(fchmodat(r->dfd, r->name,
			    r->type == CK_DIR ? DIR_MODE : REG_MODE, 0));
}

static int make_chown(struct ck_round *r)
{
	return err(fchownat(r->dfd, r->name, (uid_t)-1, (gid_t)-1,
			    AT_SYMLINK_NOFOLLOW));
}

static int make_utimes(struct ck_round *r)
{
	static const struct timespec past[2] = {
		{ 1000000000, 0 }, { 1000000000, 0 },
	};

	return err(utimensat(r->dfd, r->name, past, AT_SYMLINK_NOFOLLOW));
}

static int prep_times(struct ck_round *r)
{
	struct stat st;

	if (fstatat(r->dfd, r->name, &st, AT_SYMLINK_NOFOLLOW))
		return errno;
	r->times[0] = st.st_atim;
	r->times[1] = st.st_mtim;
	return 0;
}

static int make_same_times(struct ck_round *r)
{
	return err(utimensat(r->dfd, r->name, r->times, AT_SYMLINK_NOFOLLOW));
}

static int prep_xattr_fd(struct ck_round *r)
{
	r->xfd = openat(r->dfd, r->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	return r->xfd < 0 ? errno : 0;
}

static int make_xattr_set(struct ck_round *r)
{
	return err(fsetxattr(r->xfd, XATTR_NAME, "1", 1, 0));
}

static int prep_xattr_remove(struct ck_round *r)
{
	return prep_xattr_fd(r) ? errno : make_xattr_set(r);
}

static int make_xattr_remove(struct ck_round *r)
{
	return err(fremovexattr(r->xfd, XATTR_NAME));
}

/* Names of the file itself. */

static int make_link(struct ck_round *r)
{
	return err(linkat(r->dfd, r->name, r->dfd, "t-link", 0));
}

static int make_unlink(struct ck_round *r)
{
	return err(unlinkat(r->dfd, "t-link", 0));
}

static int make_rename(struct ck_round *r)
{
	if (renameat(r->dfd, r->name, r->dfd, "t-renamed"))
		return errno;
	r->name = "t-renamed";
	return 0;
}

/* Entries of a directory. */

static int prep_outside(struct ck_round *r)
{
	int fd = make_file(r->dfd, "x", 'x');

	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
}

static int make_create(struct ck_round *r)
{
	int fd = openat(r->dfd, CK_TARGET "/n",
			O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, REG_MODE);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int make_unlink_entry(struct ck_round *r)
{
	return err(unlinkat(r->dfd, CK_TARGET "/e", 0));
}

static int make_mkdir(struct ck_round *r)
{
	return err(mkdirat(r->dfd, CK_TARGET "/n", DIR_MODE));
}

static int make_rmdir(struct ck_round *r)
{
	return err(unlinkat(r->dfd, CK_TARGET "/sub", AT_REMOVEDIR));
}

static int make_rename_into(struct ck_round *r)
{
	return err(renameat(r->dfd, "x", r->dfd, CK_TARGET "/x"));
}

static int make_rename_out(struct ck_round *r)
{
	return err(renameat(r->dfd, CK_TARGET "/e", r->dfd, "x"));
}

static int make_rename_over(struct ck_round *r)
{
	return err(renameat(r->dfd, "x", r->dfd, CK_TARGET "/e"));
}

static int make_rename_within(struct ck_round *r)
{
	return err(renameat(r->dfd, CK_TARGET "/e", r->dfd, CK_TARGET "/e2"));
}

#define REG	CK_TYPE(CK_REG)
#define DIR_	CK_TYPE(CK_DIR)
#define LNK	CK_TYPE(CK_LNK)

const struct ck_change ck_changes[] = {
	{ "write",	   REG, CK_DATA, NULL, make_write },
	{ "write-direct",  REG, CK_DATA, prep_direct, make_direct },
	{ "mapped-store",  REG, CK_DATA, prep_mapped, make_mapped },
	{ "truncate",	   REG, CK_DATA, NULL, make_truncate },
	{ "fallocate",	   REG, CK_DATA, NULL, make_fallocate },
	{ "punch-hole",	   REG, CK_DATA, NULL, make_punch },
	{ "copy-range",	   REG, CK_DATA, prep_source, make_copy },
	{ "reflink",	   REG, CK_DATA, prep_source, make_reflink },
	{ "chmod",	   REG | DIR_, CK_META, NULL, make_chmod },
	{ "chown",	   REG | DIR_ | LNK, CK_META, NULL, make_chown },
	{ "utimes",	   REG | DIR_ | LNK, CK_META, NULL, make_utimes },
	{ "utimes-same",   REG | DIR_ | LNK, CK_META, prep_times,
	  make_same_times },
	{ "xattr-set",	   REG | DIR_, CK_META, prep_xattr_fd,
	  make_xattr_set },
	{ "xattr-remove",  REG | DIR_, CK_META, prep_xattr_remove,
	  make_xattr_remove },
	{ "link",	   REG | LNK, CK_NAMES, NULL, make_link },
	{ "unlink",	   REG | LNK, CK_NAMES, make_link, make_unlink },
	{ "rename",	   REG | DIR_ | LNK, CK_NAMES, NULL, make_rename },
	{ "entry-create",  DIR_, CK_ENTRY, NULL, make_create },
	{ "entry-unlink",  DIR_, CK_ENTRY, NULL, make_unlink_entry },
	{ "entry-mkdir",   DIR_, CK_ENTRY, NULL, make_mkdir },
	{ "entry-rmdir",   DIR_, CK_ENTRY, NULL, make_rmdir },
	{ "rename-into",   DIR_, CK_ENTRY, prep_outside, make_rename_into },
	{ "rename-out",	   DIR_, CK_ENTRY, NULL, make_rename_out },
	{ "rename-over",   DIR_, CK_ENTRY, prep_outside, make_rename_over },
	{ "rename-within", DIR_, CK_ENTRY, NULL, make_rename_within },
};

const size_t ck_nchanges = sizeof(ck_changes) / sizeof(ck_changes[0]);
