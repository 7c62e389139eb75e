/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_CMTIME_H
#define LIBXSTAT_CMTIME_H

#include <stdint.h>
#include "xstat.h"

/*
 * The change and modification times a caller did not ask for.  The
 * library asks statx for the ctime on its own behalf: a data version or
 * a change token arms the inode's next change with it
 * (xs_statx_request()), and a directory stream's raw batch checks each
 * raw inode against it.  With multigrain timestamps (Linux 6.13+) statx
 * then reports the ctime and the mtime, which it leaves out when neither
 * is asked for: a caller who asked for neither has them dropped again
 * (xs_stat_drop_cmtime()), and gets the answer a plain call gives, from
 * xstat() and from a directory stream alike.
 */
#define XS_CMTIME	(XSTAT_REQUEST_CTIME | XSTAT_REQUEST_MTIME)

/* Did @request ask for neither time? */
static inline int xs_cmtime_unasked(uint64_t request)
{
	return !(request & XS_CMTIME);
}

#endif /* LIBXSTAT_CMTIME_H */
