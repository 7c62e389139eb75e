// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replays inputs through the ext4 fuzz target without libFuzzer: the
 * regression cases kept in fuzz/regressions (hostile superblocks, and any
 * input the fuzzer ever crashed on) and a seed corpus of real images built
 * at check time.  Built with the ordinary compiler, so every `make check`
 * (and the sanitizer and valgrind runs of it) replays them.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "testhelp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_dir(const char *dir)
{
	struct dirent *e;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[4096];
		uint8_t *buf;
		long len;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET)) {
			if (f)
				fclose(f);
			continue;
		}
		buf = malloc((size_t)len + 1);
		if (buf && fread(buf, 1, (size_t)len, f) == (size_t)len) {
			/* Every prefix too: truncated metadata. */
			long cut;

			LLVMFuzzerTestOneInput(buf, (size_t)len);
			for (cut = 1024; cut < len; cut += 61)
				LLVMFuzzerTestOneInput(buf, (size_t)cut);
			n++;
		}
		free(buf);
		fclose(f);
	}
	closedir(d);
	return n;
}

static const char *srcdir(void)
{
	const char *src = getenv("top_srcdir");

	return src ? src : ".";
}

/* The regression inputs kept in fuzz/regressions: none may crash. */
static void test_regressions(void **state)
{
	char dir[4096];
	int n;

	(void)state;
	th_pathf(dir, sizeof(dir), "%s/fuzz/regressions", srcdir());
	n = replay_dir(dir);
	if (n < 0)
		fail_msg("cannot read %s", dir);
	print_message("replayed %d regression inputs\n", n);
}

/* Real images' metadata, made now by mkfs: none may crash. */
static void test_seeds(void **state)
{
	char seeds[256];
	int m, ret;

	(void)state;
	assert_non_null(th_mkdtemp(seeds, sizeof(seeds)));
	/* 77: e2fsprogs is missing (the script said which tool). */
	ret = th_run(NULL, 0, "sh '%s/fuzz/make-seeds.sh' '%s'", srcdir(),
		     seeds);
	if (ret != 0) {
		th_rmrf(seeds);
		if (ret == TH_SKIP)
			th_skip("cannot make seed images: e2fsprogs is missing");
		fail_msg("fuzz/make-seeds.sh failed (%d)", ret);
	}
	m = replay_dir(seeds);
	th_rmrf(seeds);
	print_message("replayed %d real-image seeds\n", m);
	assert_true(m > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regressions),
		cmocka_unit_test(test_seeds),
	};

	return th_run_tests(tests);
}
