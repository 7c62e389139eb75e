#!/bin/sh
# test-otherfs-ntfs with statx(2) blocked (EPERM): the fallback backend.
XSTAT_TEST_BLOCK=EPERM exec "$top_builddir/tests/test-otherfs-ntfs"
