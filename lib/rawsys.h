/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The system calls the hot path makes: each returns what the kernel
 * returned, a result or -errno in [-4095, -1], and leaves errno as it
 * was, without libc's named wrappers.  Not every call of the library
 * goes through here: the anchor's and the probes' openat() (through
 * xs_open_eintr()) and close() are libc's, which are cancellation points,
 * so a thread cancelled with deferred cancellation inside such a call may
 * leak the descriptor it had open (xstat(3), "Cancellation", says so).
 * The ext4 device is opened, read and closed through here.
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
/*
 * x86_64: the syscall instruction, inline (rax, then rdi rsi rdx r10 r8;
 * rcx r11 clobbered).  Against libc's syscall() with errno saved and put
 * back, it saves 2-6% of a call (bench/RESULTS.md, "Cleverness").
 */
static inline long xs_raw_syscall(long nr, long a1, long a2, long a3,
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
#else
/*
 * Elsewhere libc's syscall(), which is no cancellation point; its
 * -1/errno made -errno again, and errno put back as it was.
 */
static inline long xs_raw_syscall(long nr, long a1, long a2, long a3,
				  long a4, long a5)
{
	int saved = errno;
	long ret = syscall(nr, a1, a2, a3, a4, a5);

	if (ret == -1)
		ret = -errno;
	errno = saved;
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
	ret = xs_raw_syscall(XS_NR_statx, dfd, (long)path, flags, mask,
			     (long)buf);
	if (ret == 0 && buf && (buf->stx_mask & XS_STATX__RESERVED))
		return -ENOSYS;
	return ret;
}
#endif

/* pread(2) of @len bytes at @off: bytes read, or -errno. */
static inline long xs_raw_pread(int fd, void *buf, size_t len, uint64_t off)
{
#if __SIZEOF_LONG__ == 8
	return xs_raw_syscall(SYS_pread64, fd, (long)buf, (long)len,
			      (long)off, 0);
#elif defined(__i386__)
	return xs_raw_syscall(SYS_pread64, fd, (long)buf, (long)len,
			      (long)(uint32_t)off, (long)(off >> 32));
#else
	/* other 32-bit ABIs split the offset their own way: libc's */
	int saved = errno;
	ssize_t n = pread(fd, buf, len, (off_t)off);

	if (n < 0)
		n = -errno;
	errno = saved;
	return n;
#endif
}

/* The device prober's open, read and close.  openat(2): fd or -errno. */
static inline int xs_raw_openat(int dfd, const char *path, int flags)
{
	return (int)xs_raw_syscall(SYS_openat, dfd, (long)path, flags, 0, 0);
}

static inline void xs_raw_close(int fd)
{
	xs_raw_syscall(SYS_close, fd, 0, 0, 0, 0);
}

/* read(2): bytes read, or -errno. */
static inline long xs_raw_read(int fd, void *buf, size_t len)
{
	return xs_raw_syscall(SYS_read, fd, (long)buf, (long)len, 0, 0);
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
	long ret;

	*sb = (struct stat){ 0 };
	ret = xs_raw_syscall(SYS_fstatat64, dfd, (long)path, (long)&k, flags,
			     0);
	if (ret)
		return (int)ret;
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
#if defined(__x86_64__) && !defined(__ILP32__)
	_Static_assert(sizeof(struct stat) == 144, "kernel struct stat");
	return (int)xs_raw_syscall(SYS_newfstatat, dfd, (long)path, (long)sb,
				   flags, 0);
#else
	int saved = errno, ret = fstatat(dfd, path, sb, flags) ? -errno : 0;

	errno = saved;
	return ret;
#endif
}
#endif

#endif /* LIBXSTAT_RAWSYS_H */
