#!/bin/sh
# The EXAMPLES program of xstat_compare(3) (built by tests/compare.am from
# the page itself) runs the page's session and prints what the page says:
# new files copied, then a file left alone skipped (or, where the change
# token cannot prove it, copied as not proven unchanged), a chmod'ed one
# metadata only, a same-size rewrite copied as data changed.
set -u
: "${top_builddir:?}"
ex=$top_builddir/tests/xstat-compare-example
[ -x "$ex" ] || { echo "FAIL: $ex was not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-compare-example.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
echo a >a; echo b >b; echo c >c; sleep 1.1
first=$("$ex" state a b c) || { echo "FAIL: first run"; exit 1; }
chmod 600 b; echo C >c
second=$("$ex" state a b c) || { echo "FAIL: second run"; exit 1; }
want1='copy a (new)
copy b (new)
copy c (new)'
want2='metadata b
copy c (data changed)'
status=0
[ "$first" = "$want1" ] || { echo "FAIL: first run: $first"; status=1; }
case $second in
"skip a
$want2"|"copy a (not proven unchanged)
$want2")	;;
*)	echo "FAIL: second run: $second"; status=1;;
esac
printf '%s\n%s\n' "$first" "$second"
exit $status
