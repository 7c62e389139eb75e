// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A generation costs one name_to_handle_at(2), in both backends: in the
 * fallback (statx blocked) the call that gives the cache key (the unique
 * mount ID) is the one that gives the handle.  Counted by interposing
 * name_to_handle_at (libxstat calls glibc's, through its PLT); the
 * generation is checked against FS_IOC_GETVERSION on the file.  Exit 77
 * where the test directory's filesystem gives no generation by handle.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define FS_IOC_GETVERSION_	_IOR('v', 1, long)

static int calls;

int name_to_handle_at(int dfd, const char *path, struct file_handle *fh,
		      int *mnt_id, int flags)
{
	static int (*real)(int, const char *, struct file_handle *, int *,
			   int);

	if (!real)
		real = (int (*)(int, const char *, struct file_handle *,
				int *, int))dlsym(RTLD_NEXT,
						  "name_to_handle_at");
	calls++;
	return real(dfd, path, fh, mnt_id, flags);
}

/* The calls one xstat() of @reg with @mask makes, after a first one. */
static int count(const char *what, const char *reg, uint64_t mask,
		 unsigned gen)
{
	struct xstat_parameters p = { mask };
	union xstat_buffer r;	/* room for the mount ID */
	struct xstat *xp = &r.x;
	int n;

	/* The first call may learn (the filesystem type, the kernel). */
	if (xstat(AT_FDCWD, reg, 0, &p, xp, sizeof(r)) < 152) {
		perror(reg);
		return -1;
	}
	calls = 0;
	if (xstat(AT_FDCWD, reg, 0, &p, xp, sizeof(r)) < 152) {
		perror(reg);
		return -1;
	}
	n = calls;
	fprintf(stderr, "# %s, mask %#llx: %d name_to_handle_at, "
		"generation %s\n", what, (unsigned long long)mask, n,
		(xp->st_result_mask & XSTAT_REQUEST_GEN) ? "present" :
		"MISSING");
	if (!(xp->st_result_mask & XSTAT_REQUEST_GEN) || xp->st_gen != gen) {
		fprintf(stderr, "generation %llu, FS_IOC_GETVERSION %u\n",
			(unsigned long long)xp->st_gen, gen);
		return -1;
	}
	return n;
}

static char dir[256], reg[300];
static unsigned gen;

struct tcase {
	int		blocked;	/* statx blocked (the fallback) */
	uint64_t	mask;
};

static const struct tcase cases[] = {
	{ 0, XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN },
	{ 0, XSTAT_REQUEST__EXTENDED_STATS },
	{ 0, XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN |
		XSTAT_REQUEST_MNT_ID },
	{ 1, XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN },
	{ 1, XSTAT_REQUEST__EXTENDED_STATS },
	{ 1, XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_GEN |
		XSTAT_REQUEST_MNT_ID },
};

/*
 * One name_to_handle_at per xstat() of @mask.  The statx cases come
 * first: the first blocked case blocks statx for the rest of the process.
 */
static void test_one_handle(void **state)
{
	const struct tcase *c = *state;
	static int blocked, unblockable;

	if (c->blocked && !blocked && !unblockable) {
		if (th_block_statx(EPERM))
			unblockable = 1;
		else
			blocked = 1;
	}
	if (c->blocked && unblockable)
		th_skip("cannot install a seccomp filter");
	assert_int_equal(count(c->blocked ? "statx blocked" : "statx", reg,
			       c->mask, gen), 1);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		{ "statx, basic+gen", test_one_handle, NULL, NULL,
		  (void *)&cases[0] },
		{ "statx, extended", test_one_handle, NULL, NULL,
		  (void *)&cases[1] },
		{ "statx, basic+gen+mnt_id", test_one_handle, NULL, NULL,
		  (void *)&cases[2] },
		{ "statx blocked, basic+gen", test_one_handle, NULL, NULL,
		  (void *)&cases[3] },
		{ "statx blocked, extended", test_one_handle, NULL, NULL,
		  (void *)&cases[4] },
		{ "statx blocked, basic+gen+mnt_id", test_one_handle, NULL,
		  NULL, (void *)&cases[5] },
	};
	struct xstat_parameters p = { XSTAT_REQUEST_GEN };
	struct xstat x;
	int fd, ret;

	if (th_dir_with_file(dir, sizeof(dir), reg, sizeof(reg)))
		return 1;
	fd = open(reg, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, FS_IOC_GETVERSION_, &gen)) {
		fprintf(stderr, "SKIP: no FS_IOC_GETVERSION in %s\n", dir);
		th_rmrf(dir);
		return TH_SKIP;
	}
	close(fd);
	calls = 0;
	if (xstat(AT_FDCWD, reg, 0, &p, &x, sizeof(x)) != 152 ||
	    !(x.st_result_mask & XSTAT_REQUEST_GEN) || !calls) {
		fprintf(stderr, "SKIP: no generation by file handle in %s\n",
			dir);
		th_rmrf(dir);
		return TH_SKIP;
	}
	ret = th_run_tests(tests);
	th_rmrf(dir);
	return ret;
}
