#!/bin/sh
# One release number everywhere: the header's LIBXSTAT_VERSION_* (which
# configure.ac reads), the pkg-config file, xstat --version, every man
# page's footer and debian/changelog.
set -u
: "${top_builddir:?}" "${top_srcdir:?}"
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

header=$top_srcdir/include/xstat.h
v=$(awk '$1 == "#define" && $2 ~ /^LIBXSTAT_VERSION_(MAJOR|MINOR|MICRO)$/ {
	v = v s $3; s = "." } END { print v }' "$header")
echo "header: $v"
case $v in
[0-9]*.[0-9]*.[0-9]*) ;;
*)	fail "no LIBXSTAT_VERSION_MAJOR/MINOR/MICRO in $header"; exit 1;;
esac

pc=$(sed -n 's/^Version: //p' "$top_builddir/pkgconfig/libxstat.pc")
[ "$pc" = "$v" ] || fail "pkgconfig/libxstat.pc Version: '$pc'"

tool=$("$top_builddir/tools/xstat" --version | head -n 1)
case $tool in
*" $v") ;;
*)	fail "xstat --version: '$tool'";;
esac

for p in "$top_srcdir"/man/man*/*.[0-9]; do
	head -n 1 "$p" | grep -q '^\.so ' && continue
	th=$(sed -n 's/^\.TH .*"libxstat \([^"]*\)".*/\1/p' "$p")
	[ "$th" = "$v" ] || fail "$(basename "$p"): .TH says libxstat '$th'"
done

cl=$top_srcdir/debian/changelog
if [ -f "$cl" ]; then
	d=$(sed -n '1s/^libxstat (\([^)]*\)).*/\1/p' "$cl")
	[ "${d%-*}" = "$v" ] || fail "debian/changelog: $d"
fi

exit $status
