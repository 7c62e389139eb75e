#!/bin/sh
# Changes measured side by side (bench/ab-bench): build A; A' (A's source
# with bench/null-layout.patch: dead code only, which moves every later
# function, so A'/A is what layout alone does between two builds: the
# spread a change must exceed); and build B.  All are made here the same
# way (this build tree's CFLAGS).  A is the source at REV (default HEAD);
# each B is either a patch applied to A's source (bench/plain-*.patch: the
# plain version of a piece of cleverness kept in lib/) or a revision (for
# a piece removed: -a the commit that removed it, B its parent).  As
# root, from the build tree, after 'make bench':
#
#   sh bench/ab-run.sh [-a REV] [-k RUNS] [-R ROUNDS] [-L TREE] B...
#
# Per call: a file on a loop-mounted ext4 (metadata_csum), with statx and
# behind a seccomp filter refusing it (the fallback); per stream: a
# directory of 100,000 files on that ext4 (raw-inode batches for the
# extended mask) and TREE (default Debian's linux-source-6.1 unpacked at
# /var/tmp/linux-6.1/linux-source-6.1, when there).  RUNS processes of
# each (default 2); ROUNDS rounds a stream run (default 9).
set -eu
arev=HEAD
runs=2
rounds=9
tree=/var/tmp/linux-6.1/linux-source-6.1
while getopts a:k:R:L: opt; do
	case $opt in
	a) arev=$OPTARG ;;
	k) runs=$OPTARG ;;
	R) rounds=$OPTARG ;;
	L) tree=$OPTARG ;;
	*) echo "usage: $0 [-a REV] [-k RUNS] [-R ROUNDS] [-L TREE] B..." >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: $0 [-a REV] [-k RUNS] [-R ROUNDS] [-L TREE] B..." >&2; exit 2; }
[ -x bench/ab-bench ] && [ -x bench/bulk-bench ] || { echo "make bench first" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "needs root (loop mount)" >&2; exit 1; }
src=$(sed -n 's/^abs_top_srcdir = //p' Makefile)
cflags=$(sed -n 's/^CFLAGS = //p' Makefile)
. "$(dirname "$0")/scratch.sh"
scratch_dir ab-run

# build REV [PATCH] NAME: $tmp/NAME.so
build() {
	mkdir "$tmp/src-$3"
	git -C "$src" archive "$1" | tar -xf - -C "$tmp/src-$3"
	[ -z "$2" ] || patch -s -d "$tmp/src-$3" -p1 <"$2"
	(cd "$tmp/src-$3" && ./autogen.sh >/dev/null 2>&1 &&
	 ./configure -q CFLAGS="$cflags" >/dev/null &&
	 make -j2 lib/libxstat.la >/dev/null 2>&1) ||
		{ echo "building $1 $2 failed" >&2; exit 1; }
	cp "$tmp/src-$3/lib/.libs/libxstat.so.1" "$tmp/$3.so"
	rm -rf "$tmp/src-$3"
}
build "$arev" "" a
build "$arev" "$src/bench/null-layout.patch" a-copy
n=0
for b in "$@"; do
	n=$((n + 1))
	if [ -f "$b" ]; then
		build "$arev" "$(realpath "$b")" "b$n"
	else
		build "$b" "" "b$n"
	fi
done

truncate -s 1G "$tmp/img"
mkfs.ext4 -q -F -N 110000 "$tmp/img"
dev=$(losetup -f --show "$tmp/img")
mkdir "$tmp/mnt"
mount "$dev" "$tmp/mnt"
head -c 1000 /dev/urandom >"$tmp/mnt/f"
mkdir "$tmp/mnt/d"
bench/bulk-bench -M 100000 "$tmp/mnt/d"

echo "# A: $arev ($(git -C "$src" rev-parse --short "$arev"))"
echo "# $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
n=0
for b in "$@"; do
	n=$((n + 1))
	echo "# B: $b"
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		echo "## $(basename "$b"), run $i"
		ab() { bench/ab-bench -a "$tmp/a.so" -c "$tmp/a-copy.so" \
			-b "$tmp/b$n.so" "$@"; }
		ab -r 201 -n 200 -f "$tmp/mnt/f"
		ab -r 201 -n 200 -s -f "$tmp/mnt/f"
		ab -r "$rounds" -t "$tmp/mnt/d"
		[ ! -d "$tree" ] || ab -r "$rounds" -t "$tree"
	done
done
echo "# load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
