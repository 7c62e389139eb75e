/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The system calls of the hot paths, issued inline on x86_64.  A call
 * through libc's syscall() or pread() runs libc code (and, through the
 * PLT, reads the GOT) on pages of their own; where every system call
 * flushes the TLB (page-table isolation without PCID), each of those pages
 * costs a page walk afterwards.  Inline, a call is the instruction itself.
 *
 * They return what the kernel returned: a result, or -errno in
 * [-4095, -1].  errno is not touched.  Elsewhere they go through libc and
 * translate its -1/errno back, so callers see one convention.
 */
#ifndef LIBXSTAT_RAWSYS_H
#define LIBXSTAT_RAWSYS_H

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "syscall.h"

/* A kernel return that is an error: -4095 .. -1. */
#define XS_RAW_IS_ERR(r)	((unsigned long)(r) >= -4095UL)

#if defined(__x86_64__) && !defined(__ILP32__)
#define XS_RAW_INLINE	1

/* The x86_64 convention: rax, then rdi rsi rdx r10 r8; rcx r11 clobbered. */
static inline long xs_raw_syscall5(long nr, long a1, long a2, long a3,
				   long a4, long a5)
{
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	long ret;

	__asm__ volatile ("syscall"
			  : "=a" (ret)
			  : "0" (nr), "D" (a1), "S" (a2), "d" (a3),
			    "r" (r10), "r" (r8)
			  : "rcx", "r11", "memory");
	return ret;
}
#endif

#ifdef XS_NR_statx
static inline long xs_raw_statx(int dfd, const char *path, unsigned flags,
				unsigned mask, void *buf)
{
#ifdef XS_RAW_INLINE
	return xs_raw_syscall5(XS_NR_statx, dfd, (long)path, flags, mask,
			       (long)buf);
#else
	long ret = syscall(XS_NR_statx, dfd, path, flags, mask, buf);

	return ret == -1 ? -errno : ret;
#endif
}
#endif

/* pread(2) of @len bytes at @off: bytes read, or -errno. */
static inline long xs_raw_pread(int fd, void *buf, size_t len, uint64_t off)
{
#ifdef XS_RAW_INLINE
	return xs_raw_syscall5(SYS_pread64, fd, (long)buf, (long)len,
			       (long)off, 0);
#else
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n < 0 ? -errno : n;
#endif
}

/*
 * fstatat(2): 0 or -errno.  On x86_64 libc's struct stat is the kernel's
 * (both 144 bytes, same fields), so newfstatat fills it directly.
 */
static inline int xs_raw_fstatat(int dfd, const char *path, struct stat *sb,
				 int flags)
{
#ifdef XS_RAW_INLINE
	_Static_assert(sizeof(struct stat) == 144, "kernel struct stat");
	return (int)xs_raw_syscall5(SYS_newfstatat, dfd, (long)path,
				    (long)sb, flags, 0);
#else
	return fstatat(dfd, path, sb, flags) ? -errno : 0;
#endif
}

#endif /* LIBXSTAT_RAWSYS_H */
