#!/bin/sh
# test-times with statx(2) blocked (EPERM): the fstatat fallback.
XSTAT_TEST_BLOCK=EPERM exec "$top_builddir/tests/test-times"
