#!/bin/sh
# One change measured side by side (bench/ab-bench): this build tree's
# library (A, and a copy of A, whose ratio to A is the run's own spread)
# against build B, made here from the source at REV (default HEAD) with
# PATCH applied.  B is the plain version of a piece of cleverness kept in
# lib/ (-p bench/plain-*.patch), or the commit before one was removed
# (-r REV).  As root, from the build tree, after 'make bench':
#
#   sh bench/ab-run.sh [-r REV] [-p PATCH] [-k RUNS] [-R ROUNDS] [-L TREE]
#
# Per call: a file on a loop-mounted ext4 (metadata_csum), with statx and
# behind a seccomp filter refusing it (the fallback); per stream: a
# directory of 100,000 files on that ext4 (raw-inode batches for the
# extended mask) and TREE (default Debian's linux-source-6.1 unpacked at
# /var/tmp/linux-6.1/linux-source-6.1, when there).  RUNS processes of
# each (default 2); ROUNDS rounds a stream run (default 9).
set -eu
rev=HEAD
patch=
runs=2
rounds=9
tree=/var/tmp/linux-6.1/linux-source-6.1
while getopts r:p:k:R:L: opt; do
	case $opt in
	r) rev=$OPTARG ;;
	p) patch=$(realpath "$OPTARG") ;;
	k) runs=$OPTARG ;;
	R) rounds=$OPTARG ;;
	L) tree=$OPTARG ;;
	*) echo "usage: $0 [-r REV] [-p PATCH] [-k RUNS] [-R ROUNDS] [-L TREE]" >&2
	   exit 2 ;;
	esac
done
ab=bench/ab-bench
lib=lib/.libs/libxstat.so.1
[ -x "$ab" ] && [ -f "$lib" ] || { echo "make && make bench first" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "needs root (loop mount)" >&2; exit 1; }
src=$(sed -n 's/^abs_top_srcdir = //p' Makefile)
cflags=$(sed -n 's/^CFLAGS = //p' Makefile)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ab-run.XXXXXX")
dev=
cleanup() {
	umount "$tmp/mnt" 2>/dev/null || true
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# B: REV's source, PATCH applied, built as this tree was (CFLAGS)
mkdir "$tmp/b"
git -C "$src" archive "$rev" | tar -xf - -C "$tmp/b"
[ -z "$patch" ] || patch -s -d "$tmp/b" -p1 <"$patch"
(cd "$tmp/b" && ./autogen.sh >/dev/null 2>&1 &&
 ./configure -q CFLAGS="$cflags" >/dev/null &&
 make -j2 lib/libxstat.la >/dev/null 2>&1) || { echo "building B failed" >&2; exit 1; }
cp "$lib" "$tmp/a.so"
cp "$lib" "$tmp/a-copy.so"
cp "$tmp/b/lib/.libs/libxstat.so.1" "$tmp/b.so"

truncate -s 1G "$tmp/img"
mkfs.ext4 -q -F -N 110000 "$tmp/img"
dev=$(losetup -f --show "$tmp/img")
mkdir "$tmp/mnt"
mount "$dev" "$tmp/mnt"
head -c 1000 /dev/urandom >"$tmp/mnt/f"
mkdir "$tmp/mnt/d"
bench/bulk-bench -M 100000 "$tmp/mnt/d"

ab() { "$ab" -a "$tmp/a.so" -c "$tmp/a-copy.so" -b "$tmp/b.so" "$@"; }
echo "# A: this build tree ($(git -C "$src" describe --always --dirty 2>/dev/null))"
echo "# B: $rev${patch:+ + $(basename "$patch")}"
echo "# $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	echo "## run $i"
	ab -r 201 -n 200 -f "$tmp/mnt/f"
	ab -r 201 -n 200 -s -f "$tmp/mnt/f"
	ab -r "$rounds" -t "$tmp/mnt/d"
	[ ! -d "$tree" ] || ab -r "$rounds" -t "$tree"
done
echo "# load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
