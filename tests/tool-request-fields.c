// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * For tests/tool-request.sh: each %{directive} of fields.h and the
 * request bit it must ask for, as the public header spells that bit, one
 * "directive 0xbit" a line.
 */
#include <stdio.h>
#include "xstat.h"
#include "fields.h"

int main(void)
{
	const char *d;

#define XS_DIRECTIVE(NAME, name, member, kind, directive, ...)		\
	d = directive;							\
	if (d)								\
		printf("%s %#llx\n", d,					\
		       (unsigned long long)XSTAT_REQUEST_##NAME);
	XS_EXTRA_MEMBERS(XS_DIRECTIVE)
	return 0;
}
