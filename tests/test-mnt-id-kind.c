// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The mount ID's two kinds.  XSTAT_REQUEST_MNT_ID_REUSABLE against the
 * mnt_id: line of /proc/self/fdinfo, a line of /proc/self/mountinfo and
 * glibc statx(STATX_MNT_ID); XSTAT_REQUEST_MNT_ID against glibc
 * statx(STATX_MNT_ID_UNIQUE) where the kernel has the unique ID (else
 * the reusable one).  Each alone, both together, beside a class (3)
 * field and a change token (which take the unique ID for the cache), by
 * name, by descriptor and in a directory stream.  The variants run it
 * with statx blocked: the fallback must tell the kinds apart alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define UNIQUE_	0x4000U		/* STATX_MNT_ID_UNIQUE, Linux 6.8 */
#define NPATHS	5

static char dir[PATH_MAX], reg[PATH_MAX];
static const char *paths[NPATHS] = { reg, dir, "/proc/self", "/dev/null",
				     "/" };

/* The oracle's answers, taken before statx is (maybe) blocked. */
static struct {
	unsigned long long reusable;	/* glibc statx(STATX_MNT_ID) */
	unsigned long long unique;	/* STATX_MNT_ID_UNIQUE, 0: none */
	long fdinfo;			/* /proc/self/fdinfo's mnt_id */
} want[NPATHS];

union result {
	struct xstat	x;
	unsigned char	bytes[512];
};

static long fdinfo_mnt_id(const char *path)
{
	char name[64], line[256];
	long id = -1;
	FILE *f;
	int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	snprintf(name, sizeof(name), "/proc/self/fdinfo/%d", fd);
	f = fopen(name, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "mnt_id: %ld", &id) == 1)
			break;
	if (f)
		fclose(f);
	close(fd);
	return id;
}

/* Is @id the first field of a line of /proc/self/mountinfo? */
static int in_mountinfo(long id)
{
	char line[4096];
	long first;
	int found = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%ld", &first) == 1 && first == id;
	fclose(f);
	return found;
}

/* 0, or TH_SKIP with the reason said. */
static int take_oracle(void)
{
	struct statx sx;
	size_t i;

	for (i = 0; i < NPATHS; i++) {
		if (statx(AT_FDCWD, paths[i], AT_SYMLINK_NOFOLLOW,
			  STATX_MNT_ID, &sx) || !(sx.stx_mask & STATX_MNT_ID)) {
			fprintf(stderr, "SKIP: statx gives no STATX_MNT_ID "
				"(Linux 5.8+)\n");
			return TH_SKIP;
		}
		want[i].reusable = sx.stx_mnt_id;
		want[i].fdinfo = fdinfo_mnt_id(paths[i]);
		/* In a chroot the mount may be missing from mountinfo. */
		if (!in_mountinfo(want[i].fdinfo)) {
			fprintf(stderr, "SKIP: %s: its mount (%ld) is not in "
				"/proc/self/mountinfo (a chroot?)\n", paths[i],
				want[i].fdinfo);
			return TH_SKIP;
		}
		/* An emulator may hand out no ID under the mask (qemu-user) */
		if (want[i].reusable != (unsigned long long)want[i].fdinfo) {
			fprintf(stderr, "SKIP: %s: statx's mount ID %llu is not "
				"fdinfo's %ld\n", paths[i], want[i].reusable,
				want[i].fdinfo);
			return TH_SKIP;
		}
		if (statx(AT_FDCWD, paths[i], AT_SYMLINK_NOFOLLOW, UNIQUE_,
			  &sx) == 0 && (sx.stx_mask & UNIQUE_))
			want[i].unique = sx.stx_mnt_id;
	}
	return 0;
}

static ssize_t ask(size_t i, int by_fd, unsigned long long mask,
		   union result *r)
{
	struct xstat_parameters p = { mask };
	ssize_t n;
	int fd;

	memset(r, 0xa5, sizeof(*r));
	if (!by_fd)
		return xstat(AT_FDCWD, paths[i], AT_SYMLINK_NOFOLLOW, &p,
			     &r->x, sizeof(*r));
	fd = open(paths[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
	assert_true(fd >= 0);
	n = fxstat(fd, 0, &p, &r->x, sizeof(*r));
	close(fd);
	return n;
}

/* The reusable ID in @r is mountinfo's and the kernel's STATX_MNT_ID. */
static void check_reusable(size_t i, const union result *r, ssize_t n)
{
	const struct xstat_mnt_id_reusable *m =
		xstat_extra_mnt_id_reusable(&r->x, (size_t)n);

	assert_non_null(m);
	assert_int_equal(m->mnt_id, want[i].fdinfo);
	assert_int_equal(m->mnt_id, want[i].reusable);
}

/* The unique ID where the kernel has one, else the reusable one. */
static void check_unique(size_t i, const union result *r, ssize_t n)
{
	const struct xstat_mnt_id *m = xstat_extra_mnt_id(&r->x, (size_t)n);

	assert_non_null(m);
	if (m->unique) {
		assert_int_not_equal(want[i].unique, 0);
		assert_int_equal(m->mnt_id, want[i].unique);
	} else {
		assert_int_equal(m->mnt_id, want[i].reusable);
	}
}

static void test_reusable_alone(void **state)
{
	union result r;
	size_t i;
	int fd;

	(void)state;
	for (i = 0; i < NPATHS; i++) {
		for (fd = 0; fd < 2; fd++) {
			ssize_t n = ask(i, fd, XSTAT_REQUEST_MNT_ID_REUSABLE,
					&r);

			assert_int_equal(n, XSTAT_STRUCT_SIZE +
				sizeof(struct xstat_mnt_id_reusable));
			assert_false(r.x.st_result_mask & XSTAT_REQUEST_MNT_ID);
			check_reusable(i, &r, n);
		}
		print_message("  %s: reusable %llu, unique %llu\n", paths[i],
			      want[i].reusable, want[i].unique);
	}
}

/* What XSTAT_REQUEST_MNT_ID gave before the reusable bit, it gives still. */
static void test_unique_alone(void **state)
{
	union result r;
	size_t i;
	int fd;

	(void)state;
	for (i = 0; i < NPATHS; i++)
		for (fd = 0; fd < 2; fd++) {
			ssize_t n = ask(i, fd, XSTAT_REQUEST_MNT_ID, &r);

			assert_int_equal(n, XSTAT_STRUCT_SIZE +
					 sizeof(struct xstat_mnt_id));
			assert_false(r.x.st_result_mask &
				     XSTAT_REQUEST_MNT_ID_REUSABLE);
			check_unique(i, &r, n);
		}
}

/* Both kinds in one result, and beside what needs the unique one. */
static void test_together(void **state)
{
	static const unsigned long long with[] = {
		XSTAT_REQUEST_MNT_ID, XSTAT_REQUEST_GEN | XSTAT_REQUEST_MNT_ID,
		XSTAT_REQUEST_CHANGE_TOKEN, XSTAT_REQUEST_FS_ID,
		XSTAT_REQUEST_BTIME,
	};
	union result r;
	size_t i, k;
	int fd;

	(void)state;
	for (i = 0; i < NPATHS; i++)
		for (k = 0; k < sizeof(with) / sizeof(with[0]); k++)
			for (fd = 0; fd < 2; fd++) {
				ssize_t n = ask(i, fd, with[k] |
					XSTAT_REQUEST_MNT_ID_REUSABLE, &r);

				assert_true(n > 0);
				check_reusable(i, &r, n);
				if (with[k] & XSTAT_REQUEST_MNT_ID)
					check_unique(i, &r, n);
			}
}

static int check_entry(const struct xstat *x, ssize_t len, const char *path,
		       const char *how)
{
	const struct xstat_mnt_id_reusable *m =
		xstat_extra_mnt_id_reusable(x, (size_t)len);
	const struct xstat_mnt_id *u = xstat_extra_mnt_id(x, (size_t)len);

	if (!m || !u || m->mnt_id != want[0].reusable ||
	    (u->unique ? u->mnt_id != want[0].unique :
			 u->mnt_id != want[0].reusable)) {
		fprintf(stderr, "FAIL: %s %s: mount IDs %llu/%llu, "
			"want %llu/%llu\n", how, path, m ? m->mnt_id : 0ULL,
			u ? u->mnt_id : 0ULL, want[0].reusable,
			want[0].unique);
		return 1;
	}
	return 0;
}

static void test_stream(void **state)
{
	static const unsigned long long masks[] = {
		XSTAT_REQUEST_MNT_ID_REUSABLE | XSTAT_REQUEST_MNT_ID,
		XSTAT_REQUEST_MNT_ID_REUSABLE | XSTAT_REQUEST_MNT_ID |
			XSTAT_REQUEST_GEN,
	};
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(masks) / sizeof(masks[0]); k++) {
		struct xstat_parameters p = { masks[k] };

		assert_int_equal(th_check_stream(dir, &p, check_entry, 1), 0);
	}
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reusable_alone),
		cmocka_unit_test(test_unique_alone),
		cmocka_unit_test(test_together),
		cmocka_unit_test(test_stream),
	};
	int ret;

	if (th_dir_with_file(dir, sizeof(dir), reg, sizeof(reg)))
		return 1;
	ret = take_oracle();
	if (ret == 0) {
		th_block_from_env();
		ret = th_run_tests(tests);
	}
	th_rmrf(dir);
	return ret;
}
