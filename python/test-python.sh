#!/bin/sh
# The binding's pytest suite (python/tests/): python/pytest-run.sh.
exec sh "$top_srcdir/python/pytest-run.sh" tests
