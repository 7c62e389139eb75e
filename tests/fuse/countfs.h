/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * countfs: a passthrough FUSE filesystem that counts the requests the
 * kernel sends it, so tests can tell how many server round trips one
 * xstat() call costs.  The counters live in a file both sides mmap, so
 * reading them causes no FUSE traffic at all.
 */
#ifndef XSTAT_COUNTFS_H
#define XSTAT_COUNTFS_H

#include <stdint.h>
#include <sys/types.h>

/* FUSE opcodes the tests look at (protocol numbers, not libfuse's). */
#define CFS_LOOKUP	1
#define CFS_GETATTR	3
#define CFS_OPEN	14
#define CFS_STATFS	17
#define CFS_RELEASE	18
#define CFS_FLUSH	25
#define CFS_OPENDIR	27
#define CFS_ACCESS	34
#define CFS_IOCTL	39
#define CFS_STATX	52

#define CFS_NOPS	64	/* opcodes >= this are counted in op[0] */
#define CFS_MAGIC	0x63667331u	/* "cfs1" */

struct cfs_counters {
	uint32_t	magic;
	uint32_t	server_pid;
	uint64_t	total;		/* every request, INIT included */
	uint64_t	op[CFS_NOPS];
};

/* A running countfs mount, for tests and benchmarks (cfsmount.c). */
struct cfs {
	char		dir[256];	/* scratch: src/, mnt/, counters */
	char		src[300];	/* the directory passed through */
	char		mnt[300];	/* the mount point */
	pid_t		pid;		/* server, or 0 */
	volatile struct cfs_counters *cnt;
};

/*
 * Start "countfs -f" on a fresh scratch directory.  @bin is the countfs
 * program; @attr_timeout is in seconds; @btime, if nonzero, makes the
 * server answer FUSE_STATX with that creation time for every file.
 * Returns 0, 77 if FUSE cannot be used here (no /dev/fuse, not root),
 * or -1 on failure (with a message on stderr).
 */
int cfs_start(struct cfs *c, const char *bin, double attr_timeout,
	      int64_t btime);

/* The same with one more countfs option @extra (NULL: none). */
int cfs_start_opt(struct cfs *c, const char *bin, double attr_timeout,
		  int64_t btime, const char *extra);

/* Unmount, stop the server, remove the scratch directory.  Idempotent. */
void cfs_stop(struct cfs *c);

/* Requests of opcode @op so far, and all requests so far. */
uint64_t cfs_count(const struct cfs *c, unsigned op);
uint64_t cfs_total(const struct cfs *c);

/* GETATTR plus STATX: the attribute round trips. */
uint64_t cfs_attr_requests(const struct cfs *c);

/* Path of the countfs binary: $COUNTFS, else $top_builddir/tests/fuse/. */
const char *cfs_binary(char *buf, size_t len);

#endif
