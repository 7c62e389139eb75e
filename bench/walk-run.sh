#!/bin/sh
# xstat -r against find and bfs (issue 40's targets), hot cache, wall and
# CPU time (user + system, all threads), the median of ROUNDS interleaved
# rounds, beside the floor: bench/walk-floor, getdents64 + one statx an
# entry with the same statx mask, no library, no output.
#
#   sh bench/walk-run.sh [-l LINUX_TREE] [DIRS [FILES [ROUNDS]]]
#
# from the build tree after 'make' and 'make bench' (root: loop mount).
# Trees: DIRS x FILES empty files (default 100 x 1,000) on a loop-mounted
# ext4, and, with -l, an unpacked source tree on the root file system (the
# Linux 6.1 tree of Debian's linux-source-6.1: tar xJf
# /usr/src/linux-source-6.1.tar.xz -C /var/tmp/linux-6.1).
set -eu
linux=
if [ "${1:-}" = -l ]; then
	linux=$2
	shift 2
fi
dirs=${1:-100}
files=${2:-1000}
rounds=${3:-7}
x=tools/xstat
floor=bench/walk-floor
timer=$(dirname "$0")/walk-time.py
[ -x "$x" ] || { echo "build the tool first (make)" >&2; exit 1; }
[ -x "$floor" ] || { echo "build the floor first (make bench)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "root is needed (loop mount)" >&2; exit 1; }
bfs=$(command -v bfs || true)
. "$(dirname "$0")/scratch.sh"
scratch_dir walk-bench
truncate -s 2G "$tmp/img"
mkfs.ext4 -q -F -N $((dirs * files + dirs + 1000)) "$tmp/img"
dev=$(losetup -f --show "$tmp/img")
mkdir "$tmp/mnt"
mount "$dev" "$tmp/mnt"
t=$tmp/mnt/t
i=0
while [ $i -lt "$dirs" ]; do
	mkdir -p "$t/d$i"
	(cd "$t/d$i" && seq 1 "$files" | sed 's/^/f/' | xargs touch)
	i=$((i + 1))
done
sync
# the libtool wrapper would be timed too: run the program itself
xbin=$(./libtool --mode=execute echo "$x")
LD_LIBRARY_PATH=$PWD/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH

T='	'
# $1: the tree, $2: a label; writes the cases, times them
bench_tree() {
	tree=$1
	f="$tmp/cases"
	fmt='%i %s %T@ %B@\n'
	{
	echo "find -printf${T}find${T}$tree${T}-printf${T}$fmt"
	[ -n "$bfs" ] && echo "bfs -printf${T}$bfs${T}$tree${T}-printf${T}$fmt"
	for n in "" 1 2; do
		echo "xstat -c, threads ${n:-default}${T}$xbin${T}-r${n:+$T--threads=$n}${T}-c${T}%i %s %Y %W${T}$tree"
	done
	for n in 1 2 4; do
		echo "floor -c, $n thread(s)${T}$floor${T}-t${T}$n${T}-m${T}0xb40${T}$tree"
	done
	echo "find -ls${T}find${T}$tree${T}-ls"
	for n in "" 1 2; do
		echo "xstat default, threads ${n:-default}${T}$xbin${T}-r${n:+$T--threads=$n}${T}$tree"
	done
	for n in 1 2 4; do
		echo "floor default, $n thread(s)${T}$floor${T}-t${T}$n${T}-m${T}0xfff${T}$tree"
	done
	if [ "$2" = ext4 ]; then
		echo "find -printf '%i %B@'${T}find${T}$tree${T}-printf${T}%i %B@\n"
		for n in "" 1 2; do
			echo "xstat EXTENDED, threads ${n:-default}${T}$xbin${T}-r${n:+$T--threads=$n}${T}-c${T}%i %W %{gen} %{data_version}${T}$tree"
		done
		echo "floor EXTENDED, 1 thread${T}$floor${T}-t${T}1${T}-m${T}0x900${T}$tree"
	fi
	} >"$f"
	echo "## $2: $(find "$tree" | wc -l) entries; median of $rounds rounds, ms"
	printf '| case | wall | CPU |\n|---|---:|---:|\n'
	/usr/bin/python3 "$timer" "$rounds" "$f" |
		awk -F'\t' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }'
}

echo "# $(uname -r), $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
bench_tree "$t" ext4
[ -z "$linux" ] || bench_tree "$linux" linux
