// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * io_uring read-ahead of a directory batch's inodes (liburing).
 *
 * A cold batch spends its time waiting for inode blocks, one entry after
 * the other.  IORING_OP_STATX on every entry of the batch, in inode order,
 * lets the kernel's workers wait for many at once; the answers are thrown
 * away and each entry is then stat'ed the plain way, now from the inode
 * cache, so results never depend on whether this ran.  On a hot cache it
 * only costs (bench/RESULTS.md), so bulk.c starts every stream without it
 * and turns it on when its sampled statx calls block (bulk_uring_cold()).
 *
 * io_uring operations are not seen by seccomp: a thread whose filter
 * refuses statx must not get statx through a ring, so bulk.c asks only
 * on the statx backend, and only after a statx of this thread's own
 * passed just before (a filter may arrive mid-stream).  kernel.io_uring_disabled = 2
 * or an io_uring_setup that fails (refused by seccomp, by the sysctl's
 * group rule, ENOMEM) turns it off for the process, remembered once.
 * LIBXSTAT_URING=always|never overrides the choice (tests).
 *
 * The ring lives inside one call: nothing stays open or mapped while the
 * caller's code runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "bulk_uring.h"
#include "internal.h"
#include "anchor.h"

/* Operations handed to a ring, for the tests: no filter can count them. */
unsigned long xs_bulk_uring_sqes;	/* atomic */

#ifdef HAVE_LIBURING
#include <liburing.h>

/* 0 unknown, 1 usable, 2 never (atomic: probed once, a fact) */
static int uring_state;
static int uring_forced;	/* 0: measure, 1: always, 2: never */

/*
 * kernel.io_uring_disabled, 0 where the kernel has no such switch.  In a
 * chroot or mount namespace /proc may be anything: a FIFO there would
 * block a plain open (O_NONBLOCK: it returns at once), and a file that
 * is not procfs's says nothing about the kernel.  Such a /proc answers
 * 2, io_uring not allowed: read-ahead is only an optimisation.
 */
static int read_disabled_sysctl(void)
{
	struct stat sb;
	char c = '0';
	ssize_t n;
	int fd = open("/proc/sys/kernel/io_uring_disabled",
		      O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return errno == ENOENT ? 0 : 2;	/* ENOENT: older kernel */
	if (!xs_fd_on_procfs(fd) ||
	    fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return 2;
	}
	n = XS_EINTR(xs_neg_errno(read(fd, &c, 1)));
	if (n != 1 || c < '0' || c > '9')
		c = '0';
	close(fd);
	return c - '0';
}

static int uring_state_get(void)
{
	int s = __atomic_load_n(&uring_state, __ATOMIC_RELAXED);
	const char *env;

	if (s)
		return s;
	env = secure_getenv("LIBXSTAT_URING");
	if (env && strcmp(env, "always") == 0)
		__atomic_store_n(&uring_forced, 1, __ATOMIC_RELAXED);
	else if (env && strcmp(env, "never") == 0)
		__atomic_store_n(&uring_forced, 2, __ATOMIC_RELAXED);
	/* 1: only for io_uring_group's members; setup says which we are */
	s = read_disabled_sysctl() >= 2 || uring_forced == 2 ? 2 : 1;
	__atomic_store_n(&uring_state, s, __ATOMIC_RELAXED);
	return s;
}

int bulk_uring_usable(void)
{
	return uring_state_get() == 1;
}

int bulk_uring_forced(void)
{
	return bulk_uring_usable() &&
	       __atomic_load_n(&uring_forced, __ATOMIC_RELAXED) == 1;
}

/* Window of statx operations in flight: the answers go to scratch. */
#define URING_DEPTH	128

int bulk_uring_prefetch(int dfd, const char *const *names, size_t n,
			unsigned flags, unsigned mask)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct statx *scratch;
	size_t i = 0, k, w;
	int ret;

	if (!bulk_uring_usable())
		return -ENOSYS;
	scratch = malloc(URING_DEPTH * sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	ret = io_uring_queue_init(URING_DEPTH, &ring, 0);
	if (ret < 0) {
		/* shortages pass; a refusal (EPERM, ENOSYS, EACCES) stays */
		if (ret != -ENOMEM && ret != -EMFILE && ret != -ENFILE &&
		    ret != -EAGAIN)
			__atomic_store_n(&uring_state, 2, __ATOMIC_RELAXED);
		free(scratch);
		return ret;
	}
	while (i < n) {
		w = n - i < URING_DEPTH ? n - i : URING_DEPTH;
		for (k = 0; k < w; k++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (!sqe)
				break;
			io_uring_prep_statx(sqe, dfd, names[i + k], (int)flags,
					    mask, &scratch[k]);
		}
		w = k;
		__atomic_add_fetch(&xs_bulk_uring_sqes, w, __ATOMIC_RELAXED);
		ret = io_uring_submit_and_wait(&ring, (unsigned)w);
		if (ret < 0)
			break;
		/* answers unused: only the inode cache is wanted */
		for (k = 0; k < w; k++) {
			if (io_uring_wait_cqe(&ring, &cqe) < 0)
				break;
			io_uring_cqe_seen(&ring, cqe);
		}
		i += w;
	}
	io_uring_queue_exit(&ring);
	free(scratch);
	return ret < 0 ? ret : 0;
}

#else	/* without liburing: the plain path only */

int bulk_uring_usable(void)
{
	return 0;
}

int bulk_uring_forced(void)
{
	return 0;
}

int bulk_uring_prefetch(int dfd, const char *const *names, size_t n,
			unsigned flags, unsigned mask)
{
	(void)dfd, (void)names, (void)n, (void)flags, (void)mask;
	return -ENOSYS;
}
#endif

/*
 * Sampled statx calls: a mean above this is waiting for the disk.  A hot
 * statx is about a microsecond; an inode read from even a fast SSD is
 * tens of them.
 */
#define COLD_NS		20000

int bulk_uring_cold(uint64_t ns, unsigned calls)
{
	return calls && ns / calls > COLD_NS;
}

uint64_t bulk_uring_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
