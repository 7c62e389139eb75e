#!/bin/sh
# test-api with statx(2) blocked by seccomp (EPERM), as in a sandbox.
XSTAT_TEST_BLOCK=EPERM exec "$top_builddir/tests/test-api"
