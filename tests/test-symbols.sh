#!/bin/sh
# The shared library exports exactly the functions declared in the public
# header, each as NAME@@LIBXSTAT_1.0, and defines the LIBXSTAT_1.0 version
# node: nothing private leaks, nothing public is missing.
set -u
: "${top_builddir:?}" "${top_srcdir:?}"

so=$top_builddir/lib/.libs/libxstat.so
header=$top_srcdir/include/xstat.h
map=$top_srcdir/lib/libxstat.map
nm=${NM:-nm}

if [ ! -f "$so" ]; then
	echo "SKIP: no shared library (configured with --disable-shared?)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-symbols.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

# Functions declared in the header: outside C++ guards, comments and
# preprocessor lines, a top-level statement "TYPE NAME(...);".
sed -e 's|/\*.*\*/||g' "$header" | awk '
	/^#ifdef __cplusplus/ { skip = 1; next }
	skip && /^#endif/ { skip = 0; next }
	skip || /^#/ { next }
	/\/\*/ { incomment = 1 }
	incomment { if (/\*\//) incomment = 0; next }
	{ stmt = stmt " " $0 }
	/[{}]/ { depth += gsub(/\{/, "{") - gsub(/\}/, "}") }
	/;/ {
		if (depth == 0 && stmt ~ /\(/ && stmt !~ /_Static_assert|typedef/) {
			sub(/\(.*/, "", stmt)
			n = split(stmt, w, /[ \t*]+/)
			print w[n]
		}
		stmt = ""
	}
' | sort -u >"$tmp/header"
echo "header: $(tr '\n' ' ' <"$tmp/header")"
[ -s "$tmp/header" ] || fail "no function declarations found in $header"

# gcc can list the prototypes itself; if it can, it must agree.
if ${CC:-cc} -aux-info "$tmp/aux" -fsyntax-only -I"$top_srcdir/include" \
	-x c "$header" 2>/dev/null; then
	grep 'include/xstat\.h:' "$tmp/aux" |
		sed 's/.*[ *]\([a-z_A-Z0-9]*\) (.*/\1/' | sort -u >"$tmp/aux.names"
	cmp -s "$tmp/header" "$tmp/aux.names" ||
		fail "header parse $(cat "$tmp/header") != gcc -aux-info $(cat "$tmp/aux.names")"
fi

# The dynamic symbol table.
$nm -D --defined-only "$so" >"$tmp/nm" || { echo "FAIL: nm $so"; exit 1; }
cat "$tmp/nm"
awk '{ print $NF }' "$tmp/nm" | sort -u >"$tmp/all"
grep '@@LIBXSTAT_1\.0$' "$tmp/all" | sed 's/@@.*//' >"$tmp/versioned"
awk '$(NF-1) ~ /^[TtWi]$/ && $NF ~ /@@LIBXSTAT_1\.0$/ { sub(/@@.*/, "", $NF); print $NF }' \
	"$tmp/nm" | sort -u >"$tmp/functions"

cmp -s "$tmp/header" "$tmp/versioned" ||
	fail "exported @@LIBXSTAT_1.0: $(tr '\n' ' ' <"$tmp/versioned")," \
		"header declares: $(tr '\n' ' ' <"$tmp/header")"
cmp -s "$tmp/versioned" "$tmp/functions" ||
	fail "not every versioned symbol is a function"

# Nothing else: every defined symbol is a versioned public function or the
# version node itself, and there is exactly one version node.
grep -v -x -e 'LIBXSTAT_1\.0' -e '.*@@LIBXSTAT_1\.0' "$tmp/all" \
	>"$tmp/other"
[ -s "$tmp/other" ] && fail "unexpected symbols: $(tr '\n' ' ' <"$tmp/other")"
awk '$(NF-1) == "A" { print $NF }' "$tmp/nm" >"$tmp/nodes"
[ "$(cat "$tmp/nodes")" = LIBXSTAT_1.0 ] ||
	fail "version nodes: '$(tr '\n' ' ' <"$tmp/nodes")', want LIBXSTAT_1.0"

# The version script names the same functions.
sed -n '/global:/,/local:/p' "$map" | sed -n 's/^[ 	]*\([a-z_0-9]*\);.*/\1/p' |
	sort -u >"$tmp/map"
cmp -s "$tmp/header" "$tmp/map" ||
	fail "lib/libxstat.map global: $(tr '\n' ' ' <"$tmp/map")"

# The SONAME a program records.
if command -v objdump >/dev/null 2>&1; then
	soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
	[ "$soname" = libxstat.so.1 ] || fail "SONAME '$soname'"
fi

exit $status
