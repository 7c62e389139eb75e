// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A write under way when the token is read is not a change "made after
 * the call": the kernel stamps the ctime (and ext4's i_version) when a
 * write begins and copies the data afterwards, so the pattern "token,
 * read the file, token; equal means a consistent copy" accepts a torn
 * copy.  The recipe of libxstat(7), "Consistent copies", catches it with
 * a read lease (F_SETLEASE F_RDLCK): refused while the file is open for
 * writing anywhere, and broken by a later open for writing.
 *
 * Shown on a tmpfs (/dev/shm, else $TMPDIR) with a 64 MiB write of 'B'
 * over 'A' in another thread, one pwrite():
 *  - the plain pattern: once the write's first page is seen, the token is
 *    read, the file copied, the writer joined and the token read again:
 *    in some round the tokens are equal and the copy is torn (both
 *    bytes in it) - the pattern's failure, which must be reproducible
 *    here or the test proves nothing about the recipe;
 *  - the recipe, same race: the lease is refused (EAGAIN), never a
 *    torn copy accepted;
 *  - the recipe with a writer that opens the file after the lease was
 *    taken: the lease is found broken at the end and the copy rejected.
 * Skips (77) where leases are refused (not the owner, no CAP_LEASE, a
 * filesystem without them).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define SIZE	(64u << 20)
#define ROUNDS	20

static char dir[300], path[400];
static char *buf, *copy;

static int token_of(int fd, uint64_t *tok)
{
	struct xstat_parameters p = { XSTAT_REQUEST_CHANGE_TOKEN };
	const struct xstat_change_token *t;
	union xstat_buffer b;
	ssize_t n = fxstat(fd, 0, &p, &b.x, sizeof(b));

	if (n < 0 || !(t = xstat_extra_change_token(&b.x, (size_t)n)))
		return -1;
	*tok = t->token;
	return 0;
}

static int fill(char c)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	memset(buf, c, SIZE);
	if (fd < 0 || pwrite(fd, buf, SIZE, 0) != (ssize_t)SIZE)
		return -1;
	return close(fd);
}

static int read_all(int fd)
{
	size_t off = 0;
	ssize_t n;

	while (off < SIZE) {
		n = pread(fd, copy + off, SIZE - off, (off_t)off);
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

static int torn(void)
{
	return memchr(copy, 'A', SIZE) && memchr(copy, 'B', SIZE);
}

/* The writer: open for writing, then one 64 MiB pwrite of 'B'. */
static volatile int writer_opened;

static void *writer(void *arg)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	(void)arg;
	writer_opened = 1;
	if (fd < 0)
		return (void *)1;
	if (pwrite(fd, buf, SIZE, 0) != (ssize_t)SIZE) {
		close(fd);
		return (void *)1;
	}
	close(fd);
	return NULL;
}

/* Wait until the write has begun: its first byte is in the file. */
static void wait_first_byte(int fd)
{
	char c = 'A';

	while (pread(fd, &c, 1, 0) == 1 && c != 'B')
		;
}

/*
 * The recipe: lease, token, copy, token, lease still held.  1: a
 * consistent copy; 0: a write was or may be under way (try again);
 * -1: leases are refused here.
 */
static int consistent_copy(int fd)
{
	uint64_t t1, t2;
	int held;

	if (fcntl(fd, F_SETLEASE, F_RDLCK) == -1)
		return errno == EAGAIN ? 0 : -1;
	if (token_of(fd, &t1) || read_all(fd) || token_of(fd, &t2)) {
		fcntl(fd, F_SETLEASE, F_UNLCK);
		return 0;
	}
	held = fcntl(fd, F_GETLEASE) == F_RDLCK;
	fcntl(fd, F_SETLEASE, F_UNLCK);
	return held && t1 == t2;
}

static void test_plain_pattern_fails(void **state)
{
	int r, fd, shown = 0;
	uint64_t t1, t2;
	pthread_t th;

	(void)state;
	for (r = 0; r < ROUNDS && !shown; r++) {
		assert_int_equal(fill('A'), 0);
		memset(buf, 'B', SIZE);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		assert_true(fd >= 0);
		assert_int_equal(pthread_create(&th, NULL, writer, NULL), 0);
		wait_first_byte(fd);
		assert_int_equal(token_of(fd, &t1), 0);
		assert_int_equal(read_all(fd), 0);
		assert_int_equal(pthread_join(th, NULL), 0);
		assert_int_equal(token_of(fd, &t2), 0);
		shown = t1 == t2 && torn();
		close(fd);
	}
	fprintf(stderr, "plain pattern: %s after %d rounds\n",
		shown ? "a torn copy accepted" : "never shown", r);
	if (!shown)
		th_skip("the write was never caught under way here");
}

static void test_recipe_refuses_write_under_way(void **state)
{
	int r, fd, ret, refused = 0;
	pthread_t th;

	(void)state;
	for (r = 0; r < ROUNDS; r++) {
		assert_int_equal(fill('A'), 0);
		memset(buf, 'B', SIZE);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		assert_true(fd >= 0);
		assert_int_equal(pthread_create(&th, NULL, writer, NULL), 0);
		wait_first_byte(fd);
		ret = consistent_copy(fd);
		if (ret < 0) {
			pthread_join(th, NULL);
			close(fd);
			th_skip("leases are refused here: %s", strerror(errno));
		}
		/* accepted only if the whole write was done, never torn */
		if (ret == 1 && torn()) {
			fprintf(stderr, "FAIL: the recipe accepted a torn "
				"copy\n");
			fail();
		}
		refused += ret == 0;
		assert_int_equal(pthread_join(th, NULL), 0);
		close(fd);
	}
	fprintf(stderr, "recipe: %d of %d copies refused while written\n",
		refused, ROUNDS);
	assert_true(refused > 0);
}

static void on_lease_break(int sig)
{
	(void)sig;
}

/* A writer that opens the file only after the lease was taken. */
static void test_recipe_sees_broken_lease(void **state)
{
	uint64_t t1, t2;
	pthread_t th;
	int fd, held;

	(void)state;
	signal(SIGIO, on_lease_break);	/* SIGIO's default kills */
	assert_int_equal(fill('A'), 0);
	memset(buf, 'B', SIZE);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	if (fcntl(fd, F_SETLEASE, F_RDLCK) == -1) {
		close(fd);
		th_skip("leases are refused here: %s", strerror(errno));
	}
	assert_int_equal(token_of(fd, &t1), 0);
	writer_opened = 0;
	/* its open breaks the lease and waits until it is released */
	assert_int_equal(pthread_create(&th, NULL, writer, NULL), 0);
	while (fcntl(fd, F_GETLEASE) == F_RDLCK)
		usleep(1000);
	assert_int_equal(read_all(fd), 0);
	assert_int_equal(token_of(fd, &t2), 0);
	held = fcntl(fd, F_GETLEASE) == F_RDLCK;
	assert_int_equal(fcntl(fd, F_SETLEASE, F_UNLCK), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	close(fd);
	/* the tokens may still be equal: the writer had not written yet */
	fprintf(stderr, "broken lease: held %d, tokens %s\n", held,
		t1 == t2 ? "equal" : "differ");
	assert_false(held);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_pattern_fails),
		cmocka_unit_test(test_recipe_refuses_write_under_way),
		cmocka_unit_test(test_recipe_sees_broken_lease),
	};
	const char *shm = "/dev/shm";
	int ret;

	if (access(shm, W_OK) == 0 &&
	    setenv("TMPDIR", shm, 1) != 0)
		return 1;
	if (!th_mkdtemp(dir, sizeof(dir)))
		return 1;
	th_pathf(path, sizeof(path), "%s/f", dir);
	buf = malloc(SIZE);
	copy = malloc(SIZE);
	if (!buf || !copy)
		return 1;
	ret = th_run_tests(tests);
	th_rmrf(dir);
	return ret;
}
