// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * huge_alloc(): anonymous memory, aligned to and advised for huge pages
 * from HUGE_SIZE up.  Where the kernel has no transparent huge pages
 * (or none free), the advice is ignored and the memory is plain pages.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "hugemem.h"

#define HUGE_SIZE	((size_t)2 << 20)

bool huge_pages_off(void)
{
	char buf[128];
	ssize_t n;
	int fd;

	/* unreadable (no /sys): the advice may still be taken */
	fd = open("/sys/kernel/mm/transparent_hugepage/enabled",
		  O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strstr(buf, "[never]") != NULL;
}

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
