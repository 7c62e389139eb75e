// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What this build of the library knows, for programs built against a
 * newer header: the request bits it acts on (it ignores the others).
 */
#include "internal.h"

XS_EXPORT unsigned long long xstat_known_mask(void)
{
	return XSTAT_REQUEST__ALL_STATS;
}
