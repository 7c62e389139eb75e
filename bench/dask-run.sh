#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/dask-run.sh - libxstat.distributed against xstat -r, in one run.
# From the build tree, as root (FUSE mount, tree in /var/tmp):
#
#	sh bench/dask-run.sh [LINUX_TREE]
#
# 1. Local disk: the records of each tree compared with xstat -r --json,
#    the scan times of 1, 2 and 4 worker processes against xstat -r (the
#    cluster's start-up apart), the measured cost of a task and of an
#    entry.  Trees: LINUX_TREE (an unpacked linux-source-6.1, default
#    /var/tmp/linux-6.1-dask/linux-source-6.1) and a made-up tree of
#    100 directories of 1000 files.
# 2. CPU per entry: xstat -r --json against --local 2 (the whole run less
#    the same over an empty directory, and the tasks' own CPU), in
#    $XD_ROUNDS (5) interleaved rounds, on each tree and on $XD_BIG, a
#    tree too large for the cluster's start-up to drown the figure
#    (default: none; e.g. four hard-linked copies of LINUX_TREE).
# 3. bench/latfs over FUSE, each request answered after $XD_LATENCY_US
#    (2000) microseconds by a multi-threaded server: files/s of
#    $XD_WORKERS (1 4) worker processes ($XD_THREADS threads each:
#    1,8,32) and of xstat -r --threads=N ($XD_TOOL_THREADS), on $XD_DIRS
#    (128) directories of $XD_FILES (125) files, mounted afresh for each
#    run (the kernel keeps what it learns for 30 s, as an NFS client
#    does); $XD_FUSE_ROUNDS (1) interleaved rounds, medians.
#
# $XD_SECTIONS ("1 2 3") chooses the sections run, e.g. XD_SECTIONS=3 for
# the FUSE row alone.
#
# Every worker runs on this machine: a multi-node cluster emulated.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
linux=${1:-/var/tmp/linux-6.1-dask/linux-source-6.1}
py=/usr/bin/python3

make -C "$build" >/dev/null || exit 2
work=$(mktemp -d /tmp/xstat-dask-bench.XXXXXX) || exit 2
mnt=$work/mnt
trap 'fusermount3 -u "$mnt" 2>/dev/null; rm -rf "$work"' EXIT

mkdir "$work/pkg" "$work/pkg/libxstat" "$mnt" || exit 2
for f in "$top"/python/libxstat/*.py "$top"/python/libxstat/py.typed; do
	ln -s "$f" "$work/pkg/libxstat/" || exit 2
done
ext=$($py -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
ln -s "$build/python/.libs/_libxstat$ext" "$work/pkg/libxstat/" || exit 2
export PYTHONPATH="$work/pkg" PYTHONDONTWRITEBYTECODE=1
export LD_LIBRARY_PATH="$build/lib/.libs"
export XSTAT_TOOL="$build/tools/.libs/xstat"
[ -x "$XSTAT_TOOL" ] || XSTAT_TOOL=$build/tools/xstat

sections=${XD_SECTIONS:-1 2 3}
run() {
	case " $sections " in *" $1 "*) return 0 ;; esac
	return 1
}

if run 1 || run 2; then
	# The 100 x 1000 tree.
	mkdir "$work/tree" && (
		cd "$work/tree" || exit 2
		for d in $(seq -w 0 99); do
			mkdir "d$d" && (cd "d$d" && seq -w 0 999 | xargs touch)
		done
	) || exit 2

	trees="$work/tree"
	if [ -f "$linux/Makefile" ]; then
		trees="$linux $trees"
	else
		echo "no Linux tree at $linux: unpack" \
			"/usr/src/linux-source-6.1.tar.xz" >&2
	fi
fi
# shellcheck disable=SC2086
if run 1; then
	$py "$top/bench/dask-bench.py" local $trees || exit 1
fi
# shellcheck disable=SC2086
if run 2; then
	$py "$top/bench/dask-bench.py" cpu "${XD_ROUNDS:-5}" $trees \
		${XD_BIG:-} || exit 1
fi
run 3 || exit 0

${CC:-cc} -O2 -D_FILE_OFFSET_BITS=64 $(pkg-config --cflags fuse3) \
	"$top/bench/latfs.c" $(pkg-config --libs fuse3) -o "$work/latfs" || exit 2
XD_ROUNDS=${XD_FUSE_ROUNDS:-1} $py "$top/bench/dask-bench.py" fuse "$mnt" "${XD_THREADS:-1,8,32}" \
	"$work/latfs" --dirs="${XD_DIRS:-128}" --files="${XD_FILES:-125}" \
	--latency-us="${XD_LATENCY_US:-2000}" -o max_threads=256
