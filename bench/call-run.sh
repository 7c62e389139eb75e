#!/bin/sh
# Per-call figures of bench/RESULTS.md: bench/xstat-bench on a file of a
# loop-mounted ext4 (1 GiB, metadata_csum: the raw-inode rows need a
# device the process may open), both backends and the two seccomp
# sandboxes, ROUNDS interleaved rounds of CALLS calls (default 201 x 200).
#
#   sh bench/call-run.sh [ROUNDS [CALLS]]     from the build tree, as root
set -eu
rounds=${1:-201}
calls=${2:-200}
b=bench/xstat-bench
[ -x "$b" ] || { echo "make bench first" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "needs root (loop mount)" >&2; exit 1; }
. "$(dirname "$0")/scratch.sh"
scratch_dir call-run
truncate -s 1G "$tmp/img"
mkfs.ext4 -q -F "$tmp/img"
dev=$(losetup -f --show "$tmp/img")
mkdir "$tmp/mnt"
mount "$dev" "$tmp/mnt"
head -c 1000 /dev/urandom >"$tmp/mnt/f"
echo "# $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
rc=0
"$b" -r "$rounds" -n "$calls" -L ext4-loop -f "$tmp/mnt/f" || rc=$?
echo "# load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
exit "$rc"	# 1: a target missed (the harness's FAIL lines)
