// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * euid.c's promise (libxstat(7), SECURITY): after the effective uid
 * changes, no call that starts 10 ms later still answers with the old
 * one.  The uid flips between root and nobody with seteuid() many times,
 * long enough for the time stamp counter's rate to be measured, at
 * intervals around the recheck interval; every call's start time is taken
 * before it, so a stalled machine can make the test lenient, never wrong.
 * Also: a fork child reads its uid at once.  Root only (exit 77 else).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "ext4dev.h"

#define NOBODY		65534
#define RECHECK_NS	10000000LL

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Call for @ns; fail if a call started RECHECK_NS after @since is stale. */
static void watch(uid_t now_uid, int64_t since, int64_t ns, long *fresh)
{
	int64_t start, t;
	uid_t got;

	for (start = mono_ns(); (t = mono_ns()) - start < ns;) {
		got = xs_euid_current(&(int64_t){ 0 });
		if (got == now_uid)
			(*fresh)++;
		else if (t - since > RECHECK_NS)
			fail_msg("uid %u %lld ns after the change to %u",
				 (unsigned)got, (long long)(t - since),
				 (unsigned)now_uid);
	}
}

static void test_flips(void **state)
{
	/* Hold times below, at and above the interval, then long runs. */
	static const int64_t hold_ms[] = { 1, 3, 7, 12, 25, 2, 15, 40, 5, 30,
					   11, 60, 4, 20, 9 };
	long fresh = 0;
	size_t i;
	uid_t to;

	(void)state;
	for (i = 0; i < 3 * sizeof(hold_ms) / sizeof(hold_ms[0]); i++) {
		to = i % 2 ? 0 : NOBODY;
		assert_int_equal(seteuid(to), 0);
		watch(to, mono_ns(), hold_ms[i % 15] * 1000000, &fresh);
	}
	assert_int_equal(seteuid(0), 0);
	/* The new uid was seen, not only the absence of the old one. */
	assert_true(fresh > 0);
}

static void test_fork(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	(void)xs_euid_current(&(int64_t){ 0 });
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* What ext4dev.c's atfork handler does, then at once. */
		xs_euid_forget();
		if (seteuid(NOBODY))
			_exit(2);
		_exit(xs_euid_current(&(int64_t){ 0 }) == NOBODY ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_flips),
	};

	if (geteuid() != 0)
		return 77;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
