#!/bin/sh
# test-extra with statx(2) blocked by seccomp (EPERM): the fallbacks.
XSTAT_TEST_BLOCK=EPERM exec "$top_builddir/tests/test-extra"
