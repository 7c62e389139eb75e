#!/bin/sh
# test-hostile with statx(2) blocked (EPERM): the fallback backend.
XSTAT_TEST_BLOCK=EPERM exec "$top_builddir/tests/test-hostile"
