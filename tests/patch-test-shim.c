// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Runs the xstat() patch's own test program on libxstat: the program is
 * compiled unchanged with -Dsyscall=seed_syscall, and its syscall(300)
 * and syscall(301) (the patch's x86_64 numbers) come here.  Its structs
 * have libxstat's layout, which the ABI tests pin.
 */
#include <errno.h>
#include <stdarg.h>
#include "xstat.h"

long seed_syscall(long nr, ...);

long seed_syscall(long nr, ...)
{
	struct xstat_parameters *params;
	struct xstat *buf;
	const char *name;
	unsigned flags;
	size_t size;
	va_list ap;
	long ret;
	int fd;

	va_start(ap, nr);
	fd = va_arg(ap, int);
	if (nr == 300)
		name = va_arg(ap, const char *);
	flags = va_arg(ap, unsigned);
	params = va_arg(ap, struct xstat_parameters *);
	buf = va_arg(ap, struct xstat *);
	size = va_arg(ap, size_t);
	va_end(ap);
	/* the patch's AT_FORCE_ATTR_SYNC is 0x800, libxstat's 0x2000 */
	if (flags & 0x800)
		flags = (flags & ~0x800u) | AT_FORCE_ATTR_SYNC;
	if (nr == 300)
		ret = xstat(fd, name, flags, params, buf, size);
	else if (nr == 301)
		ret = fxstat((unsigned)fd, flags, params, buf, size);
	else
		ret = (errno = ENOSYS, -1);
	return ret;
}
