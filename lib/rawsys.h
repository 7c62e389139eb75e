/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The system calls of every call, issued inline on x86_64: libc's
 * syscall() and pread() wrappers measurably cost more where each system
 * call flushes the TLB (bench/RESULTS.md).
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
/*
 * statx(2).  A success must have written the struct: the kernel copies
 * all of it out and never sets STATX__RESERVED.  A seccomp filter that
 * answers SECCOMP_RET_ERRNO with 0 returns success and writes nothing;
 * the reserved bit preset here is then still in place, and the call is
 * reported as -ENOSYS (statx unusable), so that the caller checks statx
 * with its probe and falls back instead of reading stale bytes.
 */
static inline long xs_raw_statx(int dfd, const char *path, unsigned flags,
				unsigned mask, struct xs_statx *buf)
{
	long ret;

	if (buf)
		buf->stx_mask = XS_STATX__RESERVED;
#ifdef XS_RAW_INLINE
	ret = xs_raw_syscall5(XS_NR_statx, dfd, (long)path, flags, mask,
			      (long)buf);
#else
	ret = syscall(XS_NR_statx, dfd, path, flags, mask, buf);
	if (ret == -1)
		ret = -errno;
#endif
	if (ret == 0 && buf && (buf->stx_mask & XS_STATX__RESERVED))
		return -ENOSYS;
	return ret;
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
 * The device prober's open, read and close: no libc wrapper, so no errno
 * written and no cancellation point inside xstat() (a thread cancelled
 * there would leak the descriptor).  openat(2): fd or -errno.
 */
static inline int xs_raw_openat(int dfd, const char *path, int flags)
{
#ifdef XS_RAW_INLINE
	return (int)xs_raw_syscall5(SYS_openat, dfd, (long)path, flags, 0, 0);
#else
	long fd = syscall(SYS_openat, dfd, path, flags, 0);

	return fd < 0 ? -errno : (int)fd;
#endif
}

static inline void xs_raw_close(int fd)
{
#ifdef XS_RAW_INLINE
	xs_raw_syscall5(SYS_close, fd, 0, 0, 0, 0);
#else
	syscall(SYS_close, fd);
#endif
}

/* read(2): bytes read, or -errno. */
static inline long xs_raw_read(int fd, void *buf, size_t len)
{
#ifdef XS_RAW_INLINE
	return xs_raw_syscall5(SYS_read, fd, (long)buf, (long)len, 0, 0);
#else
	long n = syscall(SYS_read, fd, buf, len);

	return n < 0 ? -errno : n;
#endif
}

#if defined(__i386__)
/*
 * The i386 kernel's struct stat64 (arch/x86/include/uapi/asm/stat.h), as
 * fstatat64(2) fills it.  glibc's fstatat on i386 is statx(2) underneath
 * and falls back only on ENOSYS, so behind a filter that answers EPERM it
 * would fail exactly where the fallback backend is needed.
 */
struct xs_kstat64 {
	unsigned long long dev;
	unsigned char pad0[4];
	unsigned long ino32;
	unsigned int mode;
	unsigned int nlink;
	unsigned long uid;
	unsigned long gid;
	unsigned long long rdev;
	unsigned char pad3[4];
	long long size;
	unsigned long blksize;
	unsigned long long blocks;
	unsigned long atime, atime_nsec;
	unsigned long mtime, mtime_nsec;
	unsigned long ctime, ctime_nsec;
	unsigned long long ino;
};
_Static_assert(sizeof(struct xs_kstat64) == 96, "i386 kernel stat64");

static inline int xs_raw_fstatat(int dfd, const char *path, struct stat *sb,
				 int flags)
{
	struct xs_kstat64 k;

	*sb = (struct stat){ 0 };
	if (syscall(SYS_fstatat64, dfd, path, &k, flags))
		return -errno;
	sb->st_dev = k.dev;
	sb->st_ino = k.ino;
	sb->st_mode = k.mode;
	sb->st_nlink = k.nlink;
	sb->st_uid = k.uid;
	sb->st_gid = k.gid;
	sb->st_rdev = k.rdev;
	sb->st_size = k.size;
	sb->st_blksize = k.blksize;
	sb->st_blocks = k.blocks;
	/* The kernel's times here are unsigned 32-bit seconds. */
	sb->st_atim.tv_sec = k.atime;
	sb->st_atim.tv_nsec = k.atime_nsec;
	sb->st_mtim.tv_sec = k.mtime;
	sb->st_mtim.tv_nsec = k.mtime_nsec;
	sb->st_ctim.tv_sec = k.ctime;
	sb->st_ctim.tv_nsec = k.ctime_nsec;
	return 0;
}
#else
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
#endif

#endif /* LIBXSTAT_RAWSYS_H */
