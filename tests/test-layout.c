// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public ABI: struct layout and constants as the ver #3 patch defines
 * them, and the XSTAT <-> STATX mask table both ways, checked against the
 * values in the system's own <linux/stat.h> (an independent copy).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <linux/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "internal.h"
#include "mask.h"
#include "testhelp.h"

static void test_sizes(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct xstat_parameters), 8);
	assert_int_equal(sizeof(struct xstat_dev), 8);
	assert_int_equal(sizeof(struct xstat_time), 16);
	assert_int_equal(sizeof(struct xstat), 152);
	assert_int_equal(XSTAT_STRUCT_SIZE, 152);
	assert_int_equal(_Alignof(struct xstat), 8);
}

static void test_offsets(void **state)
{
	(void)state;
	/* The patch's field order: 4 x u32, 2 x dev, 4 x time, 7 x u64. */
	assert_int_equal(offsetof(struct xstat, st_mode), 0);
	assert_int_equal(offsetof(struct xstat, st_nlink), 4);
	assert_int_equal(offsetof(struct xstat, st_uid), 8);
	assert_int_equal(offsetof(struct xstat, st_gid), 12);
	assert_int_equal(offsetof(struct xstat, st_rdev.major), 16);
	assert_int_equal(offsetof(struct xstat, st_rdev.minor), 20);
	assert_int_equal(offsetof(struct xstat, st_dev.major), 24);
	assert_int_equal(offsetof(struct xstat, st_dev.minor), 28);
	assert_int_equal(offsetof(struct xstat, st_atim.tv_sec), 32);
	assert_int_equal(offsetof(struct xstat, st_atim.tv_nsec), 40);
	assert_int_equal(offsetof(struct xstat, st_mtim), 48);
	assert_int_equal(offsetof(struct xstat, st_ctim), 64);
	assert_int_equal(offsetof(struct xstat, st_btim), 80);
	assert_int_equal(offsetof(struct xstat, st_ino), 96);
	assert_int_equal(offsetof(struct xstat, st_size), 104);
	assert_int_equal(offsetof(struct xstat, st_blksize), 112);
	assert_int_equal(offsetof(struct xstat, st_blocks), 120);
	assert_int_equal(offsetof(struct xstat, st_gen), 128);
	assert_int_equal(offsetof(struct xstat, st_data_version), 136);
	assert_int_equal(offsetof(struct xstat, st_result_mask), 144);
	assert_int_equal(offsetof(struct xstat, st_extra_results), 152);
}

static void test_signed_time(void **state)
{
	struct xstat_time t;

	(void)state;
	t.tv_sec = -1;
	assert_true(t.tv_sec < 0);
	assert_int_equal(sizeof(t.tv_sec), 8);
}

static void test_constants(void **state)
{
	(void)state;
	/* Values from the patch. */
	assert_int_equal(XSTAT_REQUEST_MODE, 0x1);
	assert_int_equal(XSTAT_REQUEST_NLINK, 0x2);
	assert_int_equal(XSTAT_REQUEST_UID, 0x4);
	assert_int_equal(XSTAT_REQUEST_GID, 0x8);
	assert_int_equal(XSTAT_REQUEST_RDEV, 0x10);
	assert_int_equal(XSTAT_REQUEST_ATIME, 0x20);
	assert_int_equal(XSTAT_REQUEST_MTIME, 0x40);
	assert_int_equal(XSTAT_REQUEST_CTIME, 0x80);
	assert_int_equal(XSTAT_REQUEST_INO, 0x100);
	assert_int_equal(XSTAT_REQUEST_SIZE, 0x200);
	assert_int_equal(XSTAT_REQUEST_BLOCKS, 0x400);
	assert_int_equal(XSTAT_REQUEST__BASIC_STATS, 0x7ff);
	assert_int_equal(XSTAT_REQUEST_BTIME, 0x800);
	assert_int_equal(XSTAT_REQUEST_GEN, 0x1000);
	assert_int_equal(XSTAT_REQUEST_DATA_VERSION, 0x2000);
	assert_int_equal(XSTAT_REQUEST__EXTENDED_STATS, 0x3fff);
	assert_true((XSTAT_REQUEST__ALL_STATS & 0x3fff) == 0x3fff);
	/* Extra results sit above the patch's defined set. */
	assert_int_equal(XSTAT_REQUEST__EXTRA_RESULTS &
			 XSTAT_REQUEST__EXTENDED_STATS, 0);
	assert_int_equal(XSTAT_REQUEST__ALL_STATS,
			 XSTAT_REQUEST__EXTENDED_STATS |
			 XSTAT_REQUEST__EXTRA_RESULTS);
	assert_int_equal(XSTAT_ATTR_IMMUTABLE, STATX_ATTR_IMMUTABLE);
	assert_int_equal(XSTAT_ATTR_APPEND, STATX_ATTR_APPEND);
	assert_int_equal(XSTAT_ATTR_NODUMP, STATX_ATTR_NODUMP);
	assert_int_equal(XSTAT_ATTR_COMPRESSED, STATX_ATTR_COMPRESSED);
	assert_int_equal(XSTAT_ATTR_ENCRYPTED, STATX_ATTR_ENCRYPTED);
	assert_int_equal(XSTAT_ATTR_AUTOMOUNT, STATX_ATTR_AUTOMOUNT);
	assert_int_equal(XSTAT_ATTR_MOUNT_ROOT, STATX_ATTR_MOUNT_ROOT);
	assert_int_equal(XSTAT_ATTR_VERITY, STATX_ATTR_VERITY);
	assert_int_equal(XSTAT_ATTR_DAX, STATX_ATTR_DAX);
	/* Flags: the kernel's statx values, not the patch's 0x800. */
	assert_int_equal(AT_FORCE_ATTR_SYNC, AT_STATX_FORCE_SYNC);
	assert_int_equal(AT_NO_ATTR_SYNC, AT_STATX_DONT_SYNC);
	assert_int_not_equal(AT_FORCE_ATTR_SYNC, AT_NO_AUTOMOUNT);
}

static void test_mask_to_statx(void **state)
{
	(void)state;
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_MODE),
			 STATX_TYPE | STATX_MODE);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_NLINK), STATX_NLINK);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_UID), STATX_UID);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_GID), STATX_GID);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_RDEV), 0);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_ATIME), STATX_ATIME);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_MTIME), STATX_MTIME);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_CTIME), STATX_CTIME);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_INO), STATX_INO);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_SIZE), STATX_SIZE);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_BLOCKS),
			 STATX_BLOCKS);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_BTIME), STATX_BTIME);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_GEN), 0);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_DATA_VERSION), 0);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST__BASIC_STATS),
			 STATX_BASIC_STATS);
	assert_int_equal(xs_mask_to_statx(0), 0);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_MNT_ID),
			 STATX_MNT_ID | 0x4000 /* STATX_MNT_ID_UNIQUE */);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_DIOALIGN),
			 STATX_DIOALIGN);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_SUBVOL), 0x8000);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_WRITE_ATOMIC),
			 0x10000);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_DIO_READ_ALIGN),
			 0x20000);
	assert_int_equal(xs_mask_to_statx(XSTAT_REQUEST_ATTRIBUTES), 0);
}

static void test_mask_from_statx(void **state)
{
	(void)state;
	assert_int_equal(xs_mask_from_statx(STATX_TYPE | STATX_MODE),
			 XSTAT_REQUEST_MODE);
	/* Half of the mode is not the mode. */
	assert_int_equal(xs_mask_from_statx(STATX_TYPE), 0);
	assert_int_equal(xs_mask_from_statx(STATX_MODE), 0);
	assert_int_equal(xs_mask_from_statx(STATX_NLINK), XSTAT_REQUEST_NLINK);
	assert_int_equal(xs_mask_from_statx(STATX_UID), XSTAT_REQUEST_UID);
	assert_int_equal(xs_mask_from_statx(STATX_GID), XSTAT_REQUEST_GID);
	assert_int_equal(xs_mask_from_statx(STATX_BTIME), XSTAT_REQUEST_BTIME);
	assert_int_equal(xs_mask_from_statx(STATX_BASIC_STATS),
			 XSTAT_REQUEST__BASIC_STATS & ~XSTAT_REQUEST_RDEV);
	/* Either mount ID stands for the one extra result. */
	assert_int_equal(xs_mask_from_statx(STATX_MNT_ID),
			 XSTAT_REQUEST_MNT_ID);
	assert_int_equal(xs_mask_from_statx(0x4000 /* MNT_ID_UNIQUE */),
			 XSTAT_REQUEST_MNT_ID);
	assert_int_equal(xs_mask_from_statx(STATX_DIOALIGN),
			 XSTAT_REQUEST_DIOALIGN);
	/* statx bits with no xstat meaning are not reported. */
	assert_int_equal(xs_mask_from_statx(0x40000000 /* CHANGE_COOKIE */),
			 0);
}

/*
 * Every mask is the union of its bits: the translation has no case where
 * one bit changes another's (the extra-result bits are translated
 * separately, so combinations matter).  All 2^20 request masks and
 * all 2^18 statx masks of the bits above.
 */
static void test_mask_union(void **state)
{
	uint32_t to_bit[20], m, b, want;
	uint64_t from_bit[18], fwant;

	(void)state;
	for (b = 0; b < 20; b++)
		to_bit[b] = xs_mask_to_statx(1ULL << b);
	for (m = 0; m < 1U << 20; m++) {
		for (want = 0, b = 0; b < 20; b++)
			if (m & 1U << b)
				want |= to_bit[b];
		if (xs_mask_to_statx(m) != want)
			fail_msg("to_statx(%#x) = %#x, want %#x", m,
				 xs_mask_to_statx(m), want);
	}
	for (b = 0; b < 18; b++)
		from_bit[b] = xs_mask_from_statx(1U << b);
	for (m = 0; m < 1U << 18; m++) {
		for (fwant = 0, b = 0; b < 18; b++)
			if (m & 1U << b)
				fwant |= from_bit[b];
		/* The one pair rule: TYPE and MODE together make MODE. */
		if ((m & (STATX_TYPE | STATX_MODE)) ==
		    (STATX_TYPE | STATX_MODE))
			fwant |= XSTAT_REQUEST_MODE;
		if (xs_mask_from_statx(m) != fwant)
			fail_msg("from_statx(%#x) = %#llx, want %#llx", m,
				 (unsigned long long)xs_mask_from_statx(m),
				 (unsigned long long)fwant);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_signed_time),
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_mask_to_statx),
		cmocka_unit_test(test_mask_from_statx),
		cmocka_unit_test(test_mask_union),
	};

	return th_run_tests(tests);
}
