// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ext4 raw-inode prober through the public API, on loop-mounted
 * images of many layouts (root and loop devices needed: exit 77 without).
 *
 * Each file is observed three ways:
 *  - xstat() in this process (statx available: BTIME from statx,
 *    DATA_VERSION from the prober);
 *  - the xstat tool with LIBXSTAT_NO_STATX=1 (fallback: BTIME too comes
 *    from the prober);
 *  - the xstat tool under `seccomp-run -e EPERM -s statx` (a sandbox).
 * and compared with oracles that share no code with libxstat: lstat(),
 * glibc statx() for btime, `debugfs -R stat` for crtime, generation and
 * i_version (debugfs reads the device through the same page cache, so no
 * sync is needed: files are checked right after they are created).
 * Also: inode reuse, an unprivileged caller, fd accounting (no fd kept
 * between calls, none leaked), and a device re-made with another filesystem.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libgen.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "ext4-oracle.h"

#define ALL_MASK	XSTAT_REQUEST__EXTENDED_STATS
/* No generation asked for. */
#define DIRECT_MASK	(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME | \
			 XSTAT_REQUEST_DATA_VERSION)
#define MAX_FILES	64

struct layout {
	const char	*mkfs;
	int		btime;		/* inodes have room for i_crtime */
	int		dirs, files;	/* files spread over directories */
	const char	*opts;		/* mount options */
	int		no_version;	/* not made by Linux: no i_version */
};

static const struct layout layouts[] = {
	{ "mkfs.ext4 -q -F -b 4096 %s", 1, 0, 0, NULL, 0 },
	/* lazytime: timestamps lag on disk, i_version must not. */
	{ "mkfs.ext4 -q -F -b 1024 %s", 1, 0, 0, "lazytime", 0 },
	{ "mkfs.ext4 -q -F -I 128 %s", 0, 0, 0, NULL, 0 },
	/* Inodes larger than the prober's usual buffer. */
	{ "mkfs.ext4 -q -F -I 1024 %s", 1, 0, 0, NULL, 0 },
	{ "mkfs.ext4 -q -F -I 256 -O ^metadata_csum %s", 1, 0, 0, NULL, 0 },
	{ "mkfs.ext4 -q -F -O metadata_csum_seed -E desc_size=128 %s",
	  1, 0, 0, NULL, 0 },
	{ "mkfs.ext4 -q -F -b 1024 -g 1024 -O ^flex_bg %s", 1, 8, 20, NULL, 0 },
	{ "mkfs.ext4 -q -F -O bigalloc %s", 1, 0, 0, NULL, 0 },
	{ "mkfs.ext4 -q -F -b 1024 -C 16384 -O bigalloc %s", 1, 0, 0, NULL, 0 },
	{ "mkfs.ext4 -q -F -b 1024 -g 1024 -O meta_bg,^resize_inode %s",
	  1, 16, 30, NULL, 0 },
	/* 64 inodes per group: files land in late groups. */
	{ "mkfs.ext4 -q -F -b 1024 -g 1024 -N 4096 %s", 1, 40, 60, NULL, 0 },
	{ "mkfs.ext2 -q -F %s", 1, 0, 0, NULL, 0 },
	{ "mkfs.ext3 -q -F %s", 1, 0, 0, NULL, 0 },
	{ "mkfs.ext3 -q -F -I 128 %s", 0, 0, 0, NULL, 0 },
	/* Creator OS Hurd: 128-byte inodes, osd1 is not i_version. */
	{ "mkfs.ext2 -q -F -o hurd %s", 0, 0, 0, NULL, 1 },
};

/* test_threads and these use one cached device each. */
_Static_assert(sizeof(layouts) / sizeof(layouts[0]) <= 15, "fd counts");

/* What one observation of a file said. */
struct seen {
	long long	size_needed;
	uint64_t	mask;
	uint32_t	mode, nlink, uid, gid;
	uint64_t	ino;
	int64_t		btime_sec;
	uint64_t	btime_nsec;
	uint64_t	gen, data_version;
};

struct file {
	char		path[300];
	struct stat	st;
	struct ext4_oracle o;
	struct seen	in_proc, fallback, sandbox;
	struct seen	direct, fb_direct, sb_direct;	/* DIRECT_MASK */
};

static struct file files[MAX_FILES];
static int nfiles;
static int statx_oracle;	/* glibc statx() works here */

static void seen_from_xstat(struct seen *s, long long ret,
			    const struct xstat *x)
{
	memset(s, 0, sizeof(*s));
	s->size_needed = ret;
	s->mask = x->st_result_mask;
	s->mode = x->st_mode;
	s->nlink = x->st_nlink;
	s->uid = x->st_uid;
	s->gid = x->st_gid;
	s->ino = x->st_ino;
	s->btime_sec = x->st_btim.tv_sec;
	s->btime_nsec = x->st_btim.tv_nsec;
	s->gen = x->st_gen;
	s->data_version = x->st_data_version;
}

static int json_u64(const char *line, const char *key, uint64_t *v)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(line, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	if (!strncmp(p, "null", 4))
		return 0;
	return sscanf(p, "%" SCNu64, v) == 1 ? 1 : -1;
}

/* Parse one line of `xstat -j`; the result mask tells what is valid. */
static int seen_from_json(struct seen *s, const char *line)
{
	uint64_t v[8];
	const char *p;
	long long sec;
	unsigned long long nsec;

	memset(s, 0, sizeof(*s));
	if (json_u64(line, "size_needed", &v[0]) != 1 ||
	    json_u64(line, "result_mask", &v[1]) != 1 ||
	    json_u64(line, "mode", &v[2]) != 1 ||
	    json_u64(line, "nlink", &v[3]) != 1 ||
	    json_u64(line, "uid", &v[4]) != 1 ||
	    json_u64(line, "gid", &v[5]) != 1 ||
	    json_u64(line, "ino", &v[6]) != 1)
		return -1;
	s->size_needed = (long long)v[0];
	s->mask = v[1];
	s->mode = (uint32_t)v[2];
	s->nlink = (uint32_t)v[3];
	s->uid = (uint32_t)v[4];
	s->gid = (uint32_t)v[5];
	s->ino = v[6];
	if (json_u64(line, "gen", &s->gen) < 0 ||
	    json_u64(line, "data_version", &s->data_version) < 0)
		return -1;
	p = strstr(line, "\"btime\":{");
	if (p) {
		if (sscanf(p, "\"btime\":{\"sec\":%lld,\"nsec\":%llu", &sec,
			   &nsec) != 2)
			return -1;
		s->btime_sec = sec;
		s->btime_nsec = nsec;
	}
	return 0;
}

/*
 * The xstat tool as a command.  Not the libtool wrapper script: it runs
 * ls, which uses statx and fails in the sandbox.
 */
static char tool_bin[600], tool_env[600];

static void find_tool(void)
{
	const char *top = getenv("top_builddir");

	th_pathf(tool_bin, sizeof(tool_bin), "%s/tools/.libs/xstat", top);
	if (access(tool_bin, X_OK) == 0) {
		th_pathf(tool_env, sizeof(tool_env),
		      "LD_LIBRARY_PATH='%s/lib/.libs'", top);
	} else {
		th_pathf(tool_bin, sizeof(tool_bin), "%s/tools/xstat", top);
		tool_env[0] = '\0';
	}
}

/*
 * Observe every file with the xstat tool: @env (variable assignments) and
 * @wrap (a command prefix) before it.
 */
static void observe_tool(const char *env, const char *wrap, uint64_t mask,
			 size_t which)
{
	static char out[65536];
	char cmd[32768], *line, *save;
	size_t len;
	int i, got = 0;

	len = (size_t)snprintf(cmd, sizeof(cmd), "%s %s %s '%s' -j -m 0x%llx",
			       env, tool_env, wrap, tool_bin,
			       (unsigned long long)mask);
	for (i = 0; i < nfiles; i++)
		len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, " '%s'",
					files[i].path);
	assert_true(len < sizeof(cmd));
	assert_int_equal(th_run(out, sizeof(out), "%s", cmd), 0);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		for (i = 0; i < nfiles; i++) {
			char key[320];

			th_pathf(key, sizeof(key), "{\"path\":\"%s\",",
				 files[i].path);
			if (strncmp(line, key, strlen(key)))
				continue;
			assert_int_equal(seen_from_json((struct seen *)
				((char *)&files[i] + which), line), 0);
			got++;
			break;
		}
	}
	assert_int_equal(got, nfiles);
}

static void observe_in_process(void)
{
	struct xstat_parameters p = { ALL_MASK };
	struct xstat x;
	ssize_t ret;
	int i;

	for (i = 0; i < nfiles; i++) {
		memset(&x, 0xa5, sizeof(x));
		ret = xstat(AT_FDCWD, files[i].path, AT_SYMLINK_NOFOLLOW, &p,
			    &x, sizeof(x));
		assert_int_equal(ret, XSTAT_STRUCT_SIZE);
		seen_from_xstat(&files[i].in_proc, ret, &x);
	}
}

/*
 * DIRECT_MASK and its parts, with room for the whole result (the fast
 * path) and with one byte less (the general path): the same bytes.
 */
static void observe_direct_in_process(void)
{
	static const uint64_t masks[] = {
		XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_DATA_VERSION,
		XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME,
		DIRECT_MASK,
	};
	struct xstat x, y;
	ssize_t ret;
	size_t m;
	int i;

	for (i = 0; i < nfiles; i++) {
		for (m = 0; m < sizeof(masks) / sizeof(masks[0]); m++) {
			struct xstat_parameters p = { masks[m] };

			memset(&x, 0xa5, sizeof(x));
			memset(&y, 0x5a, sizeof(y));
			ret = xstat(AT_FDCWD, files[i].path,
				    AT_SYMLINK_NOFOLLOW, &p, &x, sizeof(x));
			assert_int_equal(ret, XSTAT_STRUCT_SIZE);
			assert_int_equal(xstat(AT_FDCWD, files[i].path,
					       AT_SYMLINK_NOFOLLOW, &p, &y,
					       sizeof(y) - 1),
					 XSTAT_STRUCT_SIZE);
			if (memcmp(&x, &y, sizeof(y) - 1))
				fail_msg("%s: mask %#llx: fast and general "
					 "path differ", files[i].path,
					 (unsigned long long)masks[m]);
		}
		seen_from_xstat(&files[i].direct, ret, &x);
	}
}

static void add_file(const char *path)
{
	struct file *f;

	assert_true(nfiles < MAX_FILES);
	f = &files[nfiles++];
	memset(f, 0, sizeof(*f));
	th_pathf(f->path, sizeof(f->path), "%s", path);
	assert_int_equal(lstat(path, &f->st), 0);
}

/*
 * Compare one observation with lstat, statx and debugfs.  @gen: the
 * generation was asked for (else it must be absent).
 */
static void check_seen(const struct file *f, const struct seen *s,
		       const char *how, int gen, int btime_expected,
		       int version)
{
	struct statx stx;
	const char *p = f->path;
	/* The tool's JSON asks why a class (3) field is missing. */
	long long size = XSTAT_STRUCT_SIZE +
		(s->mask & XSTAT_REQUEST_WHY_MISSING ?
		 (long long)sizeof(struct xstat_why_missing) : 0);

	if (s->size_needed != size)
		fail_msg("%s %s: returned %lld", how, p, s->size_needed);
	if (s->mode != f->st.st_mode || s->nlink != f->st.st_nlink ||
	    s->uid != f->st.st_uid || s->gid != f->st.st_gid ||
	    s->ino != f->st.st_ino)
		fail_msg("%s %s: basic fields differ from lstat", how, p);

	if (!gen && ((s->mask & XSTAT_REQUEST_GEN) || s->gen))
		fail_msg("%s %s: gen not asked for, given", how, p);
	else if (gen && (!(s->mask & XSTAT_REQUEST_GEN) ||
			 s->gen != f->o.generation))
		fail_msg("%s %s: gen %" PRIu64 " (mask %" PRIx64 "), debugfs "
			 "%u", how, p, s->gen, s->mask, f->o.generation);

	/* i_version as on disk, when the inode has it (Linux creator). */
	version = version && f->o.has_version;
	if (!!(s->mask & XSTAT_REQUEST_DATA_VERSION) != version ||
	    (version && s->data_version != f->o.version))
		fail_msg("%s %s: data_version %" PRIu64 " (mask %" PRIx64
			 "), debugfs %" PRIu64, how, p, s->data_version,
			 s->mask, f->o.version);

	if (!!(s->mask & XSTAT_REQUEST_BTIME) != btime_expected)
		fail_msg("%s %s: BTIME bit %d, expected %d", how, p,
			 !!(s->mask & XSTAT_REQUEST_BTIME), btime_expected);
	if (!btime_expected)
		return;
	if (!f->o.has_crtime || s->btime_sec != f->o.crtime_sec ||
	    s->btime_nsec != f->o.crtime_nsec)
		fail_msg("%s %s: btime %" PRId64 ".%09" PRIu64 ", debugfs "
			 "crtime %" PRId64 ".%09u", how, p, s->btime_sec,
			 s->btime_nsec, f->o.crtime_sec, f->o.crtime_nsec);
	if (statx_oracle) {
		assert_int_equal(statx(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW,
				       STATX_BTIME, &stx), 0);
		assert_true(stx.stx_mask & STATX_BTIME);
		if (stx.stx_btime.tv_sec != s->btime_sec ||
		    stx.stx_btime.tv_nsec != s->btime_nsec)
			fail_msg("%s %s: btime differs from statx", how, p);
	}
}

#define SANDBOX	"\"$top_builddir/tests/seccomp-run\" -e EPERM -s statx --"

/*
 * Can seccomp-run install its filter here (not under qemu-user)?  Asked
 * once; where it cannot, the tool's sandboxed rows are left out and the
 * helper's reason said.
 */
static int sandbox_works(void)
{
	static int works = -1;
	char out[512];

	if (works < 0) {
		works = th_run(out, sizeof(out), "%s true 2>&1", SANDBOX) == 0;
		if (!works)
			fprintf(stderr, "SKIP-part: the tool under seccomp-run: "
				"%s\n", out);
	}
	return works;
}

/* debugfs's view of files[0..nfiles), from one run of it. */
static void oracle_all(const char *dev)
{
	static struct ext4_oracle o[MAX_FILES];
	uint64_t inos[MAX_FILES];
	int i;

	for (i = 0; i < nfiles; i++)
		inos[i] = (uint64_t)files[i].st.st_ino;
	assert_int_equal(ext4_oracle_stat_many(dev, inos, nfiles, o), 0);
	for (i = 0; i < nfiles; i++)
		files[i].o = o[i];
}

static void check_all(const char *dev, int btime, int version)
{
	int i;

	oracle_all(dev);
	for (i = 0; i < nfiles; i++) {
		/* The kernel's own view of the generation, too. */
		if (S_ISREG(files[i].st.st_mode) ||
		    S_ISDIR(files[i].st.st_mode)) {
			const char *argv[] = { "lsattr", "-vd", files[i].path,
					       NULL };
			char out[512];
			unsigned long gen;

			assert_int_equal(th_exec(out, sizeof(out),
						 TH_ERR_INHERIT, NULL, argv),
					 0);
			assert_int_equal(sscanf(out, "%lu", &gen), 1);
			assert_int_equal(gen, files[i].o.generation);
		}
	}
	observe_in_process();
	observe_direct_in_process();
	observe_tool("LIBXSTAT_NO_STATX=1", "", ALL_MASK,
		     offsetof(struct file, fallback));
	if (sandbox_works())
		observe_tool("", SANDBOX, ALL_MASK,
			     offsetof(struct file, sandbox));
	observe_tool("LIBXSTAT_NO_STATX=1", "", DIRECT_MASK,
		     offsetof(struct file, fb_direct));
	if (sandbox_works())
		observe_tool("", SANDBOX, DIRECT_MASK,
			     offsetof(struct file, sb_direct));
	for (i = 0; i < nfiles; i++) {
		/* With statx, btime is the kernel's: always when it has it. */
		check_seen(&files[i], &files[i].in_proc, "xstat()", 1, btime,
			   version);
		check_seen(&files[i], &files[i].fallback, "fallback", 1, btime,
			   version);
		if (sandbox_works())
			check_seen(&files[i], &files[i].sandbox, "seccomp", 1,
				   btime, version);
		check_seen(&files[i], &files[i].direct, "xstat() direct", 0,
			   btime, version);
		check_seen(&files[i], &files[i].fb_direct, "fallback direct",
			   0, btime, version);
		if (sandbox_works())
			check_seen(&files[i], &files[i].sb_direct,
				   "seccomp direct", 0, btime, version);
	}
}

static void make_file(const char *path, mode_t mode, uid_t uid, gid_t gid)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "data\n", 5), 5);
	assert_int_equal(fchown(fd, uid, gid), 0);
	close(fd);
}

/* A spread of file types and owners, the last one created unsynced. */
static void populate(const char *mnt, const struct layout *lay)
{
	char path[300], sub[300];
	int d, i;

	th_pathf(path, sizeof(path), "%s/file", mnt);
	make_file(path, 0644, 1234, 5678);
	th_pathf(sub, sizeof(sub), "%s/link", mnt);
	assert_int_equal(link(path, sub), 0);	/* nlink 2 */
	add_file(path);
	th_pathf(path, sizeof(path), "%s/bigids", mnt);
	make_file(path, 0600, 70000, 80000);	/* needs i_uid_high */
	add_file(path);
	th_pathf(path, sizeof(path), "%s/dir", mnt);
	assert_int_equal(mkdir(path, 0750), 0);
	add_file(path);
	th_pathf(path, sizeof(path), "%s/sym", mnt);
	assert_int_equal(symlink("file", path), 0);
	add_file(path);
	th_pathf(path, sizeof(path), "%s/fifo", mnt);
	assert_int_equal(mkfifo(path, 0640), 0);
	add_file(path);

	/* Many files in many directories (Orlov spreads the directories). */
	for (d = 0; d < lay->dirs; d++) {
		th_pathf(sub, sizeof(sub), "%s/d%d", mnt, d);
		assert_int_equal(mkdir(sub, 0755), 0);
		for (i = 0; i < lay->files; i++) {
			th_pathf(path, sizeof(path), "%s/f%d", sub, i);
			make_file(path, 0644, 0, 0);
		}
		/* Sample the last file of some directories. */
		if (d % 4 == 3 || d == lay->dirs - 1)
			add_file(path);
	}
	th_pathf(path, sizeof(path), "%s/fresh", mnt);
	make_file(path, 0644, 0, 0);
	add_file(path);
}

static int mounted_opts(struct th_loop *l, const char *mkfs,
			const char *opts)
{
	th_loop_mount_test(l, 64, mkfs, opts);
	return 0;
}

static int mounted(struct th_loop *l, const char *mkfs)
{
	return mounted_opts(l, mkfs, NULL);
}

/*
 * The image of the running test: a global, so that the teardown unmounts
 * and removes it even when an assertion ends the test early.
 */
static struct th_loop lp;

static int unmount_image(void **state)
{
	(void)state;
	th_loop_umount(&lp);
	return 0;
}

static void test_layouts(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		int before, after;

		print_message("layout: %s\n", layouts[i].mkfs);
		mounted_opts(&lp, layouts[i].mkfs, layouts[i].opts);
		nfiles = 0;
		populate(lp.mnt, &layouts[i]);
		before = th_count_fds();
		/*
		 * 128-byte inodes (no room for i_crtime): whole-second
		 * ctimes, so no data version (xs_ext4_dev_dv_ok()).
		 */
		check_all(lp.dev, layouts[i].btime,
			  !layouts[i].no_version && layouts[i].btime);
		after = th_count_fds();
		/* Nothing outlives the call: not even the device's fd. */
		if (after != before)
			fail_msg("%s: %d fds before probing, %d after",
				 layouts[i].mkfs, before, after);
		observe_in_process();
		assert_int_equal(th_count_fds(), after);
		th_loop_umount(&lp);
	}
}

/* A freed inode number used again: new generation, new crtime. */
static void test_reuse(void **state)
{
	char path[300], path2[300];
	struct ext4_oracle old;
	struct stat st;

	(void)state;
	mounted(&lp, "mkfs.ext4 -q -F %s");
	th_pathf(path, sizeof(path), "%s/old", lp.mnt);
	make_file(path, 0644, 0, 0);
	nfiles = 0;
	add_file(path);
	check_all(lp.dev, 1, 1);
	old = files[0].o;
	assert_int_equal(unlink(path), 0);

	th_pathf(path2, sizeof(path2), "%s/new", lp.mnt);
	make_file(path2, 0640, 42, 43);
	assert_int_equal(lstat(path2, &st), 0);
	assert_int_equal(st.st_ino, files[0].st.st_ino);	/* reused */
	nfiles = 0;
	add_file(path2);
	check_all(lp.dev, 1, 1);
	assert_int_not_equal(files[0].o.generation, old.generation);
	assert_int_equal(files[0].in_proc.gen, files[0].o.generation);
	assert_true(files[0].fallback.btime_sec != old.crtime_sec ||
		    files[0].fallback.btime_nsec != old.crtime_nsec);
	th_loop_umount(&lp);
}

/*
 * Changes move i_version (a change in a later timestamp tick always
 * does), and what is read is the current value, without a sync.
 */
static void test_changes(void **state)
{
	char path[300];
	uint64_t prev;
	int k, fd;

	(void)state;
	mounted(&lp, "mkfs.ext4 -q -F %s");
	th_pathf(path, sizeof(path), "%s/changing", lp.mnt);
	make_file(path, 0644, 0, 0);
	nfiles = 0;
	add_file(path);
	check_all(lp.dev, 1, 1);
	prev = files[0].in_proc.data_version;
	for (k = 0; k < 4; k++) {
		usleep(50000);
		if (k == 3) {
			assert_int_equal(chmod(path, 0600), 0);
		} else {
			fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
			assert_true(fd >= 0);
			assert_int_equal(write(fd, "more\n", 5), 5);
			close(fd);
		}
		nfiles = 0;
		add_file(path);
		check_all(lp.dev, 1, 1);
		if (files[0].in_proc.data_version <= prev)
			fail_msg("data version %" PRIu64 " after a change, "
				 "was %" PRIu64, files[0].in_proc.data_version,
				 prev);
		prev = files[0].in_proc.data_version;
	}
	th_loop_umount(&lp);
}

/*
 * A copy of the xstat tool and the library that nobody can run: the build
 * tree may sit in a directory only root can enter.
 */
static int copy_tool(const char *dir)
{
	const char *top = getenv("top_builddir");

	return th_run(NULL, 0, "set -e; cd '%s'; "
		      "if [ -x tools/.libs/xstat ]; then "
		      "cp tools/.libs/xstat '%s/xstat'; "
		      "cp -L lib/.libs/libxstat.so.1 '%s/'; "
		      "else cp tools/xstat '%s/xstat'; fi; "
		      "chmod -R a+rX '%s'", top, dir, dir, dir, dir);
}

/* Open fds of this process on a loop block device. */
static int count_loop_fds(void)
{
	char link[64], target[256];
	int fd, n = 0;
	ssize_t len;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		len = readlink(link, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		if (!strncmp(target, "/dev/loop", 9))
			n++;
	}
	return n;
}

/*
 * The checks as nobody, in a child; its exit status is the verdict.
 * @late: the child probes as root first and drops privileges after, in
 * the same process; the very first call after the drop must see it (no
 * descriptor or verdict is kept between calls, see libxstat(7), SECURITY).
 */
static int as_nobody(const char *path, const char *bindir, int late)
{
	struct xstat_parameters p = { ALL_MASK };
	char out[4096];
	struct xstat x;
	struct stat st;
	int before, i;
	ssize_t ret;

	/* The parent holds no device fd between calls: none came along. */
	if (count_loop_fds() != 0)
		return 10;
	if (late) {
		ret = xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x));
		if (ret != XSTAT_STRUCT_SIZE ||
		    !(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION))
			return 12;
	}
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
		return 2;
	if (lstat(path, &st))
		return 3;
	before = th_count_fds();
	for (i = 0; i < 3; i++) {
		/* With and without the generation asked for. */
		p.request_mask = i == 1 ? DIRECT_MASK : ALL_MASK;
		memset(&x, 0, sizeof(x));
		ret = xstat(AT_FDCWD, path, 0, &p, &x, sizeof(x));
		if (ret != XSTAT_STRUCT_SIZE)
			return 4;
		if (x.st_mode != st.st_mode || x.st_uid != st.st_uid ||
		    x.st_ino != st.st_ino || x.st_nlink != st.st_nlink)
			return 5;
		/* No device access: no data version. */
		if (x.st_result_mask & XSTAT_REQUEST_DATA_VERSION)
			return 6;
	}
	/*
	 * No fd kept for a refused device.  (It may be one fewer: the
	 * refusal takes a cache slot and can evict an idle root fd.)
	 */
	if (th_count_fds() > before)
		return 7;
	/* Not one raw-device fd outlives the privilege drop. */
	if (count_loop_fds() != 0)
		return 11;
	/*
	 * The fallback: no btime either, and no error; the JSON says why
	 * (without root: the device is root's).
	 */
	if (th_run(out, sizeof(out), "LD_LIBRARY_PATH='%s' LIBXSTAT_NO_STATX=1 "
		   "'%s/xstat' -j -m 0x%llx '%s'", bindir, bindir,
		   (unsigned long long)ALL_MASK, path) != 0)
		return 8;
	if (!strstr(out, "\"size_needed\":160,") ||
	    !strstr(out, "\"btime\":null") ||
	    !strstr(out, "\"data_version\":null") ||
	    !strstr(out, "\"why_missing\":{\"btime\":\"privilege\","
			 "\"data_version\":\"privilege\"}"))
		return 9;
	return 0;
}

static void test_unprivileged(void **state)
{
	char path[300], dir[300], bindir[310];
	pid_t pid;
	int status, late;

	(void)state;
	mounted(&lp, "mkfs.ext4 -q -F %s");
	th_pathf(path, sizeof(path), "%s/world", lp.mnt);
	make_file(path, 0644, 0, 0);
	/* Probe as root first: the child must not reuse the root fd. */
	nfiles = 0;
	add_file(path);
	observe_in_process();
	assert_true(files[0].in_proc.mask & XSTAT_REQUEST_DATA_VERSION);
	th_pathf(dir, sizeof(dir), "%s", lp.mnt);
	assert_int_equal(chmod(dirname(dir), 0755), 0);
	th_pathf(bindir, sizeof(bindir), "%s/bin", dir);
	assert_int_equal(mkdir(bindir, 0755), 0);
	assert_int_equal(copy_tool(bindir), 0);

	/* Dropped in a fresh child, then after probing as root. */
	for (late = 0; late < 2; late++) {
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			_exit(as_nobody(path, bindir, late));
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		if (WEXITSTATUS(status))
			fail_msg("unprivileged check (%s) failed at step %d",
				 late ? "late drop" : "child",
				 WEXITSTATUS(status));
	}
	th_loop_umount(&lp);
}

/*
 * The device is re-made with another filesystem while its geometry is
 * cached: the prober must notice (the raw inode disagrees, the superblock
 * changed) and still answer right, keeping no fd.
 */
static void test_remade_device(void **state)
{
	char path[300];
	int fds;

	(void)state;
	mounted(&lp, "mkfs.ext4 -q -F -b 1024 -I 128 %s");
	th_pathf(path, sizeof(path), "%s/one", lp.mnt);
	make_file(path, 0644, 0, 0);
	nfiles = 0;
	add_file(path);
	observe_in_process();
	fds = th_count_fds();

	assert_int_equal(th_run(NULL, 0, "umount '%s'", lp.mnt), 0);
	assert_int_equal(th_run(NULL, 0, "mkfs.ext4 -q -F -b 4096 %s "
				">/dev/null 2>&1", lp.dev), 0);
	assert_int_equal(th_run(NULL, 0, "mount %s '%s'", lp.dev, lp.mnt), 0);
	th_pathf(path, sizeof(path), "%s/two", lp.mnt);
	make_file(path, 0644, 0, 0);
	nfiles = 0;
	add_file(path);
	check_all(lp.dev, 1, 1);
	assert_int_equal(th_count_fds(), fds);
	th_loop_umount(&lp);
}

#define THREADS		8
#define ROUNDS		20

static int thread_errors;

/*
 * One thread's probes: every file ROUNDS times, starting at file @arg and
 * stepping by 7 (prime to the file counts used), so that threads go in
 * different orders.  Every answer must be the oracle's data version.
 */
static void *prober(void *arg)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS |
				      XSTAT_REQUEST_DATA_VERSION };
	int start = (int)(long)arg, r, k, i, bad = 0;
	struct xstat x;

	for (r = 0; r < ROUNDS; r++)
		for (k = 0; k < nfiles; k++) {
			i = (start + k * 7) % nfiles;
			if (xstat(AT_FDCWD, files[i].path,
				  AT_SYMLINK_NOFOLLOW, &p, &x, sizeof(x)) !=
			    XSTAT_STRUCT_SIZE ||
			    !(x.st_result_mask & XSTAT_REQUEST_DATA_VERSION) ||
			    x.st_data_version != files[i].o.version)
				bad++;
		}
	__atomic_add_fetch(&thread_errors, bad, __ATOMIC_RELAXED);
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t t[THREADS];
	char path[300];
	int i, before;

	(void)state;
	mounted(&lp, "mkfs.ext4 -q -F -b 1024 -g 1024 -N 4096 %s");
	nfiles = 0;
	for (i = 0; i < MAX_FILES; i++) {
		th_pathf(path, sizeof(path), "%s/t%d", lp.mnt, i);
		make_file(path, 0644, 0, 0);
		add_file(path);
	}
	oracle_all(lp.dev);
	before = th_count_fds();
	thread_errors = 0;
	/* Many threads probe the same device: all right, no fd kept. */
	for (i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, prober,
						(void *)(long)i), 0);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(thread_errors, 0);
	assert_int_equal(th_count_fds(), before);
	th_loop_umount(&lp);
}

/*
 * More devices than the library caches facts for (16), probed by threads
 * in different orders: entries are replaced while other threads read
 * them.  Every answer must be right and no device fd may stay open.
 */
#define EVICT_DEVS	18
#define EVICT_THREADS	4
/* prober() steps by 7: it visits every file only if 7 is prime to it. */
_Static_assert(MAX_FILES % 7 != 0 && EVICT_DEVS % 7 != 0, "prober's step");

static struct th_loop evict_lp[EVICT_DEVS];

static int unmount_evict(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < EVICT_DEVS; i++)
		if (evict_lp[i].mnt[0])
			th_loop_umount(&evict_lp[i]);
	return 0;
}

static void test_threads_evict(void **state)
{
	pthread_t t[EVICT_THREADS];
	char path[300];
	int i, before;

	(void)state;
	nfiles = 0;
	for (i = 0; i < EVICT_DEVS; i++) {
		if (mounted(&evict_lp[i], "mkfs.ext4 -q -F -b 1024 %s"))
			return;
		th_pathf(path, sizeof(path), "%s/f%d", evict_lp[i].mnt, i);
		/*
		 * Fresh images give every file the same inode number: an
		 * owner of its own makes a read of the wrong device fail.
		 */
		make_file(path, 0644, 1000 + (uid_t)i, 0);
		add_file(path);
		assert_int_equal(ext4_oracle_stat(evict_lp[i].dev, (uint64_t)
						  files[i].st.st_ino,
						  &files[i].o), 0);
	}
	before = th_count_fds();
	thread_errors = 0;
	for (i = 0; i < EVICT_THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, prober,
						(void *)(long)(i * 5)), 0);
	for (i = 0; i < EVICT_THREADS; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(thread_errors, 0);
	assert_int_equal(th_count_fds(), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_threads, unmount_image),
		cmocka_unit_test_teardown(test_layouts, unmount_image),
		cmocka_unit_test_teardown(test_reuse, unmount_image),
		cmocka_unit_test_teardown(test_changes, unmount_image),
		cmocka_unit_test_teardown(test_unprivileged, unmount_image),
		cmocka_unit_test_teardown(test_remade_device, unmount_image),
		cmocka_unit_test_teardown(test_threads_evict, unmount_evict),
	};
	struct th_loop l;
	struct statx stx;
	int ret;

	th_require_root();
	if (!ext4_oracle_available() || !getenv("XSTAT_TOOL") ||
	    !getenv("top_builddir")) {
		fprintf(stderr, "SKIP: needs debugfs, mkfs.ext4 and the "
			"test environment\n");
		return TH_SKIP;
	}
	/* Loop devices and ext4 mounts must work here, or skip. */
	ret = th_loop_check(&l, "mkfs.ext4 -q -F %s");
	if (ret)
		return ret;
	th_loop_umount(&l);
	find_tool();
	statx_oracle = statx(AT_FDCWD, "/", 0, STATX_BTIME, &stx) == 0;
	return th_run_tests(tests);
}
