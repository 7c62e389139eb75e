#!/bin/sh
# Instructions per call (callgrind, which another job's load does not
# change) of the per-call cases, side by side for one or more build trees
# (A: the commit before a change, B: after), on one file of a
# loop-mounted ext4 (the raw-inode rows need a device the process may
# open); then per entry of a directory stream (xstat_opendir(),
# xstat_readdir(), xstat_closedir() and what they call) as each tree's
# tool walks a directory of ENTRIES files.  Prints one line per case: the
# count of each tree and B/A.
#
#   sh bench/ir-run.sh BUILD_A [BUILD_B]	as root; CALLS (default 1000),
#						ENTRIES (default 2000)
set -eu
[ "$(id -u)" = 0 ] || { echo "needs root (loop mount)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
calls=${CALLS:-1000}
entries=${ENTRIES:-2000}
. "$(dirname "$0")/scratch.sh"
scratch_dir ir-run
truncate -s 256M "$tmp/img"
mkfs.ext4 -q -F "$tmp/img"
dev=$(losetup -f --show "$tmp/img")
mkdir "$tmp/mnt"
mount "$dev" "$tmp/mnt"
head -c 1000 /dev/urandom >"$tmp/mnt/f"
mkdir "$tmp/mnt/d"
i=0
while [ $i -lt "$entries" ]; do
	: >"$tmp/mnt/d/f$i"
	i=$((i + 1))
done

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

# stream BUILD FORMAT [OPTIONS]: instructions per entry in the streams
stream() {
	b=$1 fmt=$2
	shift 2
	LD_LIBRARY_PATH=$b/lib/.libs valgrind --tool=callgrind \
		--collect-atstart=no --toggle-collect=xstat_opendir \
		--toggle-collect=xstat_readdir --toggle-collect=xstat_closedir \
		--callgrind-out-file=/dev/null \
		"$b/tools/.libs/xstat" -r "$@" -c "$fmt" "$tmp/mnt/d" 2>&1 \
		>/dev/null | awk -v n="$entries" '/Collected :/ {
			printf "%.0f", $NF / n }'
}

for sc in "basic:%i" "+gen:%{gen}" "token:%{change_token}" \
	  "all:%i:-a"; do
	label=stream:${sc%%:*} rest=${sc#*:}
	fmt=${rest%%:*} opt=
	[ "$fmt" != "$rest" ] && opt=${rest#*:}
	printf '%-22s' "$label"
	first= last=
	for b in "$@"; do
		# shellcheck disable=SC2086
		v=$(stream "$b" "$fmt" $opt)
		printf '%12s' "$v"
		[ -z "$first" ] && first=$v
		last=$v
	done
	[ $# -eq 2 ] && awk -v a="$first" -v b="$last" \
		'BEGIN { printf "%8.3f", b / a }'
	echo
done
