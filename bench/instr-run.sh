#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/instr-run.sh - the instructions libxstat.so executes per call (and
# per directory stream entry), by callgrind, held against bench/instr-bounds,
# or side by side for two or more libraries (a change's before and after).
# Run as root from the build tree after `make bench/instr-loop` (or by
# `make bench-instructions`, which does both):
#
#	sh bench/instr-run.sh [-w] [-v] [-s] [-k KIND] [BOUNDS]
#	sh bench/instr-run.sh [-v] [-k KIND] -L BUILD_A -L BUILD_B ...
#
# Each kind runs twice under callgrind, with 1,000 and 3,000 calls (a
# stream: over a directory of 1,000 and of 3,000 files); the count is the
# difference of the instructions executed inside libxstat.so (its own
# functions and what they inline from headers; not libc, not the program)
# divided by 2,000.  The program's start-up, the library's first-call
# probes and caches and a stream's opening are in both runs and cancel.
# The files are on a fresh loop-mounted ext4 image, so every kind takes
# its full path (raw inodes for btime behind the filter and for extended
# streams).  LIBXSTAT_URING=never: a stream's read-ahead is chosen by how
# long its first calls take, which under callgrind says "cold" at random;
# the counts are of the hot path.  Valgrind answers statmount(2) with
# ENOSYS: the kinds that need the filesystem's type without an anchor
# (token) look it up on every call, as they do where a sandbox refuses it.
#
# -w prints the counts as a bounds file; -v adds each kind's functions;
# -s each kind's system calls per call (strace, the same two lengths);
# -k runs one kind.  -L BUILD (repeated): this build's bench/instr-loop
# run on the library of each build tree BUILD (its lib/.libs, any commit
# with xstat() and xstat_opendir()), one column each, and the last over
# the first; no bounds are checked.  Exit 0 when every count is within its
# bound plus the tolerance, 1 when one is above, 77 (and why, on stderr)
# when it cannot measure: no valgrind, not root, no loop device or
# mkfs.ext4, or a build (compiler, CFLAGS) or kernel other than the ones
# the bounds were taken on.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
loop=$build/bench/instr-loop
write=0 verbose=0 syscalls=0 only= libs=
while getopts wvsk:L: opt; do
	case $opt in
	w) write=1 ;;
	v) verbose=1 ;;
	s) syscalls=1 ;;
	k) only=$OPTARG ;;
	L) [ -r "$OPTARG/lib/.libs/libxstat.so.1" ] || {
		echo "$0: no $OPTARG/lib/.libs/libxstat.so.1" >&2; exit 2; }
	   libs="$libs $(cd "$OPTARG" && pwd)/lib/.libs" ;;
	*) echo "usage: $0 [-w] [-v] [-s] [-k KIND] [-L BUILD]... [BOUNDS]" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
bounds=${1:-$top/bench/instr-bounds}
short=1000 long=3000

skip() { echo "SKIP: bench/instr-run.sh: $*" >&2; exit 77; }

command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed"
command -v mkfs.ext4 >/dev/null 2>&1 || skip "mkfs.ext4 is not installed"
[ "$(id -u)" = 0 ] || skip "needs root (a loop-mounted ext4 image)"
[ $syscalls = 0 ] || command -v strace >/dev/null 2>&1 ||
	skip "strace is not installed"
[ -x "$loop" ] || { echo "$0: build $loop first" >&2; exit 2; }
[ -r "$bounds" ] || { echo "$0: no bounds file $bounds" >&2; exit 2; }

# The build the bounds hold for: a count is the compiler's as much as ours.
cc=$(sed -n 's/^CC = //p' "$build/Makefile")
cflags=$(sed -n 's/^CFLAGS = //p' "$build/Makefile")
compiler="$(${cc:-cc} -dumpfullversion -dumpversion 2>/dev/null | cut -d. -f1)"
case $(${cc:-cc} --version 2>/dev/null | head -1) in
*clang*) compiler="clang $compiler" ;;
*) compiler="gcc $compiler" ;;
esac
# and the kernel's: what statx answers (the unique mount ID, since 6.8;
# file_getattr, since 6.17) decides which path a request takes
kernel=$(uname -r | cut -d. -f1-2)
want_kernel=$(sed -n 's/^kernel //p' "$bounds")
want_cc=$(sed -n 's/^compiler //p' "$bounds")
want_flags=$(sed -n 's/^cflags //p' "$bounds")
tolerance=$(sed -n 's/^tolerance //p' "$bounds")
if [ $write = 0 ] && [ -z "$libs" ]; then
	[ "$compiler" = "$want_cc" ] ||
		skip "bounds are for $want_cc, this build is $compiler"
	[ "$cflags" = "$want_flags" ] ||
		skip "bounds are for CFLAGS '$want_flags', this build has '$cflags'"
	[ "$kernel" = "$want_kernel" ] ||
		skip "bounds are for Linux $want_kernel, this is $kernel"
fi

work=$(mktemp -d /tmp/xstat-instr.XXXXXX) || exit 2
mounted=
cleanup() {
	[ -n "$mounted" ] && { umount "$work/m" || umount -l "$work/m"; }
	rm -rf "$work"
}
trap cleanup EXIT
export LIBXSTAT_URING=never
trap 'exit 130' INT TERM

truncate -s 64M "$work/img" &&
	mkfs.ext4 -q -F -b 4096 -I 256 -N 8192 \
		-U 6c1b5f4e-0d7a-4c1e-9a51-7e0c3a2b1d90 \
		-E hash_seed=3f2a9c1d-5b4e-4f60-8d7a-1c2b3a4d5e6f "$work/img" >/dev/null 2>&1 ||
	skip "mkfs.ext4 failed"
mkdir "$work/m" && mount -o loop "$work/img" "$work/m" 2>/dev/null ||
	skip "cannot loop-mount an ext4 image"
mounted=1
echo "instr-loop data" > "$work/m/file"
for n in $short $long; do
	mkdir "$work/m/d$n" && (cd "$work/m/d$n" && seq 1 $n | xargs touch) ||
		exit 2
done

# where KIND N: the arguments of instr-loop
where() {
	case $1 in
	dir-*) echo "$1 0 $work/m/d$2" ;;
	*) echo "$1 $2 $work/m/file" ;;
	esac
}

# calls KIND N: one system call name a line, as strace -f logs them
calls() {
	strace -f -qq -o "$work/st.log" "$loop" $(where "$1" "$2") || exit 2
	sed -n 's/^[0-9]* *\([a-z_0-9]*\)(.*/\1/p' "$work/st.log"
}

# count KIND N: "total I" and "FN I" lines for one callgrind run.  Pinned
# flags: no cache or branch simulation, no system time, one profile.
count() {
	set -- $(where "$1" "$2")
	${lib:+env LD_LIBRARY_PATH="$lib"} \
	valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
		--cache-sim=no --branch-sim=no --collect-systime=no \
		--separate-threads=no --dump-instr=no --compress-strings=no \
		--trace-children=no "$loop" "$@" > "$work/vg.log" 2>&1 || {
		cat "$work/vg.log" >&2
		echo "$0: $1 failed under callgrind" >&2
		exit 2
	}
	awk -v OBJ='/libxstat[.]so' -f "$top/bench/instr-count.awk" \
		"$work/cg.out"
}

# per KIND: instructions per call of the library in $lib (empty: this
# build's), "total" and each function per call in $work/per
per() {
	count "$1" $short > "$work/a" && count "$1" $long > "$work/b" || exit 2
	awk -v d=$((long - short)) 'FNR == NR { a[$1] = $2; next }
		{ printf "%s %.1f\n", $1, ($2 - a[$1]) / d }' \
		"$work/a" "$work/b" > "$work/per"
	sed -n 's/^total //p' "$work/per"
}

# functions: the functions of the last per(), half an instruction or more
functions() {
	awk '$1 != "total" && $2 >= 0.5 {
		printf "      %7.1f  %s\n", $2, $1 }' "$work/per" | sort -rn
}

kinds=$(sed -n 's/^kind \([^ ]*\) .*/\1/p' "$bounds")
[ -n "$only" ] && kinds=$only
[ $write = 1 ] && printf '# '
echo "libxstat.so instructions per call (per entry for dir-*):" \
     "($long - $short runs) / $((long - short)); $compiler, CFLAGS '$cflags'," \
     "valgrind $(valgrind --version | sed 's/valgrind-//'), $(uname -r)"

# Side by side: one column per library, the last over the first.
if [ -n "$libs" ]; then
	printf '  %-15s' kind
	for lib in $libs; do
		printf ' %12s' "$(basename "$(dirname "$(dirname "$lib")")")"
	done
	printf '   last/first\n'
	for k in $kinds; do
		printf '  %-15s' "$k"
		first= c= i=0
		for lib in $libs; do
			c=$(per "$k") && [ -n "$c" ] || exit 2
			printf ' %12s' "$c"
			[ -n "$first" ] || first=$c
			i=$((i + 1))
			functions > "$work/fn.$i"
		done
		awk -v a="$first" -v b="$c" 'BEGIN { printf "   %.3f\n", b / a }'
		i=0
		for lib in $libs; do
			i=$((i + 1))
			[ $verbose = 1 ] || break
			echo "    $lib:"
			cat "$work/fn.$i"
		done
	done
	exit 0
fi

[ $write = 1 ] && printf 'compiler %s\ncflags %s\nkernel %s\ntolerance %s\n' \
	"$compiler" "$cflags" "$kernel" "${tolerance:-3}"
lib=
fails=0
for k in $kinds; do
	c=$(per "$k") && [ -n "$c" ] || exit 2
	bound=$(sed -n "s/^kind $k \([0-9.]*\).*/\1/p" "$bounds")
	if [ $write = 1 ]; then
		printf 'kind %s %.0f\n' "$k" "$c"
	elif [ -z "$bound" ]; then
		echo "$0: no bound for $k in $bounds" >&2
		exit 2
	else
		verdict=$(awk -v c="$c" -v b="$bound" -v t="$tolerance" \
			'BEGIN { print c <= b + t ? "PASS" : "FAIL" }')
		[ "$verdict" = PASS ] || fails=1
		awk -v k="$k" -v c="$c" -v b="$bound" -v v="$verdict" \
			'BEGIN { printf "  %s  %-15s %7.1f  bound %5d  x%.3f\n",
				 v, k, c, b, c / b }'
	fi
	[ $verbose = 1 ] && functions
	if [ $syscalls = 1 ]; then
		calls "$k" $short > "$work/sa" && calls "$k" $long > "$work/sb" ||
			exit 2
		awk -v d=$((long - short)) 'FNR == 1 { f++ }
			{ c[$1] += f == 2 ? 1 : -1; t += f == 2 ? 1 : -1 }
			END { printf "      system calls per call: %.2f:", t / d
			      for (s in c) if (c[s] / d >= 0.01)
				      printf " %s %.2f", s, c[s] / d
			      printf "\n" }' "$work/sa" "$work/sb"
	fi
done
exit $fails
