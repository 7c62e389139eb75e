// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * errno is left alone on success: internal probes fail on the way
 * (ENOTTY, EPERM, EOPNOTSUPP, EOVERFLOW...) but a call that returns a
 * result must leave the caller's errno as it was.  Every request mask
 * class on every file type in a scratch directory, by path and by
 * descriptor, in the statx backend and with statx blocked.  Needs seccomp
 * for the second half, else that half is skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define MAGIC_ERRNO	12345

static int run(const char *dir)
{
	static const unsigned long long masks[] = {
		0, XSTAT_REQUEST__BASIC_STATS, XSTAT_REQUEST_BTIME,
		XSTAT_REQUEST_GEN, XSTAT_REQUEST_DATA_VERSION,
		XSTAT_REQUEST__EXTENDED_STATS, XSTAT_REQUEST_MNT_ID,
		XSTAT_REQUEST_ATTRIBUTES, XSTAT_REQUEST__ALL_STATS,
	};
	static const char *const names[] = { "f", "d", "l", "p", "", ".." };
	union { struct xstat x; unsigned char b[512]; } r;
	char path[400];
	unsigned i, j;
	int fails = 0, fd;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		th_pathf(path, sizeof(path), "%s/%s", dir, names[i]);
		fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		for (j = 0; j < sizeof(masks) / sizeof(masks[0]); j++) {
			struct xstat_parameters p = { masks[j] };
			ssize_t n;

			errno = MAGIC_ERRNO;
			n = xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p,
				  &r.x, sizeof(r));
			if (n > 0 && errno != MAGIC_ERRNO) {
				fprintf(stderr, "%s mask %#llx: errno %s\n",
					path, masks[j], strerror(errno));
				fails++;
			}
			if (fd < 0)
				continue;
			errno = MAGIC_ERRNO;
			n = fxstat(fd, 0, &p, &r.x, sizeof(r));
			if (n > 0 && errno != MAGIC_ERRNO) {
				fprintf(stderr, "fd %s mask %#llx: errno %s\n",
					path, masks[j], strerror(errno));
				fails++;
			}
		}
		if (fd >= 0)
			close(fd);
	}
	return fails ? 1 : 0;
}

static char dir[256];

/* In a child: run(), with statx blocked first if *@block. */
static int child(void *block)
{
	if (*(const int *)block && th_block_statx(EPERM))
		return 77;
	return run(dir);
}

/*
 * child(@block) must exit 0; 77 (no seccomp to block statx) skips.  A
 * child, so that the seccomp filter stays there.
 */
static void run_in_child(int block)
{
	th_in_child(child, &block,
		    "seccomp is unavailable: cannot block statx");
}

TH_STATX_TESTS(run_in_child)

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statx_backend),
		cmocka_unit_test(test_statx_blocked),
	};
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char path[400];
	int s, ret;

	if (!th_mkdtemp(dir, sizeof(dir)))
		return 1;
	th_pathf(path, sizeof(path), "%s/f", dir);
	close(open(path, O_CREAT | O_WRONLY, 0644));
	th_pathf(path, sizeof(path), "%s/d", dir);
	mkdir(path, 0755);
	th_pathf(path, sizeof(path), "%s/l", dir);
	if (symlink("f", path))
		return 1;
	th_pathf(path, sizeof(path), "%s/p", dir);
	mkfifo(path, 0644);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/s", dir);
	bind(s, (struct sockaddr *)&sun, sizeof(sun));
	ret = th_run_tests(tests);
	close(s);
	th_rmrf(dir);
	return ret;
}
