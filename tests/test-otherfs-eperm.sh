#!/bin/sh
# test-otherfs with statx(2) blocked (EPERM): XFS and btrfs creation time,
# generation and data version come from the probes alone.
XSTAT_TEST_BLOCK=EPERM exec "$top_builddir/tests/test-otherfs"
