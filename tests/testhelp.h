/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the test programs: skips, fd counting, running the
 * oracles (coreutils stat, debugfs, lsattr), and loop-mounted images.
 * Each test program decides its skips (exit 77) before running its group.
 */
#ifndef XSTAT_TESTHELP_H
#define XSTAT_TESTHELP_H

#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

struct xstat;
struct xstat_parameters;

/*
 * The tests build paths with snprintf into fixed buffers and check the
 * length themselves (th_pathf): gcc's -Wformat-truncation would only
 * repeat that.  Here rather than in each test's flags (clang has no such
 * warning).
 */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 7
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define TH_SKIP	77

/* Exit 77 with a reason unless running as root. */
void th_require_root(void);

/*
 * Skip the running cmocka test because the machine lacks something (a
 * tool, a filesystem, a writable tmpfs, a visible mount): the reason goes
 * to stderr, cmocka marks the test skipped.  Only for what the machine
 * lacks, never for what the library got wrong.
 */
void th_skip_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define th_skip(...)	do { th_skip_note(__VA_ARGS__); skip(); } while (0)

/*
 * Run a static array of cmocka tests: the number that failed, or TH_SKIP
 * (77) if every one of them skipped, so that the harness says SKIP rather
 * than PASS for a program that tested nothing.
 */
int th_group_result(int failed, size_t ntests);
#define th_run_tests(tests) \
	th_group_result(cmocka_run_group_tests(tests, NULL, NULL), \
			sizeof(tests) / sizeof((tests)[0]))

/*
 * For a program whose cases share one mount or chroot and run in order:
 * @run as the one cmocka test (its 0 passes, TH_SKIP skips, anything else
 * fails), each case saying on stderr what it checked.
 */
int th_run_program(int (*run)(void));

/*
 * Run @fn(@arg) in a forked child, which exits with what it returns: for
 * what must not outlive the call (a seccomp filter, a namespace, changed
 * credentials).  Returns the child's exit status, or -1 if it could not
 * be forked or waited for or did not exit (a signal; said on stderr).
 */
int th_child(int (*fn)(void *arg), void *arg);

/*
 * th_child() for a child that may hang: one still running after @seconds
 * is killed.  Returns its exit status, 128 + the signal that killed it,
 * or -1 if it hung (said on stderr) or could not be forked.
 */
int th_child_within(int (*fn)(void *arg), void *arg, unsigned seconds);

/*
 * Inside a cmocka test: th_child(@fn, @arg) must exit 0; 77 skips the
 * test for the reason @fmt (the child may have said more on stderr).
 */
void th_in_child(int (*fn)(void *arg), void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The two cmocka tests of a program that makes its checks in both
 * backends: test_statx_backend() runs @run(0), test_statx_blocked()
 * @run(1), statx blocked.
 */
#define TH_STATX_TESTS(run)						\
static void test_statx_backend(void **state)				\
{									\
	(void)state;							\
	run(0);								\
}									\
static void test_statx_blocked(void **state)				\
{									\
	(void)state;							\
	run(1);								\
}

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
 * Run a program without a shell: @argv[0] found on PATH, @env's
 * "NAME=VALUE" strings (NULL-terminated, or NULL) put into its
 * environment, @in_fd its stdin (-1: this process's).  Its stderr is
 * @err if that is a descriptor, else TH_ERR_INHERIT this process's,
 * TH_ERR_OUT mixed into its output (2>&1) or TH_ERR_NULL dropped.
 * Returns its output, all of it, in a malloc()ed string without the
 * trailing newlines, its exit status in @status (-1 if it could not run
 * or was killed by a signal); NULL only if out of memory or no pipe,
 * said.
 */
enum { TH_ERR_INHERIT = -1, TH_ERR_OUT = -2, TH_ERR_NULL = -3 };
char *th_exec_alloc(int *status, int err, int in_fd, const char *const *env,
		    const char *const *argv);

/*
 * A descriptor (close-on-exec) of a new file that has no name, under
 * $TMPDIR or /tmp, for a child's stdin or stderr; -1 if none, said.
 */
int th_tmpfd(void);

/* th_exec_alloc() into @out (th_run's truncation): the exit status or -1. */
int th_exec(char *out, size_t outlen, int err, const char *const *env,
	    const char *const *argv);

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
 * The usual fixture: a fresh temporary directory @dir holding @reg, its
 * regular file "reg" of one byte ("x", mode 0644).  Returns 0, or -1 with
 * errno set (the caller exits 1).  th_rmrf(dir) removes both.
 */
int th_dir_with_file(char *dir, size_t dirlen, char *reg, size_t reglen);

/*
 * A loop-mounted filesystem image.  @mkfs is the command that formats the
 * image, with "%s" for its path ("mkfs.ext4 -q -b 1024 %s").  Returns 0,
 * or TH_SKIP if root, loop devices or the mkfs tool are missing (said on
 * stderr; the caller skips), or -1 on another failure.
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
 * The image and loop device of th_loop_mount() without the mount: a
 * fresh @size_mb image, formatted with @mkfs unless NULL, on a loop
 * device (@l->dev), with an empty directory @l->mnt to mount it on.
 * Returns 0, TH_SKIP if no loop device is free or @mkfs makes ext2/3/4
 * where th_no_ext4_reader() (said on stderr), or -1.
 * th_loop_umount() unmounts it if mounted, detaches it if it is still
 * the device attached here (sysfs, else the device itself: no /sys
 * needed) and removes it all.
 */
int th_loop_attach(struct th_loop *l, unsigned size_mb, const char *mkfs);

/*
 * Why the library cannot read an ext4 file's raw inode here (its data
 * version, and what else it reads from the block device), or NULL when
 * it can: it names the device and proves the ext4 driver through sysfs,
 * which a chroot or container may lack.  A test of those values skips
 * with this reason; th_loop_attach() does so for ext2/3/4 images.
 */
const char *th_no_ext4_reader(void);

/*
 * Inside a cmocka test: th_loop_mount() a @size_mb image, or skip the test
 * (TH_SKIP: no root, loop devices or mkfs tool) or fail it (any other
 * error).  The caller (or its teardown) unmounts it with th_loop_umount().
 */
void th_loop_mount_test(struct th_loop *l, unsigned size_mb,
			const char *mkfs, const char *mount_opts);

/*
 * For a test program's main(): do loop devices and @mkfs's filesystem
 * work here?  Mounts a 16 MiB image; 0: it is mounted at @l (the caller
 * unmounts it), TH_SKIP: no root, loop devices or mkfs tool (said on
 * stderr), 1: failure.
 */
int th_loop_check(struct th_loop *l, const char *mkfs);

/*
 * The oracle of an NTFS-3G file's creation time: getfattr's hex of its
 * "system.ntfs_crtime_be" (100 ns units since 1601, big-endian), as Unix
 * time.  0, or -1 if there is none (no getfattr, not NTFS-3G, zero).
 */
int th_ntfs_crtime(const char *path, long long *sec, unsigned long *nsec);

/*
 * Make the given system call (by number) fail with @err in this process
 * and its children, as container seccomp profiles do.  th_block_statx()
 * blocks statx(2).  A negative @err kills the process instead (SIGSYS), as
 * some sandboxes do.  Returns 0, or -1 if seccomp is unavailable.
 * th_block_statx() then makes one statx itself and exits 1 if the filter
 * did not answer it as asked.
 */
int th_block_syscall(int nr, int err);
int th_block_statx(int err);

/*
 * Trap the system call @nr in this thread (and the threads and children
 * it makes later) with SECCOMP_RET_TRAP when its argument @arg's low 32
 * bits, masked with @mask, equal @value (@arg < 0: always); @handler gets
 * the SIGSYS and sets the return register itself.  For counting what the
 * library asks of the kernel under a real filter.  0, or -1 (no seccomp
 * on this architecture or kernel).
 */
int th_trap_syscall(int nr, int arg, uint32_t mask, uint32_t value,
		    void (*handler)(int, siginfo_t *, void *));

/*
 * Why the kernel's file handles of @path cannot be decoded by this
 * program (no handle; the inode number at its start in the other byte
 * order, as under a user-mode emulator of another byte order), or NULL.
 * The reason stays valid until the next call.
 */
const char *th_no_native_handles(const char *path);

/*
 * Multigrain timestamps expected here, asked independently of the
 * library: Linux 6.13 or later, and statmount(2) (457 on every ABI), from
 * which alone the library learns that a mount's type keeps them, answers
 * (not ENOSYS, as where a user-mode emulator does not know the call).
 */
int th_kernel_mgtime(void);

/*
 * For a test of the filters themselves (no filter is installed while it
 * is set): the helpers above hand their BPF program to this function and
 * return what it returns, instead of installing the program.
 */
struct sock_fprog;
extern int (*th_seccomp_inspect)(const struct sock_fprog *prog);

/*
 * One file of each kind in @dir: "f" (10 bytes, 0640), "d" (a directory),
 * "l" (a symbolic link to "f") and "p" (a FIFO).  0, or -1 with errno.
 */
int th_make_types(const char *dir);

/*
 * A test's check of one result (@len: what the call returned) for @path
 * against its oracle, @how naming the call: 0, or 1 after saying on
 * stderr what differs.
 */
typedef int th_result_check(const struct xstat *x, ssize_t len,
			    const char *path, const char *how);

/*
 * Walk the directory stream of @dir (xstat_opendir() with @p) and check
 * every entry with @check, as "stream".  An unopened stream, an entry
 * with an error, and (@expect not 0) a number of entries other than
 * @expect fail too.  0, or 1, each failure said on stderr.
 */
int th_check_stream(const char *dir, const struct xstat_parameters *p,
		    th_result_check *check, size_t expect);

/*
 * make check samples the long matrices of the loop-device tests, so that a
 * root run costs little more than a user's; XSTAT_CHECK_FULL=1 (release
 * checks, tests/README.md) runs every case and every round.
 *
 * th_check_full(): whether XSTAT_CHECK_FULL=1 is set.
 * th_rounds(): @sampled rounds in make check, @full under the switch.
 * th_sampled(): whether case @i of a matrix runs here: every one under
 *   the switch; else those with @i % @nshares == th_share(@nshares), so
 *   that the @nshares runs of one program (itself and its .enosys, .eperm
 *   variants) run every case once per make check between them.
 * th_share(): this run's share: 0 with statx, 1 for
 *   XSTAT_TEST_BLOCK=ENOSYS, 2 for EPERM, 3 for KILL, modulo @nshares.
 */
int th_check_full(void);
unsigned th_rounds(unsigned sampled, unsigned full);
unsigned th_share(unsigned nshares);
int th_sampled(unsigned i, unsigned nshares);

/*
 * Block statx when the environment says so: XSTAT_TEST_BLOCK=ENOSYS,
 * EPERM or KILL.  Returns the errno blocked, 0 for none; exits 77 if seccomp is
 * unavailable.  Call after gathering oracle values, before any xstat().
 */
int th_block_from_env(void);

/*
 * Mount @src again at @dst (created here), idmapped (5.12+): through a
 * user namespace whose uid_map and gid_map are "@first @lower @count", so
 * on-disk ids @first.. show as @lower.. and others as the overflow id.
 * Returns 0, TH_SKIP if the kernel cannot (no user namespace with a
 * mapping, no new mount API, no idmapping of this filesystem: said on
 * stderr after "SKIP: " and @what), or -1.  The caller unmounts @dst
 * (umount2 MNT_DETACH) and removes it.
 */
int th_mount_idmapped(const char *src, const char *dst, unsigned first,
		      unsigned lower, unsigned count, const char *what);

/*
 * A filter that inspects statx's arguments, as a sandbox may: statx
 * refused with @err (an errno) when the low 32 bits of its argument @arg
 * (0 dirfd, 2 flags, 3 mask), masked with @mask, equal @value (@equal) or
 * differ from it (!@equal); every other statx, and every other system
 * call, passes.  With @trap, SECCOMP_RET_TRAP instead and @trap gets the
 * SIGSYS (it sets the return register itself: a test that counts the
 * refused calls).  In this thread and the threads and children it makes
 * later.  0, or -1 (no seccomp filter on this architecture or kernel).
 */
struct th_arg_rule {
	unsigned	arg;
	uint32_t	mask, value;
	int		equal;
};
int th_refuse_statx_when(const struct th_arg_rule *r, int err,
			 void (*trap)(int, siginfo_t *, void *));

#endif
