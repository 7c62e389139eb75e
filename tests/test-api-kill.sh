#!/bin/sh
# A sandbox that kills on statx(2) (SIGSYS): with LIBXSTAT_NO_STATX=1 the
# library never calls it, and the whole API suite passes.
LIBXSTAT_NO_STATX=1 XSTAT_TEST_BLOCK=KILL exec "$top_builddir/tests/test-api"
