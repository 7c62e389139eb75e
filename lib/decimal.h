/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_DECIMAL_H
#define LIBXSTAT_DECIMAL_H

#include <stdint.h>

/*
 * decimal.c: decimal numbers without snprintf() and strtoull(), which
 * POSIX does not list as async-signal-safe (xstat() is, like stat(2)).
 * xs_put_u64(): the digits of @v at @p, no terminator; returns the end
 * (at most 20 characters).  xs_fd_name(): descriptor @fd as a terminated
 * name (at least 12 bytes).  xs_get_u64(): the digits at @p, after
 * blanks; returns the first character after them, or NULL if there are
 * none or the value overflows.
 */
char *xs_put_u64(char *p, uint64_t v);
char *xs_fd_name(char *p, int fd);
const char *xs_get_u64(const char *p, uint64_t *v);

#endif /* LIBXSTAT_DECIMAL_H */
