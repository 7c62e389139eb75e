/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The change token of directories and symbolic links: tests/token-types.c.
 */
#ifndef XSTAT_TESTS_TOKEN_TYPES_H
#define XSTAT_TESTS_TOKEN_TYPES_H

/*
 * In the writable directory @top of a mount of type @type: every kind of
 * change to a directory and to a symbolic link, each right after a call,
 * by path and by descriptor.  @strong: the case must promise every change
 * (multigrain timestamps), tmpfs directories excepted.  0, or 1 (failed;
 * the reasons are on stderr, prefixed with @label).
 */
int tt_check(const char *top, const char *label, const char *type,
	     int strong);

#endif
