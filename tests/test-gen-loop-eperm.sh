#!/bin/sh
# test-gen on loop-mounted images with statx(2) blocked (EPERM).
XSTAT_TEST_BLOCK=EPERM exec "$top_builddir/tests/test-gen" --loop
