#!/bin/sh
# test-api with statx(2) blocked by seccomp (ENOSYS), as in a sandbox.
XSTAT_TEST_BLOCK=ENOSYS exec "$top_builddir/tests/test-api"
