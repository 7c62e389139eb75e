// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An idmapped mount of ext4 (root, loop devices, e2fsprogs and a kernel
 * that idmaps ext4: exit 77 without).
 *
 * The image is mounted plainly, and again through an idmapping (made here
 * in C: a child in a new user namespace with a uid_map and gid_map,
 * open_tree(OPEN_TREE_CLONE), mount_setattr(MOUNT_ATTR_IDMAP),
 * move_mount): on-disk ids 0..1999 show as 100000..101999, others as the
 * overflow id.  On the idmapped path stat shows the mapped owners while
 * the raw inode, which the ext4 probe reads for creation time,
 * generation and data version, holds the on-disk ones.  Checked for
 * files owned by mapped and unmapped ids:
 *  - owner and group are the mapped ones (coreutils stat on the idmapped
 *    path), never the raw ones (debugfs);
 *  - btime, generation and data version are there and are debugfs's:
 *    the probe's identity check maps the raw owner before comparing it;
 *  - a request without the generation gives the same;
 *  - the owner check rejects a raw owner that equals the shown one but
 *    does not map to it (xs_idmap_same_owner() directly).
 * Run with statx (BTIME from statx, the rest from the probe) and with
 * statx blocked (.eperm, .enosys: everything but the owners' mapping from
 * the fallback and the probe).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "ext4-oracle.h"
#include "../lib/idmap.h"

#define MAP_FIRST	0	/* on-disk ids MAP_FIRST.. */
#define MAP_LOWER	100000	/* ..show as MAP_LOWER.. */
#define MAP_COUNT	2000

#define ALL_MASK	XSTAT_REQUEST__EXTENDED_STATS
#define DIRECT_MASK	(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME | \
			 XSTAT_REQUEST_DATA_VERSION)

struct file {
	const char	*name;
	uint32_t	raw_uid, raw_gid;	/* chown'd on the plain mount */
	int		dir;
	char		path[600];		/* on the idmapped mount */
	uint32_t	uid, gid;		/* coreutils stat there */
	uint64_t	ino;
	struct ext4_oracle o;
};

#define FILE_(n, u, g, d) { .name = n, .raw_uid = u, .raw_gid = g, .dir = d }
static struct file files[] = {
	FILE_("root-owned", 0, 0, 0),
	FILE_("user-owned", 1000, 1001, 0),
	FILE_("dir", 1999, 0, 1),
	/* Not covered by the mapping: shown as the overflow id. */
	FILE_("unmapped", 5000, 5000, 0),
	/* Raw owner equal to a mapped id: also unmapped itself. */
	FILE_("lookalike", MAP_LOWER + 7, MAP_LOWER + 7, 0),
};
#define NFILES	(sizeof(files) / sizeof(files[0]))

static struct th_loop loop;
static char idmnt[300];
static int idmounted;
static uint64_t idmnt_id;	/* the idmapped mount's unique ID */
static uint64_t plain_id;	/* the plain mount's */

/* The unique mount ID of @path, from glibc's statx (the oracle side). */
static uint64_t mount_id_of(const char *path)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, 0x4000 /* STATX_MNT_ID_UNIQUE */, &stx) ||
	    !(stx.stx_mask & 0x4000))
		return 0;
	return stx.stx_mnt_id;
}

/* Create the files on the plain mount, take every oracle value. */
static int prepare(void)
{
	char out[256], plain[600];
	unsigned uid, gid;
	unsigned long long ino;
	size_t i;
	int fd;

	for (i = 0; i < NFILES; i++) {
		struct file *f = &files[i];

		th_pathf(plain, sizeof(plain), "%s/%s", loop.mnt, f->name);
		if (f->dir) {
			if (mkdir(plain, 0750))
				return -1;
		} else {
			fd = open(plain, O_CREAT | O_WRONLY | O_CLOEXEC, 0640);
			if (fd < 0 || write(fd, "x", 1) != 1 || fsync(fd))
				return -1;
			close(fd);
		}
		if (chown(plain, f->raw_uid, f->raw_gid))
			return -1;
		th_pathf(f->path, sizeof(f->path), "%s/%s", idmnt, f->name);
	}
	for (i = 0; i < NFILES; i++) {
		struct file *f = &files[i];

		if (th_run(out, sizeof(out), "stat -c '%%u %%g %%i' '%s'",
			   f->path) ||
		    sscanf(out, "%u %u %llu", &uid, &gid, &ino) != 3) {
			fprintf(stderr, "stat %s: %s\n", f->path, out);
			return -1;
		}
		f->uid = uid;
		f->gid = gid;
		f->ino = ino;
		if (ext4_oracle_stat(loop.dev, f->ino, &f->o)) {
			fprintf(stderr, "debugfs: inode %llu\n", ino);
			return -1;
		}
		/* The oracles themselves: the mapping took effect. */
		if (f->o.uid != f->raw_uid || f->o.gid != f->raw_gid) {
			fprintf(stderr, "%s: debugfs says %u:%u\n", f->name,
				f->o.uid, f->o.gid);
			return -1;
		}
	}
	idmnt_id = mount_id_of(idmnt);
	plain_id = mount_id_of(loop.mnt);
	return 0;
}

/* The mapped id of on-disk @id, as the kernel shows it. */
static uint32_t mapped(uint32_t id)
{
	if ((uint32_t)(id - MAP_FIRST) < MAP_COUNT)
		return id - MAP_FIRST + MAP_LOWER;
	return 65534;	/* overflowuid, overflowgid */
}

static void check(const struct file *f, const struct xstat *x, ssize_t ret,
		  uint64_t mask, const char *how)
{
	int gen = !!(mask & XSTAT_REQUEST_GEN);

	if (ret != XSTAT_STRUCT_SIZE)
		fail_msg("%s %s: returned %zd (%s)", how, f->name, ret,
			 strerror(errno));
	if (x->st_ino != f->ino)
		fail_msg("%s %s: ino %llu, stat %llu", how, f->name,
			 (unsigned long long)x->st_ino,
			 (unsigned long long)f->ino);
	/* Owners: the mount's view, never the raw inode's. */
	if (x->st_uid != f->uid || x->st_gid != f->gid)
		fail_msg("%s %s: owner %u:%u, stat says %u:%u", how, f->name,
			 x->st_uid, x->st_gid, f->uid, f->gid);
	if (f->uid != mapped(f->raw_uid) || f->gid != mapped(f->raw_gid))
		fail_msg("%s: stat shows %u:%u, not the mapping of %u:%u",
			 f->name, f->uid, f->gid, f->raw_uid, f->raw_gid);

	if (!(x->st_result_mask & XSTAT_REQUEST_BTIME) || !f->o.has_crtime ||
	    x->st_btim.tv_sec != f->o.crtime_sec ||
	    (uint32_t)x->st_btim.tv_nsec != f->o.crtime_nsec)
		fail_msg("%s %s: btime %lld.%09ld (mask %#llx), debugfs "
			 "%lld.%09u", how, f->name,
			 (long long)x->st_btim.tv_sec,
			 (long)x->st_btim.tv_nsec,
			 (unsigned long long)x->st_result_mask,
			 (long long)f->o.crtime_sec, f->o.crtime_nsec);
	if (gen && (!(x->st_result_mask & XSTAT_REQUEST_GEN) ||
		    x->st_gen != f->o.generation))
		fail_msg("%s %s: gen %llu (mask %#llx), debugfs %u", how,
			 f->name, (unsigned long long)x->st_gen,
			 (unsigned long long)x->st_result_mask,
			 f->o.generation);
	if (!f->o.has_version ||
	    !(x->st_result_mask & XSTAT_REQUEST_DATA_VERSION) ||
	    x->st_data_version != f->o.version)
		fail_msg("%s %s: data_version %llu (mask %#llx), debugfs "
			 "%llu", how, f->name,
			 (unsigned long long)x->st_data_version,
			 (unsigned long long)x->st_result_mask,
			 (unsigned long long)f->o.version);
}

/* Every field, general path; twice: the second call is a cached mount. */
static void test_all_fields(void **state)
{
	struct xstat_parameters p = { ALL_MASK };
	struct xstat x;
	size_t i;
	int round;

	(void)state;
	for (round = 0; round < 2; round++) {
		for (i = 0; i < NFILES; i++) {
			memset(&x, 0xa5, sizeof(x));
			check(&files[i], &x, xstat(AT_FDCWD, files[i].path,
						   AT_SYMLINK_NOFOLLOW, &p,
						   &x, sizeof(x)),
			      ALL_MASK, "xstat");
		}
	}
}

/* No generation asked (ext4 cached). */
static void test_direct(void **state)
{
	struct xstat_parameters p = { DIRECT_MASK };
	struct xstat x;
	size_t i;

	(void)state;
	for (i = 0; i < NFILES; i++) {
		memset(&x, 0xa5, sizeof(x));
		check(&files[i], &x, xstat(AT_FDCWD, files[i].path,
					   AT_SYMLINK_NOFOLLOW, &p, &x,
					   sizeof(x)),
		      DIRECT_MASK, "no generation asked");
	}
}

/* fxstat() on an fd opened through the idmapped mount. */
static void test_fxstat(void **state)
{
	struct xstat_parameters p = { ALL_MASK };
	struct xstat x;
	size_t i;
	int fd;

	(void)state;
	for (i = 0; i < NFILES; i++) {
		/*
		 * O_PATH: root may not read a file whose owner the mapping
		 * leaves out (no capability over an unmapped owner).
		 */
		fd = open(files[i].path, O_PATH | O_CLOEXEC);
		assert_true(fd >= 0);
		memset(&x, 0xa5, sizeof(x));
		check(&files[i], &x, fxstat(fd, 0, &p, &x, sizeof(x)),
		      ALL_MASK, "fxstat");
		close(fd);
	}
}

/*
 * The rule itself: through the mapping, not by equality.  The mount's ID
 * comes from glibc's statx, so this case needs no statx of the library.
 */
static void test_owner_rule(void **state)
{
	(void)state;
	if (!idmnt_id || !plain_id)
		th_skip("no unique mount ID (STATX_MNT_ID_UNIQUE, 6.8+)");
	/* Mapped ids. */
	assert_int_equal(xs_idmap_same_owner(idmnt_id, 0, 0, MAP_LOWER,
					     MAP_LOWER), 1);
	assert_int_equal(xs_idmap_same_owner(idmnt_id, 1999, 5, MAP_LOWER +
					     1999, MAP_LOWER + 5), 1);
	/* Unmapped ids show as the overflow id. */
	assert_int_equal(xs_idmap_same_owner(idmnt_id, 5000, 5000, 65534,
					     65534), 1);
	/* Equal raw and shown ids are not a match through a mapping. */
	assert_int_equal(xs_idmap_same_owner(idmnt_id, 0, 0, 0, 0), 0);
	assert_int_equal(xs_idmap_same_owner(idmnt_id, MAP_LOWER + 7,
					     MAP_LOWER + 7, MAP_LOWER + 7,
					     MAP_LOWER + 7), 0);
	/* An unmapped raw id never shows as a mapped one. */
	assert_int_equal(xs_idmap_same_owner(idmnt_id, 5000, 0, MAP_LOWER,
					     MAP_LOWER), 0);
	/* uid right, gid wrong. */
	assert_int_equal(xs_idmap_same_owner(idmnt_id, 1000, 1001,
					     MAP_LOWER + 1000,
					     MAP_LOWER + 1000), 0);
	/* The plain mount has no idmapping: ids compare as stored. */
	assert_int_equal(xs_idmap_same_owner(plain_id, 7, 7,
					     7, 7), 1);
	assert_int_equal(xs_idmap_same_owner(plain_id, 7, 7,
					     MAP_LOWER + 7, 7), 0);
}

static void cleanup(void)
{
	if (idmounted && umount2(idmnt, MNT_DETACH))
		fprintf(stderr, "umount %s: %s\n", idmnt, strerror(errno));
	if (idmounted)
		rmdir(idmnt);
	th_loop_umount(&loop);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_fields),
		cmocka_unit_test(test_direct),
		cmocka_unit_test(test_fxstat),
		cmocka_unit_test(test_owner_rule),
	};
	int ret;

	th_require_root();
	if (!ext4_oracle_available()) {
		fprintf(stderr, "SKIP: debugfs or mkfs.ext4 is missing\n");
		return TH_SKIP;
	}
	ret = th_loop_mount(&loop, 32, "mkfs.ext4 -q -F -I 256 %s", NULL);
	if (ret)
		return ret == TH_SKIP ? TH_SKIP : 1;
	th_pathf(idmnt, sizeof(idmnt), "%s-idmapped", loop.mnt);
	ret = th_mount_idmapped(loop.mnt, idmnt, MAP_FIRST, MAP_LOWER,
				MAP_COUNT, "");
	if (!ret)
		idmounted = 1;
	if (!ret && prepare()) {
		fprintf(stderr, "setting up the files failed\n");
		ret = 1;
	}
	if (ret) {
		cleanup();
		return ret == TH_SKIP ? TH_SKIP : 1;
	}
	th_block_from_env();
	ret = th_run_tests(tests);
	cleanup();
	return ret;
}
