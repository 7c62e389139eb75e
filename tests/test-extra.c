// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Extra results (class 4): the mount ID against glibc statx() and
 * /proc/self/fdinfo + /proc/self/mountinfo, attributes against lsattr(1)
 * after chattr +i/+a/+d, DIO alignment against glibc statx(), and the
 * packing: ascending bit order, 8-byte boundaries, the accessor, the size
 * rule and partial copies.  XSTAT_TEST_BLOCK runs it all with statx
 * blocked, where the fallbacks must give the same answers or none.
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

#define STATX_MNT_ID_UNIQUE_ 0x4000U

static char dir[PATH_MAX], reg[PATH_MAX];
static int blocked;

/* Oracle values, taken before statx is (maybe) blocked. */
static struct statx sx_reg;		/* STATX_MNT_ID_UNIQUE|DIOALIGN */
static int sx_ok;

union result {
	struct xstat	x;
	unsigned char	bytes[512];
};

static ssize_t ask(const char *path, unsigned long long mask,
		   union result *r, size_t len)
{
	struct xstat_parameters p = { mask };

	memset(r, 0xa5, sizeof(*r));
	return xstat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &p, &r->x, len);
}

/* The mnt_id: line of /proc/self/fdinfo for @path. */
static long fdinfo_mnt_id(const char *path)
{
	char fdinfo[64], line[256];
	long id = -1;
	FILE *f;
	int fd = open(path, O_PATH | O_CLOEXEC);

	assert_true(fd >= 0);
	snprintf(fdinfo, sizeof(fdinfo), "/proc/self/fdinfo/%d", fd);
	f = fopen(fdinfo, "re");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "mnt_id: %ld", &id) == 1)
			break;
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

	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%ld", &first) == 1 && first == id;
	fclose(f);
	return found;
}

static void test_mnt_id(void **state)
{
	const char *paths[] = { reg, dir, "/proc/self", "/dev/null", "/" };
	unsigned long long ours[5];
	long theirs[5];
	union result r;
	size_t i, j;

	(void)state;
	/*
	 * The oracle is /proc/self/mountinfo: in a chroot (a Debian build
	 * chroot, pbuilder) the mount holding a file may not be listed there
	 * at all, and then there is nothing to compare with.
	 */
	for (i = 0; i < 5; i++) {
		long id = fdinfo_mnt_id(paths[i]);
		struct statx sx;

		if (!in_mountinfo(id))
			th_skip("%s: its mount (%ld) is not in "
				"/proc/self/mountinfo (a chroot?)", paths[i],
				id);
		/* An emulator may hand out no ID under the mask (qemu-user) */
		if (!statx(AT_FDCWD, paths[i], AT_SYMLINK_NOFOLLOW,
			   STATX_MNT_ID, &sx) && (sx.stx_mask & STATX_MNT_ID) &&
		    sx.stx_mnt_id != (unsigned long long)id)
			th_skip("%s: statx's mount ID %llu is not fdinfo's "
				"%ld", paths[i],
				(unsigned long long)sx.stx_mnt_id, id);
	}
	for (i = 0; i < 5; i++) {
		const struct xstat_mnt_id *m;

		assert_int_equal(ask(paths[i], XSTAT_REQUEST_MNT_ID, &r,
				     sizeof(r)), 152 + 16);
		m = xstat_extra(&r.x, sizeof(r), XSTAT_REQUEST_MNT_ID);
		assert_non_null(m);
		ours[i] = m->mnt_id;
		theirs[i] = fdinfo_mnt_id(paths[i]);
		assert_true(in_mountinfo(theirs[i]));
		if (!m->unique)
			/* The reusable ID is exactly fdinfo's/mountinfo's. */
			assert_int_equal(m->mnt_id, theirs[i]);
		print_message("  %s: mnt_id %llu%s, fdinfo %ld\n", paths[i],
			      m->mnt_id, m->unique ? " (unique)" : "",
			      theirs[i]);
	}
	/* The same mounts as the kernel's own reckoning, one to one. */
	for (i = 0; i < 5; i++)
		for (j = 0; j < 5; j++)
			assert_int_equal(ours[i] == ours[j],
					 theirs[i] == theirs[j]);
	/*
	 * Asked with the generation, the mount ID may come from the same
	 * file-handle call (without statx): the same values either way.
	 */
	for (i = 0; i < 5; i++) {
		const struct xstat_mnt_id *m;
		unsigned long long gen, rm;
		union result g;

		assert_int_equal(ask(paths[i], XSTAT_REQUEST_GEN, &g,
				     sizeof(g)), 152);
		assert_int_equal(ask(paths[i], XSTAT_REQUEST_MNT_ID |
				     XSTAT_REQUEST_GEN, &r, sizeof(r)), 168);
		m = xstat_extra(&r.x, sizeof(r), XSTAT_REQUEST_MNT_ID);
		assert_non_null(m);
		assert_int_equal(m->mnt_id, ours[i]);
		rm = r.x.st_result_mask & XSTAT_REQUEST_GEN;
		assert_int_equal(rm, g.x.st_result_mask & XSTAT_REQUEST_GEN);
		gen = rm ? g.x.st_gen : 0;
		assert_int_equal(r.x.st_gen, gen);
	}
	/* And the very value statx gives, unique or not. */
	assert_int_equal(ask(reg, XSTAT_REQUEST_MNT_ID, &r, sizeof(r)), 168);
	if (sx_ok && (sx_reg.stx_mask & STATX_MNT_ID_UNIQUE_)) {
		const struct xstat_mnt_id *m =
			xstat_extra(&r.x, sizeof(r), XSTAT_REQUEST_MNT_ID);

		assert_int_equal(m->unique, 1);
		assert_int_equal(m->mnt_id, sx_reg.stx_mnt_id);
	}
}

static void test_dioalign(void **state)
{
	const struct xstat_dioalign *d;
	union result r;
	ssize_t n;

	(void)state;
	n = ask(reg, XSTAT_REQUEST_DIOALIGN, &r, sizeof(r));
	d = xstat_extra(&r.x, sizeof(r), XSTAT_REQUEST_DIOALIGN);
	if (blocked || !(sx_reg.stx_mask & STATX_DIOALIGN)) {
		/* No fallback exists: the bit is cleared, nothing appended. */
		assert_int_equal(n, 152);
		assert_null(d);
		assert_false(r.x.st_result_mask & XSTAT_REQUEST_DIOALIGN);
		return;
	}
	assert_int_equal(n, 152 + 8);
	assert_non_null(d);
	assert_int_equal(d->mem_align, sx_reg.stx_dio_mem_align);
	assert_int_equal(d->offset_align, sx_reg.stx_dio_offset_align);
	print_message("  dio: mem %u offset %u\n", d->mem_align,
		      d->offset_align);
}

static void test_packing(void **state)
{
	const unsigned long long want = XSTAT_REQUEST_MNT_ID |
		XSTAT_REQUEST_ATTRIBUTES | XSTAT_REQUEST_DIOALIGN;
	union result full, part;
	const unsigned char *p[3];
	unsigned long long rm;
	size_t expect = 152, len;
	ssize_t n;
	int i;

	(void)state;
	/* No extra asked: nothing appended, the struct alone. */
	assert_int_equal(ask(reg, XSTAT_REQUEST__EXTENDED_STATS, &full,
			     sizeof(full)), 152);
	assert_int_equal(full.x.st_result_mask & XSTAT_REQUEST__EXTRA_RESULTS,
			 0);
	assert_int_equal(full.bytes[152], 0xa5);

	n = ask(reg, want, &full, sizeof(full));
	rm = full.x.st_result_mask;
	assert_int_equal(rm & XSTAT_REQUEST__EXTRA_RESULTS & ~want, 0);
	p[0] = xstat_extra(&full.x, sizeof(full), XSTAT_REQUEST_MNT_ID);
	p[1] = xstat_extra(&full.x, sizeof(full), XSTAT_REQUEST_ATTRIBUTES);
	p[2] = xstat_extra(&full.x, sizeof(full), XSTAT_REQUEST_DIOALIGN);
	/* Ascending bit order, each on an 8-byte boundary, no gaps. */
	if (rm & XSTAT_REQUEST_MNT_ID) {
		assert_ptr_equal(p[0], full.bytes + expect);
		expect += 16;
	}
	if (rm & XSTAT_REQUEST_ATTRIBUTES) {
		assert_ptr_equal(p[1], full.bytes + expect);
		expect += 16;
	}
	if (rm & XSTAT_REQUEST_DIOALIGN) {
		assert_ptr_equal(p[2], full.bytes + expect);
		expect += 8;
	}
	assert_int_equal(n, expect);
	for (i = 0; i < 3; i++)
		if (p[i])
			assert_int_equal((p[i] - full.bytes) % 8, 0);
	/* Not one byte written past the result. */
	assert_int_equal(full.bytes[expect], 0xa5);
	/* Not an extra bit, or two bits at once: no answer. */
	assert_null(xstat_extra(&full.x, sizeof(full), XSTAT_REQUEST_GEN));
	assert_null(xstat_extra(&full.x, sizeof(full),
				XSTAT_REQUEST_MNT_ID | XSTAT_REQUEST_DIOALIGN));
	assert_null(xstat_extra(&full.x, 100, XSTAT_REQUEST_MNT_ID));

	/* The size rule with extras: every short length. */
	for (len = 0; len <= expect; len++) {
		n = ask(reg, want, &part, len);
		assert_int_equal(n, expect);
		assert_memory_equal(part.bytes, full.bytes, len);
		assert_int_equal(part.bytes[len], 0xa5);
		/* The accessor never points past what was copied. */
		for (i = 0; i < 3 && len >= 152; i++) {
			static const unsigned long long bits[3] = {
				XSTAT_REQUEST_MNT_ID, XSTAT_REQUEST_ATTRIBUTES,
				XSTAT_REQUEST_DIOALIGN };
			const unsigned char *q = xstat_extra(&part.x, len,
							     bits[i]);

			if (q)
				assert_ptr_equal(q - part.bytes,
						 p[i] - full.bytes);
			else
				assert_true(!p[i] ||
					    (size_t)(p[i] - full.bytes) +
					    (i == 2 ? 8 : 16) > len);
		}
	}
	/* Asked with the bare struct's size, the caller learns the size. */
	assert_int_equal(ask(reg, want, &part, 152), expect);
	assert_int_equal(xstat(AT_FDCWD, reg, 0, &(struct xstat_parameters){
				want }, NULL, 0), expect);
}

/*
 * Every extra result at once: each where the ascending order and the
 * payload sizes of xstat.h put it, holding what the same extra asked
 * alone holds, and the size rule at every length.
 */
static void test_packing_every(void **state)
{
	static const struct {
		unsigned long long	bit;
		size_t			size;
	} all[] = {
		{ XSTAT_REQUEST_MNT_ID,		16 },
		{ XSTAT_REQUEST_ATTRIBUTES,	16 },
		{ XSTAT_REQUEST_DIOALIGN,	8 },
		{ XSTAT_REQUEST_SUBVOL,		8 },
		{ XSTAT_REQUEST_WRITE_ATOMIC,	16 },
		{ XSTAT_REQUEST_DIO_READ_ALIGN,	8 },
		{ XSTAT_REQUEST_WHY_MISSING,	8 },
		{ XSTAT_REQUEST_CHANGE_TOKEN,	24 },
		{ XSTAT_REQUEST_DV_PROMISE,	8 },
		{ XSTAT_REQUEST_FS_ID,		24 },
		{ XSTAT_REQUEST_MNT_ID_REUSABLE, 8 },
	};
	const unsigned long long base = XSTAT_REQUEST__BASIC_STATS |
					XSTAT_REQUEST_BTIME;
	unsigned long long every = 0, rm;
	union result full, one, part;
	size_t expect = 152, len, i;
	const unsigned char *q;
	ssize_t n;

	(void)state;
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		every |= all[i].bit;
	assert_int_equal(every, XSTAT_REQUEST__EXTRA_RESULTS);
	n = ask(reg, base | every, &full, sizeof(full));
	rm = full.x.st_result_mask;
	/* Asked for, the reasons are always there. */
	assert_true(rm & XSTAT_REQUEST_WHY_MISSING);
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		q = xstat_extra(&full.x, sizeof(full), all[i].bit);
		if (!(rm & all[i].bit)) {
			assert_null(q);
			continue;
		}
		assert_ptr_equal(q, full.bytes + expect);
		/*
		 * The same payload as when asked alone (nothing changed),
		 * but for the attributes' mask: statx reports the write-atomic
		 * attribute known only when STATX_WRITE_ATOMIC is asked.
		 */
		assert_int_equal(ask(reg, base | all[i].bit, &one,
				     sizeof(one)), 152 + all[i].size);
		assert_memory_equal(q, one.bytes + 152,
				    all[i].bit == XSTAT_REQUEST_ATTRIBUTES ?
				    8 : all[i].size);
		expect += all[i].size;
	}
	assert_int_equal(n, expect);
	assert_int_equal(full.bytes[expect], 0xa5);

	for (len = 0; len <= expect; len++) {
		n = ask(reg, base | every, &part, len);
		assert_int_equal(n, expect);
		assert_memory_equal(part.bytes, full.bytes, len);
		assert_int_equal(part.bytes[len], 0xa5);
	}
}

/* chattr +i / +a / +d, then the attributes must agree with lsattr. */
static void test_attributes(void **state)
{
	static const struct {
		const char		*flag;
		char			letter;
		unsigned long long	attr;
	} cases[] = {
		{ "+i", 'i', XSTAT_ATTR_IMMUTABLE },
		{ "+a", 'a', XSTAT_ATTR_APPEND },
		{ "+d", 'd', XSTAT_ATTR_NODUMP },
		{ "=", 0, 0 },
	};
	char path[PATH_MAX], out[PATH_MAX + 64];
	size_t i;

	(void)state;
	if (geteuid() != 0) {
		print_message("  not root: chattr +i/+a impossible; plain file "
			      "only\n");
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct xstat_attributes *a;
		union result r;
		int fd;

		snprintf(path, sizeof(path), "%s/attr%zu", dir, i);
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		assert_true(fd >= 0);
		close(fd);
		if (cases[i].letter && geteuid() != 0)
			continue;
		if (cases[i].letter)
			assert_int_equal(th_run(NULL, 0, "chattr %s '%s'",
						cases[i].flag, path), 0);
		assert_int_equal(th_run(out, sizeof(out), "lsattr '%s'", path),
				 0);
		assert_true(ask(path, XSTAT_REQUEST_ATTRIBUTES, &r,
				sizeof(r)) >= 168);
		a = xstat_extra(&r.x, sizeof(r), XSTAT_REQUEST_ATTRIBUTES);
		assert_non_null(a);
		print_message("  chattr %s: lsattr '%.22s' attributes %#llx "
			      "known %#llx\n", cases[i].flag, out,
			      a->attributes, a->attributes_mask);
		/* Whatever the source, these three it must know... */
		assert_true(a->attributes_mask & XSTAT_ATTR_IMMUTABLE);
		assert_true(a->attributes_mask & XSTAT_ATTR_APPEND);
		assert_true(a->attributes_mask & XSTAT_ATTR_NODUMP);
		/* ...and agree with lsattr on each. */
		assert_int_equal(!!(a->attributes & XSTAT_ATTR_IMMUTABLE),
				 strchr(strtok(out, " "), 'i') != NULL);
		assert_int_equal(!!(a->attributes & XSTAT_ATTR_APPEND),
				 strchr(out, 'a') != NULL);
		assert_int_equal(!!(a->attributes & XSTAT_ATTR_NODUMP),
				 strchr(out, 'd') != NULL);
		if (cases[i].letter)
			assert_true(a->attributes & cases[i].attr);
		/* Bits outside the mask are never claimed. */
		assert_int_equal(a->attributes & ~a->attributes_mask, 0);
		if (cases[i].letter)
			th_run(NULL, 0, "chattr -i -a -d '%s'", path);
	}
}

/*
 * xstat_extra(3) allows a buffer of any alignment: a result written at an
 * odd address holds the same bytes as an aligned one, and the accessor
 * finds its extra result there (UBSan, in CI, reports any misaligned
 * access the library would make).
 */
static void test_unaligned(void **state)
{
	const unsigned long long mask = XSTAT_REQUEST__BASIC_STATS |
		XSTAT_REQUEST_BTIME | XSTAT_REQUEST_MNT_ID;
	static unsigned char raw[XSTAT_RESULT_MAX + 16];
	unsigned char *odd = raw + 3;
	struct xstat_parameters p = { mask };
	const unsigned char *e;
	union result r;
	ssize_t n, m;

	(void)state;
	n = ask(reg, mask, &r, sizeof(r));
	assert_true(n >= 152);
	memset(raw, 0xa5, sizeof(raw));
	m = xstat(AT_FDCWD, reg, AT_SYMLINK_NOFOLLOW, &p,
		  (struct xstat *)(void *)odd, (size_t)n);
	assert_int_equal(m, n);
	/* atime may move between the calls: compare all but the times. */
	assert_memory_equal(odd, r.bytes, offsetof(struct xstat, st_atim));
	assert_memory_equal(odd + offsetof(struct xstat, st_ino),
			    r.bytes + offsetof(struct xstat, st_ino),
			    (size_t)n - offsetof(struct xstat, st_ino));
	assert_int_equal(raw[3 + n], 0xa5);
	e = xstat_extra((const struct xstat *)(const void *)odd, (size_t)n,
			XSTAT_REQUEST_MNT_ID);
	if (r.x.st_result_mask & XSTAT_REQUEST_MNT_ID) {
		assert_ptr_equal(e, odd + 152);
	} else {
		assert_null(e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mnt_id),
		cmocka_unit_test(test_dioalign),
		cmocka_unit_test(test_packing),
		cmocka_unit_test(test_packing_every),
		cmocka_unit_test(test_unaligned),
		cmocka_unit_test(test_attributes),
	};
	int ret;

	if (th_dir_with_file(dir, sizeof(dir), reg, sizeof(reg)))
		return 1;
	sx_ok = statx(AT_FDCWD, reg, AT_SYMLINK_NOFOLLOW,
		      STATX_BASIC_STATS | STATX_MNT_ID_UNIQUE_ |
		      STATX_DIOALIGN, &sx_reg) == 0;
	blocked = th_block_from_env();
	ret = th_run_tests(tests);
	th_run(NULL, 0, "chattr -R -i -a '%s' 2>/dev/null", dir);
	th_rmrf(dir);
	return ret;
}
