// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The change token (XSTAT_REQUEST_CHANGE_TOKEN) never misses a change
 * where its promise says XSTAT_PROMISE_EVERY_CHANGE, and says it only
 * where that can hold (root for the loop images and the tmpfs mount; the
 * checks run as root and again as nobody, in a child that drops to uid
 * 65534 with setresuid; exit 77 without root).
 *
 * The oracle for the promise: the kernel release (6.13+ has multigrain
 * timestamps), the mount's type from /proc/self/mountinfo (ext4, xfs,
 * btrfs and tmpfs have FS_MGTIME; the ext4 driver's "ext2" and "ext3"
 * types have not) and fstat()'s ctime (no nanoseconds: a filesystem
 * keeping seconds, as ext4 with 128-byte inodes).
 *
 * Sequential: every kind of change (append, same-size overwrite, mmap
 * store + msync, chmod, chown, setxattr, utimensat, truncate, link,
 * rename there and back) alternates with a call, for several masks,
 * through xstat() and fxstat(): each token must differ from the one
 * before.  Concurrent: a writer thread overwrites the file and counts the
 * changes completed; whenever one started after call A returned and
 * completed before call B started, B's token must differ from A's.  The
 * oracle is the writer's own count.  Where the promise is not "every
 * change", it must say XSTAT_PROMISE_TICK instead (checked on ext2, ext3
 * and ext4 with 128-byte inodes), and nothing else is asserted.
 *
 * The cases: ext4 with 4 KiB and 1 KiB blocks, each with and without a
 * journal, xfs, btrfs, tmpfs, then the weak ones.  The concurrent test
 * makes 100,000 calls per run on every strong case (as #20 asks of the
 * data version).  Directories and symbolic links: token-types.c.
 *
 * XSTAT_TEST_BLOCK=ENOSYS or EPERM (the .enosys and .eperm variants) runs
 * the same with statx blocked: the fallback backend, whose stat() reads
 * and arms the ctime just as statx does.  Its token must promise every
 * change where statx's does, whatever the mask (the library then asks the
 * anchor which filesystem it is on).  Each case is mounted, and its
 * oracle taken,
 * by the parent; the checks run in a child that blocks statx first (so
 * mount and umount never see the filter).  One cmocka test per case.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "changes.h"
#include "token-types.h"

#define TOK		XSTAT_REQUEST_CHANGE_TOKEN
#define EVERY		XSTAT_PROMISE_EVERY_CHANGE
#define TICK		XSTAT_PROMISE_TICK
/*
 * Sequence rounds: sampled in make check, in full under XSTAT_CHECK_FULL=1
 * (th_rounds()).  The concurrent calls are never cut: the test needs
 * calls / 50 of them checked against an earlier one (concurrent() goes
 * on until it has them), which fewer calls on a loaded machine did not
 * reach.
 */
#define SEQ_ROUNDS	((int)th_rounds(10, 25))
#define CONC_CALLS	20000
#define NOBODY		65534

/* statx blocked (XSTAT_TEST_BLOCK): the fallback backend answers. */
static int blocked;

/* A promise is EVERY_CHANGE or TICK, never both or neither. */
static int honest(uint64_t promise)
{
	return !(promise & EVERY) != !(promise & TICK);
}

static const uint64_t masks[] = {
	TOK,
	TOK | XSTAT_REQUEST_SIZE,
	TOK | XSTAT_REQUEST__BASIC_STATS,
	TOK | XSTAT_REQUEST_DATA_VERSION,
	TOK | XSTAT_REQUEST__EXTENDED_STATS,
};
#define NMASKS	(sizeof(masks) / sizeof(masks[0]))

/* The token now: 0, -1 (failed or not given). */
static int token_now(const struct chg_target *t, uint64_t mask, int by_fd,
		     struct xstat_change_token *tok)
{
	struct xstat_parameters p = { mask };
	union xstat_buffer b;
	const struct xstat_change_token *e;
	ssize_t ret;

	ret = by_fd ? fxstat(t->fd, 0, &p, &b.x, sizeof(b))
		    : xstat(AT_FDCWD, t->path, 0, &p, &b.x, sizeof(b));
	if (ret < 0)
		return -1;
	e = xstat_extra_change_token(&b.x, (size_t)ret);
	if (!e)
		return -1;
	*tok = *e;
	return 0;
}

static int sequential(const char *dir, const char *label, int tmpfs)
{
	struct xstat_change_token prev, tok;
	struct chg_target t;
	int failed = 0, c, by_fd, i;
	size_t m;

	for (c = 0; c < CHG_NKINDS; c++) {
		/*
		 * tmpfs pages are never written back, so they stay dirty and
		 * only the first store faults: no timestamp or counter can
		 * see the others (xstat.h, XSTAT_PROMISE_*).
		 */
		if (c == CHG_MMAP_STORE && tmpfs)
			continue;
		for (m = 0; m < NMASKS; m++)
			for (by_fd = 0; by_fd < 2; by_fd++) {
				int missed = 0, none = 0, weak = 0;
				int dishonest = 0;

				if (chg_open(&t, dir, "seq", 0666))
					return 1;
				if (token_now(&t, masks[m], by_fd, &prev))
					none++;
				for (i = 0; i < SEQ_ROUNDS; i++) {
					if (chg_make(&t, (enum chg_kind)c, i)) {
						fprintf(stderr, "%s: change %s: "
							"%s\n", label,
							chg_name[c],
							strerror(errno));
						chg_close(&t);
						return 1;
					}
					if (token_now(&t, masks[m], by_fd,
						      &tok)) {
						none++;
						continue;
					}
					weak += !(tok.promise & EVERY);
					dishonest += !honest(tok.promise);
					/* the earlier call promised */
					missed += (prev.promise & EVERY) &&
						  tok.token == prev.token;
					prev = tok;
				}
				chg_close(&t);
				if (missed || none || dishonest ||
				    weak) {
					fprintf(stderr, "FAIL: %s: %s, mask "
						"0x%llx, %s: %d missed, %d "
						"without a token, %d not "
						"every-change, %d neither "
						"every-change nor tick, of "
						"%d\n", label,
						chg_name[c],
						(unsigned long long)masks[m],
						by_fd ? "fxstat" : "xstat",
						missed, none, weak, dishonest,
						SEQ_ROUNDS);
					failed = 1;
				}
			}
	}
	return failed;
}

static struct chg_target conc;
static unsigned long started, completed;	/* atomic */
static int stop;		/* atomic */

static void *writer(void *arg)
{
	char b[16];
	int i = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		memset(b, 'a' + i % 26, sizeof(b));
		__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
		/* Same-size overwrites: nothing but the times move. */
		if (pwrite(conc.fd, b, sizeof(b), 0) != sizeof(b))
			break;
		__atomic_add_fetch(&completed, 1, __ATOMIC_SEQ_CST);
		i++;
	}
	return NULL;
}

#define RING	256

/*
 * As test-ext4-dv.c's, with "differs" for "greater", over @calls calls.
 * Only tokens that promise every change go into the ring (the earlier
 * call's promise is the one kept or broken); on the strong cases every
 * call must promise every change.
 */
static int concurrent(const char *dir, const char *label, uint64_t mask,
		      long calls)
{
	unsigned long before, after, ring_after[RING];
	uint64_t ring_tok[RING];
	struct xstat_change_token tok;
	long violations = 0, none = 0, weak = 0, dishonest = 0, checked = 0;
	pthread_t w;
	long i;
	int k, n = 0;

	if (chg_open(&conc, dir, "conc", 0666))
		return 1;
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&completed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&started, 0, __ATOMIC_RELAXED);
	if (pthread_create(&w, NULL, writer, NULL))
		return 1;
	/* On a loaded machine the writer may start late: wait for it. */
	while (!__atomic_load_n(&completed, __ATOMIC_SEQ_CST))
		usleep(100);
	/*
	 * @calls calls, and on until calls / 50 of them were checked against
	 * an earlier one: how many see a change complete since an earlier
	 * call depends on the scheduler (6% to 70% on a loaded 2-core
	 * machine; none while a btrfs write waits for its transaction).  At
	 * most 20 times @calls: a writer that never runs fails.
	 */
	for (i = 0; i < calls || (checked < calls / 50 && i < 20 * calls);
	     i++) {
		before = __atomic_load_n(&completed, __ATOMIC_SEQ_CST);
		if (token_now(&conc, mask, i % 2, &tok)) {
			none++;
			continue;
		}
		if (!(tok.promise & EVERY)) {
			weak++;
			dishonest += !honest(tok.promise);
			continue;
		}
		after = __atomic_load_n(&started, __ATOMIC_SEQ_CST);
		for (k = n - 1; k >= 0 && k >= n - RING; k--)
			if (ring_after[k % RING] < before) {
				checked++;
				violations += tok.token == ring_tok[k % RING];
				break;
			}
		ring_after[n % RING] = after;
		ring_tok[n % RING] = tok.token;
		n++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(w, NULL);
	chg_close(&conc);
	fprintf(stderr, "%s, mask 0x%llx: %ld calls, %lu changes, %ld checked "
		"against an earlier one, %ld violations, %ld without a token, "
		"%ld weaker (%ld neither every-change nor tick)\n", label,
		(unsigned long long)mask, i,
		__atomic_load_n(&completed, __ATOMIC_RELAXED), checked,
		violations, none, weak, dishonest);
	/*
	 * A data version token may fall back to the ctime one for a call
	 * whose raw read tore (still a strong token); none at all is a
	 * failure, as is a run with too few overlapping checks.
	 */
	return violations || dishonest || none || weak || checked < calls / 50;
}

/* The type of the case's mount, taken before statx is blocked. */
static char case_type[32];

/* The type of the mount holding @mnt, from /proc/self/mountinfo. */
static int mount_type(const char *mnt, char *type, size_t len)
{
	char out[64];

	if (th_run(out, sizeof(out), "findmnt -n -o FSTYPE -T '%s'", mnt) ||
	    !out[0])
		return -1;
	snprintf(type, len, "%s", out);
	return 0;
}

struct fs_case {
	const char	*name;
	const char	*mkfs;		/* NULL: tmpfs */
	unsigned	size_mb;
	int		strong;		/* expected "every change" (6.13+) */
	unsigned	layout;		/* 0: a filesystem type, always run;
					   n: the n-th other ext layout */
};

/*
 * Each filesystem type runs in every run of this program (statx, .enosys,
 * .eperm: both backends); the other ext layouts are shared between those
 * three runs in make check (th_sampled()), all in each under
 * XSTAT_CHECK_FULL=1.
 */
#define NSHARES	3

static const struct fs_case cases[] = {
	{ "ext4", "mkfs.ext4 -q -F %s", 64, 1, 0 },
	{ "ext4 no journal", "mkfs.ext4 -q -F -O ^has_journal %s", 64, 1, 1 },
	{ "ext4 1k", "mkfs.ext4 -q -F -b 1024 %s", 64, 1, 2 },
	{ "ext4 1k no journal", "mkfs.ext4 -q -F -b 1024 -O ^has_journal %s",
	  64, 1, 3 },
	{ "xfs", "mkfs.xfs -q -f %s", 320, 1, 0 },
	{ "btrfs", "mkfs.btrfs -q -f %s", 256, 1, 0 },
	{ "tmpfs", NULL, 0, 1, 0 },
	{ "ext4 128-byte inodes", "mkfs.ext4 -q -F -I 128 %s", 64, 0, 4 },
	{ "ext3", "mkfs.ext3 -q -F %s", 64, 0, 5 },
	{ "ext2", "mkfs.ext2 -q -F %s", 64, 0, 6 },
};
#define NCASES	(sizeof(cases) / sizeof(cases[0]))

/*
 * The promise of a fresh file's token, against the oracle, asked for with
 * @mask.  The source is the ctime unless root asked for the data version
 * (check_dv_source()).
 */
static int check_promise(const struct fs_case *c, const char *dir,
			 uint64_t mask)
{
	struct xstat_change_token tok;
	struct chg_target t;
	struct stat sb;
	const char *type = case_type;
	int want_every, every, ret = 0;
	int any_source = (mask & XSTAT_REQUEST_DATA_VERSION) && !geteuid();

	if (chg_open(&t, dir, "promise", 0666))
		return 1;
	/* A change, so the ctime is the fine-grained one of a write. */
	if (token_now(&t, mask, 1, &tok) || chg_make(&t, CHG_OVERWRITE, 0) ||
	    token_now(&t, mask, 1, &tok) ||
	    fstat(t.fd, &sb) || !type[0]) {
		fprintf(stderr, "FAIL: %s: mask %#llx: no token or no oracle "
			"(%s)\n", c->name, (unsigned long long)mask,
			strerror(errno));
		chg_close(&t);
		return 1;
	}
	/* fstat(): newfstatat, never statx, so the oracle holds blocked */
	want_every = th_kernel_mgtime() && sb.st_ctim.tv_nsec != 0 &&
		     (!strcmp(type, "ext4") || !strcmp(type, "xfs") ||
		      !strcmp(type, "btrfs") || !strcmp(type, "tmpfs"));
	every = !!(tok.promise & EVERY);
	if ((every && !want_every) ||
	    (!every && want_every) ||
	    !honest(tok.promise) ||
	    !(tok.promise & XSTAT_PROMISE_CLOCK) ||
	    (every && !(tok.promise & XSTAT_PROMISE_NAMES)) ||
	    (!any_source && tok.source != XSTAT_TOKEN_FROM_CTIME)) {
		fprintf(stderr, "FAIL: %s (mount type %s, ctime nsec %ld%s), "
			"mask %#llx: promise %#llx, source %u\n", c->name,
			type, (long)sb.st_ctim.tv_nsec,
			blocked ? ", statx blocked" : "",
			(unsigned long long)mask,
			(unsigned long long)tok.promise, tok.source);
		ret = 1;
	}
	if (c->strong && th_kernel_mgtime() && !want_every) {
		fprintf(stderr, "FAIL: %s: expected multigrain, mount type %s\n",
			c->name, type);
		ret = 1;
	}
	chg_close(&t);
	return ret;
}

/* As root: the data version token where one is readable (ext4, btrfs). */
static int check_dv_source(const struct fs_case *c, const char *dir)
{
	struct xstat_change_token tok;
	struct chg_target t;
	int ret = 0;

	if (strncmp(c->name, "ext4", 4) && strcmp(c->name, "btrfs"))
		return 0;
	if (chg_open(&t, dir, "dvsrc", 0666))
		return 1;
	if (strcmp(c->name, "btrfs") == 0)
		syncfs(t.fd);	/* btrfs: the item is read after a commit */
	if (token_now(&t, TOK | XSTAT_REQUEST_DATA_VERSION, 1, &tok)) {
		ret = 1;
	} else if (c->strong && th_kernel_mgtime() &&
		   (tok.source != XSTAT_TOKEN_FROM_DATA_VERSION ||
		    !(tok.promise & EVERY) ||
		    !(tok.promise & XSTAT_PROMISE_NAMES))) {
		fprintf(stderr, "FAIL: %s: root's token with the data version:"
			" source %u, promise %#llx\n", c->name, tok.source,
			(unsigned long long)tok.promise);
		ret = 1;
	}
	chg_close(&t);
	return ret;
}

/* Everything a caller can check, as the current user. */
static int run_checks(const struct fs_case *c, const char *dir,
		      const char *who)
{
	char label[96];
	int failed;

	snprintf(label, sizeof(label), "%s as %s", c->name, who);
	failed = check_promise(c, dir, TOK);
	failed |= check_promise(c, dir, TOK | XSTAT_REQUEST_DATA_VERSION);
	failed |= tt_check(dir, label, case_type,
			   c->strong && th_kernel_mgtime());
	if (!c->strong || !th_kernel_mgtime())
		return failed;
	failed |= sequential(dir, label, c->mkfs == NULL);
	failed |= concurrent(dir, label, TOK, CONC_CALLS);
	if (geteuid() == 0 || blocked)
		failed |= concurrent(dir, label,
				     TOK | XSTAT_REQUEST_DATA_VERSION,
				     CONC_CALLS);
	if (geteuid() == 0)
		failed |= check_dv_source(c, dir);
	return failed;
}

/* The same in a child running as nobody, in a directory it owns. */
static int run_as_nobody(const struct fs_case *c, const char *mnt)
{
	char dir[300];
	pid_t pid;
	int status;

	th_pathf(dir, sizeof(dir), "%s/nobody", mnt);
	if (mkdir(dir, 0755) || chown(dir, NOBODY, NOBODY))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		if (setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(1);
		_exit(run_checks(c, dir, "nobody"));
	}
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	rmdir(dir);
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/*
 * As root and as nobody, in a child that blocks statx first when the
 * variant says so (XSTAT_TEST_BLOCK): the parent mounts and unmounts
 * without the filter, and has called no xstat() (nothing cached).
 */
static int checks_in_child(const struct fs_case *c, const char *mnt)
{
	pid_t pid;
	int status;

	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		int failed;

		/* exits 77 without seccomp */
		blocked = th_block_from_env() != 0;
		failed = run_checks(c, mnt, "root");
		failed |= run_as_nobody(c, mnt);
		_exit(failed);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status) == TH_SKIP ? TH_SKIP : !!WEXITSTATUS(status);
}

static int run_case(const struct fs_case *c)
{
	struct th_loop l;
	char tmp[300], top[300], mnt[300];
	int ret, failed;

	if (c->mkfs) {
		ret = th_loop_mount(&l, c->size_mb, c->mkfs, NULL);
		if (ret == TH_SKIP)
			return TH_SKIP;
		if (ret)
			return 1;
		snprintf(mnt, sizeof(mnt), "%s", l.mnt);
	} else {
		if (!th_mkdtemp(top, sizeof(top)))
			return 1;
		th_pathf(mnt, sizeof(mnt), "%s/mnt", top);
		if (mkdir(mnt, 0755) ||
		    th_run(NULL, 0, "mount -t tmpfs -o size=64m tmpfs '%s'",
			   mnt)) {
			fprintf(stderr, "SKIP: cannot mount a tmpfs\n");
			th_rmrf(top);
			return TH_SKIP;
		}
	}
	/* nobody must reach the mount: its parent is a private temp dir */
	th_pathf(tmp, sizeof(tmp), "%s", mnt);
	*strrchr(tmp, '/') = '\0';
	if (chmod(tmp, 0711) || chmod(mnt, 0755))
		failed = 1;
	else
		failed = 0;
	if (mount_type(mnt, case_type, sizeof(case_type)))
		case_type[0] = '\0';	/* check_promise() fails */
	ret = checks_in_child(c, mnt);
	if (ret == TH_SKIP)
		failed = TH_SKIP;
	else
		failed |= ret;
	if (c->mkfs) {
		th_loop_umount(&l);
	} else {
		th_run(NULL, 0, "umount '%s'", mnt);
		th_rmrf(top);
	}
	fprintf(stderr, "%s: %s\n", c->name, failed == TH_SKIP ? "skipped"
		: failed ? "FAIL" : "ok");
	return failed;
}

/* One case: mounted, checked as root and as nobody, unmounted. */
static void test_case(void **state)
{
	const struct fs_case *c = *state;
	int ret;

	if (c->layout && !th_sampled(c->layout - 1, NSHARES)) {
		fprintf(stderr, "# %s: in another run's share of the sample "
			"(XSTAT_CHECK_FULL=1 runs it here too)\n", c->name);
		return;
	}
	ret = run_case(c);

	if (ret == TH_SKIP)
		th_skip("%s: cannot be mounted here, or no seccomp to block "
			"statx (above)", c->name);
	assert_int_equal(ret, 0);
}

#define CASE(i)	{ NULL, test_case, NULL, NULL, (void *)&cases[i] }

int main(void)
{
	struct CMUnitTest tests[] = {
		CASE(0), CASE(1), CASE(2), CASE(3), CASE(4), CASE(5),
		CASE(6), CASE(7), CASE(8), CASE(9),
	};
	size_t i;

	_Static_assert(sizeof(tests) / sizeof(tests[0]) == NCASES,
		       "one test a case");
	for (i = 0; i < NCASES; i++)
		tests[i].name = cases[i].name;
	th_require_root();
	if (!th_kernel_mgtime())
		fprintf(stderr, "note: kernel before 6.13, or no "
			"statmount(2) in this process: only the weak "
			"promise is checked\n");
	return th_run_tests(tests);
}
