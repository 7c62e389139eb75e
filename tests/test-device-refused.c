// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A block device that refuses to open is asked once per directory stream
 * and at most once per xstat() call, never once per entry.  As nobody on
 * an ext4 loop image (the loop device is root's: EACCES, the container's
 * usual case), a stream asking for the extended stats over 300 entries
 * and single calls of every class (3) request.  The device's opens are
 * counted by a real seccomp filter that traps openat() with the flags
 * the ext4 prober opens a device with; the SIGSYS handler counts the
 * attempts on /dev and makes the open itself (without O_NOCTTY, which the filter
 * lets through: it means nothing for a block device).  The answers are
 * held against lstat(), and the data version, which needs the device,
 * must be absent with XSTAT_WHY_PRIVILEGE.  Then a privilege dropped and
 * regained between streams: no stream inherits another's refusal.  Root
 * and loop devices needed, else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#include "seccomp-arch.h"

/* The handler repeats the open: it needs every argument of the call. */
#if defined(SA_SIGSYS_RET) && !defined(SA_SIGSYS_ARG0_LOST) && \
	defined(SYS_openat)
#define TRAP_OPENS	1
#endif

#define DEV_FLAGS	(O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
#define NFILES		300
#define NOBODY		65534

static struct th_loop loop;
static char dir[300];
static unsigned long opens, refused;

#ifdef TRAP_OPENS
static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	const char *path = (const char *)(uintptr_t)SA_SIGSYS_ARG(uc, 1);
	long fd;

	fd = syscall(SYS_openat, (int)SA_SIGSYS_ARG(uc, 0), path,
		     (int)SA_SIGSYS_ARG(uc, 2) & ~O_NOCTTY, 0);
	/* sysfs and procfs files are read with the same flags */
	if (strncmp(path, "/dev/", 5) == 0)
		opens++;
	if (fd < 0) {
		refused += strncmp(path, "/dev/", 5) == 0;
		SA_SIGSYS_RET(uc, -errno);
	} else {
		SA_SIGSYS_RET(uc, fd);
	}
}

static int count_device_opens(void)
{
	return th_trap_syscall(SYS_openat, 2, ~0U, DEV_FLAGS, on_sigsys);
}
#else
static int count_device_opens(void)
{
	return -1;
}
#endif

/* The result against lstat(), without a data version: 0 or 1. */
static int check(const struct xstat *x, ssize_t len, const char *path,
		 const char *how)
{
	const struct xstat_why_missing *w;
	struct stat sb;

	if (len < (ssize_t)sizeof(*x) || lstat(path, &sb) ||
	    x->st_ino != sb.st_ino || x->st_mode != sb.st_mode ||
	    (x->st_result_mask & XSTAT_REQUEST_DATA_VERSION)) {
		fprintf(stderr, "FAIL: %s %s: %zd, mask %#llx\n", how, path,
			len, (unsigned long long)x->st_result_mask);
		return 1;
	}
	w = xstat_extra_why_missing(x, (size_t)len);
	if (w && w->data_version != XSTAT_WHY_PRIVILEGE &&
	    w->data_version != XSTAT_WHY_NOT_REQUESTED) {
		fprintf(stderr, "FAIL: %s %s: data version missing for "
			"reason %u\n", how, path, w->data_version);
		return 1;
	}
	return 0;
}

static int as_nobody(void *arg)
{
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS |
				      XSTAT_REQUEST_WHY_MISSING };
	static const unsigned long long masks[] = {
		XSTAT_REQUEST_GEN, XSTAT_REQUEST_DATA_VERSION,
		XSTAT_REQUEST_BTIME | XSTAT_REQUEST_DATA_VERSION,
		XSTAT_REQUEST__EXTENDED_STATS, XSTAT_REQUEST__ALL_STATS,
	};
	const struct xstat_dirent *e;
	union xstat_buffer b;
	struct xstat_dir *d;
	char path[400];
	int failed = 0, n = 0;
	size_t i;

	(void)arg;
	if (setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return 1;
	if (count_device_opens())
		return TH_SKIP;
	d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	if (!d)
		return 1;
	while ((e = xstat_readdir(d))) {
		th_pathf(path, sizeof(path), "%s/%s", dir, e->d_name);
		failed |= e->d_error ||
			  check(e->d_xstat, (ssize_t)e->d_xstat_len, path,
				"stream");
		n++;
	}
	xstat_closedir(d);
	fprintf(stderr, "stream of %d entries: %lu device opens, %lu "
		"refused\n", n, opens, refused);
	if (n != NFILES || refused != 1 || opens != 1)
		failed = 1;

	th_pathf(path, sizeof(path), "%s/f0", dir);
	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		struct xstat_parameters q = { masks[i] |
					      XSTAT_REQUEST_WHY_MISSING };
		ssize_t r;

		opens = 0;
		r = xstat(AT_FDCWD, path, 0, &q, &b.x, sizeof(b));
		failed |= check(&b.x, r, path, "xstat");
		if (opens > 1) {
			fprintf(stderr, "FAIL: mask %#llx: %lu device opens "
				"in one call\n", masks[i], opens);
			failed = 1;
		}
	}
	return failed;
}

static void test_nobody(void **state)
{
	(void)state;
	th_in_child(as_nobody, NULL, "seccomp is unavailable here");
}

/* One stream over the directory: entries with a data version, or -1. */
static int stream_dvs(void)
{
	struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };
	const struct xstat_dirent *e;
	struct xstat_dir *d;
	int with_dv = 0;

	d = xstat_opendir(AT_FDCWD, dir, 0, &p);
	if (!d)
		return -1;
	while ((e = xstat_readdir(d)))
		if (!e->d_error &&
		    (e->d_xstat->st_result_mask & XSTAT_REQUEST_DATA_VERSION))
			with_dv++;
	xstat_closedir(d);
	return with_dv;
}

/*
 * A privilege dropped and regained between streams: each stream acts
 * with the credentials it was opened with, and none inherits another's
 * refusal.  Root reads the data version of every entry; with the
 * effective uid dropped to nobody a stream gets none and tries the
 * device once; with root's uid back the next stream has them all again.
 */
static int drop_and_regain(void *arg)
{
	int root1, nobody, root2;
	unsigned long n_opens, n_refused;

	(void)arg;
	if (count_device_opens())
		return TH_SKIP;
	root1 = stream_dvs();
	if (setresgid(-1, NOBODY, -1) || setresuid(-1, NOBODY, -1))
		return 1;
	opens = refused = 0;
	nobody = stream_dvs();
	n_opens = opens;
	n_refused = refused;
	if (setresuid(-1, 0, -1) || setresgid(-1, 0, -1))
		return 1;
	root2 = stream_dvs();
	fprintf(stderr, "data versions: %d as root, %d as nobody (%lu device "
		"opens, %lu refused), %d as root again\n", root1, nobody,
		n_opens, n_refused, root2);
	return root1 != NFILES || nobody != 0 || n_opens != 1 ||
	       n_refused != 1 || root2 != NFILES;
}

static void test_drop_and_regain(void **state)
{
	(void)state;
	th_in_child(drop_and_regain, NULL, "seccomp is unavailable here");
}

/* The data version of f0 now: 0 and *@dv, or -1 (none given). */
static int dv_of_f0(uint64_t *dv)
{
	struct xstat_parameters p = { XSTAT_REQUEST_DATA_VERSION };
	struct xstat x;
	char path[400];

	th_pathf(path, sizeof(path), "%s/f0", dir);
	if (xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x)) < 0 ||
	    !(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION))
		return -1;
	*dv = x.st_data_version;
	return 0;
}

/*
 * The device node swapped, after the library has learned and proven the
 * device: a FIFO, or a regular file holding a copy of the filesystem,
 * bind-mounted over /dev/loopN.  The FIFO must never be opened (inotify
 * sees every open), and the copy never read: after a write to f0 the
 * data version must not be the copy's stale one.
 */
static int node_swapped(void *arg)
{
	int regular = *(const int *)arg, in, fd, failed = 0;
	char node[400], path[400];
	uint64_t before, after;
	char ev[4096];

	th_pathf(node, sizeof(node), "%s.node", loop.image);
	th_pathf(path, sizeof(path), "%s/f0", dir);
	if (dv_of_f0(&before))
		return TH_SKIP;	/* no data version to begin with */
	if (regular ? th_run(NULL, 0, "cp '%s' '%s'", loop.image, node)
		    : mkfifo(node, 0600))
		return 1;
	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (in < 0 || inotify_add_watch(in, node, IN_OPEN) < 0 ||
	    th_run(NULL, 0, "mount --bind '%s' '%s'", node, loop.dev)) {
		unlink(node);
		return TH_SKIP;
	}
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || write(fd, "x", 1) != 1)
		failed = 1;
	if (fd >= 0)
		close(fd);
	if (!dv_of_f0(&after) && after == before) {
		fprintf(stderr, "FAIL: the %s's stale data version %llu\n",
			regular ? "copy" : "FIFO", (unsigned long long)after);
		failed = 1;
	}
	/* the test's own open of the node for the watch is not counted */
	if (read(in, ev, sizeof(ev)) > 0) {
		fprintf(stderr, "FAIL: the %s over the device was opened\n",
			regular ? "copy" : "FIFO");
		failed = 1;
	}
	th_run(NULL, 0, "umount '%s'", loop.dev);
	close(in);
	unlink(node);
	return failed;
}

static void test_node_fifo(void **state)
{
	int regular = 0;

	(void)state;
	th_in_child(node_swapped, &regular, "no data version, or no bind mount");
}

static void test_node_regular(void **state)
{
	int regular = 1;

	(void)state;
	th_in_child(node_swapped, &regular, "no data version, or no bind mount");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nobody),
		cmocka_unit_test(test_drop_and_regain),
		cmocka_unit_test(test_node_fifo),
		cmocka_unit_test(test_node_regular),
	};
	char path[400];
	int i, fd, ret;

	th_require_root();
	ret = th_loop_mount(&loop, 32, "mkfs.ext4 -q -F %s", NULL);
	if (ret)
		return ret == TH_SKIP ? TH_SKIP : 1;
	/* nobody must reach the mount: its parent is a private temp dir */
	th_pathf(path, sizeof(path), "%s", loop.mnt);
	*strrchr(path, '/') = '\0';
	th_pathf(dir, sizeof(dir), "%s/d", loop.mnt);
	if (chmod(path, 0711) || chmod(loop.mnt, 0755) || mkdir(dir, 0755))
		ret = 1;
	for (i = 0; !ret && i < NFILES; i++) {
		th_pathf(path, sizeof(path), "%s/f%d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			ret = 1;
		else
			close(fd);
	}
	/* the loop device must be root's alone, as a disk is */
	if (!ret && chmod(loop.dev, 0660))
		ret = 1;
	if (!ret)
		ret = th_run_tests(tests);
	th_loop_umount(&loop);
	return ret;
}
