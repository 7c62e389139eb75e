// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * XSTAT_REQUEST_WHY_MISSING: one code per class (3) field that agrees
 * with st_result_mask (PRESENT exactly when the bit is set, NOT_REQUESTED
 * exactly when it was not asked for and is absent), PRESENT for the
 * creation time wherever glibc's statx() reports one, reserved bytes 0,
 * packed after the other extra results, and the typed accessor finds it.
 * The specific codes where the library knows the reason, against an
 * oracle of its own (the mount's type from findmnt, the euid, glibc's
 * statx): a data version missing on a filesystem libxstat reads none
 * from is NO_SOURCE, on ext4 or btrfs without root PRIVILEGE; a creation
 * time statx has none for on ext4, xfs, btrfs or tmpfs is NO_SOURCE.
 * One cmocka test per path.  tests/test-why-missing.eperm runs it with statx
 * blocked (the fallback backend).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <xstat.h>
#include "testhelp.h"

static int failed;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		printf("FAIL line %d: %s: ", __LINE__, #cond);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		failed = 1;						\
	}								\
} while (0)

static const struct {
	unsigned long long	bit;
	const char		*name;
	size_t			off;
} fields[] = {
	{ XSTAT_REQUEST_BTIME, "btime",
	  offsetof(struct xstat_why_missing, btime) },
	{ XSTAT_REQUEST_GEN, "gen", offsetof(struct xstat_why_missing, gen) },
	{ XSTAT_REQUEST_DATA_VERSION, "data_version",
	  offsetof(struct xstat_why_missing, data_version) },
};

/* The mount type of @path, "" if findmnt cannot tell. */
static void fs_type(const char *path, char *type, size_t len)
{
	if (th_run(type, len, "findmnt -n -o FSTYPE -T '%s' 2>/dev/null",
		   path))
		type[0] = '\0';
}

static int one_of(const char *type, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(type, *list) == 0)
			return 1;
	return 0;
}

/* The code the oracle expects for a missing, requested field; 0: any. */
static unsigned expected(const char *type, unsigned long long bit,
			 int statx_used)
{
	static const char *const dv_fs[] = { "ext4", "ext3", "ext2", "btrfs",
					     NULL };
	static const char *const no_dv[] = { "tmpfs", "devtmpfs", "xfs",
					     "proc", "sysfs", NULL };
	static const char *const btime_fs[] = { "ext4", "xfs", "btrfs",
						"tmpfs", "devtmpfs", NULL };

	if (!type[0])
		return 0;
	if (bit == XSTAT_REQUEST_DATA_VERSION) {
		if (one_of(type, no_dv))
			return XSTAT_WHY_NO_SOURCE;
		if (one_of(type, dv_fs) && geteuid() != 0)
			return XSTAT_WHY_PRIVILEGE;
	}
	if (bit == XSTAT_REQUEST_BTIME && statx_used && one_of(type, btime_fs))
		return XSTAT_WHY_NO_SOURCE;
	return 0;
}

static int statx_used;	/* the library's backend is statx (the oracle) */

static void check(const char *path, unsigned long long request)
{
	char type[64];
	struct xstat_parameters p = { request | XSTAT_REQUEST_WHY_MISSING };
	const struct xstat_why_missing *w;
	const unsigned char *raw;
	union xstat_buffer b;
	struct statx sx;
	ssize_t n;
	size_t i, want;

	memset(&b, 0xa5, sizeof(b));
	n = xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p, &b.x, sizeof(b));
	CHECK(n > 0, "%s: xstat: %m", path);
	if (n <= 0)
		return;
	CHECK(b.x.st_result_mask & XSTAT_REQUEST_WHY_MISSING,
	      "%s %#llx: no WHY_MISSING bit", path, request);
	w = xstat_extra_why_missing(&b.x, (size_t)n);
	CHECK(w != NULL, "%s %#llx: no reasons", path, request);
	if (!w)
		return;
	/* Last in the buffer: it has the highest bit requested. */
	CHECK((const unsigned char *)w + 8 == b.bytes + n,
	      "%s %#llx: not the last extra result", path, request);
	want = XSTAT_STRUCT_SIZE + 8;
	if (request & XSTAT_REQUEST_MNT_ID &&
	    b.x.st_result_mask & XSTAT_REQUEST_MNT_ID)
		want += sizeof(struct xstat_mnt_id);
	CHECK((size_t)n == want, "%s %#llx: size %zd, want %zu", path,
	      request, n, want);
	for (i = 0; i < sizeof(w->reserved); i++)
		CHECK(w->reserved[i] == 0, "%s: reserved[%zu] %u", path, i,
		      w->reserved[i]);

	raw = (const unsigned char *)w;
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		unsigned code = raw[fields[i].off];
		int got = !!(b.x.st_result_mask & fields[i].bit);
		int asked = !!(request & fields[i].bit);

		printf("%s %#llx %s: %s, reason %u\n", path, request,
		       fields[i].name, got ? "present" : "missing", code);
		CHECK((code == XSTAT_WHY_PRESENT) == got,
		      "%s: %s reason %u, result bit %d", path,
		      fields[i].name, code, got);
		CHECK((code == XSTAT_WHY_NOT_REQUESTED) == (!asked && !got),
		      "%s: %s reason %u, asked %d", path, fields[i].name,
		      code, asked);
		CHECK(code <= XSTAT_WHY_NO_DEVICE, "%s: %s reason %u", path,
		      fields[i].name, code);
		if (asked && !got) {
			unsigned want;

			fs_type(path, type, sizeof(type));
			want = expected(type, fields[i].bit, statx_used);
			CHECK(!want || code == want, "%s (%s): %s reason %u, "
			      "expected %u", path, type, fields[i].name, code,
			      want);
		}
	}

	/*
	 * The oracle for the creation time: glibc's statx(), when the library
	 * uses it too (not with LIBXSTAT_NO_STATX; in the .eperm variant
	 * glibc's statx fails as well).
	 */
	if ((request & XSTAT_REQUEST_BTIME) && !getenv("LIBXSTAT_NO_STATX") &&
	    statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) == 0 &&
	    (sx.stx_mask & STATX_BTIME))
		CHECK(w->btime == XSTAT_WHY_PRESENT,
		      "%s: statx has a btime, reason %u", path, w->btime);

	/* Cut short: the accessor does not reach past the buffer. */
	CHECK(xstat_extra_why_missing(&b.x, (size_t)n - 1) == NULL,
	      "%s: found in a short buffer", path);
}

static const char *paths[4];

/* Every request on the path @state: no CHECK may fail. */
static void test_path(void **state)
{
	static const unsigned long long requests[] = {
		0,
		XSTAT_REQUEST_INO,
		XSTAT_REQUEST_BTIME,
		XSTAT_REQUEST__EXTENDED_STATS,
		XSTAT_REQUEST__EXTENDED_STATS | XSTAT_REQUEST_MNT_ID,
		XSTAT_REQUEST_GEN | XSTAT_REQUEST_DATA_VERSION,
	};
	const char *path = *(const char **)*state;
	size_t j;

	failed = 0;
	for (j = 0; j < sizeof(requests) / sizeof(requests[0]); j++)
		check(path, requests[j]);
	fflush(stdout);
	assert_int_equal(failed, 0);
}

/* This library knows the bit. */
static void test_known_mask(void **state)
{
	(void)state;
	failed = 0;
	CHECK(xstat_known_mask() & XSTAT_REQUEST_WHY_MISSING, "known mask");
	fflush(stdout);
	assert_int_equal(failed, 0);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		{ "file", test_path, NULL, NULL, &paths[0] },
		{ "directory", test_path, NULL, NULL, &paths[1] },
		{ "symlink", test_path, NULL, NULL, &paths[2] },
		{ "/dev/null", test_path, NULL, NULL, &paths[3] },
		cmocka_unit_test(test_known_mask),
	};
	char dir[256], file[300], link[300];
	int ret;

	/* Under $TMPDIR (tests/README.md): /tmp may not be writable. */
	if (!th_mkdtemp(dir, sizeof(dir))) {
		perror("mkdtemp");
		return 1;
	}
	th_pathf(file, sizeof(file), "%s/file", dir);
	th_pathf(link, sizeof(link), "%s/link", dir);
	if (close(open(file, O_CREAT | O_WRONLY, 0644)) || symlink("file", link)) {
		perror(file);
		return 1;
	}
	paths[0] = file;
	paths[1] = dir;
	paths[2] = link;
	paths[3] = "/dev/null";
	/* After this (in the .eperm variant) glibc's statx fails too. */
	statx_used = !th_block_from_env() && !getenv("LIBXSTAT_NO_STATX");
	ret = th_run_tests(tests);

	unlink(link);
	unlink(file);
	rmdir(dir);
	return ret;
}
