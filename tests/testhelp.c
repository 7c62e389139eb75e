// SPDX-License-Identifier: LGPL-2.1-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/loop.h>
#include <cmocka.h>
#include "testhelp.h"

void th_require_root(void)
{
	if (geteuid() != 0) {
		fprintf(stderr, "SKIP: needs root\n");
		exit(TH_SKIP);
	}
}

static size_t skipped;

void th_skip_note(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "SKIP: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	skipped++;
}

int th_group_result(int failed, size_t ntests)
{
	if (failed == 0 && ntests && skipped >= ntests)
		return TH_SKIP;
	return failed;
}

static int (*program_run)(void);

static void program_test(void **state)
{
	int ret;

	(void)state;
	fflush(stderr);
	ret = program_run();
	if (ret == TH_SKIP)
		th_skip("see the messages above");
	assert_int_equal(ret, 0);
}

int th_run_program(int (*run)(void))
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(program_test),
	};

	program_run = run;
	return th_run_tests(tests);
}

/*
 * Fork, run @fn(@arg) in the child, wait for it (for @seconds at most
 * unless 0, then kill it).  0 with its wait status in @st, 1 if it was
 * killed here, -1 if it could not be forked or waited for (said).
 */
static int fork_wait(int (*fn)(void *arg), void *arg, unsigned seconds,
		     int *st)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	unsigned long waited;
	pid_t pid;

	/* What is buffered is the parent's to write, not also the child's. */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0)
		_exit(fn(arg));
	for (waited = 0; seconds && waited < seconds * 100UL; waited++) {
		if (waitpid(pid, st, WNOHANG) == pid)
			return 0;
		nanosleep(&tick, NULL);
	}
	if (seconds) {
		kill(pid, SIGKILL);
		waitpid(pid, st, 0);
		return 1;
	}
	if (waitpid(pid, st, 0) != pid) {
		fprintf(stderr, "waitpid: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

int th_child(int (*fn)(void *arg), void *arg)
{
	int st;

	if (fork_wait(fn, arg, 0, &st))
		return -1;
	if (!WIFEXITED(st)) {
		fprintf(stderr, "child killed by signal %d\n",
			WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		return -1;
	}
	return WEXITSTATUS(st);
}

int th_child_within(int (*fn)(void *arg), void *arg, unsigned seconds)
{
	int st, ret = fork_wait(fn, arg, seconds, &st);

	if (ret > 0)
		fprintf(stderr, "child hung (deadlock?): killed after %u s\n",
			seconds);
	if (ret)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void th_in_child(int (*fn)(void *arg), void *arg, const char *fmt, ...)
{
	int ret = th_child(fn, arg);
	char why[256];
	va_list ap;

	if (ret == TH_SKIP) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
		th_skip("%s", why);
	}
	assert_int_equal(ret, 0);
}

int th_ntfs_crtime(const char *path, long long *sec, unsigned long *nsec)
{
	char out[PATH_MAX + 128], *p;
	unsigned long long v;

	if (th_run(out, sizeof(out), "getfattr --absolute-names -h -n "
		   "system.ntfs_crtime_be -e hex '%s' 2>/dev/null", path))
		return -1;
	p = strstr(out, "system.ntfs_crtime_be=0x");
	if (!p || sscanf(p + 24, "%llx", &v) != 1 || v == 0)
		return -1;
	*sec = (long long)(v / 10000000) - 11644473600LL;
	*nsec = (unsigned long)(v % 10000000) * 100;
	return 0;
}

int th_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the directory's own fd */
}

static int fds_before;

void th_pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		fprintf(stderr, "test path too long: %s\n", fmt);
		abort();
	}
}

int th_fds_setup(void **state)
{
	(void)state;
	fds_before = th_count_fds();
	return 0;
}

int th_fds_teardown(void **state)
{
	int now = th_count_fds();

	(void)state;
	if (now != fds_before) {
		fprintf(stderr, "fd leak: %d open before, %d after\n",
			fds_before, now);
		return -1;
	}
	return 0;
}

int th_run(char *out, size_t outlen, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	size_t n = 0;
	FILE *p;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (out && outlen) {
		n = fread(out, 1, outlen - 1, p);
		out[n] = '\0';
		while (n && out[n - 1] == '\n')
			out[--n] = '\0';
	} else {
		char sink[256];

		while (fread(sink, 1, sizeof(sink), p) > 0)
			;
	}
	st = pclose(p);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

extern char **environ;

/* environ with @env's entries replacing those of the same names. */
static char **exec_envp(const char *const *env)
{
	size_t n = 0, k = 0, i, j;
	char **envp;

	while (environ[n])
		n++;
	while (env && env[k])
		k++;
	envp = malloc((n + k + 1) * sizeof(*envp));
	if (!envp)
		return NULL;
	for (i = 0, n = 0; environ[i]; i++) {
		for (j = 0; j < k; j++) {
			size_t len = strcspn(env[j], "=") + 1;

			if (!strncmp(environ[i], env[j], len))
				break;
		}
		if (j == k)
			envp[n++] = environ[i];
	}
	for (j = 0; j < k; j++)
		envp[n++] = (char *)env[j];
	envp[n] = NULL;
	return envp;
}

/*
 * @name looked up on PATH into @path, as the shell does: posix_spawnp()
 * would try an execve() in each directory before the one that has it.
 */
static const char *exec_path(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH"), *end;
	size_t n;

	if (strchr(name, '/') || !dirs)
		return name;
	for (; *dirs; dirs = *end ? end + 1 : end) {
		end = strchrnul(dirs, ':');
		n = (size_t)(end - dirs);
		if ((int)snprintf(path, len, "%.*s%s%s", (int)n, dirs,
				  n ? "/" : "", name) >= (int)len)
			continue;
		if (access(path, X_OK) == 0)
			return path;
	}
	return name;
}

char *th_exec_alloc(int *status, int err, int in_fd, const char *const *env,
		    const char *const *argv)
{
	char path[PATH_MAX];
	posix_spawn_file_actions_t fa;
	size_t len = 0, cap = 4096;
	char *buf, *more, **envp, sink[4096];
	int p[2], rc, st, oom = 0;
	pid_t pid;
	ssize_t r;

	*status = -1;
	buf = malloc(cap);
	envp = exec_envp(env);
	/* Close-on-exec: neither this child nor a sibling keeps the pipe. */
	if (!buf || !envp || pipe2(p, O_CLOEXEC)) {
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		free(buf);
		free(envp);
		return NULL;
	}
	buf[0] = '\0';
	posix_spawn_file_actions_init(&fa);
	if (in_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	if (err == TH_ERR_OUT)
		posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	else if (err == TH_ERR_NULL)
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null",
						 O_WRONLY, 0);
	else if (err >= 0)
		posix_spawn_file_actions_adddup2(&fa, err, 2);
	rc = posix_spawnp(&pid, exec_path(argv[0], path, sizeof(path)), &fa,
			  NULL, (char *const *)argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	free(envp);
	close(p[1]);
	if (rc) {
		fprintf(stderr, "%s: %s\n", argv[0], strerror(rc));
		close(p[0]);
		return buf;
	}
	/* Read to the end, so that the child never writes to a closed pipe. */
	for (;;) {
		if (!oom && cap - len < 2048) {
			more = realloc(buf, cap * 2);
			if (more) {
				buf = more;
				cap *= 2;
			} else {
				oom = 1;
			}
		}
		if (oom)
			r = read(p[0], sink, sizeof(sink));
		else
			r = read(p[0], buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (!oom)
			len += (size_t)r;
	}
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "waitpid %s: %s\n", argv[0],
				strerror(errno));
			free(buf);
			return NULL;
		}
	if (oom) {
		fprintf(stderr, "%s: output: %s\n", argv[0], strerror(ENOMEM));
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	while (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (WIFEXITED(st))
		*status = WEXITSTATUS(st);
	return buf;
}

int th_exec(char *out, size_t outlen, int err, const char *const *env,
	    const char *const *argv)
{
	char *all;
	int st;

	all = th_exec_alloc(&st, err, -1, env, argv);
	if (!all)
		return -1;
	if (out && outlen)
		snprintf(out, outlen, "%s", all);
	free(all);
	return st;
}

/* $TMPDIR, or /tmp where it is unset or empty. */
static const char *tmp_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

int th_tmpfd(void)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/xstat-tmp.XXXXXX", tmp_dir());
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "mkostemp %s: %s\n", path, strerror(errno));
		return -1;
	}
	unlink(path);
	return fd;
}

char *th_mkdtemp(char *buf, size_t len)
{
	snprintf(buf, len, "%s/xstat-test.XXXXXX", tmp_dir());
	return mkdtemp(buf);
}

static int rmrf_at(int dfd, const char *name);

/*
 * One pass over the directory @fd: everything in it removed that can be.
 * Returns how many entries went.
 */
static int rmrf_pass(int fd)
{
	struct dirent *e;
	int removed = 0, sub;
	DIR *d;

	sub = dup(fd);
	d = sub >= 0 ? fdopendir(sub) : NULL;
	if (!d) {
		if (sub >= 0)
			close(sub);
		return 0;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			removed += rmrf_at(fd, e->d_name);
	closedir(d);
	return removed;
}

/*
 * Remove @name under @dfd, and first what is in it: 1 if it went.
 * unlinkat() without AT_REMOVEDIR fails with EISDIR for a directory
 * (Linux), so nothing is stat'ed.
 */
static int rmrf_at(int dfd, const char *name)
{
	int fd;

	if (unlinkat(dfd, name, 0) == 0)
		return 1;
	if (errno != EISDIR)
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (rmrf_pass(fd))
		;
	close(fd);
	return unlinkat(dfd, name, AT_REMOVEDIR) == 0;
}

/*
 * rm -rf, in this process: a test that installed a seccomp filter
 * blocking statx cannot run rm under valgrind, which checks every program
 * with statx before running it (and so left its directories behind).
 * What cannot be removed (a mount point, an immutable file) stays.
 */
void th_rmrf(const char *path)
{
	rmrf_at(AT_FDCWD, path);
}

int th_dir_with_file(char *dir, size_t dirlen, char *reg, size_t reglen)
{
	int fd;

	if (!th_mkdtemp(dir, dirlen))
		return -1;
	th_pathf(reg, reglen, "%s/reg", dir);
	fd = open(reg, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "x", 1) != 1) {
		if (fd >= 0)
			close(fd);
		th_rmrf(dir);
		return -1;
	}
	return close(fd);
}

static int loop_backed_by(const char *dev, const char *image);

#define TH_SYSFS_MAGIC	0x62656572

const char *th_no_ext4_reader(void)
{
	struct statfs sfs;

	if (statfs("/sys", &sfs) || sfs.f_type != TH_SYSFS_MAGIC)
		return "no sysfs at /sys: the library finds an ext4 file's "
		       "block device and driver there (/sys/dev/block, "
		       "/sys/fs/ext4), so it reads no raw inode";
	if (access("/sys/dev/block", F_OK))
		return "no /sys/dev/block: the library cannot name an ext4 "
		       "file's block device";
	return NULL;
}

/*
 * Every image this process attached and has not released, copied (the
 * caller's struct th_loop may be on a stack that a failed assertion has
 * left): released at exit, so that a test that fails or skips between
 * th_loop_attach() and th_loop_umount() leaves no loop device or mount
 * behind.  A forked child starts with none of its parent's.
 */
#define MAX_HELD_LOOPS	16
static struct th_loop held_loops[MAX_HELD_LOOPS];
static pid_t held_by;

static void release_held_loops(void)
{
	size_t i;

	if (held_by != getpid())
		return;
	for (i = 0; i < MAX_HELD_LOOPS; i++)
		if (held_loops[i].mnt[0])
			th_loop_umount(&held_loops[i]);
}

static void hold_loop(const struct th_loop *l)
{
	static int at_exit;
	size_t i;

	if (held_by != getpid()) {
		memset(held_loops, 0, sizeof(held_loops));
		held_by = getpid();
	}
	if (!at_exit)
		at_exit = atexit(release_held_loops) == 0;
	for (i = 0; i < MAX_HELD_LOOPS; i++)
		if (!held_loops[i].mnt[0]) {
			held_loops[i] = *l;
			return;
		}
}

static void unhold_loop(const struct th_loop *l)
{
	size_t i;

	if (held_by != getpid())
		return;
	for (i = 0; i < MAX_HELD_LOOPS; i++)
		if (held_loops[i].mnt[0] && !strcmp(held_loops[i].mnt, l->mnt))
			held_loops[i].mnt[0] = '\0';
}

/* Does the command @mkfs make an ext2, ext3 or ext4 filesystem? */
static int makes_ext(const char *mkfs)
{
	return strstr(mkfs, "mkfs.ext") || strstr(mkfs, "mke2fs") ||
	       strstr(mkfs, "-t ext");
}

int th_loop_attach(struct th_loop *l, unsigned size_mb, const char *mkfs)
{
	char cmd[512], dir[200];

	memset(l, 0, sizeof(*l));
	if (mkfs && makes_ext(mkfs) && th_no_ext4_reader()) {
		fprintf(stderr, "SKIP: ext2/3/4 images: %s\n",
			th_no_ext4_reader());
		return TH_SKIP;
	}
	if (!th_mkdtemp(dir, sizeof(dir)))
		return -1;
	snprintf(l->image, sizeof(l->image), "%s/image", dir);
	snprintf(l->mnt, sizeof(l->mnt), "%s/mnt", dir);
	if (th_run(NULL, 0, "truncate -s %uM '%s' && mkdir '%s'", size_mb,
		   l->image, l->mnt) != 0)
		goto fail;
	if (mkfs) {
		snprintf(cmd, sizeof(cmd), mkfs, l->image);
		if (th_run(NULL, 0, "%s >/dev/null 2>&1", cmd) != 0)
			goto fail;
	}
	if (th_run(l->dev, sizeof(l->dev), "losetup -f --show '%s' 2>/dev/null",
		   l->image) != 0 || strncmp(l->dev, "/dev/loop", 9) != 0) {
		fprintf(stderr, "SKIP: no free loop device (losetup -f)\n");
		th_rmrf(dir);
		return TH_SKIP;
	}
	hold_loop(l);
	return 0;
fail:
	th_rmrf(dir);
	return -1;
}

int th_loop_mount(struct th_loop *l, unsigned size_mb, const char *mkfs,
		  const char *mount_opts)
{
	char tool[64], dir[256], *slash;
	int ret;

	memset(l, 0, sizeof(*l));
	if (geteuid() != 0) {
		fprintf(stderr, "SKIP: loop-mounted images need root\n");
		return TH_SKIP;
	}
	if (access("/dev/loop-control", F_OK) != 0) {
		fprintf(stderr, "SKIP: no loop devices (/dev/loop-control)\n");
		return TH_SKIP;
	}
	if (sscanf(mkfs, "%63s", tool) != 1 ||
	    th_run(NULL, 0, "command -v %s >/dev/null 2>&1", tool) != 0) {
		fprintf(stderr, "SKIP: %s is missing\n", tool);
		return TH_SKIP;
	}
	ret = th_loop_attach(l, size_mb, mkfs);
	if (ret)
		return ret;
	if (th_run(NULL, 0, "mount %s%s '%s' '%s'", mount_opts ? "-o " : "",
		   mount_opts ? mount_opts : "", l->dev, l->mnt) != 0) {
		unhold_loop(l);
		if (loop_backed_by(l->dev, l->image))
			th_run(NULL, 0, "losetup -d %s", l->dev);
		/* The image's directory; @l stays as it was for the caller. */
		th_pathf(dir, sizeof(dir), "%s", l->image);
		slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			th_rmrf(dir);
		}
		return -1;
	}
	return 0;
}

int th_loop_check(struct th_loop *l, const char *mkfs)
{
	int ret = th_loop_mount(l, 16, mkfs, NULL);

	return ret == 0 || ret == TH_SKIP ? ret : 1;
}

void th_loop_mount_test(struct th_loop *l, unsigned size_mb,
			const char *mkfs, const char *mount_opts)
{
	int ret = th_loop_mount(l, size_mb, mkfs, mount_opts);

	if (ret == TH_SKIP)
		th_skip("cannot make an image with '%s' here", mkfs);
	if (ret)
		fail_msg("cannot mount an image made by '%s' (%d)", mkfs, ret);
}

/*
 * Is the loop device @dev still backed by @image?  A device the caller
 * detached itself is free at once, and another test running beside this
 * one may have attached its own image to it: that one must not be
 * detached in its turn.  sysfs answers without opening the device (an
 * open, however brief, makes another test's detach of it a deferred
 * one); where /sys is not sysfs, as in many chroots, the device itself
 * answers (LOOP_GET_STATUS64: the backing file's device and inode).
 */
static int loop_backed_by_sysfs(const char *name, const char *image,
				int *answered)
{
	char path[128], backing[PATH_MAX + 16], real[PATH_MAX];
	struct statfs sfs;
	ssize_t n;
	int fd;

	*answered = statfs("/sys", &sfs) == 0 && sfs.f_type == TH_SYSFS_MAGIC;
	if (!*answered || !realpath(image, real))
		return 0;
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* no longer a bound loop device */
	n = read(fd, backing, sizeof(backing) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	backing[n] = '\0';
	backing[strcspn(backing, "\n")] = '\0';
	return strcmp(backing, real) == 0;
}

static int loop_backed_by(const char *dev, const char *image)
{
	const char *name = strrchr(dev, '/');
	struct loop_info64 info;
	struct stat sb;
	int fd, ret, answered;

	if (!name)
		return 0;
	ret = loop_backed_by_sysfs(name + 1, image, &answered);
	if (answered)
		return ret;
	if (stat(image, &sb))
		return 0;
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ret = ioctl(fd, LOOP_GET_STATUS64, &info);
	close(fd);
	/* lo_device is the kernel's encoding (new_encode_dev()). */
	return ret == 0 && info.lo_inode == (uint64_t)sb.st_ino &&
	       (info.lo_device & 0xfff00) >> 8 == major(sb.st_dev) &&
	       ((info.lo_device & 0xff) | ((info.lo_device >> 12) & 0xfff00)) ==
	       minor(sb.st_dev);
}

void th_loop_umount(struct th_loop *l)
{
	char *slash;

	if (!l->mnt[0])
		return;
	/* Quiet: the caller may have unmounted it already. */
	th_run(NULL, 0, "umount '%s' 2>/dev/null || umount -l '%s' 2>/dev/null",
	       l->mnt, l->mnt);
	if (l->dev[0] && loop_backed_by(l->dev, l->image))
		th_run(NULL, 0, "losetup -d %s 2>/dev/null", l->dev);
	slash = strrchr(l->image, '/');
	if (slash) {
		*slash = '\0';
		th_rmrf(l->image);
	}
	unhold_loop(l);
	l->mnt[0] = '\0';
}

#include <stddef.h>
#include <sys/ucontext.h>
#include <linux/filter.h>
#include <sys/prctl.h>
#include "seccomp-arch.h"

/* This ABI's audit arch and statx number (seccomp-arch.h), or none. */
#ifdef SA_AUDIT_ARCH
#define TH_ARCH		SA_AUDIT_ARCH
#endif
#ifdef SA_NR_STATX
#define TH_NR_STATX	SA_NR_STATX
#endif

int (*th_seccomp_inspect)(const struct sock_fprog *prog);

#ifdef TH_ARCH
/*
 * Install @prog in this thread, or, when a test of the filters themselves
 * set th_seccomp_inspect, hand it to that instead: 0, or -1.
 */
static int load_filter(const struct sock_fprog *prog)
{
	if (th_seccomp_inspect)
		return th_seccomp_inspect(prog);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, prog))
		return -1;
	return 0;
}

/*
 * The one filter of th_block_syscall(), th_trap_syscall() and
 * th_refuse_statx_when(): system call @nr of this ABI gets @action when
 * @arg < 0, or when its argument @arg's low word (SA_ARG_LO: the second
 * half of the 64-bit slot on a big-endian machine), masked with @mask, is
 * @value (is not, when @equal is 0); every other call, and every call of
 * another ABI, passes.
 */
static int install_filter(int nr, uint32_t action, int arg, uint32_t mask,
			  uint32_t value, int equal)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TH_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 SA_ARG_LO((unsigned)(arg < 0 ? 0 : arg))),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, arg < 0 ? 0 : mask),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arg < 0 ? 0 : value & mask,
			 equal ? 0 : 1, equal ? 1 : 0),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	return load_filter(&prog);
}
#endif

int th_block_syscall(int nr, int err)
{
#ifdef TH_ARCH
	return install_filter(nr, err < 0 ? SECCOMP_RET_KILL_PROCESS :
			      SECCOMP_RET_ERRNO |
			      ((unsigned)err & SECCOMP_RET_DATA), -1, 0, 0, 1);
#else
	(void)nr;
	(void)err;
	return -1;
#endif
}

int th_trap_syscall(int nr, int arg, uint32_t mask, uint32_t value,
		    void (*handler)(int, siginfo_t *, void *))
{
#ifdef TH_ARCH
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGSYS, &sa, NULL))
		return -1;
	return install_filter(nr, SECCOMP_RET_TRAP, arg, mask, value, 1);
#else
	(void)nr;
	(void)arg;
	(void)mask;
	(void)value;
	(void)handler;
	return -1;
#endif
}

int th_make_types(const char *dir)
{
	char p[PATH_MAX];
	int fd;

	th_pathf(p, sizeof(p), "%s/f", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	if (fd < 0)
		return -1;
	if (write(fd, "0123456789", 10) != 10) {
		close(fd);
		return -1;
	}
	close(fd);
	th_pathf(p, sizeof(p), "%s/d", dir);
	if (mkdir(p, 0750))
		return -1;
	th_pathf(p, sizeof(p), "%s/l", dir);
	if (symlink("f", p))
		return -1;
	th_pathf(p, sizeof(p), "%s/p", dir);
	return mkfifo(p, 0600);
}

#ifdef TH_NR_STATX
/*
 * Whether statx is answered as th_block_statx() asked: refused with @err,
 * or (@err 0) a success that writes nothing.  A filter that let statx
 * through would leave every variant passing without testing anything.
 */
static int statx_blocked(int err)
{
	unsigned char buf[256];
	int saved = errno, ok;
	size_t i;
	long r;

	memset(buf, 0xa5, sizeof(buf));
	r = syscall(TH_NR_STATX, AT_FDCWD, "/", AT_SYMLINK_NOFOLLOW, 0x7ffU,
		    buf);
	ok = err ? r == -1 && errno == err : r == 0;
	for (i = 0; ok && !err && i < sizeof(buf); i++)
		ok = buf[i] == 0xa5;
	errno = saved;
	return ok;
}
#endif

int th_block_statx(int err)
{
#ifdef TH_NR_STATX
	if (th_block_syscall(TH_NR_STATX, err))
		return -1;
	if (err >= 0 && !statx_blocked(err)) {
		fprintf(stderr, "FAIL: the seccomp filter lets statx through\n");
		exit(1);
	}
	return 0;
#else
	(void)err;
	return -1;
#endif
}

int th_check_full(void)
{
	const char *v = getenv("XSTAT_CHECK_FULL");

	return v && !strcmp(v, "1");
}

unsigned th_rounds(unsigned sampled, unsigned full)
{
	return th_check_full() ? full : sampled;
}

unsigned th_share(unsigned nshares)
{
	const char *b = getenv("XSTAT_TEST_BLOCK");
	unsigned share = 0;

	if (b && !strcmp(b, "ENOSYS"))
		share = 1;
	else if (b && !strcmp(b, "EPERM"))
		share = 2;
	else if (b && !strcmp(b, "KILL"))
		share = 3;
	return nshares ? share % nshares : 0;
}

int th_sampled(unsigned i, unsigned nshares)
{
	return th_check_full() || !nshares || i % nshares == th_share(nshares);
}

int th_block_from_env(void)
{
	const char *b = getenv("XSTAT_TEST_BLOCK");
	int err;

	if (!b || !*b)
		return 0;
	err = !strcmp(b, "EPERM") ? EPERM : !strcmp(b, "KILL") ? -1 : ENOSYS;
	errno = 0;
	if (th_block_statx(err)) {
		fprintf(stderr, "SKIP: cannot install a seccomp filter: %s\n",
			errno ? strerror(errno) :
			"no table for this ABI in tests/seccomp-arch.h");
		exit(TH_SKIP);
	}
	return err;
}

const char *th_no_native_handles(const char *path)
{
	static char why[PATH_MAX + 160];
	struct {
		struct file_handle fh;
		unsigned char bytes[128];
	} h;
	struct stat sb;
	uint32_t word, ino32, swapped = 0;
	unsigned i;
	int mnt;

	h.fh.handle_bytes = sizeof(h.bytes);
	if (lstat(path, &sb) ||
	    name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt, 0)) {
		snprintf(why, sizeof(why), "no file handle of %s: %s", path,
			 strerror(errno));
		return why;
	}
	/* ext4, xfs: the inode number first; tmpfs: second, after the
	 * generation. */
	ino32 = (uint32_t)sb.st_ino;
	if (ino32 == __builtin_bswap32(ino32))
		return NULL;	/* cannot tell */
	for (i = 0; i < 2 && 4 * (i + 1) <= h.fh.handle_bytes; i++) {
		memcpy(&word, h.fh.f_handle + 4 * i, 4);
		if (word == ino32)
			return NULL;
		if (word == __builtin_bswap32(ino32))
			swapped = word;
	}
	if (swapped) {
		snprintf(why, sizeof(why), "the file handle of %s holds its "
			 "inode number %#x in the other byte order (%#x): the "
			 "kernel is of another byte order than this program",
			 path, ino32, swapped);
		return why;
	}
	return NULL;
}

int th_kernel_mgtime(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2 ||
	    (major < 6 || (major == 6 && minor < 13)))
		return 0;
	errno = 0;
	return syscall(457, NULL, NULL, 0, 0) == 0 || errno != ENOSYS;
}

/* The new mount API (5.2+, idmapping 5.12+): numbers common to all ABIs. */
#define NR_open_tree_		428
#define NR_move_mount_		429
#define NR_mount_setattr_	442
#define OPEN_TREE_CLONE_	1
#define MOVE_MOUNT_F_EMPTY_PATH_ 0x4
#define MOUNT_ATTR_IDMAP_	0x00100000ULL

struct mount_attr_ {
	uint64_t	attr_set, attr_clr, propagation, userns_fd;
};

/* Write @text to /proc/@pid/@file: 0, or -1 with errno set. */
static int write_proc(pid_t pid, const char *file, const char *text)
{
	char path[64];
	ssize_t n;
	int fd, err;

	th_pathf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	/* A short write sets no errno of its own. */
	err = n < 0 ? errno : n != (ssize_t)strlen(text) ? EIO : 0;
	close(fd);
	errno = err;
	return err ? -1 : 0;
}

/*
 * A user namespace fd with the mapping @map: a child unshares, the
 * parent writes its maps and opens /proc/PID/ns/user, the child exits.
 * -1 with errno set on failure: the child's own where unshare() failed
 * (it sends its errno back), kept across the cleanup that follows.
 */
static int userns_fd(const char *map)
{
	char path[64], c = 0;
	int go[2], ready[2], fd = -1, err = 0, child_err;
	ssize_t n;
	pid_t pid;

	if (pipe(go))
		return -1;
	if (pipe(ready)) {
		err = errno;
		goto close_go;
	}
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(ready[0]);
		close(ready[1]);
		goto close_go;
	}
	if (pid == 0) {
		/* Only the parent's end of @go may hold it open. */
		close(go[1]);
		close(ready[0]);
		child_err = unshare(CLONE_NEWUSER) ? errno : 0;
		if (write(ready[1], &child_err, sizeof(child_err)) !=
		    (ssize_t)sizeof(child_err))
			_exit(1);
		/* Stay until the parent holds the namespace. */
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(ready[1]);
	n = read(ready[0], &child_err, sizeof(child_err));
	if (n != (ssize_t)sizeof(child_err)) {
		/* The child died before it could say. */
		err = n < 0 ? errno : ECHILD;
	} else if (child_err) {
		err = child_err;
	} else {
		th_pathf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
		if (write_proc(pid, "uid_map", map) ||
		    write_proc(pid, "gid_map", map))
			err = errno;
		else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			err = errno;
	}
	close(ready[0]);
	close(go[0]);
	close(go[1]);
	waitpid(pid, NULL, 0);
	errno = err;
	return fd;

close_go:
	close(go[0]);
	close(go[1]);
	errno = err;
	return -1;
}

int th_mount_idmapped(const char *src, const char *dst, unsigned first,
		      unsigned lower, unsigned count, const char *what)
{
	struct mount_attr_ attr = { .attr_set = MOUNT_ATTR_IDMAP_ };
	int tree, ns, ret = TH_SKIP;
	char map[64];

	snprintf(map, sizeof(map), "%u %u %u\n", first, lower, count);
	ns = userns_fd(map);
	if (ns < 0) {
		fprintf(stderr, "SKIP: %sno user namespace with a mapping: "
			"%s\n", what, strerror(errno));
		return TH_SKIP;
	}
	tree = (int)syscall(NR_open_tree_, AT_FDCWD, src,
			    OPEN_TREE_CLONE_ | O_CLOEXEC);
	attr.userns_fd = (uint64_t)ns;
	if (tree < 0) {
		fprintf(stderr, "SKIP: %sopen_tree: %s\n", what,
			strerror(errno));
	} else if (syscall(NR_mount_setattr_, tree, "", AT_EMPTY_PATH, &attr,
			   sizeof(attr))) {
		fprintf(stderr, "SKIP: %sthe kernel does not idmap this "
			"mount: mount_setattr: %s\n", what, strerror(errno));
	} else if (mkdir(dst, 0755) ||
		   syscall(NR_move_mount_, tree, "", AT_FDCWD, dst,
			   MOVE_MOUNT_F_EMPTY_PATH_)) {
		fprintf(stderr, "%smove_mount %s: %s\n", what, dst,
			strerror(errno));
		ret = -1;
	} else {
		ret = 0;
	}
	if (tree >= 0)
		close(tree);
	close(ns);
	return ret;
}

int th_refuse_statx_when(const struct th_arg_rule *r, int err,
			 void (*trap)(int, siginfo_t *, void *))
{
#if defined(TH_ARCH) && defined(TH_NR_STATX)
	uint32_t action = trap ? SECCOMP_RET_TRAP :
			  SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA);
	struct sigaction sa;

	if (r->arg > 5)
		return -1;
	if (trap) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = trap;
		sa.sa_flags = SA_SIGINFO;
		if (sigaction(SIGSYS, &sa, NULL))
			return -1;
	}
	return install_filter(TH_NR_STATX, action, (int)r->arg, r->mask,
			      r->value, r->equal);
#else
	(void)r;
	(void)err;
	(void)trap;
	return -1;
#endif
}
