// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Start and stop a countfs mount for a test or benchmark.  The server runs
 * in the foreground in a child process; the mount is ready when statfs of
 * the mount point says FUSE.  Stopping detaches the mount first, so a dead
 * or stuck server can never keep the test from cleaning up.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include "countfs.h"

#define FUSE_SUPER_MAGIC	0x65735546

const char *cfs_binary(char *buf, size_t len)
{
	const char *env = getenv("COUNTFS");
	const char *top = getenv("top_builddir");

	if (env && *env)
		return env;
	snprintf(buf, len, "%s/tests/fuse/countfs", top && *top ? top : ".");
	return buf;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int is_mounted(const char *mnt)
{
	struct statfs sfs;

	return statfs(mnt, &sfs) == 0 && sfs.f_type == FUSE_SUPER_MAGIC;
}

static int map_counters(struct cfs *c, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *p;

	if (fd < 0)
		return -1;
	p = mmap(NULL, sizeof(struct cfs_counters), PROT_READ, MAP_SHARED,
		 fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	c->cnt = p;
	return 0;
}

static void exec_server(const char *bin, const char *src, const char *cnt,
			const char *mnt, double attr_timeout, int64_t btime,
			const char *extra)
{
	char a_src[340], a_cnt[340], a_at[64], a_bt[64];
	char *argv[12];
	int n = 0;

	snprintf(a_src, sizeof(a_src), "--source=%s", src);
	snprintf(a_cnt, sizeof(a_cnt), "--counters=%s", cnt);
	snprintf(a_at, sizeof(a_at), "--attr-timeout=%.3f", attr_timeout);
	snprintf(a_bt, sizeof(a_bt), "--btime=%lld", (long long)btime);
	argv[n++] = (char *)"countfs";
	argv[n++] = (char *)"-f";
	argv[n++] = a_src;
	argv[n++] = a_cnt;
	argv[n++] = a_at;
	argv[n++] = a_bt;
	if (extra)
		argv[n++] = (char *)extra;
	argv[n++] = (char *)"-o";
	argv[n++] = (char *)"fsname=countfs,subtype=countfs";
	argv[n++] = (char *)mnt;
	argv[n] = NULL;
	execv(bin, argv);
	perror(bin);
	_exit(127);
}

int cfs_start(struct cfs *c, const char *bin, double attr_timeout,
	      int64_t btime)
{
	return cfs_start_opt(c, bin, attr_timeout, btime, NULL);
}

int cfs_start_opt(struct cfs *c, const char *bin, double attr_timeout,
		  int64_t btime, const char *extra)
{
	const char *tmp = getenv("TMPDIR");
	char cnt[320];
	int i, fd, status;

	memset(c, 0, sizeof(*c));
	if (geteuid() != 0) {
		fprintf(stderr, "SKIP: countfs tests need root\n");
		return 77;
	}
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "SKIP: /dev/fuse: %s\n", strerror(errno));
		return 77;
	}
	close(fd);
	if (access(bin, X_OK)) {
		fprintf(stderr, "SKIP: %s: %s\n", bin, strerror(errno));
		return 77;
	}

	snprintf(c->dir, sizeof(c->dir), "%s/xstat-fuse.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(c->dir))
		return -1;
	snprintf(c->src, sizeof(c->src), "%s/src", c->dir);
	snprintf(c->mnt, sizeof(c->mnt), "%s/mnt", c->dir);
	snprintf(cnt, sizeof(cnt), "%s/counters", c->dir);
	if (mkdir(c->src, 0755) || mkdir(c->mnt, 0755))
		goto fail;
	/* Created here so that both sides can map it before the mount. */
	fd = open(cnt, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, sizeof(struct cfs_counters)))
		goto fail;
	close(fd);
	if (map_counters(c, cnt))
		goto fail;

	c->pid = fork();
	if (c->pid < 0) {
		c->pid = 0;
		goto fail;
	}
	if (c->pid == 0) {
		/* If the test dies, the server unmounts and exits too. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		exec_server(bin, c->src, cnt, c->mnt, attr_timeout, btime,
			    extra);
	}

	for (i = 0; i < 500; i++) {		/* 5 s */
		if (is_mounted(c->mnt))
			return 0;
		if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
			fprintf(stderr, "countfs exited (status 0x%x)\n",
				status);
			c->pid = 0;
			goto fail;
		}
		sleep_ms(10);
	}
	fprintf(stderr, "countfs: mount did not appear\n");
fail:
	perror("cfs_start");
	cfs_stop(c);
	return -1;
}

void cfs_stop(struct cfs *c)
{
	char cmd[400];
	int i, status;

	if (c->mnt[0])
		umount2(c->mnt, MNT_DETACH);
	if (c->pid > 0) {
		/* After the unmount the server reads ENODEV and exits. */
		for (i = 0; i < 200; i++) {
			if (waitpid(c->pid, &status, WNOHANG) == c->pid)
				break;
			sleep_ms(10);
		}
		if (i == 200) {
			kill(c->pid, SIGKILL);
			waitpid(c->pid, &status, 0);
		}
		c->pid = 0;
	}
	if (c->cnt) {
		munmap((void *)c->cnt, sizeof(struct cfs_counters));
		c->cnt = NULL;
	}
	if (c->dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", c->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cfs_stop: could not remove %s\n",
				c->dir);
		c->dir[0] = '\0';
	}
	c->mnt[0] = '\0';
}

uint64_t cfs_count(const struct cfs *c, unsigned op)
{
	if (op >= CFS_NOPS)
		op = 0;
	return __atomic_load_n(&c->cnt->op[op], __ATOMIC_SEQ_CST);
}

uint64_t cfs_total(const struct cfs *c)
{
	return __atomic_load_n(&c->cnt->total, __ATOMIC_SEQ_CST);
}

uint64_t cfs_attr_requests(const struct cfs *c)
{
	return cfs_count(c, CFS_GETATTR) + cfs_count(c, CFS_STATX);
}
