// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Nothing outlives the call: the ext4 prober keeps no descriptor, no
 * privilege and no credential-based verdict between calls, and trusts no
 * environment in a setuid program (root and loop devices needed: exit 77
 * without).
 *
 * Each case runs in a child of its own (it changes credentials, limits,
 * descriptors or signal dispositions), in both backends: the statx one and
 * the fallback (LIBXSTAT_NO_STATX=1, set before the child's first call).
 * The oracles are the kernel's: /proc/self/fd and fstat() for who holds
 * what, open(2) of the device for what the caller may read itself,
 * losetup for a detached loop device.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "xstat.h"
#include "testhelp.h"

#define DV_MASK		(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_DATA_VERSION)
#define NOBODY		65534
#define STORM_FILES	24

static struct th_loop lp, lp2;	/* lp2: the storm's second device */
static char file[300];		/* on lp, 0644 */
static dev_t loop_rdev;
static int fallback;		/* this round's backend */
static const char *helper;

#define FAIL(...)	do { fprintf(stderr, "  " __VA_ARGS__); \
			     fputc('\n', stderr); return 1; } while (0)

/* 1: the call succeeded with a data version, 0: without, -1: it failed. */
static int dv_of(const char *path, uint64_t *dv)
{
	struct xstat_parameters p = { DV_MASK };
	struct xstat x;

	if (xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x)) != XSTAT_STRUCT_SIZE)
		return -1;
	if (dv)
		*dv = x.st_data_version;
	return !!(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION);
}

/* Descriptors of this process open on the loop device. */
static int device_fds(void)
{
	char link[64];
	struct stat sb;
	int fd, n = 0;

	for (fd = 0; fd < 4096; fd++) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		if (stat(link, &sb) == 0 && S_ISBLK(sb.st_mode) &&
		    sb.st_rdev == loop_rdev)
			n++;
	}
	return n;
}

static int drop_to_nobody(void)
{
	return setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY);
}

/* The child's first call decides the backend: set it before. */
static void child_backend(void)
{
	if (fallback)
		setenv("LIBXSTAT_NO_STATX", "1", 1);
	else
		unsetenv("LIBXSTAT_NO_STATX");
}

/*
 * A root process that called xstat forks (a pre-fork server); the
 * children drop to nobody.  None may hold a device descriptor, and none
 * may get a data version: nobody cannot read the device.
 */
static int case_fork_drop(void)
{
	int i, status, bad = 0;
	pid_t pid;

	if (dv_of(file, NULL) != 1)
		FAIL("root gets no data version");
	for (i = 0; i < 20; i++) {
		pid = fork();
		if (pid < 0)
			FAIL("fork: %s", strerror(errno));
		if (pid == 0) {
			if (drop_to_nobody())
				_exit(3);
			if (device_fds())
				_exit(1);
			_exit(dv_of(file, NULL) == 0 ? 0 : 2);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad++;
	}
	if (bad)
		FAIL("%d of 20 children held the device or read it", bad);
	return 0;
}

/*
 * Root with CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH dropped, on a
 * device node owned by someone else with mode 0600: the process cannot
 * open the device itself (checked), so xstat must not read it either.
 */
static int drop_dac_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	unsigned int i;
	const int caps[] = { CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH };

	if (syscall(SYS_capget, &h, d))
		return -1;
	for (i = 0; i < 2; i++) {
		d[caps[i] / 32].effective &= ~(1U << (caps[i] % 32));
		d[caps[i] / 32].permitted &= ~(1U << (caps[i] % 32));
		d[caps[i] / 32].inheritable &= ~(1U << (caps[i] % 32));
	}
	return (int)syscall(SYS_capset, &h, d);
}

static int case_cap_drop(void)
{
	int fd;

	if (dv_of(file, NULL) != 1)
		FAIL("root gets no data version");
	if (drop_dac_caps())
		FAIL("capset: %s", strerror(errno));
	fd = open(lp.dev, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES)
		FAIL("the device can still be opened without DAC capabilities");
	if (dv_of(file, NULL) != 0)
		FAIL("a data version after the capability drop");
	if (device_fds())
		FAIL("a device fd after the capability drop");
	return 0;
}

/* setuid in the same process: no fd stays, the next call reads nothing. */
static int case_setuid_call(void)
{
	if (dv_of(file, NULL) != 1)
		FAIL("root gets no data version");
	if (drop_to_nobody())
		FAIL("cannot drop to nobody");
	if (device_fds())
		FAIL("a device fd outlived the privilege drop");
	if (dv_of(file, NULL) != 0)
		FAIL("the first call after setuid returned a data version");
	return 0;
}

/*
 * A daemon closes every descriptor it did not open itself, then opens
 * its own file: it gets fd 3, and it must stay its file.
 */
static int case_close_range(const char *own)
{
	struct stat before, after;
	char buf[16];
	int fd;

	if (dv_of(file, NULL) != 1)
		FAIL("root gets no data version");
	if (syscall(SYS_close_range, 3U, ~0U, 0U))
		FAIL("close_range: %s", strerror(errno));
	fd = open(own, O_RDONLY | O_CLOEXEC);
	if (fd != 3 || fstat(fd, &before))
		FAIL("own file not fd 3 (%d)", fd);
	if (dv_of(file, NULL) != 1)
		FAIL("no data version after close_range");
	if (fstat(3, &after) || after.st_ino != before.st_ino ||
	    after.st_dev != before.st_dev || !S_ISREG(after.st_mode))
		FAIL("fd 3 is no longer the program's own file");
	if (pread(3, buf, sizeof(buf), 0) != 5 || memcmp(buf, "mine\n", 5))
		FAIL("fd 3 does not read the program's file");
	if (device_fds())
		FAIL("a device fd left open");
	return 0;
}

/* A probed loop device is unmounted and detached: gone at once. */
static int case_detach(void)
{
	struct th_loop l;
	char path[300], out[512];
	int ret;

	ret = th_loop_mount(&l, 16, "mkfs.ext4 -q -F %s", NULL);
	if (ret)
		FAIL("second image: %d", ret);
	th_pathf(path, sizeof(path), "%s/d", l.mnt);
	ret = th_run(NULL, 0, "echo x > '%s'", path);
	if (!ret && dv_of(path, NULL) != 1)
		ret = 1;
	if (!ret)
		ret = th_run(NULL, 0, "umount '%s' && losetup -d %s", l.mnt,
			     l.dev);
	if (!ret) {
		/*
		 * detached: th_loop_umount() must not detach it again.  Where
		 * another process has the device open for a moment (a probe
		 * of udev's or of another test), the kernel detaches it at
		 * that last close: wait for it, while this process, which
		 * made the call, lives on.
		 */
		l.dev[0] = '\0';
		for (int i = 0; i < 100; i++) {
			th_run(out, sizeof(out), "losetup -j '%s'", l.image);
			if (!out[0])
				break;
			usleep(100000);
		}
	}
	th_loop_umount(&l);
	if (ret)
		FAIL("probe, umount or losetup -d failed");
	if (out[0])
		FAIL("still attached 10 s after losetup -d: %s", out);
	return 0;
}

/*
 * RLIMIT_NOFILE reached: the basic answer is still given, and what
 * needs a descriptor is cleared, never an error.
 */
static int case_rlimit(void)
{
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };
	struct rlimit rl;
	struct xstat x;
	int fd, top = 0;

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || dv_of(file, NULL) != 1)
		FAIL("root gets no data version");
	for (int i = 0; i < 4096; i++)
		if (fcntl(i, F_GETFD) >= 0)
			top = i;
	rl.rlim_cur = (rlim_t)top + 1;
	rl.rlim_max = (rlim_t)top + 1;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		FAIL("setrlimit: %s", strerror(errno));
	/* Fill every hole below the limit. */
	while (open("/dev/null", O_RDONLY | O_CLOEXEC) >= 0)
		;
	if (errno != EMFILE)
		FAIL("cannot reach the limit: %s", strerror(errno));
	if (dv_of(file, NULL) != 0)
		FAIL("DATA_VERSION not cleared at the descriptor limit");
	if (xstat(AT_FDCWD, file, 0, &p, &x, sizeof(x)) != XSTAT_STRUCT_SIZE)
		FAIL("EXTENDED failed at the limit: %s", strerror(errno));
	if (x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)
		FAIL("EXTENDED: DATA_VERSION not cleared");
	/* RDEV only for device nodes. */
	if ((x.st_result_mask & XSTAT_REQUEST__BASIC_STATS) !=
	    (XSTAT_REQUEST__BASIC_STATS & ~XSTAT_REQUEST_RDEV))
		FAIL("EXTENDED: basic fields missing");
	p.request_mask = DV_MASK;
	if (fxstat((unsigned int)fd, 0, &p, &x, sizeof(x)) != XSTAT_STRUCT_SIZE)
		FAIL("fxstat failed at the limit: %s", strerror(errno));
	if (x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)
		FAIL("fxstat: DATA_VERSION not cleared");
	return 0;
}

/*
 * A LIBXSTAT_NO_STATX given by the caller of a setuid program is
 * ignored: the helper, setuid root and run by nobody, still gets the
 * tmpfs creation time that only statx gives.  The same helper without
 * the setuid bit obeys the variable (so the case can fail).
 */
static int run_helper_as_nobody(const char *bin, const char *target,
				char *secure)
{
	char *argv[] = { (char *)bin, (char *)target, secure, NULL };
	char *envp[] = { "LIBXSTAT_NO_STATX=1", NULL };
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (drop_to_nobody())
			_exit(3);
		execve(bin, argv, envp);
		_exit(4);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int case_setuid_env(void)
{
	char dir[256], tfile[300], plain[300], suid[300];
	int ret_plain, ret_suid;

	if (!th_mkdtemp(dir, sizeof(dir)))
		FAIL("mkdtemp");
	th_pathf(tfile, sizeof(tfile), "%s/t", dir);
	th_pathf(plain, sizeof(plain), "%s/plain-helper", lp.mnt);
	th_pathf(suid, sizeof(suid), "%s/suid-helper", lp.mnt);
	if (chmod(dir, 0755) ||
	    th_run(NULL, 0, "mount -t tmpfs -o size=1m,mode=0755 xs '%s' && "
		   "touch '%s' && chmod 0644 '%s' && "
		   "cp '%s' '%s' && cp '%s' '%s' && chown 0:0 '%s' '%s' && "
		   "chmod 0755 '%s' && chmod 4755 '%s'", dir, tfile, tfile,
		   helper, plain, helper, suid, plain, suid, plain, suid)) {
		th_run(NULL, 0, "umount '%s'", dir);
		th_rmrf(dir);
		FAIL("cannot set up the helpers");
	}
	ret_plain = run_helper_as_nobody(plain, tfile, NULL);
	ret_suid = run_helper_as_nobody(suid, tfile, "--secure");
	th_run(NULL, 0, "umount '%s'; rm -f '%s' '%s'", dir, plain, suid);
	th_rmrf(dir);
	if (ret_suid == 5) {
		fprintf(stderr, "SKIP: the setuid helper ran without "
			"AT_SECURE: not run as a setuid program here\n");
		return 77;
	}
	if (ret_plain != 1)
		FAIL("the plain helper did not obey LIBXSTAT_NO_STATX (%d)",
		     ret_plain);
	if (ret_suid != 0)
		FAIL("the setuid helper obeyed its caller's LIBXSTAT_NO_STATX "
		     "(%d)", ret_suid);
	return 0;
}

/*
 * A 50 us timer whose SIGALRM handler calls xstat(DV) and fxstat(DV)
 * while the interrupted code is inside xstat(DV): no deadlock (the
 * parent's timeout catches one), every answer right.  The files are on
 * two devices (even: lp, odd: lp2), so calls switch devices and fill and
 * read the device cache while they interrupt each other.
 */
static char storm_path[STORM_FILES][300];
static uint64_t storm_dv[STORM_FILES];
static int storm_fd[STORM_FILES];
static volatile sig_atomic_t storm_calls, storm_bad;
static struct timespec storm_end;	/* the handler's calls stop here */

/*
 * The same storm through /proc (storm_proc): name_to_handle_at blocked
 * (EPERM), so the generation comes from FS_IOC_GETVERSION on the anchor
 * reopened through /proc/self/fd, and in the fallback the mount ID from
 * /proc/self/fdinfo.  Oracles: the ioctl on a real descriptor and statx's
 * two mount IDs, both taken before the filter.
 */
#define PROC_MASK	(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN | \
			 XSTAT_REQUEST_MNT_ID)
#define FS_IOC_GETVERSION_	_IOR('v', 1, long)
#define STATX_MNT_ID_		0x1000U
#define STATX_MNT_ID_UNIQUE_	0x4000U

static int storm_proc;
static int storm_opath[STORM_FILES];
static unsigned storm_gen[STORM_FILES];
static uint64_t storm_mnt[STORM_FILES][2];	/* [unique] */

union storm_res {
	struct xstat	x;
	unsigned char	b[512];
};

static int storm_check(ssize_t ret, const union storm_res *r, int i)
{
	const struct xstat_mnt_id *m;

	if (!storm_proc)
		return ret == XSTAT_STRUCT_SIZE &&
		       (r->x.st_result_mask & XSTAT_REQUEST_DATA_VERSION) &&
		       r->x.st_data_version == storm_dv[i];
	if (ret < XSTAT_STRUCT_SIZE ||
	    !(r->x.st_result_mask & XSTAT_REQUEST_GEN) ||
	    r->x.st_gen != storm_gen[i])
		return 0;
	m = xstat_extra(&r->x, sizeof(*r), XSTAT_REQUEST_MNT_ID);
	return m && m->mnt_id == storm_mnt[i][m->unique ? 1 : 0];
}

/* One call by path, one by descriptor (O_PATH in the /proc storm). */
static int storm_calls_of(int i)
{
	struct xstat_parameters p = { storm_proc ? PROC_MASK : DV_MASK };
	union storm_res r;
	/* The data version storm asks with the bare struct, as it did. */
	size_t len = storm_proc ? sizeof(r) : sizeof(r.x);
	int bad = 0, fd;

	if (!storm_check(xstat(AT_FDCWD, storm_path[i], 0, &p, &r.x, len),
			 &r, i))
		bad++;
	i = (i + 5) % STORM_FILES;
	fd = storm_proc ? storm_opath[i] : storm_fd[i];
	if (!storm_check(fxstat((unsigned int)fd, 0, &p, &r.x, len), &r, i))
		bad++;
	return bad;
}

static void storm_handler(int sig)
{
	int i = storm_calls % STORM_FILES, saved = errno;
	struct timespec now;

	(void)sig;
	/*
	 * A handler slower than the interval (the fallback on a loaded
	 * machine) would starve the loop for ever; past the storm's end it
	 * returns at once, so the loop runs and sees the time.
	 */
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > storm_end.tv_sec ||
	    (now.tv_sec == storm_end.tv_sec &&
	     now.tv_nsec >= storm_end.tv_nsec))
		return;
	storm_bad += storm_calls_of(i);
	storm_calls++;
	errno = saved;
}

/* The /proc storm's oracles, and the filter that forces that path. */
static int storm_proc_setup(void)
{
	struct statx sx;
	int i;

	for (i = 0; i < STORM_FILES; i++) {
		storm_opath[i] = open(storm_path[i], O_PATH | O_CLOEXEC);
		if (storm_opath[i] < 0 ||
		    ioctl(storm_fd[i], FS_IOC_GETVERSION_, &storm_gen[i]))
			FAIL("no generation for %s", storm_path[i]);
		if (statx(storm_fd[i], "", AT_EMPTY_PATH, STATX_MNT_ID_, &sx) ||
		    !(sx.stx_mask & STATX_MNT_ID_))
			FAIL("no mount ID from statx: %s", strerror(errno));
		storm_mnt[i][0] = sx.stx_mnt_id;
		/* Before 6.8 no unique ID: the library cannot give one. */
		storm_mnt[i][1] = UINT64_MAX;
		if (statx(storm_fd[i], "", AT_EMPTY_PATH,
			  STATX_MNT_ID_UNIQUE_, &sx) == 0 &&
		    (sx.stx_mask & STATX_MNT_ID_UNIQUE_))
			storm_mnt[i][1] = sx.stx_mnt_id;
	}
	errno = 0;
#ifdef SYS_name_to_handle_at
	if (th_block_syscall(SYS_name_to_handle_at, EPERM) == 0)
		return 0;
#endif
	fprintf(stderr, "SKIP: cannot block name_to_handle_at: %s\n",
		errno ? strerror(errno) : "no seccomp table for this ABI");
	return 77;
}

static int storm(void)
{
	struct itimerval it = { { 0, 50 }, { 0, 50 } };
	struct sigaction sa;
	struct timespec t0, t;
	long calls = 0, bad = 0;
	int i, ret;

	for (i = 0; i < STORM_FILES; i++) {
		storm_fd[i] = open(storm_path[i], O_RDONLY | O_CLOEXEC);
		if (storm_fd[i] < 0 || dv_of(storm_path[i], &storm_dv[i]) != 1)
			FAIL("no data version for %s", storm_path[i]);
	}
	if (storm_proc && (ret = storm_proc_setup()))
		return ret;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = storm_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	storm_end = t0;
	storm_end.tv_sec += 2;
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL))
		FAIL("timer: %s", strerror(errno));
	do {
		for (i = 0; i < STORM_FILES; i++, calls += 2)
			bad += storm_calls_of(i);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 2);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	fprintf(stderr, "  storm: %ld calls, %d in the handler\n", calls,
		(int)storm_calls);
	if (bad || storm_bad)
		FAIL("%ld wrong answers in the loop, %d in the handler", bad,
		     (int)storm_bad);
	if (storm_calls < 100)
		FAIL("the timer fired only %d times", (int)storm_calls);
	return 0;
}

static int case_signal_storm(void)
{
	storm_proc = 0;
	return storm();
}

static int case_signal_storm_proc(void)
{
	storm_proc = 1;
	return storm();
}

struct test_case {
	const char	*name;
	int		(*run)(void);
	int		once;	/* not per backend */
};

static char own_file[300];

static int run_close_range(void)
{
	return case_close_range(own_file);
}

static const struct test_case cases[] = {
	{ "fork+setgroups/setgid/setuid, /proc/self/fd", case_fork_drop, 0 },
	{ "capability drop", case_cap_drop, 0 },
	{ "setuid then one call", case_setuid_call, 0 },
	{ "close_range, own open, call", run_close_range, 0 },
	{ "losetup -d after a call", case_detach, 0 },
	{ "RLIMIT_NOFILE at the open count", case_rlimit, 0 },
	{ "setuid program and LIBXSTAT_NO_STATX", case_setuid_env, 1 },
	{ "SIGALRM storm calling xstat", case_signal_storm, 0 },
	{ "SIGALRM storm through /proc (no handles)", case_signal_storm_proc,
	  0 },
};

static int case_child(void *c)
{
	child_backend();
	return ((const struct test_case *)c)->run();
}

/*
 * Run @c in a child; a child that does not end in 120 s is hung.  0, 1
 * (failed) or 77: the case said why it cannot run here.
 */
static int run_case(const struct test_case *c)
{
	int ret = th_child_within(case_child, (void *)c, 120);

	return ret == 0 || ret == 77 ? ret : 1;
}

static int run_all(void)
{
	static char helper_path[600];
	const char *top;
	struct stat sb;
	char dir[300];
	int failed = 0, ret, i;
	size_t k;

	th_require_root();
	top = getenv("top_builddir");
	if (!top) {
		fprintf(stderr, "SKIP: run by make check (top_builddir)\n");
		return TH_SKIP;
	}
	th_pathf(helper_path, sizeof(helper_path),
		 "%s/tests/nohold-env-helper", top);
	helper = helper_path;
	if (access(helper, X_OK)) {
		fprintf(stderr, "SKIP: no %s\n", helper);
		return TH_SKIP;
	}
	ret = th_loop_mount(&lp, 64, "mkfs.ext4 -q -F -b 1024 -g 1024 -N 8192 %s",
			    NULL);
	if (ret == TH_SKIP) {
		fprintf(stderr, "SKIP: no loop devices or mkfs.ext4\n");
		return TH_SKIP;
	}
	if (ret)
		return 1;
	if (stat(lp.dev, &sb))
		return 1;
	loop_rdev = sb.st_rdev;
	/* Nobody must reach the files (the image's directory is 0700). */
	th_pathf(dir, sizeof(dir), "%s", lp.image);
	*strrchr(dir, '/') = '\0';
	th_pathf(file, sizeof(file), "%s/f", lp.mnt);
	th_pathf(own_file, sizeof(own_file), "%s/own", dir);
	if (chmod(dir, 0755) || chmod(lp.mnt, 0755) ||
	    th_run(NULL, 0, "echo data > '%s' && chmod 0644 '%s' && "
		   "echo mine > '%s'", file, file, own_file)) {
		th_loop_umount(&lp);
		return 1;
	}
	if (th_loop_mount(&lp2, 16, "mkfs.ext4 -q -F %s", NULL)) {
		th_loop_umount(&lp);
		return 1;
	}
	/* Files in many groups: the storm's probes fill the caches. */
	for (i = 0; i < STORM_FILES; i++) {
		const char *mnt = i % 2 ? lp2.mnt : lp.mnt;

		th_pathf(storm_path[i], sizeof(storm_path[i]), "%s/d%d",
			 mnt, i);
		if (mkdir(storm_path[i], 0755))
			return 1;
		th_pathf(storm_path[i], sizeof(storm_path[i]), "%s/d%d/s",
			 mnt, i);
		if (th_run(NULL, 0, "echo s > '%s'", storm_path[i]))
			return 1;
	}

	for (fallback = 0; fallback < 2; fallback++)
		for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			if (fallback && cases[k].once)
				continue;
			/* The capability case needs a node root does not own. */
			if (cases[k].run == case_cap_drop &&
			    (chown(lp.dev, 4242, 4242) || chmod(lp.dev, 0600)))
				return 1;
			ret = run_case(&cases[k]);
			if (cases[k].run == case_cap_drop &&
			    (chown(lp.dev, sb.st_uid, sb.st_gid) ||
			     chmod(lp.dev, sb.st_mode & 07777)))
				return 1;
			fprintf(stderr, "%s: %s (%s)\n", ret == 77 ?
				"SKIP-part" : ret ? "FAIL" : "PASS",
				cases[k].name, fallback ? "fallback" : "statx");
			failed += ret == 1;
		}
	th_loop_umount(&lp2);
	th_loop_umount(&lp);
	return failed ? 1 : 0;
}

int main(void)
{
	return th_run_program(run_all);
}
