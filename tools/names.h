/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * User and group names for %U, %G and the layouts, looked up once per id
 * and thread for the run, as find -ls and ls -l do (gnulib's idcache): a
 * lookup reads /etc/passwd or asks NSS each time, a walk prints the same
 * few ids thousands of times.  Bounded: a small table per thread, one
 * slot per id hash; a name that does not fit a slot is looked up anew.
 */
#ifndef XSTAT_TOOL_NAMES_H
#define XSTAT_TOOL_NAMES_H

#include <sys/types.h>

/* The name of @uid, or NULL; valid until the thread's next call. */
const char *user_name(uid_t uid);

/* The name of @gid, or NULL; valid until the thread's next call. */
const char *group_name(gid_t gid);

#endif
