// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replays inputs through the ext4 fuzz target without libFuzzer: the
 * regression cases kept in fuzz/regressions (hostile superblocks, and any
 * input the fuzzer ever crashed on) and a seed corpus of real images built
 * at check time.  Built with the ordinary compiler, so every `make check`
 * (and the sanitizer and valgrind runs of it) replays them.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(void)
{
	const char *src = getenv("top_srcdir");
	char dir[4096], seeds[256];
	int n, m;

	snprintf(dir, sizeof(dir), "%s/fuzz/regressions", src ? src : ".");
	n = replay_dir(dir);
	if (n < 0) {
		fprintf(stderr, "cannot read %s\n", dir);
		return 1;
	}
	if (!th_mkdtemp(seeds, sizeof(seeds)))
		return 1;
	if (th_run(NULL, 0, "sh '%s/fuzz/make-seeds.sh' '%s'",
		   src ? src : ".", seeds) != 0) {
		th_rmrf(seeds);
		fprintf(stderr, "SKIP: cannot make seed images (e2fsprogs?)\n");
		printf("replayed %d regression inputs\n", n);
		return n > 0 ? 0 : TH_SKIP;
	}
	m = replay_dir(seeds);
	th_rmrf(seeds);
	printf("replayed %d regression inputs and %d real-image seeds\n", n, m);
	return m > 0 ? 0 : 1;
}
