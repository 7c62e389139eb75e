#!/bin/sh
# test-fs-loop with statx(2) blocked (EPERM): tmpfs, xfs and btrfs in the
# fallback backend give exact values or none.
XSTAT_TEST_BLOCK=EPERM exec "$top_builddir/tests/test-fs-loop"
