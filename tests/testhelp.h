/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the test programs: skips, fd counting, running the
 * oracles (coreutils stat, debugfs, lsattr), and loop-mounted images.
 * Each test program decides its skips (exit 77) before running its group.
 */
#ifndef XSTAT_TESTHELP_H
#define XSTAT_TESTHELP_H

#include <stddef.h>

#define TH_SKIP	77

/* Exit 77 with a reason unless running as root. */
void th_require_root(void);

/* Number of open file descriptors of this process (/proc/self/fd). */
int th_count_fds(void);

/*
 * cmocka setup and teardown that fail a test which leaves a descriptor
 * open: no fd may leak on any path.
 */
int th_fds_setup(void **state);
int th_fds_teardown(void **state);

/*
 * Run a shell command and capture its stdout (NUL-terminated, trailing
 * newline removed).  Returns the exit status, or -1 if it could not run.
 */
int th_run(char *out, size_t outlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * snprintf() into a path buffer that must not truncate: a test path that
 * does not fit aborts the test program (a failure, never a wrong path).
 */
void th_pathf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A fresh temporary directory under $TMPDIR or /tmp; removed by th_rmrf. */
char *th_mkdtemp(char *buf, size_t len);
void th_rmrf(const char *path);

/*
 * A loop-mounted filesystem image.  @mkfs is the command that formats the
 * image, with "%s" for its path ("mkfs.ext4 -q -b 1024 %s").  Returns 0,
 * or TH_SKIP if loop devices or the mkfs tool are missing (the caller
 * should then exit 77), or -1 on another failure.
 */
struct th_loop {
	char	image[256];
	char	mnt[256];
	char	dev[64];	/* /dev/loopN */
};
int th_loop_mount(struct th_loop *l, unsigned size_mb, const char *mkfs,
		  const char *mount_opts);
void th_loop_umount(struct th_loop *l);

/*
 * For a test program's main(): do loop devices and @mkfs's filesystem
 * work here?  Mounts a 16 MiB image; 0: it is mounted at @l (the caller
 * unmounts it), TH_SKIP: no loop devices (said on stderr), 1: failure.
 */
int th_loop_check(struct th_loop *l, const char *mkfs);

/*
 * Make the given system call (by number) fail with @err in this process
 * and its children, as container seccomp profiles do.  th_block_statx()
 * blocks statx(2).  A negative @err kills the process instead (SIGSYS), as
 * some sandboxes do.  Returns 0, or -1 if seccomp is unavailable.
 */
int th_block_syscall(int nr, int err);
int th_block_statx(int err);

/*
 * Block statx when the environment says so: XSTAT_TEST_BLOCK=ENOSYS,
 * EPERM or KILL.  Returns the errno blocked, 0 for none; exits 77 if seccomp is
 * unavailable.  Call after gathering oracle values, before any xstat().
 */
int th_block_from_env(void);

#endif
