// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The per-filesystem cache under writers that collide: two threads store
 * and look up keys that all fall into one slot of the table (found with
 * fscache.c's hash, copied below: if that changes the keys merely collide
 * less), so every store evicts the other thread's key.  A lookup may
 * miss, never return another key's filesystem type (5 M lookups).  No
 * privilege needed.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "fscache.h"
#include "testhelp.h"

#define KEYS		4
#define ROUNDS		2500000

static long wrong[2], hits[2];
static uint64_t keys[2][KEYS];

static unsigned slot_of(uint64_t key)
{
	return (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> 58 & 63);
}

static void find_keys(void)
{
	uint64_t k = 0x100000000ULL;
	int n = 0;

	for (; n < 2 * KEYS; k++)
		if (slot_of(k) == 5) {
			keys[n % 2][n / 2] = k;
			n++;
		}
}

static uint32_t magic_of(uint64_t key)
{
	return (uint32_t)(key * 2654435761u) | 1;
}

static void *filler(void *arg)
{
	long id = (long)arg, i;
	uint64_t seed = 88172645463325252ULL + (uint64_t)id;

	for (i = 0; i < ROUNDS; i++) {
		uint64_t k, j;
		uint32_t flags, m;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		k = keys[id][seed % KEYS];
		xs_fs_remember(k, magic_of(k));
		j = keys[id][(seed >> 20) % KEYS];
		m = xs_fs_magic_cached(j, &flags);
		if (m) {
			hits[id]++;
			if (m != magic_of(j))
				wrong[id]++;
		}
	}
	return NULL;
}

static void test_colliding_writers(void **state)
{
	pthread_t t[2];
	long i;

	(void)state;
	find_keys();
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, filler,
						(void *)i), 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	fprintf(stderr, "# %ld lookups, %ld hits, %ld WRONG\n", 2L * ROUNDS,
		hits[0] + hits[1], wrong[0] + wrong[1]);
	/* Some lookups must hit, and none may give another key's type. */
	assert_true(hits[0] + hits[1] > 0);
	assert_int_equal(wrong[0] + wrong[1], 0);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_colliding_writers),
	};

	return th_run_tests(tests);
}
