/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The conversions the format engine (format.c) dispatches to: stat's
 * file directives (format-stat.c), libxstat's %{name} fields
 * (format-named.c), the ones that look again at the file system
 * (lookup.c) and stat -f's (fs.c).
 */
#ifndef XSTAT_TOOL_CONV_H
#define XSTAT_TOOL_CONV_H

#include <stdbool.h>
#include "format.h"
#include "result.h"
#include "spec.h"

/* One stat conversion @c (modifier @mod 'H', 'L', 'Q' or 0). */
bool file_conv(const struct spec *s, char mod, char c,
	       const struct file_result *r, const struct format_opts *o);

/* The request bits stat conversion @c needs (0: none). */
unsigned long long file_conv_need(char c);

struct named;

/* The %{name} from @p (after '{') to '}', or NULL; @skip past the '}'. */
const struct named *find_named(const char *p, size_t *skip);
void out_named(const struct spec *s, const struct named *n,
	       const struct file_result *r);
unsigned long long named_need(const struct named *n);

/* %N, %m, %C: false (a message printed) if the lookup failed. */
bool out_quoted_name(const struct spec *s, const struct file_result *r,
		     enum quoting_style style);
bool out_mount_point(const struct spec *s, const struct file_result *r);
bool out_context(const struct spec *s, const struct file_result *r);

/* One stat -f conversion @c of @fs. */
struct fs_result;
void fs_conv(const struct spec *s, char c, const struct fs_result *fs);

#endif
