#!/bin/sh
# test-filetypes with statx(2) blocked by seccomp (ENOSYS), as in a sandbox.
XSTAT_TEST_BLOCK=ENOSYS exec "$top_builddir/tests/test-filetypes"
