#!/bin/sh
# test-extra with statx(2) blocked by seccomp (ENOSYS): the fallbacks.
XSTAT_TEST_BLOCK=ENOSYS exec "$top_builddir/tests/test-extra"
