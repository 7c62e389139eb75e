#!/bin/sh
# test-threads with statx(2) blocked (EPERM): the fallback is thread-safe.
XSTAT_TEST_BLOCK=EPERM exec "$top_builddir/tests/test-threads"
