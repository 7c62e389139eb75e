// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-file answers stay per-file, refusals stay with the credentials
 * they were given to, edge values are honest (issue 19).  Loop images:
 *
 *  - ext4, statx and name_to_handle_at blocked: the generation of a
 *    symbolic link cannot be had (it is never opened), which must not
 *    clear the generation of the next file (FS_IOC_GETVERSION oracle);
 *  - ext4, `chattr +x` (the persistent DAX request) on a filesystem
 *    without DAX: the fallback must not claim XSTAT_ATTR_DAX where
 *    statx says the file is not in DAX mode;
 *  - ext4, crtime_extra and mtime_extra 0xfffffffc set with debugfs
 *    (nanoseconds 1073741823): both backends clear both times;
 *  - XFS (no bigtime), a file whose creation time xfs_db set to 0.0,
 *    statx blocked: the next file still gets its creation time;
 *  - btrfs, the data version asked as euid 65534 (refused) and then
 *    after seteuid(0): the second call gets it; asked by a thread
 *    without CAP_SYS_ADMIN in its effective set (refused), then by
 *    another thread that has it, then by the first after it raised the
 *    capability again: both get it.
 *
 * One cmocka test per case.  Root and loop devices, else 77 (each case
 * skips on its own tools).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

#define FS_IOC_GETVERSION_	_IOR('v', 1, long)
#define STATX_ATTR_DAX_		0x200000ULL

static int get(const char *path, unsigned flags, unsigned long long mask,
	       struct xstat *x, size_t len)
{
	struct xstat_parameters p = { mask };

	return xstat(AT_FDCWD, path, flags, &p, x, len) >= 152 ? 0 : 1;
}

/*
 * What a case's child (th_child(): its seccomp filters and credentials
 * stay there) is given: files and their oracle values.
 */
struct child_arg {
	char		f[400], g[400];
	unsigned	gen;		/* f's, from FS_IOC_GETVERSION */
	struct statx	sx;		/* glibc's statx of f or g */
	int		block;		/* block statx first */
};

static int symlink_child(void *p)
{
	const struct child_arg *a = p;
	struct xstat x;

	if (th_block_statx(EPERM) ||
	    th_block_syscall(SYS_name_to_handle_at, EPERM))
		return 77;
	if (get(a->g, AT_SYMLINK_NOFOLLOW, 0x17ff, &x, sizeof(x)))
		return 1;
	if (get(a->f, AT_SYMLINK_NOFOLLOW, 0x17ff, &x, sizeof(x)) ||
	    !(x.st_result_mask & XSTAT_REQUEST_GEN) || x.st_gen != a->gen) {
		fprintf(stderr, "generation of %s lost after a symlink\n",
			a->f);
		return 1;
	}
	return 0;
}

/* ext4: the symbolic link does not poison the generation. */
static int symlink_case(const char *mnt)
{
	struct child_arg a = { .gen = 0 };
	int fd;

	th_pathf(a.f, sizeof(a.f), "%s/gen-f", mnt);
	th_pathf(a.g, sizeof(a.g), "%s/gen-l", mnt);
	fd = open(a.f, O_CREAT | O_RDONLY, 0644);
	if (fd < 0 || ioctl(fd, FS_IOC_GETVERSION_, &a.gen) ||
	    symlink("x", a.g))
		return 1;
	close(fd);
	return th_child(symlink_child, &a);
}

static int dax_child(void *p)
{
	const struct child_arg *c = p;
	union { struct xstat x; unsigned char b[512]; } r;
	const struct xstat_attributes *a;

	if (th_block_statx(EPERM))
		return 77;
	if (get(c->f, 0, XSTAT_REQUEST_ATTRIBUTES, &r.x, sizeof(r)))
		return 1;
	a = xstat_extra(&r.x, sizeof(r), XSTAT_REQUEST_ATTRIBUTES);
	if (!a)
		return 0;
	if ((a->attributes_mask & STATX_ATTR_DAX_) &&
	    (a->attributes & STATX_ATTR_DAX_) !=
	    (c->sx.stx_attributes & STATX_ATTR_DAX_)) {
		fprintf(stderr, "fallback claims DAX, statx says %s\n",
			c->sx.stx_attributes & STATX_ATTR_DAX_ ?
			"DAX" : "not DAX");
		return 1;
	}
	return 0;
}

/* ext4: the persistent DAX flag is not the DAX state. */
static int dax_case(const char *mnt)
{
	struct child_arg c;

	th_pathf(c.f, sizeof(c.f), "%s/dax-f", mnt);
	close(open(c.f, O_CREAT | O_WRONLY, 0644));
	if (th_run(NULL, 0, "chattr +x '%s' 2>/dev/null", c.f)) {
		fprintf(stderr, "chattr +x not possible here\n");
		return 77;
	}
	if (statx(AT_FDCWD, c.f, 0, STATX_BASIC_STATS, &c.sx))
		return 1;
	return th_child(dax_child, &c);
}

/* ext4 with bad nanoseconds: one rule in both backends. */
static int nsec_child(void *p)
{
	const struct child_arg *c = p;
	const char *f = c->f;
	int block = c->block;
	/* without and with an extra result statx gives (another path) */
	static const unsigned long long masks[] = {
		XSTAT_REQUEST__EXTENDED_STATS,
		XSTAT_REQUEST__EXTENDED_STATS | XSTAT_REQUEST_ATTRIBUTES,
	};
	union {
		struct xstat	x;
		unsigned char	bytes[XSTAT_RESULT_MAX];
	} b;
	struct xstat *x = &b.x;
	size_t i;

	if (block && th_block_statx(EPERM))
		return 77;
	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		if (get(f, 0, masks[i], x, sizeof(b)))
			return 1;
		if ((x->st_result_mask & XSTAT_REQUEST_BTIME) ||
		    x->st_btim.tv_nsec >= 1000000000ULL) {
			fprintf(stderr, "%s, 0x%llx: creation time nsec %llu "
				"passed on\n", block ? "fallback" : "statx",
				masks[i],
				(unsigned long long)x->st_btim.tv_nsec);
			return 1;
		}
		if ((x->st_result_mask & XSTAT_REQUEST_MTIME) ||
		    x->st_mtim.tv_nsec >= 1000000000ULL) {
			fprintf(stderr, "%s, 0x%llx: mtime nsec %llu passed "
				"on\n", block ? "fallback" : "statx", masks[i],
				(unsigned long long)x->st_mtim.tv_nsec);
			return 1;
		}
	}
	return 0;
}

static int nsec_case(void)
{
	struct child_arg c;
	struct th_loop l;
	int ret, r = 0;

	if (th_run(NULL, 0, "command -v debugfs >/dev/null"))
		return 77;
	ret = th_loop_mount(&l, 32, "mkfs.ext4 -q -F -I 256 %s", NULL);
	if (ret)
		return ret == TH_SKIP ? 77 : 1;
	th_pathf(c.f, sizeof(c.f), "%s/ns", l.mnt);
	close(open(c.f, O_CREAT | O_WRONLY, 0644));
	if (th_run(NULL, 0, "umount '%s' && debugfs -w -R "
		   "'set_inode_field /ns crtime_extra 0xfffffffc' '%s' "
		   ">/dev/null 2>&1 && debugfs -w -R "
		   "'set_inode_field /ns mtime_extra 0xfffffffc' '%s' "
		   ">/dev/null 2>&1 && mount -o loop '%s' '%s'", l.mnt,
		   l.image, l.image, l.image, l.mnt)) {
		th_loop_umount(&l);
		return 1;
	}
	for (c.block = 0; c.block < 2; c.block++) {
		ret = th_child(nsec_child, &c);
		if (ret && ret != 77)
			r = 1;
	}
	th_loop_umount(&l);
	return r;
}

/* f's creation time is 0.0, g's is in sx. */
static int xfs_child(void *p)
{
	const struct child_arg *c = p;
	struct xstat x;

	if (th_block_statx(EPERM))
		return 77;
	if (get(c->f, 0, 0x7ff | XSTAT_REQUEST_BTIME, &x, sizeof(x)))
		return 1;
	if (get(c->g, 0, 0x7ff | XSTAT_REQUEST_BTIME, &x, sizeof(x)) ||
	    !(x.st_result_mask & XSTAT_REQUEST_BTIME) ||
	    x.st_btim.tv_sec != c->sx.stx_btime.tv_sec ||
	    x.st_btim.tv_nsec != c->sx.stx_btime.tv_nsec) {
		fprintf(stderr, "creation time lost after a 0.0 one\n");
		return 1;
	}
	return 0;
}

/* XFS: a creation time of 0.0 is that file's alone. */
static int xfs_case(void)
{
	struct child_arg c;
	struct th_loop l;
	int ret;

	if (th_run(NULL, 0, "command -v xfs_db >/dev/null"))
		return 77;
	ret = th_loop_mount(&l, 320, "mkfs.xfs -q -f -m bigtime=0 %s", NULL);
	if (ret)
		return ret == TH_SKIP ? 77 : 1;
	th_pathf(c.f, sizeof(c.f), "%s/zero", l.mnt);
	th_pathf(c.g, sizeof(c.g), "%s/next", l.mnt);
	close(open(c.f, O_CREAT | O_WRONLY, 0644));
	close(open(c.g, O_CREAT | O_WRONLY, 0644));
	if (th_run(NULL, 0, "i=$(stat -c %%i '%s') && umount '%s' && "
		   "xfs_db -x -c \"inode $i\" -c 'write v3.crtime.sec 0' "
		   "-c 'write v3.crtime.nsec 0' '%s' >/dev/null && "
		   "mount -o loop '%s' '%s'", c.f, l.mnt, l.image, l.image,
		   l.mnt) ||
	    statx(AT_FDCWD, c.g, 0, STATX_BTIME, &c.sx) ||
	    !(c.sx.stx_mask & STATX_BTIME)) {
		th_loop_umount(&l);
		return 1;
	}
	ret = th_child(xfs_child, &c);
	th_loop_umount(&l);
	return ret;
}

/* Raise or drop CAP_SYS_ADMIN in this thread's effective set only. */
static int sys_admin_effective(int on)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	uint32_t bit = 1U << (CAP_SYS_ADMIN % 32);

	if (syscall(SYS_capget, &h, d))
		return -1;
	if (on)
		d[CAP_SYS_ADMIN / 32].effective |= bit;
	else
		d[CAP_SYS_ADMIN / 32].effective &= ~bit;
	return (int)syscall(SYS_capset, &h, d);
}

struct cap_arg {
	const char	*path;
	int		dv;	/* out: 1 data version, 0 none, -1 error */
};

static void *without_sys_admin(void *p)
{
	struct cap_arg *a = p;
	struct xstat x;

	a->dv = -1;
	if (sys_admin_effective(0) == 0 &&
	    get(a->path, 0, 0x7ff | XSTAT_REQUEST_DATA_VERSION, &x,
		sizeof(x)) == 0)
		a->dv = !!(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION);
	return NULL;
}

/*
 * Capabilities are per thread and change: a refusal is never kept.  In a
 * child (th_child()): its capabilities are changed.  @p: the file.
 */
static int capability_case(void *p)
{
	const char *f = p;
	unsigned long long m = 0x7ff | XSTAT_REQUEST_DATA_VERSION;
	struct cap_arg a = { f, -1 };
	struct xstat x;
	pthread_t th;

	if (pthread_create(&th, NULL, without_sys_admin, &a) ||
	    pthread_join(th, NULL) || a.dv < 0)
		return 1;
	if (a.dv)
		return 77;	/* not refused: nothing to test */
	if (get(f, 0, m, &x, sizeof(x)) ||
	    !(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)) {
		fprintf(stderr, "another thread's refusal hid the data "
			"version\n");
		return 1;
	}
	if (sys_admin_effective(0) || get(f, 0, m, &x, sizeof(x)))
		return 1;
	if (x.st_result_mask & XSTAT_REQUEST_DATA_VERSION) {
		fprintf(stderr, "a data version without CAP_SYS_ADMIN\n");
		return 1;
	}
	if (sys_admin_effective(1) || get(f, 0, m, &x, sizeof(x)))
		return 1;
	if (!(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)) {
		fprintf(stderr, "data version still refused after the "
			"capability was raised again\n");
		return 1;
	}
	return 0;
}

/* In a child (th_child()): its credentials are changed.  @p: the file. */
static int seteuid_child(void *p)
{
	unsigned long long m = 0x7ff | XSTAT_REQUEST_DATA_VERSION;
	const char *f = p;
	struct xstat x;

	/*
	 * Root first: where even root gets no data version (an ioctl a
	 * user-mode emulator does not pass on), no refusal can be told.
	 */
	if (get(f, 0, m, &x, sizeof(x)))
		return 1;
	if (!(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)) {
		fprintf(stderr, "no data version even as root here\n");
		return 77;
	}
	if (seteuid(65534))
		return 77;
	if (get(f, 0, m, &x, sizeof(x)))
		return 1;
	if (x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)
		return 77;	/* not refused: nothing to test */
	if (seteuid(0) || get(f, 0, m, &x, sizeof(x)))
		return 1;
	if (!(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)) {
		fprintf(stderr, "data version still refused after "
			"seteuid(0)\n");
		return 1;
	}
	return 0;
}

/* btrfs: a refusal to euid 65534 is not one to euid 0. */
static int seteuid_case(void)
{
	char f[400], dir[400];
	struct th_loop l;
	int ret, fd;

	ret = th_loop_mount(&l, 200, "mkfs.btrfs -q -f %s", NULL);
	if (ret)
		return ret == TH_SKIP ? 77 : 1;
	th_pathf(dir, sizeof(dir), "%s", l.mnt);
	chmod(dirname(dir), 0755);
	chmod(l.mnt, 0755);
	th_pathf(f, sizeof(f), "%s/dv", l.mnt);
	fd = open(f, O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || write(fd, "x", 1) != 1)
		return 1;
	close(fd);
	sync();
	ret = th_child(seteuid_child, f);
	if (ret == 0)
		ret = th_child(capability_case, f);
	th_loop_umount(&l);
	return ret;
}

static struct th_loop ext4;

static int symlink_on_ext4(void)
{
	return symlink_case(ext4.mnt);
}

static int dax_on_ext4(void)
{
	return dax_case(ext4.mnt);
}

struct vcase {
	const char	*name;
	int		(*run)(void);	/* 0 pass, 77 skip, else fail */
};

static const struct vcase cases[] = {
	{ "ext4: a symlink does not clear the generation", symlink_on_ext4 },
	{ "ext4: the DAX request is not the DAX state", dax_on_ext4 },
	{ "ext4: nanoseconds >= 1e9 cleared in both backends", nsec_case },
	{ "xfs: a 0.0 creation time is one file's", xfs_case },
	{ "btrfs: a refusal is the thread's, now", seteuid_case },
};

/* One verdict: passes, skips (the case said why) or fails. */
static void test_verdict(void **state)
{
	const struct vcase *c = *state;
	int ret = c->run();

	fprintf(stderr, "# %s: %s\n", c->name,
		ret == 0 ? "pass" : ret == 77 ? "skipped" : "FAIL");
	if (ret == 77)
		th_skip("%s: a tool, seccomp or a refusal to test is missing "
			"here", c->name);
	assert_int_equal(ret, 0);
}

#define VERDICT(i)	{ NULL, test_verdict, NULL, NULL, (void *)&cases[i] }

int main(void)
{
	struct CMUnitTest tests[] = {
		VERDICT(0), VERDICT(1), VERDICT(2), VERDICT(3), VERDICT(4),
	};
	int ret;
	size_t i;

	_Static_assert(sizeof(tests) / sizeof(tests[0]) ==
		       sizeof(cases) / sizeof(cases[0]), "one test a case");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tests[i].name = cases[i].name;
	th_require_root();
	ret = th_loop_mount(&ext4, 32, "mkfs.ext4 -q -F %s", NULL);
	if (ret == TH_SKIP) {
		fprintf(stderr, "SKIP: no loop device or mkfs.ext4\n");
		return TH_SKIP;
	}
	if (ret)
		return 1;
	ret = th_run_tests(tests);
	th_loop_umount(&ext4);
	return ret;
}
