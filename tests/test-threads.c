// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Thread safety: 8 threads x 10,000 calls, on files across filesystems and
 * with every request, must agree with the results of one thread, and leave
 * no descriptor behind.  The caches (statx availability, per-device
 * filesystem type) start cold, so the threads race to fill them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define THREADS	8
#define CALLS	10000
#define FILES	4

static char paths[FILES][PATH_MAX];
static struct xstat expected[FILES];
static pthread_barrier_t start;
static const struct xstat_parameters params = {
	XSTAT_REQUEST__EXTENDED_STATS
};

static int same(const struct xstat *a, const struct xstat *b)
{
	/* atime may move under relatime; everything else must not. */
	return a->st_mode == b->st_mode && a->st_nlink == b->st_nlink &&
	       a->st_uid == b->st_uid && a->st_gid == b->st_gid &&
	       a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_dev.major == b->st_dev.major &&
	       a->st_dev.minor == b->st_dev.minor &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_btim.tv_sec == b->st_btim.tv_sec &&
	       a->st_btim.tv_nsec == b->st_btim.tv_nsec &&
	       a->st_gen == b->st_gen &&
	       a->st_data_version == b->st_data_version &&
	       a->st_result_mask == b->st_result_mask;
}

static void *worker(void *arg)
{
	long id = (long)arg, bad = 0;
	int i;

	pthread_barrier_wait(&start);
	for (i = 0; i < CALLS; i++) {
		int f = (int)((i + id) % FILES);
		struct xstat x;

		if (xstat(AT_FDCWD, paths[f], AT_SYMLINK_NOFOLLOW, &params,
			  &x, sizeof(x)) != 152 || !same(&x, &expected[f]))
			bad++;
	}
	return (void *)bad;
}

/* The whole run: 0 when every thread agreed and no fd leaked. */
static int run(void)
{
	pthread_t t[THREADS];
	char dir[PATH_MAX], shm[64];
	long total_bad = 0;
	int fds, i, fd;

	if (!th_mkdtemp(dir, sizeof(dir)))
		return 1;
	snprintf(paths[0], PATH_MAX, "%s/file", dir);
	snprintf(paths[1], PATH_MAX, "%s", dir);
	snprintf(paths[2], PATH_MAX, "/dev/null");
	/*
	 * A tmpfs directory of our own: /dev/shm itself changes under other
	 * tests (and may not be writable); else a second file on $TMPDIR.
	 */
	snprintf(shm, sizeof(shm), "/dev/shm/xstat-threads.XXXXXX");
	if (mkdtemp(shm)) {
		snprintf(paths[3], PATH_MAX, "%s", shm);
	} else {
		snprintf(paths[3], PATH_MAX, "%s/file2", dir);
		fd = open(paths[3], O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0)
			return 1;
		close(fd);
	}
	fd = open(paths[0], O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return 1;
	close(fd);
	th_block_from_env();

	/*
	 * The reference comes from a child process, so this process's
	 * caches are still cold when the threads start.
	 */
	{
		int pfd[2];
		pid_t pid;

		if (pipe(pfd))
			return 1;
		pid = fork();
		if (pid == 0) {
			for (i = 0; i < FILES; i++)
				if (xstat(AT_FDCWD, paths[i],
					  AT_SYMLINK_NOFOLLOW, &params,
					  &expected[i], sizeof(expected[i]))
				    != 152)
					_exit(1);
			_exit(write(pfd[1], expected, sizeof(expected)) !=
			      (ssize_t)sizeof(expected));
		}
		close(pfd[1]);
		if (read(pfd[0], expected, sizeof(expected)) !=
		    (ssize_t)sizeof(expected))
			return 1;
		close(pfd[0]);
	}

	fds = th_count_fds();
	pthread_barrier_init(&start, NULL, THREADS);
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(long)i))
			return 1;
	for (i = 0; i < THREADS; i++) {
		void *bad;

		pthread_join(t[i], &bad);
		total_bad += (long)bad;
	}
	printf("%d threads x %d calls: %ld disagreed with one thread\n",
	       THREADS, CALLS, total_bad);
	for (i = 0; i < FILES; i++)
		printf("  %s: result_mask=%#llx gen=%llu\n", paths[i],
		       expected[i].st_result_mask, expected[i].st_gen);
	if (th_count_fds() != fds) {
		printf("fd leak: %d before, %d after\n", fds, th_count_fds());
		total_bad++;
	}
	/* The reference must have had something to agree on. */
	if (!(expected[0].st_result_mask & XSTAT_REQUEST_GEN))
		printf("note: no generation on %s\n", paths[0]);
	th_rmrf(dir);
	if (!strncmp(paths[3], "/dev/shm/", 9))
		rmdir(paths[3]);
	return total_bad ? 1 : 0;
}

static void test_agree(void **state)
{
	(void)state;
	assert_int_equal(run(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agree),
	};

	return th_run_tests(tests);
}
