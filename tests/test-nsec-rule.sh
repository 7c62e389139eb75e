#!/bin/sh
# The nanosecond-validity rule is written once, as XS_NSEC_VALID() in
# lib/mask.h: no other file under lib/ compares a nanosecond field with
# the bound itself.  Checked on the tree.
set -u
: "${top_srcdir:?}"
cd "$top_srcdir" || exit 1
bad=$(grep -nE 'nsec[^;]*(<|<=|>|>=) *(999999999|1000000000|1e9|NSEC_PER_SEC)' \
	lib/*.c lib/*.h | grep -v '^lib/mask\.h:')
if [ -n "$bad" ]; then
	echo "FAIL: the nanosecond rule written again (use XS_NSEC_VALID):"
	echo "$bad"
	exit 1
fi
grep -q 'define XS_NSEC_VALID' lib/mask.h || {
	echo "FAIL: lib/mask.h has no XS_NSEC_VALID"
	exit 1
}
echo "PASS: XS_NSEC_VALID is the one nanosecond rule"
