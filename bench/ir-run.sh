#!/bin/sh
# Instructions per call (callgrind, which another job's load does not
# change) of the per-call cases, side by side for one or more build trees
# (A: the commit before a change, B: after), on one file of a
# loop-mounted ext4 (the raw-inode rows need a device the process may
# open).  Prints one line per case: the count of each tree and B/A.
#
#   sh bench/ir-run.sh BUILD_A [BUILD_B]	as root; CALLS (default 1000)
set -eu
[ "$(id -u)" = 0 ] || { echo "needs root (loop mount)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
calls=${CALLS:-1000}
. "$(dirname "$0")/scratch.sh"
scratch_dir ir-run
truncate -s 256M "$tmp/img"
mkfs.ext4 -q -F "$tmp/img"
dev=$(losetup -f --show "$tmp/img")
mkdir "$tmp/mnt"
mount "$dev" "$tmp/mnt"
head -c 1000 /dev/urandom >"$tmp/mnt/f"

# ir BUILD BACKEND CASE: instructions per call in measured_loop()
ir() {
	valgrind --tool=callgrind --collect-atstart=no \
		--toggle-collect=measured_loop --callgrind-out-file=/dev/null \
		"$1/bench/xstat-bench" -b "$2" -c "$3" -n "$calls" \
		-f "$tmp/mnt/f" 2>&1 |
		awk -v n="$calls" '/Collected :/ { printf "%.0f", $NF / n }'
}

printf '%-22s' "case"
for b in "$@"; do printf '%12s' "$(basename "$b")"; done
[ $# -eq 2 ] && printf '%8s' "B/A"
echo
for bc in statx:xstat:basic statx:xstat:+btime statx:xstat:+gen \
	  statx:xstat:+dv statx:xstat:token statx:xstat:all+extras \
	  fallback:xstat-fb:basic fallback:xstat-fb:token \
	  fallback:xstat-fb:all+extras; do
	backend=${bc%%:*} c=${bc#*:}
	printf '%-22s' "$c"
	set -- "$@"
	first= last=
	for b in "$@"; do
		v=$(ir "$b" "$backend" "$c")
		printf '%12s' "$v"
		[ -z "$first" ] && first=$v
		last=$v
	done
	[ $# -eq 2 ] && awk -v a="$first" -v b="$last" \
		'BEGIN { printf "%8.3f", b / a }'
	echo
done
