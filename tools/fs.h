/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * -f/--file-system: the status of the file system a file is on, from
 * statfs(2), with stat -f's layout and directives.
 */
#ifndef XSTAT_TOOL_FS_H
#define XSTAT_TOOL_FS_H

#include <sys/vfs.h>

struct fs_result {
	const char *name;	/* as the user gave it */
	struct statfs st;
};

/* stat -f's default layout and its terse form (-t). */
#define FS_LAYOUT \
	"  File: \"%n\"\n" \
	"    ID: %-8i Namelen: %-7l Type: %T\n" \
	"Block size: %-10s Fundamental block size: %S\n" \
	"Blocks: Total: %-10b Free: %-10f Available: %a\n" \
	"Inodes: Total: %-10c Free: %d\n"
#define FS_TERSE	"%n %i %l %t %s %S %b %f %a %c %d\n"

/* The name stat -f gives the file system type @magic ("UNKNOWN (0x..)"). */
const char *fs_type_name(unsigned long magic, char buf[32]);

#endif
