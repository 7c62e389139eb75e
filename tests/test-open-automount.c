// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * No automount that statx(2) with the caller's flags would not trigger.
 * In a private mount namespace debugfs is mounted on a scratch directory;
 * its "tracing" directory is an automount point for tracefs.  xstat()
 * with AT_NO_AUTOMOUNT (and AT_SYMLINK_NOFOLLOW), for every class (3)
 * request, must leave tracefs unmounted (/proc/self/mountinfo), in the
 * statx backend and with statx blocked.  Without AT_NO_AUTOMOUNT the
 * answer must be what stat(2) gives, the mounted tracefs root.  Root and
 * debugfs with tracefs, else 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define STATX_ATTR_AUTOMOUNT_	0x1000

static char base[256], tracing[300];

static int tracefs_mounted(void)
{
	char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, tracing) && strstr(line, " - tracefs "))
			found = 1;
	fclose(f);
	return found;
}

static int run(int block)
{
	static const uint64_t masks[] = {
		XSTAT_REQUEST_GEN, XSTAT_REQUEST_DATA_VERSION,
		XSTAT_REQUEST_BTIME, XSTAT_REQUEST__EXTENDED_STATS,
		XSTAT_REQUEST__ALL_STATS,
	};
	union { struct xstat x; unsigned char b[512]; } r;
	struct stat sb;
	unsigned i;

	if (block && th_block_statx(EPERM))
		return 77;
	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		struct xstat_parameters p = { masks[i] };

		if (xstat(AT_FDCWD, tracing,
			  AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW, &p, &r.x,
			  sizeof(r)) < 0) {
			perror("xstat");
			return 1;
		}
		if (xstat(AT_FDCWD, tracing, AT_NO_AUTOMOUNT, &p, &r.x,
			  sizeof(r)) < 0)
			return 1;
		if (tracefs_mounted()) {
			fprintf(stderr, "mask %#llx%s mounted tracefs\n",
				(unsigned long long)masks[i],
				block ? " (statx blocked)" : "");
			return 1;
		}
	}
	/* Without AT_NO_AUTOMOUNT: the mounted root, as stat(2) says. */
	{
		struct xstat_parameters p = { XSTAT_REQUEST__EXTENDED_STATS };

		if (xstat(AT_FDCWD, tracing, 0, &p, &r.x, sizeof(r)) < 0 ||
		    stat(tracing, &sb) || r.x.st_ino != sb.st_ino ||
		    r.x.st_dev.minor != minor(sb.st_dev) ||
		    r.x.st_dev.major != major(sb.st_dev)) {
			fprintf(stderr, "without AT_NO_AUTOMOUNT: not the "
				"mounted root\n");
			return 1;
		}
	}
	fprintf(stderr, "# %s: tracefs stays unmounted\n",
		block ? "statx blocked" : "statx");
	return 0;
}

/* debugfs on base, whose "tracing" is an automount point: run(). */
static int on_debugfs(int block)
{
	struct statx sx;

	th_pathf(tracing, sizeof(tracing), "%s/tracing", base);
	if (mount("debugfs", base, "debugfs", 0, NULL)) {
		fprintf(stderr, "SKIP: no debugfs: %s\n", strerror(errno));
		return 77;
	}
	if (statx(AT_FDCWD, tracing, AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW,
		  STATX_BASIC_STATS, &sx) ||
	    !(sx.stx_attributes_mask & STATX_ATTR_AUTOMOUNT_) ||
	    !(sx.stx_attributes & STATX_ATTR_AUTOMOUNT_) ||
	    tracefs_mounted() != 0) {
		fprintf(stderr, "SKIP: debugfs has no tracing automount point\n");
		return 77;
	}
	return run(block);
}

static int in_namespace(int block)
{
	char *d;
	int ret;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		fprintf(stderr, "SKIP: no private mount namespace: %s\n",
			strerror(errno));
		return 77;
	}
	d = th_mkdtemp(base, sizeof(base));
	if (!d)
		return 1;
	ret = on_debugfs(block);
	/* The mounts end with the namespace; the directory would not. */
	umount2(base, MNT_DETACH);
	rmdir(base);
	return ret;
}

static int child(void *block)
{
	return in_namespace(*(const int *)block);
}

/*
 * in_namespace(@block) in a child (its own mount namespace and seccomp
 * filter): it must exit 0; 77 skips (the child said why on stderr).
 */
static void run_in_child(int block)
{
	th_in_child(child, &block, "%s: no private mount namespace, debugfs "
		    "automount or seccomp (above)",
		    block ? "statx blocked" : "statx");
}

TH_STATX_TESTS(run_in_child)

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statx_backend),
		cmocka_unit_test(test_statx_blocked),
	};

	th_require_root();
	return th_run_tests(tests);
}
