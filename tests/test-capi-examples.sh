#!/bin/sh
# The EXAMPLES programs of xstat_to_stat(3) and xstat_known_mask(3) (built
# by tests/capi.am from the pages themselves) run and print what
# coreutils stat(1) says about the same files, with the statx backend and
# with the fallback, and what the header says the library knows.
set -u
: "${top_builddir:?}" "${top_srcdir:?}"

ex=$top_builddir/tests/xstat-to-stat-example
km=$top_builddir/tests/xstat-known-mask-example
for p in "$ex" "$km"; do
	[ -x "$p" ] || { echo "FAIL: $p was not built"; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-capi-example.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

. "$(dirname "$0")/output-field.sh"	# field

check() {	# check LABEL FILE [ENV...]
	label=$1 file=$2
	shift 2
	if ! out=$(env "$@" "$ex" "$file" 2>&1); then
		fail "$label $file: $out"
		return
	fi
	echo "--- $label $file"
	echo "$out"
	for spec in dev:%d ino:%i rdev:%r size:%s mtime:%.9Y; do
		name=${spec%%:*} fmt=${spec#*:}
		want=$(stat -c "$fmt" "$file")
		[ "$(field "$name" "$out")" = "$want" ] ||
			fail "$label $file: $name $(field "$name" "$out"), stat says $want"
	done
	mode=$(printf '%o' "0x$(stat -c %f "$file")")
	[ "$(field mode "$out")" = "$mode" ] ||
		fail "$label $file: mode $(field mode "$out"), stat says $mode"
	btime=$(field btime "$out")
	if [ "$btime" != unavailable ]; then
		[ "$btime" = "$(stat -c %.9W "$file")" ] ||
			fail "$label $file: btime $btime, stat says $(stat -c %.9W "$file")"
	elif [ "$label" = statx ] && [ "$(stat -c %W "$file")" != 0 ]; then
		fail "$label $file: btime unavailable, stat says $(stat -c %W "$file")"
	fi
}

printf 'some text\n' >"$tmp/file"
touch -d @1700000000.123456789 "$tmp/file"
mkdir "$tmp/dir"
ln -s file "$tmp/link"
mkfifo "$tmp/fifo"
for f in "$tmp/file" "$tmp/dir" "$tmp/link" "$tmp/fifo" /dev/null; do
	check statx "$f"
	check fallback "$f" LIBXSTAT_NO_STATX=1
done

if out=$("$ex" "$tmp/missing" 2>&1); then
	fail "missing file: exit status 0"
else
	[ "$out" = "xstat: No such file or directory" ] ||
		fail "missing file: '$out'"
fi

# xstat_known_mask(3): this library knows every bit of its own header.
out=$("$km") || fail "known-mask example: exit status $?"
echo "--- known mask"
echo "$out"
# every request bit the header defines, each as it defines it (its sums,
# XSTAT_REQUEST__ALL_STATS among them, are expressions of them)
all=$(( $(sed -n 's/^#define XSTAT_REQUEST_[A-Z][A-Z_]*[[:space:]]*\(0x[0-9a-f]*\)ULL.*/\1/p' \
	"$top_srcdir/include/xstat.h" | sed 's/$/ |/' | tr -d '\n') 0 ))
[ "$all" != 0 ] || fail "no XSTAT_REQUEST_* bit in xstat.h"
all=$(printf '%#x' "$all")
[ "$(field library "$out")" = "$all" ] ||
	fail "known mask $(field library "$out"), the header's is $all"
[ "$(field 'library too old for' "$out")" = none ] ||
	fail "library too old for: $(field 'library too old for' "$out")"

exit $status
