// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * instr-loop: the smallest program that makes one kind of libxstat
 * request a given number of times, for bench/instr-run.sh, which runs it
 * under callgrind twice (two loop lengths) and counts the instructions
 * executed inside libxstat.so: the difference divided by the difference
 * of the lengths is the library's own work per call, free of the
 * program's start-up, the library's first-call probes and everything the
 * two runs share.
 *
 *   instr-loop KIND CALLS PATH
 *
 * KIND is a request on the file PATH (basic, btime, gen, dv, token,
 * all+extras; fb-basic, fb-btime, fb-token and fb-all+extras behind a
 * seccomp filter that answers statx with ENOSYS, as a sandbox does) or a
 * directory stream over PATH (dir-basic, dir-gen, dir-token,
 * dir-extended, dir-all+extras: one pass, CALLS unused; the driver varies
 * the directory's size instead).  Exit 0, or 2 with a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <xstat.h>
#include "refuse-statx.h"

#define M_BASIC		XSTAT_REQUEST__BASIC_STATS

struct kind {
	const char		*name;
	unsigned long long	mask;
	int			refuse_statx;	/* behind the filter */
	int			stream;		/* xstat_opendir() */
};

static const struct kind kinds[] = {
	{ "basic", M_BASIC, 0, 0 },
	{ "btime", M_BASIC | XSTAT_REQUEST_BTIME, 0, 0 },
	{ "gen", M_BASIC | XSTAT_REQUEST_GEN, 0, 0 },
	{ "dv", M_BASIC | XSTAT_REQUEST_DATA_VERSION, 0, 0 },
	{ "token", XSTAT_REQUEST_CHANGE_TOKEN, 0, 0 },
	{ "all+extras", XSTAT_REQUEST__ALL_STATS, 0, 0 },
	{ "fb-basic", M_BASIC, 1, 0 },
	{ "fb-btime", M_BASIC | XSTAT_REQUEST_BTIME, 1, 0 },
	{ "fb-token", XSTAT_REQUEST_CHANGE_TOKEN, 1, 0 },
	{ "fb-all+extras", XSTAT_REQUEST__ALL_STATS, 1, 0 },
	{ "dir-basic", M_BASIC, 0, 1 },
	{ "dir-gen", M_BASIC | XSTAT_REQUEST_GEN, 0, 1 },
	{ "dir-token", XSTAT_REQUEST_CHANGE_TOKEN, 0, 1 },
	{ "dir-extended", XSTAT_REQUEST__EXTENDED_STATS, 0, 1 },
	{ "dir-all+extras", XSTAT_REQUEST__ALL_STATS, 0, 1 },
};

static void die(const char *what)
{
	fprintf(stderr, "instr-loop: %s: %s\n", what, strerror(errno));
	exit(2);
}

/*
 * What a kind must get on the bench's ext4 files: a call that gave less
 * took a shorter path than the one to be counted.
 */
static void check_got(const struct kind *k, const struct xstat *x,
		      const char *what)
{
	/* a regular file has no st_rdev */
	unsigned long long want = k->mask & ~XSTAT_REQUEST_RDEV &
				  (XSTAT_REQUEST__EXTENDED_STATS |
				   XSTAT_REQUEST_CHANGE_TOKEN);

	if ((x->st_result_mask & want) != want) {
		fprintf(stderr, "instr-loop: %s: %s got 0x%llx of 0x%llx\n",
			what, k->name,
			(unsigned long long)x->st_result_mask, want);
		exit(2);
	}
}

static void one_call(const struct kind *k, const char *path)
{
	struct xstat_parameters p = { .request_mask = k->mask };
	union {
		struct xstat x;
		unsigned char bytes[XSTAT_RESULT_MAX];
	} buf;

	if (xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p, &buf.x,
		  sizeof(buf)) < 0)
		die(path);
	check_got(k, &buf.x, path);
}

static void one_pass(const struct kind *k, const char *path)
{
	struct xstat_parameters p = { .request_mask = k->mask };
	const struct xstat_dirent *e;
	struct xstat_dir *d = xstat_opendir(AT_FDCWD, path, 0, &p);

	if (!d)
		die(path);
	errno = 0;
	while ((e = xstat_readdir(d)))
		if (e->d_error) {
			errno = e->d_error;
			die(e->d_name);
		} else {
			check_got(k, e->d_xstat, e->d_name);
		}
	if (errno)
		die("xstat_readdir");
	if (xstat_closedir(d))
		die("xstat_closedir");
}

int main(int argc, char **argv)
{
	const struct kind *k = NULL;
	long calls, i;
	size_t j;

	if (argc != 4) {
		fprintf(stderr, "usage: instr-loop KIND CALLS PATH\n");
		return 2;
	}
	for (j = 0; j < sizeof(kinds) / sizeof(kinds[0]); j++)
		if (strcmp(argv[1], kinds[j].name) == 0)
			k = &kinds[j];
	calls = atol(argv[2]);
	if (!k || calls < 0) {
		fprintf(stderr, "instr-loop: no kind %s, or bad count %s\n",
			argv[1], argv[2]);
		return 2;
	}
	if (k->refuse_statx)
		if (bench_refuse_statx(ENOSYS) < 0)
			die("seccomp");
	if (k->stream) {
		one_pass(k, argv[3]);
		return 0;
	}
	/* the first call's probes, in both runs alike */
	one_call(k, argv[3]);
	for (i = 0; i < calls; i++)
		one_call(k, argv[3]);
	return 0;
}
