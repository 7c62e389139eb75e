// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /proc is proven before it is used.  In a chroot without procfs, a
 * planted proc/self/fd/N symlink (N: the caller's O_PATH descriptor)
 * points at a FIFO whose writer is blocked, and a planted
 * proc/self/fdinfo/N claims mnt_id 4242.  With statx and
 * name_to_handle_at blocked (EPERM), fxstat(N) asking for everything
 * reaches the reopen and fdinfo paths: the FIFO must never be opened,
 * the mount ID must not be 4242, and a generation, if any, must be the
 * file's own (FS_IOC_GETVERSION on a real descriptor, taken before).
 * On loop-mounted ext4.  Root and loop devices, else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "xstat.h"
#include "testhelp.h"

#define FS_IOC_GETVERSION_	_IOR('v', 1, long)

static int child(const char *mnt, unsigned gen)
{
	union { struct xstat x; unsigned char b[512]; } r;
	struct xstat_parameters p = { XSTAT_REQUEST__ALL_STATS };
	const struct xstat_mnt_id *m;
	char path[600], link[64];
	int fd;

	th_pathf(path, sizeof(path), "%s/f", mnt);
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return 1;
	th_pathf(path, sizeof(path), "%s/proc/self/fd", mnt);
	th_run(NULL, 0, "mkdir -p '%s' '%s/proc/self/fdinfo'", path, mnt);
	th_pathf(path, sizeof(path), "%s/proc/self/fd/%d", mnt, fd);
	if (symlink("/fifo", path))
		return 1;
	th_pathf(path, sizeof(path), "%s/proc/self/fdinfo/%d", mnt, fd);
	th_run(NULL, 0, "printf 'pos:\t0\nflags:\t0\nmnt_id:\t4242\n' > '%s'",
	       path);
	if (chroot(mnt) || chdir("/"))
		return 1;
	errno = 0;
#ifdef SYS_name_to_handle_at
	if (th_block_statx(EPERM) ||
	    th_block_syscall(SYS_name_to_handle_at, EPERM)) {
		fprintf(stderr, "SKIP: cannot block statx and "
			"name_to_handle_at: %s\n",
			errno ? strerror(errno) : "no seccomp table for this ABI");
		return 77;
	}
#else
	fprintf(stderr, "SKIP: no name_to_handle_at on this ABI\n");
	return 77;
#endif
	if (fxstat((unsigned)fd, 0, &p, &r.x, sizeof(r)) != 184 &&
	    fxstat((unsigned)fd, 0, &p, &r.x, sizeof(r)) < 0)
		return 1;
	(void)link;
	m = xstat_extra(&r.x, sizeof(r), XSTAT_REQUEST_MNT_ID);
	if (m && m->mnt_id == 4242) {
		fprintf(stderr, "mount ID read from the planted fdinfo\n");
		return 1;
	}
	if ((r.x.st_result_mask & XSTAT_REQUEST_GEN) && r.x.st_gen != gen) {
		fprintf(stderr, "generation %llu, not the file's %u\n",
			(unsigned long long)r.x.st_gen, gen);
		return 1;
	}
	return 0;
}

static int run_all(void)
{
	char path[600];
	struct th_loop l;
	unsigned gen = 0;
	int fd, st, ret, released;
	pid_t w, c;

	th_require_root();
	ret = th_loop_mount(&l, 32, "mkfs.ext4 -q -F %s", NULL);
	if (ret == TH_SKIP) {
		fprintf(stderr, "SKIP: no loop device or mkfs.ext4\n");
		return 77;
	}
	if (ret)
		return 1;
	th_pathf(path, sizeof(path), "%s/f", l.mnt);
	fd = open(path, O_CREAT | O_RDONLY, 0644);
	if (fd < 0 || ioctl(fd, FS_IOC_GETVERSION_, &gen))
		return 1;
	close(fd);
	th_pathf(path, sizeof(path), "%s/fifo", l.mnt);
	if (mkfifo(path, 0644))
		return 1;
	w = fork();
	if (w == 0)
		_exit(open(path, O_WRONLY) >= 0 ? 0 : 1);
	usleep(100000);
	c = fork();
	if (c == 0)
		_exit(child(l.mnt, gen));
	waitpid(c, &st, 0);
	ret = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	usleep(50000);
	released = waitpid(w, &st, WNOHANG) == w;
	if (!released) {
		kill(w, SIGKILL);
		waitpid(w, &st, 0);
	}
	fprintf(stderr, "# planted /proc: FIFO %s, checks %s\n",
		released ? "OPENED" : "never opened",
		ret == 0 ? "pass" : ret == 77 ? "skipped" : "FAIL");
	th_loop_umount(&l);
	if (released)
		return 1;
	return ret;
}

int main(void)
{
	return th_run_program(run_all);
}
