#!/bin/sh
# The EXAMPLES program of xstat_opendir(3) (built by tests/bulk.am from
# the page itself) lists a directory with what stat(1) and lsattr(1) say
# about each entry, with the statx backend and with the fallback.
set -u
: "${top_builddir:?}"

ex=$top_builddir/tests/xstat-opendir-example
[ -x "$ex" ] || { echo "FAIL: $ex was not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-opendir.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

mkdir "$tmp/d" "$tmp/d/sub"
printf 'some text\n' >"$tmp/d/file"
: >"$tmp/d/empty"
ln -s file "$tmp/d/link"

for env in LIBXSTAT_NO_STATX=0 LIBXSTAT_NO_STATX=1; do
	if ! out=$(env "$env" "$ex" "$tmp/d" 2>&1); then
		fail "$env: $out"
		continue
	fi
	echo "--- $env"
	echo "$out"
	[ "$(printf '%s\n' "$out" | wc -l)" = 4 ] ||
		fail "$env: not 4 entries"
	for f in sub file empty link; do
		line=$(printf '%s\n' "$out" | grep "^$f:") ||
			{ fail "$env: no line for $f"; continue; }
		set -- $line
		[ "$3" = "$(stat -c %i "$tmp/d/$f")" ] ||
			fail "$env: $f: ino $3, stat says $(stat -c %i "$tmp/d/$f")"
		[ "$5" = "$(stat -c %s "$tmp/d/$f")" ] ||
			fail "$env: $f: size $5, stat says $(stat -c %s "$tmp/d/$f")"
		[ -L "$tmp/d/$f" ] && continue
		lsgen=$(lsattr -vd "$tmp/d/$f" 2>/dev/null | awk '{ print $1 }')
		if [ -n "$lsgen" ] && [ "$7" != unavailable ]; then
			[ "$7" = "$lsgen" ] ||
				fail "$env: $f: gen $7, lsattr says $lsgen"
		fi
	done
done

# A file is not a directory: the page's error path.
if out=$("$ex" "$tmp/d/file" 2>&1); then
	fail "a file: exit status 0"
else
	case $out in
	"xstat_opendir: Not a directory") ;;
	*)	fail "a file: '$out'";;
	esac
fi
exit $status
