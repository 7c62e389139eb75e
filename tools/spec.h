/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One directive's printf part ('%', flags, width, precision) and the
 * printers that apply it to a value, keeping for each kind of value only
 * the flags stat(1) keeps, so that xstat and stat print the same bytes.
 */
#ifndef XSTAT_TOOL_SPEC_H
#define XSTAT_TOOL_SPEC_H

#include <stddef.h>
#include <stdint.h>
#include "xstat.h"

struct spec {
	char fmt[64];
	size_t len;		/* of the prefix in @fmt */
};

/* The printf flags a directive may carry. */
#define SPEC_FLAGS	"'-+ #0I"

/* Offset of the conversion character of the directive at @d ('%'). */
size_t directive_len(const char *d);

int out_string(const struct spec *s, const char *arg);
void out_int(const struct spec *s, intmax_t arg);
void out_uint(const struct spec *s, uintmax_t arg);
void out_uint_o(const struct spec *s, uintmax_t arg);
void out_uint_x(const struct spec *s, uintmax_t arg);
/* A string with every flag but 'I' kept (stat's %C). */
void out_string_all_flags(const struct spec *s, const char *arg);
/* Seconds since the Epoch, as stat's %X %Y %Z %W. */
void out_epoch_sec(const struct spec *s, const struct xstat_time *t);

#endif
