#!/bin/sh
# Directory streams on a loop-mounted ext4 (root): a directory of N files
# (default 100,000), bench/bulk-bench's cases hot, then its cold cases
# (COLD rounds, default 5); then the peak memory of one scan of a
# directory of M entries (default 1,000,000).
#   sh bench/bulk-run.sh [N [M [ROUNDS [COLD]]]]      from the build tree
set -eu
n=${1:-100000}
m=${2:-1000000}
rounds=${3:-11}
cold=${4:-5}
b=bench/bulk-bench
[ -x "$b" ] || { echo "make bench first" >&2; exit 1; }
. "$(dirname "$0")/scratch.sh"
scratch_dir bulk-bench
chmod 755 "$tmp"	# the "nobody" rows run in a child as uid 65534
truncate -s 2G "$tmp/img"
mkfs.ext4 -q -F -N $((m + n + 1000)) "$tmp/img"
dev=$(losetup -f --show "$tmp/img")
mkdir "$tmp/mnt"
mount "$dev" "$tmp/mnt"
mkdir -m 755 "$tmp/mnt/d"
chmod 755 "$tmp/mnt"
echo "# $(uname -r), $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
echo "# ext4 (mkfs.ext4 -N $((m + n + 1000)), 4 KiB blocks, 256-byte inodes, metadata_csum) on $dev"
$b -M "$n" "$tmp/mnt/d"
$b -r "$rounds" "$tmp/mnt/d"
[ "$cold" -gt 0 ] && $b -c -r "$cold" "$tmp/mnt/d"
if [ "$m" -gt 0 ]; then
	mkdir "$tmp/mnt/big"
	$b -M "$m" "$tmp/mnt/big"
	$b -m "$tmp/mnt/big"
	$b -m "$tmp/mnt/d"
fi
