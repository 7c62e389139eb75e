// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * huge_alloc(): anonymous memory, aligned to and advised for huge pages
 * from HUGE_SIZE up.  Where the kernel has no transparent huge pages
 * (or none free), the advice is ignored and the memory is plain pages.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "hugemem.h"

#define HUGE_SIZE	((size_t)2 << 20)

static size_t span(size_t size)
{
	size_t unit = size < HUGE_SIZE ? (size_t)sysconf(_SC_PAGESIZE)
				       : HUGE_SIZE;

	return (size + unit - 1) & ~(unit - 1);
}

void *huge_alloc(size_t size)
{
	size_t len = span(size ? size : 1), lead;
	char *p;

	if (len < HUGE_SIZE) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	if (len + HUGE_SIZE < len)
		return NULL;
	/* over-map, then cut to a HUGE_SIZE boundary on both sides */
	p = mmap(NULL, len + HUGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	lead = (HUGE_SIZE - ((uintptr_t)p & (HUGE_SIZE - 1))) &
	       (HUGE_SIZE - 1);
	if (lead)
		munmap(p, lead);
	munmap(p + lead + len, HUGE_SIZE - lead);
	p += lead;
	(void)madvise(p, len, MADV_HUGEPAGE);
	return p;
}

void huge_free(void *p, size_t size)
{
	if (p)
		munmap(p, span(size ? size : 1));
}

/* A small text file's contents, NUL-terminated; false if unreadable. */
static bool read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

static bool huge_pages_off(void)
{
	char buf[128];

	/* unreadable (no /sys): the advice may still be taken */
	return read_small("/sys/kernel/mm/transparent_hugepage/enabled",
			  buf, sizeof(buf)) && strstr(buf, "[never]");
}

/* @limit lowered to the number in @path, where it holds one. */
static void lower_to(uint64_t *limit, const char *path)
{
	char buf[64], *end;
	unsigned long long v;

	if (!read_small(path, buf, sizeof(buf)) || buf[0] < '0' ||
	    buf[0] > '9')
		return;		/* none, or "max" */
	v = strtoull(buf, &end, 10);
	if ((*end == '\n' || *end == '\0') && v < *limit)
		*limit = v;
}

/* Is @name one of the comma-separated @list? */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (; *list; list += strcspn(list, ","), list += *list == ',')
		if (!strncmp(list, name, n) && (!list[n] || list[n] == ','))
			return true;
	return false;
}

/*
 * The lowest memory limit of the process's cgroup: cgroup v2's
 * memory.max of it and each cgroup above it, cgroup v1's memory
 * controller's limit of its own.  Paths as /proc/self/cgroup gives them
 * ("ID:CONTROLLERS:PATH" a line), under /sys/fs/cgroup.
 */
static void lower_to_cgroup(uint64_t *limit)
{
	char list[8192], path[8256], *line, *next, *ctl, *dir, *cut;

	if (!read_small("/proc/self/cgroup", list, sizeof(list)))
		return;
	for (line = list; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		ctl = strchr(line, ':');
		dir = ctl ? strchr(++ctl, ':') : NULL;
		if (!dir || dir[1] != '/')
			continue;
		*dir++ = '\0';
		if (!*ctl) {			/* "0::PATH": v2 */
			for (;;) {
				snprintf(path, sizeof(path),
					 "/sys/fs/cgroup%s/memory.max",
					 dir[1] ? dir : "");
				lower_to(limit, path);
				cut = strrchr(dir, '/');
				if (cut == dir)
					break;
				*cut = '\0';
			}
		} else if (listed(ctl, "memory")) {	/* v1 */
			snprintf(path, sizeof(path), "/sys/fs/cgroup/memory%s"
				 "/memory.limit_in_bytes", dir[1] ? dir : "");
			lower_to(limit, path);
		}
	}
}

bool huge_read_fits(size_t size)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t limit = UINT64_MAX;

	if (huge_pages_off())
		return false;
	if (pages > 0 && page > 0)
		limit = (uint64_t)pages * (uint64_t)page;
	lower_to_cgroup(&limit);
	return size <= limit / 8;
}
