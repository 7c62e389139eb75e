// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * For test-ext4-nohold's setuid case: one xstat(BTIME) of argv[1].  Exit
 * 0 if the creation time came back, 1 if not, 2 on an error.  Linked with
 * the library's static core, since a setuid program ignores
 * LD_LIBRARY_PATH.  On a tmpfs file only statx gives a creation time, so
 * the answer says which backend ran: 1 means LIBXSTAT_NO_STATX was obeyed.
 * With --secure after the file: 5 when not run in secure mode (AT_SECURE).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include "xstat.h"

int main(int argc, char **argv)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS |
				      XSTAT_REQUEST_BTIME };
	struct xstat x;

	/* --secure: exit 5 where the kernel did not run it in secure mode
	 * (a setuid bit that a user-mode emulator's interpreter ignores). */
	if (argc == 3 && !strcmp(argv[2], "--secure") &&
	    !getauxval(AT_SECURE))
		return 5;
	if (argc < 2 || argc > 3 ||
	    xstat(AT_FDCWD, argv[1], 0, &p, &x, sizeof(x)) < 0)
		return 2;
	return x.st_result_mask & XSTAT_REQUEST_BTIME ? 0 : 1;
}
