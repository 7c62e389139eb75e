// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xstat_opendir() reads kernel.io_uring_disabled only from procfs.  In a
 * chroot, proc/sys/kernel/io_uring_disabled is planted as:
 *
 *  - a FIFO, alone (a blocking open would never return) and with a
 *    blocked writer (a blocking open would read nothing, taken for 0):
 *    the stream must open and read without hanging, io_uring not used;
 *  - a regular file (not procfs) saying 0: it says nothing about the
 *    kernel, so io_uring is not allowed.
 *
 * With LIBXSTAT_URING=always, io_uring_setup kills the process (seccomp):
 * a planted file taken for the sysctl shows as a SIGSYS death.  The
 * control, real procfs mounted at the chroot's /proc in a private mount
 * namespace, must die that way, else the oracle cannot see io_uring use
 * here (no liburing, or the real sysctl disables it): exit 77.  Root,
 * else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "xstat.h"
#include "testhelp.h"

#define NFILES	64

enum plant { PLANT_FIFO, PLANT_FIFO_WRITER, PLANT_FILE, PLANT_PROCFS };

static char top[300];

/* Chroot into @top, plant, walk /d with io_uring forced: exit 0. */
static int child(enum plant what)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS };
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	struct xstat x;
	char path[400];
	int n = 0;

	if (what == PLANT_PROCFS) {
		th_pathf(path, sizeof(path), "%s/proc", top);
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("proc", path, "proc", 0, NULL))
			return 77;
	}
	if (chroot(top) || chdir("/"))
		return 1;
	setenv("LIBXSTAT_URING", "always", 1);
#ifdef SYS_io_uring_setup
	if (th_block_syscall(SYS_io_uring_setup, -1))
		return 77;
#else
	return 77;
#endif
	/* Settle the backend: a ring is used only on the statx one. */
	if (xstat(AT_FDCWD, "/d", 0, &p, &x, sizeof(x)) < 0)
		return 1;
	d = xstat_opendir(AT_FDCWD, "/d", 0, &p);
	if (!d)
		return 1;
	while ((e = xstat_readdir(d)))
		n++;
	if (xstat_closedir(d))
		return 1;
	return n == NFILES ? 0 : 1;
}

static int child_of(void *what)
{
	return child(*(const enum plant *)what);
}

/* The child's fate: exit status, 128 + signal, or -1 if it hung. */
static int run(enum plant what)
{
	return th_child_within(child_of, &what, 10);
}

static int plant(enum plant what, const char *sysctl)
{
	unlink(sysctl);
	switch (what) {
	case PLANT_FIFO:
	case PLANT_FIFO_WRITER:
		return mkfifo(sysctl, 0644);
	case PLANT_FILE:
		return th_run(NULL, 0, "echo 0 > '%s'", sysctl);
	case PLANT_PROCFS:
		break;
	}
	return 0;
}

static int run_all(void)
{
	static const char *const names[] = { "FIFO", "FIFO with a writer",
					     "regular file",
					     "procfs (control)" };
	char sysctl[400], path[400];
	int ret, st, fail = 0, released;
	enum plant what;
	pid_t w;

	th_require_root();
	if (!mkdtemp(strcpy(top, "/tmp/xstat-uring.XXXXXX")))
		return 1;
	th_pathf(path, sizeof(path), "%s/d", top);
	th_run(NULL, 0, "mkdir -p '%s/proc/sys/kernel' '%s'", top, path);
	for (ret = 0; ret < NFILES; ret++)
		th_run(NULL, 0, "touch '%s/f%d'", path, ret);
	th_pathf(sysctl, sizeof(sysctl), "%s/proc/sys/kernel/io_uring_disabled",
		 top);

	/* The control first: can this machine see io_uring use at all? */
	ret = run(PLANT_PROCFS);
	if (ret != 128 + SIGSYS) {
		fprintf(stderr, "SKIP: io_uring not used with real procfs "
			"(child: %d): no liburing, or the sysctl disables it\n",
			ret);
		th_rmrf(top);
		return 77;
	}
	fprintf(stderr, "# procfs (control): io_uring_setup called\n");

	for (what = PLANT_FIFO; what <= PLANT_FILE; what++) {
		if (plant(what, sysctl))
			return 1;
		w = -1;
		if (what == PLANT_FIFO_WRITER) {
			w = fork();
			if (w == 0)
				_exit(open(sysctl, O_WRONLY) >= 0 ? 0 : 1);
			usleep(100000);
		}
		ret = run(what);
		released = 0;
		if (w > 0) {
			released = waitpid(w, &st, WNOHANG) == w;
			if (!released) {
				kill(w, SIGKILL);
				waitpid(w, &st, 0);
			}
		}
		fprintf(stderr, "# planted %s: %s%s\n", names[what],
			ret == -1 ? "HUNG" : ret == 128 + SIGSYS ?
			"io_uring used (SIGSYS)" : ret ? "FAIL" : "pass",
			released ? " (FIFO opened)" : "");
		if (ret)
			fail = 1;
	}
	th_rmrf(top);
	return fail;
}

int main(void)
{
	return th_run_program(run_all);
}
