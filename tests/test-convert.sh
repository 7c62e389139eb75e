#!/bin/sh
# xstat_to_stat(), xstat_to_timespec() and xstat_makedev() agree with
# lstat() and makedev(3) of the same compilation (tests/test-convert.c):
# as C and C++, 64-bit, and 32-bit with and without 64-bit off_t/time_t.
# The 32-bit build without them must meet EOVERFLOW (a 3 GiB file, a time
# after 2038) exactly where lstat() does.
set -u
: "${top_srcdir:?}"
cc=${CC:-cc}
cxx=${CXX:-c++}
src=$top_srcdir/tests/test-convert.c
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-convert.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
ran=0

fail() {
	echo "FAIL: $*"
	status=1
}

# The files: each kind, a sparse 3 GiB file, times before 1970, after
# 2038 and with nanoseconds.
mkdir "$tmp/f" "$tmp/f/dir"
printf 'text\n' >"$tmp/f/file"
ln -s file "$tmp/f/link"
mkfifo "$tmp/f/fifo"
truncate -s 3G "$tmp/f/big" || fail "truncate -s 3G"
printf 'x' >"$tmp/f/y2040" && touch -d @2208988800 "$tmp/f/y2040"
printf 'x' >"$tmp/f/y1960" && touch -d @-315619200 "$tmp/f/y1960"
printf 'x' >"$tmp/f/nsec" && touch -d @1700000000.123456789 "$tmp/f/nsec"
files="$tmp/f/file $tmp/f/dir $tmp/f/link $tmp/f/fifo $tmp/f/big
	$tmp/f/y2040 $tmp/f/y1960 $tmp/f/nsec /dev/null"
[ -e /dev/sda ] && files="$files /dev/sda"

# run NAME MIN_OVERFLOWS MAX_OVERFLOWS COMPILER FLAGS...
run() {
	name=$1 min=$2 max=$3
	shift 3
	if ! "$@" -I"$top_srcdir/include" -Wall -Wextra -pedantic \
		-Wsign-conversion -Werror -o "$tmp/t" "$src" >"$tmp/err" 2>&1
	then
		fail "$name: does not compile"
		sed 's/^/     | /' "$tmp/err"
		return
	fi
	# shellcheck disable=SC2086
	out=$("$tmp/t" $files)
	rc=$?
	echo "--- $name"
	echo "$out"
	[ "$rc" = 0 ] || fail "$name: exit status $rc"
	n=$(printf '%s\n' "$out" | sed -n 's/.* overflow \([0-9]*\)$/\1/p')
	if [ -z "$n" ] || [ "$n" -lt "$min" ] || [ "$n" -gt "$max" ]; then
		fail "$name: $n EOVERFLOWs, want $min to $max"
	fi
	ran=$((ran + 1))
}

run "C11" 0 0 $cc -std=c11 -x c
run "C99" 0 0 $cc -std=c99 -x c
if command -v "$cxx" >/dev/null 2>&1; then
	run "C++17" 0 0 $cxx -std=c++17 -x c++
else
	echo "skip C++: no compiler"
fi
# A kernel without IA32 emulation (and no qemu-i386 binfmt handler) builds
# 32-bit programs but cannot run them.
# -m32 needs the 32-bit kernel headers as well as the 32-bit libc
# (Debian's gcc-multilib gives them; the cross compilers replace it).
if printf '#include <errno.h>\nint main(void){return 0;}\n' |
     $cc -m32 -x c -o "$tmp/a" - 2>/dev/null &&
    ! "$tmp/a" 2>/dev/null; then
	echo "skip -m32: this machine cannot run 32-bit programs"
elif [ -x "$tmp/a" ]; then
	# 32-bit off_t and time_t: the 3 GiB file, the 2040 file, and the
	# timespec after 2038 overflow; nothing else.
	run "C -m32" 3 3 $cc -m32 -std=c11 -x c
	run "C -m32 64-bit off_t and time_t" 0 0 $cc -m32 -std=c11 \
		-D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 -x c
else
	echo "skip -m32: no multilib (gcc -m32 cannot build with <errno.h>)"
fi
[ "$ran" -gt 0 ] || exit 77
exit $status
