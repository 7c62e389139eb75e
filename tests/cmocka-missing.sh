#!/bin/sh
# Run instead of the C tests when ./configure found no cmocka: the library
# and the tool were built, but the tests that check them were not.
echo "ERROR: cmocka >= 1.1 was not found by ./configure, so the C tests"
echo "were not built.  Install it (Debian: apt-get install libcmocka-dev,"
echo "or bash .ci/deps --user) and run ./configure again."
exit 99
