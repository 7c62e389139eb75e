// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The creation-time xattr (NTFS-3G's system.ntfs_crtime, lib/probe_xattr.c)
 * is read only from the anchored inode.  In a chroot whose /proc is a
 * directory with "self" a symlink into a real procfs (mounted in a
 * private mount namespace) at another process, that process holding
 * file B at the descriptor number that anchors file A: /proc/self/fd is
 * procfs, but its entry N is B.  fxstat(N, BTIME) must give A's creation
 * time or none, never B's.  getxattrat(2) available and blocked (ENOSYS:
 * the pre-6.13 getxattr by path), statx available and blocked (EPERM:
 * the identity check without statx).  The oracle is getfattr's
 * system.ntfs_crtime_be, read before the chroot.  Root, /dev/fuse, mkntfs,
 * ntfs-3g and getfattr, else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "xstat.h"
#include "testhelp.h"

#define XS_NR_getxattrat	464

static char top[300], mnt[400];

/* One round in a child: 0 pass, 1 B's time seen, 77 cannot set up. */
static int round_(int block_getxattrat, int block_statx, long long a_sec,
		  unsigned long a_nsec, long long b_sec, unsigned long b_nsec)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS |
				      XSTAT_REQUEST_BTIME };
	char path[600], link[64];
	union xstat_buffer r;
	int fd, bfd, st, ret;
	pid_t helper, c;

	th_pathf(path, sizeof(path), "%s/a", mnt);
	fd = open(path, O_PATH | O_CLOEXEC);
	th_pathf(path, sizeof(path), "%s/b", mnt);
	bfd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || bfd < 0)
		return 1;
	helper = fork();
	if (helper == 0) {
		if (dup2(bfd, fd) != fd)
			_exit(1);
		pause();
		_exit(0);
	}
	close(bfd);
	usleep(100000);
	fflush(NULL);
	c = fork();
	if (c == 0) {
		th_pathf(path, sizeof(path), "%s/rp", top);
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("proc", path, "proc", 0, NULL))
			_exit(77);
		th_pathf(path, sizeof(path), "%s/proc/self", top);
		snprintf(link, sizeof(link), "/rp/%d", (int)helper);
		unlink(path);
		if (symlink(link, path) || chroot(top) || chdir("/"))
			_exit(1);
		if ((block_getxattrat &&
		     th_block_syscall(XS_NR_getxattrat, ENOSYS)) ||
		    (block_statx && th_block_statx(EPERM)))
			_exit(77);
		if (fxstat((unsigned)fd, 0, &p, &r.x, sizeof(r)) < 0)
			_exit(1);
		if (!(r.x.st_result_mask & XSTAT_REQUEST_BTIME))
			_exit(0);
		if (r.x.st_btim.tv_sec == b_sec &&
		    r.x.st_btim.tv_nsec == b_nsec) {
			fprintf(stderr, "  creation time of the planted "
				"entry's file\n");
			_exit(1);
		}
		_exit(r.x.st_btim.tv_sec == a_sec &&
		      r.x.st_btim.tv_nsec == a_nsec ? 0 : 1);
	}
	waitpid(c, &st, 0);
	ret = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	kill(helper, SIGKILL);
	waitpid(helper, &st, 0);
	close(fd);
	return ret;
}

static int run_all(void)
{
	char image[400], path[600];
	long long a_sec, b_sec;
	unsigned long a_nsec, b_nsec;
	int fd, i, ret, fails = 0, ran = 0;

	th_require_root();
	if (access("/dev/fuse", R_OK | W_OK) ||
	    th_run(NULL, 0, "command -v mkntfs && command -v ntfs-3g && "
		   "command -v getfattr")) {
		fprintf(stderr, "SKIP: no FUSE, ntfs-3g, mkntfs or getfattr\n");
		return 77;
	}
	if (!th_mkdtemp(top, sizeof(top)))
		return 1;
	th_pathf(image, sizeof(image), "%s/img", top);
	th_pathf(mnt, sizeof(mnt), "%s/n", top);
	th_run(NULL, 0, "mkdir -p '%s' '%s/rp' '%s/proc'", mnt, top, top);
	if (th_run(NULL, 0, "truncate -s 16M '%s' && mkntfs -Q -F '%s' "
		   ">/dev/null 2>&1", image, image) ||
	    th_run(NULL, 0, "ntfs-3g '%s' '%s' >/dev/null 2>&1", image, mnt)) {
		fprintf(stderr, "SKIP: ntfs-3g cannot mount here\n");
		th_rmrf(top);
		return 77;
	}
	for (i = 0; i < 2; i++) {
		th_pathf(path, sizeof(path), "%s/%s", mnt, i ? "b" : "a");
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0 || close(fd))
			fails++;
		usleep(20000);
	}
	th_pathf(path, sizeof(path), "%s/a", mnt);
	ret = th_ntfs_crtime(path, &a_sec, &a_nsec);
	th_pathf(path, sizeof(path), "%s/b", mnt);
	if (ret || th_ntfs_crtime(path, &b_sec, &b_nsec) ||
	    (a_sec == b_sec && a_nsec == b_nsec)) {
		fprintf(stderr, "no distinct creation times from getfattr\n");
		fails++;
		goto out;
	}
	for (i = 0; i < 4; i++) {
		ret = round_(i & 1, i & 2, a_sec, a_nsec, b_sec, b_nsec);
		fprintf(stderr, "# getxattrat %s, statx %s: %s\n",
			i & 1 ? "blocked" : "available",
			i & 2 ? "blocked" : "available",
			ret == 0 ? "pass" : ret == 77 ? "skipped" : "FAIL");
		if (ret == 0)
			ran++;
		else if (ret != 77)
			fails++;
	}
out:
	th_run(NULL, 0, "umount '%s' 2>/dev/null || umount -l '%s'", mnt, mnt);
	th_rmrf(top);
	if (fails)
		return 1;
	if (!ran) {
		fprintf(stderr, "SKIP: no round could be set up\n");
		return 77;
	}
	return 0;
}

int main(void)
{
	return th_run_program(run_all);
}
