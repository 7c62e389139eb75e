#!/bin/sh
# test-gen on loop-mounted ext4 and xfs images (root only, else exit 77).
exec "$top_builddir/tests/test-gen" --loop
