#!/bin/sh
# xstat -r against find -printf and bfs (issue 24's targets) on a
# loop-mounted ext4 (root): a tree of DIRS directories x FILES files
# (default 100 x 1,000), the fields of find's '%i %s %T@ %B@', hot and
# cold (drop_caches before each cold round: run it on a quiet machine
# only), xstat with 1 and 2 threads, and with EXTENDED fields (generation,
# data version: raw inodes, root).  Prints the median of ROUNDS, in ms.
#   sh bench/walk-run.sh [DIRS [FILES [ROUNDS]]]    from the build tree
set -eu
dirs=${1:-100}
files=${2:-1000}
rounds=${3:-7}
x=tools/xstat
[ -x "$x" ] || { echo "build the tool first (make)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "root is needed (loop mount)" >&2; exit 1; }
bfs=$(command -v bfs || true)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/walk-bench.XXXXXX")
dev=
cleanup() {
	umount "$tmp/mnt" 2>/dev/null || true
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
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

now() { date +%s%N; }
# $1 hot|cold, rest: the command; prints the median wall time in ms
measure() {
	mode=$1
	shift
	r=0
	: >"$tmp/times"
	while [ $r -lt "$rounds" ]; do
		[ "$mode" = cold ] && sync && echo 3 >/proc/sys/vm/drop_caches
		s=$(now)
		"$@" >/dev/null
		e=$(now)
		echo $(((e - s) / 1000)) >>"$tmp/times"
		r=$((r + 1))
	done
	sort -n "$tmp/times" | awk '{ v[NR] = $1 }
		END { printf "%.1f", v[int((NR + 1) / 2)] / 1000 }'
}

echo "# $(uname -r), $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
echo "# ext4 on $dev: $dirs dirs x $files files; median of $rounds rounds, ms"
printf '%-44s %10s %10s\n' case hot cold
row() {
	name=$1
	shift
	"$@" >/dev/null	# warm, and fail here rather than in a timing
	printf '%-44s %10s %10s\n' "$name" "$(measure hot "$@")" \
		"$(measure cold "$@")"
}
row "find -printf '%i %s %T@ %B@'" find "$t" -printf '%i %s %T@ %B@\n'
if [ -n "$bfs" ]; then
	row "bfs -printf '%i %s %T@ %B@'" "$bfs" "$t" -printf '%i %s %T@ %B@\n'
else
	echo "# bfs is not installed (apt-get install bfs): no bfs row"
fi
for n in 1 2; do
	row "xstat -r --threads=$n (same fields)" "$xbin" -r --threads=$n \
		-m 0xfff -c '%i %s %.9Y %.9W' "$t"
done
for n in 1 2; do
	row "xstat -r --threads=$n EXTENDED (+gen, dv)" "$xbin" -r \
		--threads=$n -c '%i %s %.9Y %.9W %{gen} %{data_version}' "$t"
done
