// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The directives that look at the file system again, beyond the xstat()
 * result: %N's symlink target, %m's mount point, %C's security context.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include "conv.h"
#include "out.h"

/* %N: the quoted name, and for a symlink " -> " and its quoted target. */
bool out_quoted_name(const struct spec *s, const struct file_result *r,
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
	fprintf(out_fp(), " -> ");
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
bool out_mount_point(const struct spec *s, const struct file_result *r)
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
bool out_context(const struct spec *s, const struct file_result *r)
{
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
		out_string_all_flags(s, "?");
		return false;
	}
	ctx[n] = '\0';
	out_string_all_flags(s, ctx);
	return true;
}
