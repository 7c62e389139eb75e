/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bulk_uring.c: io_uring read-ahead of a batch's inodes for
 * bulk_window.c, and the sampling that decides when it pays.  Kept apart
 * from the kernel definitions of syscall.h, since liburing brings the
 * host's.
 */
#ifndef LIBXSTAT_BULK_URING_H
#define LIBXSTAT_BULK_URING_H

#include <stddef.h>
#include <stdint.h>

/*
 * Statx operations ever handed to a ring by this process (relaxed atomic):
 * a test hook (TEST_CORE_LIBS), hidden from the library's users.
 */
extern __attribute__((visibility("hidden"))) unsigned long xs_bulk_uring_sqes;

/* io_uring may be used (built with liburing, not disabled or refused). */
int bulk_uring_usable(void);
/* LIBXSTAT_URING=always: use it without measuring (tests). */
int bulk_uring_forced(void);
/*
 * statx(@dfd, @names[i], @flags, @mask) for each of the @n names through
 * one ring, answers discarded; 0 or -errno (then nothing is assumed).
 */
int bulk_uring_prefetch(int dfd, const char *const *names, size_t n,
			unsigned flags, unsigned mask);
/* @calls plain statx calls took @ns: they waited for the disk. */
int bulk_uring_cold(uint64_t ns, unsigned calls);
uint64_t bulk_uring_now(void);

#endif
