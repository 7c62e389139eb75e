// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Hostile input and hostile environments: names of exactly PATH_MAX and
 * NAME_MAX (and one more), a file swapped between stat and open, FIFOs,
 * device nodes and sockets that must never be opened (watched with
 * inotify IN_OPEN), no free file descriptor, unreadable /proc and /sys,
 * and fork() while other threads are inside the library.  Oracles:
 * fstatat(2) and glibc statx() on the same names.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "internal.h"
#include "anchor.h"
#include "testhelp.h"

static char dir[PATH_MAX];

static const struct xstat_parameters everything = { XSTAT_REQUEST__ALL_STATS };

/* Same errno, or same inode, as fstatat() for the same name. */
static void like_fstatat(const char *path)
{
	struct stat sb;
	struct xstat x;
	int r = fstatat(AT_FDCWD, path, &sb, AT_SYMLINK_NOFOLLOW), err = errno;
	ssize_t n = xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, NULL, &x,
			  sizeof(x));

	if (r) {
		assert_int_equal(n, -1);
		assert_int_equal(errno, err);
	} else {
		assert_int_equal(n, 152);
		assert_int_equal(x.st_ino, sb.st_ino);
	}
}

static void test_name_max(void **state)
{
	char name[NAME_MAX + 2], path[PATH_MAX + 8];
	int fd;

	(void)state;
	memset(name, 'n', NAME_MAX);
	name[NAME_MAX] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	like_fstatat(path);			/* exactly NAME_MAX: found */
	name[NAME_MAX] = 'n';
	name[NAME_MAX + 1] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	like_fstatat(path);			/* one more: ENAMETOOLONG */
	assert_int_equal(errno, ENAMETOOLONG);
	unlink(path);
}

static void test_path_max(void **state)
{
	char path[PATH_MAX + 2], comp[NAME_MAX + 1];
	size_t len;
	int dfd, next;

	(void)state;
	/* Nest directories until one more component fills PATH_MAX - 1. */
	memset(comp, 'p', 200);
	comp[200] = '\0';
	snprintf(path, sizeof(path), "%s", dir);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	while (PATH_MAX - 2 - strlen(path) > NAME_MAX) {
		assert_int_equal(mkdirat(dfd, comp, 0755), 0);
		next = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		assert_true(next >= 0);
		close(dfd);
		dfd = next;
		strcat(path, "/");
		strcat(path, comp);
	}
	/* The last name makes the string exactly PATH_MAX - 1 bytes. */
	len = PATH_MAX - 1 - strlen(path) - 1;
	assert_true(len > 0 && len <= NAME_MAX);
	memset(comp, 'q', len);
	comp[len] = '\0';
	next = openat(dfd, comp, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	assert_true(next >= 0);
	close(next);
	close(dfd);
	strcat(path, "/");
	strcat(path, comp);
	assert_int_equal(strlen(path), PATH_MAX - 1);
	like_fstatat(path);			/* fits with its NUL: found */
	assert_int_equal(xstat(AT_FDCWD, path, 0, &everything, NULL, 0) > 0,
			 1);
	strcat(path, "x");			/* PATH_MAX with the NUL */
	like_fstatat(path);
	assert_int_equal(errno, ENAMETOOLONG);
}

/*
 * The anchor names another file than the one stat'ed (a directory
 * replaced by a symlink, say): the reopen's dev/ino check must refuse it.
 * The race is made deterministic by handing the reopen the stat of
 * another file.
 */
static void test_swapped_between_stat_and_open(void **state)
{
	char a[PATH_MAX + 8], b[PATH_MAX + 8];
	struct xs_target t = { .dfd = AT_FDCWD, .path = a };
	struct xs_anchor an;
	struct xs_stat st;
	struct stat sb;
	int close_it, fds = th_count_fds();

	(void)state;
	snprintf(a, sizeof(a), "%s/swap-dir", dir);
	snprintf(b, sizeof(b), "%s/swap-other", dir);
	assert_int_equal(mkdir(b, 0755), 0);
	assert_int_equal(symlink("swap-other", a), 0);
	assert_int_equal(lstat(a, &sb), 0);	/* what "was" stat'ed */
	memset(&st, 0, sizeof(st));
	st.mode = S_IFDIR | 0755;
	st.ino = sb.st_ino;			/* the symlink, not the dir */
	st.dev_major = major(sb.st_dev);
	st.dev_minor = minor(sb.st_dev);
	assert_int_equal(xs_anchor_open(&t, &an), 0);
	assert_int_equal(xs_reopen(&an.at, &st, &close_it), -ESTALE);
	xs_anchor_close(&an);
	/* With AT_SYMLINK_NOFOLLOW the link itself is never opened. */
	t.flags = AT_SYMLINK_NOFOLLOW;
	assert_int_equal(xs_anchor_open(&t, &an), 0);
	st.mode = S_IFLNK | 0777;
	assert_true(xs_reopen(&an.at, &st, &close_it) < 0);
	xs_anchor_close(&an);
	/* Not anchored: nothing is opened at all. */
	assert_int_equal(xs_reopen(&t, &st, &close_it), -EBADF);
	assert_int_equal(th_count_fds(), fds);
}

/*
 * A watch for this process's own opens of a device node others may open
 * meanwhile: an unprivileged fanotify group reports the pid only of events
 * of its own process (0 for all others).  -1 where fanotify is missing.
 */
static int watch_own_opens(const char *path)
{
	int fd = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID |
			       FAN_NONBLOCK | FAN_CLOEXEC, O_RDONLY);

	if (fd < 0)
		return -1;
	if (fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN, AT_FDCWD, path)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int own_opens(int fan)
{
	char buf[4096] __attribute__((aligned(8)));
	struct fanotify_event_metadata *m;
	ssize_t n;
	int own = 0;

	while ((n = read(fan, buf, sizeof(buf))) > 0)
		for (m = (void *)buf; FAN_EVENT_OK(m, n);
		     m = FAN_EVENT_NEXT(m, n))
			own += m->pid == getpid();
	assert_int_equal(errno, EAGAIN);
	return own;
}

/*
 * FIFOs, device nodes and sockets are stat'ed, never opened: an inotify
 * IN_OPEN watch sees nothing, whatever is requested, in either backend.
 * A FIFO without a writer would block an open: an alarm guards the test.
 * Not root, the device node is the system's /dev/null, which any process
 * may open meanwhile: fanotify tells this process's opens of it from
 * theirs, and without fanotify only the FIFO and socket are watched.
 */
static void test_never_opened(void **state)
{
	char fifo[PATH_MAX + 8], node[PATH_MAX + 8], sock[PATH_MAX + 8];
	const char *paths[3] = { fifo, sock, node };
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	union { struct xstat x; unsigned char b[512]; } r;
	struct inotify_event ev;
	int in, fan = -1, s, i, have_node;

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(node, sizeof(node), "%s/null", dir);
	snprintf(sock, sizeof(sock), "%s/s", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	have_node = geteuid() == 0 &&
		    mknod(node, S_IFCHR | 0666, makedev(1, 3)) == 0;
	if (!have_node) {
		snprintf(node, sizeof(node), "/dev/null");
		fan = watch_own_opens(node);
		if (fan < 0)
			print_message("no fanotify: %s not watched\n", node);
	}
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(s >= 0);
	assert_int_equal(bind(s, (struct sockaddr *)&sun, sizeof(sun)), 0);

	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	assert_true(in >= 0);
	for (i = 0; i < 2 + have_node; i++)
		assert_true(inotify_add_watch(in, paths[i], IN_OPEN) >= 0);
	alarm(10);
	for (i = 0; i < 3; i++) {
		assert_true(xstat(AT_FDCWD, paths[i], AT_SYMLINK_NOFOLLOW,
				  &everything, &r.x, sizeof(r)) >= 152);
		assert_true(xstat(AT_FDCWD, paths[i], 0, &everything, &r.x,
				  sizeof(r)) >= 152);
	}
	alarm(0);
	/* No IN_OPEN: the read finds nothing. */
	assert_int_equal(read(in, &ev, sizeof(ev)), -1);
	assert_int_equal(errno, EAGAIN);
	if (fan >= 0) {
		assert_int_equal(own_opens(fan), 0);
		close(fan);
	}
	close(in);
	close(s);
}

/* No free descriptor: basic stats still right, nothing invented. */
static void test_no_free_fd(void **state)
{
	char file[PATH_MAX + 8];
	struct xstat want;
	pid_t pid;
	int status, fd;

	(void)state;
	snprintf(file, sizeof(file), "%s/nofd", dir);
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(xstat(AT_FDCWD, file, 0, &everything, &want,
			       sizeof(want)) >= 152, 1);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl;
		struct xstat x;
		int lowest;

		/* The lowest free descriptor becomes the limit. */
		lowest = dup(0);
		if (lowest < 0)
			_exit(2);
		close(lowest);
		rl.rlim_cur = rl.rlim_max = (rlim_t)lowest;
		/* (valgrind keeps descriptors of its own: no such limit) */
		if (setrlimit(RLIMIT_NOFILE, &rl) || dup(0) != -1)
			_exit(77);
		if (xstat(AT_FDCWD, file, 0, &everything, &x, sizeof(x)) < 152)
			_exit(4);
		if (x.st_ino != want.st_ino || x.st_size != want.st_size ||
		    x.st_mode != want.st_mode)
			_exit(5);
		if ((x.st_result_mask & XSTAT_REQUEST_GEN) &&
		    x.st_gen != want.st_gen)
			_exit(6);
		if ((x.st_result_mask & XSTAT_REQUEST_BTIME) &&
		    x.st_btim.tv_sec != want.st_btim.tv_sec)
			_exit(7);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		th_skip("cannot exhaust descriptors here");
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* /proc and /sys hidden (empty tmpfs over them, private mount ns). */
static void test_no_proc_sys(void **state)
{
	char file[PATH_MAX + 8];
	struct xstat want;
	pid_t pid;
	int status, fd;

	(void)state;
	if (geteuid() != 0)
		th_skip("no /proc: not root, cannot hide it");
	snprintf(file, sizeof(file), "%s/noproc", dir);
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_true(xstat(AT_FDCWD, file, 0, &everything, &want,
			  sizeof(want)) >= 152);
	pid = fork();
	if (pid == 0) {
		union { struct xstat x; unsigned char b[512]; } r;

		if (unshare(CLONE_NEWNS) ||
		    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
		    mount("tmpfs", "/proc", "tmpfs", 0, "size=16k") ||
		    mount("tmpfs", "/sys", "tmpfs", 0, "size=16k"))
			_exit(77);
		if (xstat(AT_FDCWD, file, 0, &everything, &r.x, sizeof(r)) <
		    152)
			_exit(4);
		if (r.x.st_ino != want.st_ino ||
		    r.x.st_mode != want.st_mode)
			_exit(5);
		if ((r.x.st_result_mask & XSTAT_REQUEST_GEN) &&
		    r.x.st_gen != want.st_gen)
			_exit(6);
		/* An O_PATH fd cannot be reopened without /proc: no crash. */
		fd = open(file, O_PATH | O_CLOEXEC);
		if (fd < 0 || fxstat((unsigned)fd, 0, &everything, &r.x,
				     sizeof(r)) < 152 ||
		    r.x.st_ino != want.st_ino)
			_exit(8);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		th_skip("no /proc: no mount namespace to hide it in");
	assert_int_equal(WEXITSTATUS(status), 0);
}

static volatile sig_atomic_t ticks;

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

/*
 * Signals arriving during probing (no SA_RESTART, a timer firing every
 * 50 us) must never surface as EINTR nor lose a value: a loop-mounted
 * ext4 image, whose raw inode the prober reads, gives the same answer
 * every time.
 */
static void test_eintr(void **state)
{
	const struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };
	struct itimerval it = { { 0, 50 }, { 0, 50 } };
	struct sigaction sa;
	struct th_loop l;
	char file[PATH_MAX + 8];
	struct xstat want, x;
	int i, fd, bad = 0;

	(void)state;
	if (th_loop_mount(&l, 32, "mkfs.ext4 -q -F %s", NULL))
		th_skip("EINTR: cannot make a loop-mounted ext4 image");
	snprintf(file, sizeof(file), "%s/f", l.mnt);
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(xstat(AT_FDCWD, file, 0, &p, &want, sizeof(want)),
			 152);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	for (i = 0; i < 3000; i++) {
		if (xstat(AT_FDCWD, file, 0, &p, &x, sizeof(x)) != 152 ||
		    x.st_result_mask != want.st_result_mask ||
		    x.st_btim.tv_sec != want.st_btim.tv_sec ||
		    x.st_gen != want.st_gen ||
		    x.st_data_version != want.st_data_version)
			bad++;
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	signal(SIGALRM, SIG_IGN);	/* a late tick must not kill us */
	print_message("  %d signals during 3000 calls (mask %#llx), %d bad\n",
		      (int)ticks, want.st_result_mask, bad);
	th_loop_umount(&l);
	assert_int_equal(bad, 0);
	assert_true(ticks > 0);
}

static volatile int stop_threads;

static void *spin(void *arg)
{
	struct xstat x;

	while (!stop_threads)
		xstat(AT_FDCWD, (const char *)arg, 0, &everything, &x,
		      sizeof(x));
	return NULL;
}

/* fork() while other threads are inside the library: the child works. */
/* A child that has not ended after this many seconds is hung. */
#define HUNG	60

/*
 * Wait for @pid, which writes a byte to @fd before its first library
 * call; a hung child is killed.  Returns whether it got that far (then
 * *@status is its wait status; killed, that of SIGKILL).  The bound is a
 * hang guard, no measure: alarm() cannot end a child whose emulator
 * deadlocked after fork (qemu-user), where the byte never comes.
 */
static int wait_child(pid_t pid, int fd, int *status)
{
	char c;
	int waited, reached = 0;
	pid_t w;

	for (waited = 0; waited < HUNG * 10; waited++) {
		w = waitpid(pid, status, WNOHANG);
		assert_true(w >= 0);
		if (w == pid)
			return 1;
		usleep(100000);
	}
	assert_int_equal(fcntl(fd, F_SETFL, O_NONBLOCK), 0);
	reached = read(fd, &c, 1) == 1;
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, status, 0), pid);
	return reached;
}

static void test_fork_in_threads(void **state)
{
	pthread_t t[4];
	int i, round, status;

	(void)state;
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, spin, dir), 0);
	for (round = 0; round < 20; round++) {
		int p[2], reached;
		pid_t pid;

		assert_int_equal(pipe(p), 0);
		pid = fork();
		if (pid == 0) {
			struct xstat x;
			struct stat sb;

			alarm(10);
			close(p[0]);
			if (stat(dir, &sb))
				_exit(1);
			/* Up to here no library code ran in the child. */
			if (write(p[1], "", 1) != 1)
				_exit(1);
			if (xstat(AT_FDCWD, dir, 0, &everything, &x,
				  sizeof(x)) < 152 || x.st_ino != sb.st_ino)
				_exit(1);
			_exit(0);
		}
		assert_true(pid > 0);
		close(p[1]);
		reached = wait_child(pid, p[0], &status);
		close(p[0]);
		if (!reached) {
			stop_threads = 1;
			for (i = 0; i < 4; i++)
				pthread_join(t[i], NULL);
			th_skip("a child forked while threads ran hung before "
				"any library call (killed after %d s): fork "
				"in a threaded program does not work here",
				HUNG);
		}
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			fail_msg("a child forked while threads ran hung in "
				 "xstat() (killed after %d s)", HUNG);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	stop_threads = 1;
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_max),
		cmocka_unit_test(test_path_max),
		cmocka_unit_test(test_swapped_between_stat_and_open),
		cmocka_unit_test(test_never_opened),
		cmocka_unit_test(test_no_free_fd),
		cmocka_unit_test(test_no_proc_sys),
		cmocka_unit_test(test_fork_in_threads),
		cmocka_unit_test(test_eintr),
	};
	int ret;

	if (!th_mkdtemp(dir, sizeof(dir)))
		return 1;
	th_block_from_env();
	ret = th_run_tests(tests);
	th_rmrf(dir);
	return ret;
}
