/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Large tables (a snapshot's text, entries and hash buckets) in memory
 * the kernel may back with 2 MiB pages.  A table of tens of megabytes in
 * 4 KiB pages costs a fault or a first touch per page, which on a
 * virtual machine can cost microseconds each; in huge pages, a few.
 */
#ifndef XSTAT_TOOL_HUGEMEM_H
#define XSTAT_TOOL_HUGEMEM_H

#include <stdbool.h>
#include <stddef.h>

/* @size bytes of zeroed memory, or NULL (errno set). */
void *huge_alloc(size_t size);

/* Free what huge_alloc(@size) returned (NULL: nothing). */
void huge_free(void *p, size_t size);

/*
 * Is a file of @size bytes better read into huge_alloc()'s memory than
 * mapped?  Not where the kernel says it gives no huge pages (a fault per
 * plain page costs more than the mapping), nor where @size is over an
 * eighth of the memory this process may fill (the machine's, or less
 * where its cgroup is limited): unlike a mapping's page cache, memory
 * read into cannot be reclaimed without swap.
 */
bool huge_read_fits(size_t size);

#endif
