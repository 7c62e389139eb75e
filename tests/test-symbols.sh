#!/bin/sh
# The shared library exports exactly the functions declared in the public
# header, each as NAME@@NODE in the node lib/libxstat.map gives it
# (LIBXSTAT_1.0, LIBXSTAT_1.1, ...; each node inheriting the one before),
# defines exactly those version nodes, and debian/libxstat1.symbols lists
# the same: nothing private leaks, nothing public is missing.  Static
# inline functions of the header are not exported and not counted.
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
		if (depth == 0 && stmt ~ /\(/ && stmt !~ /_Static_assert|STATIC_ASSERT|typedef/) {
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
	grep 'include/xstat\.h:' "$tmp/aux" | grep -v '\*/ static ' |
		sed 's/.*[ *]\([a-z_A-Z0-9]*\) (.*/\1/' | sort -u >"$tmp/aux.names"
	cmp -s "$tmp/header" "$tmp/aux.names" ||
		fail "header parse $(cat "$tmp/header") != gcc -aux-info $(cat "$tmp/aux.names")"
fi

# The version script, as "node NODE", "parent NODE PARENT" and
# "sym NODE FUNCTION" lines.
awk '{ gsub(/\/\*[^*]*\*\//, ""); sub(/#.*/, ""); gsub(/[{};]/, " & ");
	for (i = 1; i <= NF; i++) print $i }' "$map" | awk '
	node == "" { if ($0 != ";") { node = $0; print "node", node }; next }
	$0 == "{" || $0 == ";" { next }
	$0 == "}" {
		if ((getline t) > 0 && t != ";")
			print "parent", node, t
		node = ""; global = 0; next
	}
	$0 == "global:" { global = 1; next }
	$0 == "local:" { global = 0; next }
	global { print "sym", node, $0 }
' >"$tmp/map.raw"
awk '$1 == "node" { print $2 }' "$tmp/map.raw" >"$tmp/map.nodes"
awk '$1 == "sym" { print $3 "@@" $2 }' "$tmp/map.raw" | sort -u \
	>"$tmp/map.syms"
echo "map nodes: $(tr '\n' ' ' <"$tmp/map.nodes")"
sed 's/@@.*//' "$tmp/map.syms" | sort -u >"$tmp/map"
cmp -s "$tmp/header" "$tmp/map" ||
	fail "lib/libxstat.map globals: $(tr '\n' ' ' <"$tmp/map")," \
		"header declares: $(tr '\n' ' ' <"$tmp/header")"
[ "$(head -n 1 "$tmp/map.nodes")" = LIBXSTAT_1.0 ] ||
	fail "the first version node is not LIBXSTAT_1.0"
grep -qx LIBXSTAT_1.1 "$tmp/map.nodes" || fail "no LIBXSTAT_1.1 node"
# Each node after the first inherits the one before it.
awk '$1 == "node" && prev != "" { want[$2] = prev } $1 == "node" { prev = $2 }
	$1 == "parent" { got[$2] = $3 }
	END { for (n in want) if (got[n] != want[n])
		print n " inherits \"" got[n] "\", not " want[n] }' \
	"$tmp/map.raw" >"$tmp/map.parents"
[ -s "$tmp/map.parents" ] && fail "$(cat "$tmp/map.parents")"

# The dynamic symbol table: exactly the map's functions, each with its
# default version (@@) in its node, and the nodes themselves.
$nm -D --defined-only "$so" >"$tmp/nm" || { echo "FAIL: nm $so"; exit 1; }
cat "$tmp/nm"
awk '$NF ~ /@@LIBXSTAT_/ { print $NF }' "$tmp/nm" | sort -u >"$tmp/versioned"
awk '$(NF-1) ~ /^[TtWi]$/ && $NF ~ /@@LIBXSTAT_/ { print $NF }' "$tmp/nm" |
	sort -u >"$tmp/functions"
cmp -s "$tmp/map.syms" "$tmp/versioned" ||
	fail "exported: $(tr '\n' ' ' <"$tmp/versioned")," \
		"the map says: $(tr '\n' ' ' <"$tmp/map.syms")"
cmp -s "$tmp/versioned" "$tmp/functions" ||
	fail "not every versioned symbol is a function"
# The ABI of 1.0 never changes: its functions keep their node.
for f in xstat fxstat xstat_extra; do
	grep -qx "$f@@LIBXSTAT_1\.0" "$tmp/versioned" ||
		fail "$f is not @@LIBXSTAT_1.0"
done

# Nothing else: every defined symbol is a versioned public function or a
# version node.
awk '$(NF-1) == "A" { print $NF }' "$tmp/nm" | sort >"$tmp/nodes"
sort "$tmp/map.nodes" >"$tmp/map.nodes.sorted"
cmp -s "$tmp/nodes" "$tmp/map.nodes.sorted" ||
	fail "version nodes: '$(tr '\n' ' ' <"$tmp/nodes")'," \
		"the map has '$(tr '\n' ' ' <"$tmp/map.nodes")'"
awk '{ print $NF }' "$tmp/nm" | sort -u |
	grep -v -x -F -f "$tmp/versioned" | grep -v -x -F -f "$tmp/nodes" \
	>"$tmp/other"
[ -s "$tmp/other" ] && fail "unexpected symbols: $(tr '\n' ' ' <"$tmp/other")"

# debian/libxstat1.symbols names the same symbols in the same nodes.
deb=$top_srcdir/debian/libxstat1.symbols
if [ -f "$deb" ]; then
	{ sed 's/@@/@/' "$tmp/map.syms"; sed 's/$/@&/' "$tmp/map.nodes" |
		awk -F@ '{ print $1 "@" $1 }'; } | sort >"$tmp/deb.want"
	awk '/^ [^ ]+@[^ ]+ / { print $1 }' "$deb" | sort >"$tmp/deb.have"
	cmp -s "$tmp/deb.want" "$tmp/deb.have" ||
		fail "debian/libxstat1.symbols: $(tr '\n' ' ' <"$tmp/deb.have")," \
			"want $(tr '\n' ' ' <"$tmp/deb.want")"
fi

# The SONAME a program records.
if command -v objdump >/dev/null 2>&1; then
	soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
	[ "$soname" = libxstat.so.1 ] || fail "SONAME '$soname'"
fi

exit $status
