#!/bin/sh
# xstat --patch against the xstat() patch's own test program, compiled
# from the mail's text (tests/patch-test-program.c, re-extracted and
# compared when the mail is at hand) and run on libxstat: the same bytes
# on every file type, with -O and -L, and for a missing file.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
tool=${XSTAT_TOOL:-$top_builddir/tools/xstat}
LC_ALL=C TZ=UTC0
export LC_ALL TZ
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-patch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

prog=$top_srcdir/tests/patch-test-program.c
for mail in "${XSTAT_SEED_PATCH:-}" \
	"$top_srcdir"/../shared/seeds/001-patch-*.patch \
	"$top_srcdir"/../../shared/seeds/001-patch-*.patch; do
	[ -f "$mail" ] || continue
	n=$((n + 1))
	sh "$top_srcdir/tests/extract-seed.sh" "$mail" >"$tmp/extracted.c" &&
		cmp -s "$tmp/extracted.c" "$prog" || {
		echo "FAIL: $prog is not the program of $mail"
		fail=1
	}
	break
done

lib=$top_builddir/lib/.libs/libxstat.so
if [ ! -f "$lib" ]; then
	echo "SKIP: no shared libxstat in $top_builddir/lib/.libs" >&2
	exit 77
fi
# The program as written: its own structs, its syscall() renamed only.
if ! ${CC:-cc} -w -Dsyscall=seed_syscall -c -o "$tmp/prog.o" "$prog" ||
   ! ${CC:-cc} -I"$top_srcdir/include" -c -o "$tmp/shim.o" \
	"$top_srcdir/tests/patch-test-shim.c" ||
   ! ${CC:-cc} -o "$tmp/seedxstat" "$tmp/prog.o" "$tmp/shim.o" "$lib" \
	-Wl,-rpath,"$top_builddir/lib/.libs"; then
	echo "FAIL: cannot build the patch's test program"
	exit 1
fi

printf 'data\n' >"$tmp/reg"
: >"$tmp/empty"
chmod 6755 "$tmp/reg"
mkdir "$tmp/dir"
ln -s reg "$tmp/link"
mkfifo "$tmp/fifo"
files="$tmp/reg $tmp/empty $tmp/dir $tmp/link $tmp/fifo /dev/null"
command -v python3 >/dev/null 2>&1 &&
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
		"$tmp/sock" 2>/dev/null && files="$files $tmp/sock"
blk=$(find /dev -maxdepth 1 -type b 2>/dev/null | head -n 1)
[ -n "$blk" ] && files="$files $blk"

same() {	# what, then the arguments of both
	what=$1
	shift
	"$tmp/seedxstat" "$@" >"$tmp/exp" 2>/dev/null
	"$tool" --patch "$@" >"$tmp/got" 2>/dev/null
	n=$((n + 1))
	if ! cmp -s "$tmp/exp" "$tmp/got"; then
		echo "FAIL $what: $*"
		diff "$tmp/exp" "$tmp/got"
		fail=1
	fi
}

for f in $files; do
	same "file" "$f"
	same "-O" -O "$f"
	same "-L" -L "$f"
done
# shellcheck disable=SC2086
same "all at once" $files
same "missing" "$tmp/missing"
# Times the program's strftime() gets wrong (the year past an int) or
# localtime() cannot break down: stat's date, or seconds, never a
# wrong date.
shm=$(mktemp -d /dev/shm/xstat-patch.XXXXXX 2>/dev/null) || shm=
if [ -n "$shm" ] && stat --version 2>/dev/null | grep -q coreutils; then
	for t in 67768036191676799 67768036191676800 -67768040609740800 \
		-67768040609740801 253402300800; do
		touch -d "@$t" "$shm/t" 2>/dev/null || continue
		date=$(stat -c %y "$shm/t" | sed 's/ \([-+][0-9]*\)$/\1/')
		got=$("$tool" --patch "$shm/t" | sed -n 's/^Modify: //p')
		n=$((n + 1))
		case $got in
		"$date"|"$t.000000000") ;;
		*) echo "FAIL @$t: '$got', stat says '$date'"; fail=1 ;;
		esac
	done
else
	echo "note: no /dev/shm or coreutils stat for extreme times"
fi
[ -z "$shm" ] || rm -rf "$shm"

# The program stops at the first failure; xstat goes on (status 1).
"$tool" --patch "$tmp/missing" "$tmp/reg" >/dev/null 2>&1
st=$?
n=$((n + 1))
[ "$st" = 1 ] || { echo "FAIL missing: status $st"; fail=1; }

echo "$n comparisons"
exit $fail
