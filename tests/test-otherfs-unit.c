// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pure parts of the non-ext4 probes: the NT time conversion of
 * lib/probe_xattr.c against known instants (the epochs, a date computed by
 * glibc's timegm(), the sub-second rounding below 1970), and the private
 * btrfs ioctl layouts of lib/fsprobe_uapi.h against the host's kernel
 * headers, which the library itself never includes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <time.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <cmocka.h>
#include "fs.h"
#include "fsprobe_uapi.h"
#include "testhelp.h"

static void nt(uint64_t v, int64_t sec, uint32_t nsec)
{
	struct xs_time t = { 12345, 678 };

	assert_int_equal(xs_nt_time_to_unix(v, &t), 0);
	assert_int_equal(t.sec, sec);
	assert_int_equal(t.nsec, nsec);
}

static void epochs(void **state)
{
	(void)state;
	nt(116444736000000000ULL, 0, 0);		/* 1970-01-01 */
	nt(0, -11644473600LL, 0);			/* 1601-01-01 */
	nt(116444736000000001ULL, 0, 100);
	nt(116444736000000000ULL + 9999999, 0, 999999900);
	/* Before 1970: seconds round down, nanoseconds stay positive. */
	nt(116444735999999999ULL, -1, 999999900);
	nt(116444735990000000ULL, -1, 0);
	/* 2000-01-01T00:00:00Z */
	nt(125911584000000000ULL, 946684800, 0);
}

static void against_timegm(void **state)
{
	struct tm tm = { .tm_year = 2023 - 1900, .tm_mon = 5, .tm_mday = 15,
			 .tm_hour = 12, .tm_min = 34, .tm_sec = 56 };
	int64_t unix_sec = (int64_t)timegm(&tm);
	uint64_t days_1601_1970 = 134774;	/* 369 years, 89 leap days */
	uint64_t v;

	(void)state;
	v = ((uint64_t)unix_sec + days_1601_1970 * 86400) * 10000000ULL +
	    1234567;
	nt(v, unix_sec, 123456700);
}

static void out_of_range(void **state)
{
	struct xs_time t = { 1, 2 };

	(void)state;
	nt(INT64_MAX, (int64_t)(INT64_MAX / 10000000) - 11644473600LL,
	   (uint32_t)(INT64_MAX % 10000000) * 100);
	assert_int_equal(xs_nt_time_to_unix((uint64_t)INT64_MAX + 1, &t),
			 -ERANGE);
	assert_int_equal(xs_nt_time_to_unix(UINT64_MAX, &t), -ERANGE);
	/* Left alone on failure. */
	assert_int_equal(t.sec, 1);
	assert_int_equal(t.nsec, 2);
}

static void btrfs_layout(void **state)
{
	(void)state;
	assert_int_equal(XS_BTRFS_IOC_TREE_SEARCH, BTRFS_IOC_TREE_SEARCH);
	assert_int_equal(sizeof(struct xs_btrfs_search_args),
			 sizeof(struct btrfs_ioctl_search_args));
	assert_int_equal(sizeof(struct xs_btrfs_search_header),
			 sizeof(struct btrfs_ioctl_search_header));
	assert_int_equal(offsetof(struct xs_btrfs_search_key, nr_items),
			 offsetof(struct btrfs_ioctl_search_key, nr_items));
	assert_int_equal(XS_BTRFS_INODE_ITEM_KEY, BTRFS_INODE_ITEM_KEY);
	assert_int_equal(XS_BTRFS_INODE_ITEM_SIZE,
			 sizeof(struct btrfs_inode_item));
	assert_int_equal(XS_BTRFS_II_GENERATION,
			 offsetof(struct btrfs_inode_item, generation));
	assert_int_equal(XS_BTRFS_II_SIZE,
			 offsetof(struct btrfs_inode_item, size));
	assert_int_equal(XS_BTRFS_II_MODE,
			 offsetof(struct btrfs_inode_item, mode));
	assert_int_equal(XS_BTRFS_II_SEQUENCE,
			 offsetof(struct btrfs_inode_item, sequence));
	assert_int_equal(XS_BTRFS_II_CTIME,
			 offsetof(struct btrfs_inode_item, ctime));
	assert_int_equal(XS_BTRFS_II_MTIME,
			 offsetof(struct btrfs_inode_item, mtime));
	assert_int_equal(XS_BTRFS_II_OTIME,
			 offsetof(struct btrfs_inode_item, otime));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(epochs),
		cmocka_unit_test(against_timegm),
		cmocka_unit_test(out_of_range),
		cmocka_unit_test(btrfs_layout),
	};

	return th_run_tests(tests);
}
