// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Decimal numbers in and out without the C library's formatting and
 * parsing, which POSIX does not list as async-signal-safe: xstat() is,
 * like stat(2), and names /proc entries and reads /proc files.
 */
#include <stddef.h>
#include "decimal.h"

char *xs_put_u64(char *p, uint64_t v)
{
	char digits[20];
	int n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n)
		*p++ = digits[--n];
	return p;
}

/* Its digits counted first, then written from the last: no copy. */
char *xs_fd_name(char *p, int fd)
{
	uint32_t v = (uint32_t)fd, w;
	char *q = p + 1;

	for (w = v; w >= 10; w /= 10)
		q++;
	*q = '\0';
	do
		*--q = (char)('0' + v % 10);
	while (v /= 10);
	return p;
}

const char *xs_get_u64(const char *p, uint64_t *v)
{
	uint64_t r = 0;
	const char *start;

	while (*p == ' ' || *p == '\t')
		p++;
	for (start = p; *p >= '0' && *p <= '9'; p++) {
		if (r > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return NULL;
		r = r * 10 + (uint64_t)(*p - '0');
	}
	if (p == start)
		return NULL;
	*v = r;
	return p;
}
