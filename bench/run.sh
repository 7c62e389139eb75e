#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/run.sh - build and run the libxstat benchmarks, count instructions
# (callgrind), system calls (strace -c -f) and heap use (memcheck) per call,
# check the targets and draw the plot.  Run as root from the build tree:
#
#	sh bench/run.sh [OUTDIR]	(default OUTDIR: bench/out)
#
# As root it measures one file on the root filesystem, on a tmpfs and on
# loop-mounted ext4, btrfs and xfs images (where mkfs exists), and walks a
# tree of $XB_FILES (100000) files on the ext4 image.  Not as root: the
# root filesystem only.  Everything it mounts or creates is under one
# mktemp directory in /tmp and removed on exit.
#
# Knobs: XB_ROUNDS (201), XB_CALLS (500 per batch), XB_FILES (100000),
# XB_WALK_ROUNDS (9), XB_COUNT_CALLS (1000).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
bench=$build/bench/xstat-bench
out=${1:-$build/bench/out}
rounds=${XB_ROUNDS:-201}
calls=${XB_CALLS:-500}
nfiles=${XB_FILES:-100000}
wrounds=${XB_WALK_ROUNDS:-9}
ncount=${XB_COUNT_CALLS:-1000}

make -C "$build" bench >/dev/null || exit 2
mkdir -p "$out" || exit 2
rm -f "$out"/*.tsv "$out"/*.txt "$out"/*.dat "$out"/*.md
work=$(mktemp -d /tmp/xstat-bench.XXXXXX) || exit 2
mounts=

cleanup() {
	for m in $mounts; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

have() { command -v "$1" >/dev/null 2>&1; }

# mkimg NAME SIZE_MB MKFS...: a loop-mounted image at $work/NAME
mkimg() {
	name=$1 size=$2
	shift 2
	have "$1" || return 1
	truncate -s "${size}M" "$work/$name.img" &&
		"$@" "$work/$name.img" >/dev/null 2>&1 &&
		mkdir -p "$work/$name" &&
		mount -o loop "$work/$name.img" "$work/$name" || return 1
	mounts="$work/$name $mounts"
}

# Filesystems to measure one file on: label and directory.
fslist="rootfs:$work"
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$work/tmpfs" && mount -t tmpfs -o size=64m xb "$work/tmpfs" &&
		mounts="$work/tmpfs $mounts" && fslist="$fslist tmpfs:$work/tmpfs"
	mkimg ext4 1024 mkfs.ext4 -q -F -N 131072 &&
		fslist="$fslist ext4-loop:$work/ext4"
	mkimg btrfs 256 mkfs.btrfs -q -f && fslist="$fslist btrfs:$work/btrfs"
	mkimg xfs 512 mkfs.xfs -q -f && fslist="$fslist xfs:$work/xfs"
fi

{
	echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "kernel:  $(uname -srm)"
	echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)" \
	     "x $(nproc)"
	echo "libc:    $(ldd --version | head -1)"
	echo "libuv:   $(dpkg-query -W -f '${Version}' libuv1-dev 2>/dev/null)"
	echo "gcc:     $(${CC:-gcc} --version | head -1)"
	echo "cflags:  $(sed -n 's/^CFLAGS = //p' "$build/Makefile")"
	echo "fs:      $fslist"
	echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) at start" \
	     "(other jobs share this machine)"
} | sed "s|$work|\$W|g" > "$out/machine.txt"
cat "$out/machine.txt"

# 1. Time: one hot file per filesystem, both backends, interleaved.
for fs in $fslist; do
	label=${fs%%:*} dir=${fs#*:}
	echo "xstat-bench data" > "$dir/file"
	echo "\$ xstat-bench -r $rounds -n $calls -L $label -f \$W/.../file"
	"$bench" -r "$rounds" -n "$calls" -o "$out/file.tsv" -L "$label" \
		-f "$dir/file" | tee -a "$out/targets.txt"
done

# 2. Time: the walk, on the ext4 image when there is one.
tree=$work/tree walkfs=rootfs
case " $fslist " in
*" ext4-loop:"*) tree=$work/ext4/tree walkfs=ext4-loop ;;
esac
"$bench" -G "$tree" -N "$nfiles"
"$bench" -r "$wrounds" -o "$out/walk.tsv" -L "$walkfs" -t "$tree" |
	tee -a "$out/targets.txt"

# 3. Counts per call, on the ext4 image's file when there is one.
cfile=$work/file clabel=rootfs
case " $fslist " in
*" ext4-loop:"*) cfile=$work/ext4/file clabel=ext4-loop ;;
esac
# syscall_names TRACE: one name per system call in a full strace log.  The
# -c table is not used: strace 6.1 leaves syscalls it does not know (such
# as file_getattr, new in Linux 6.17) out of it.
syscall_names() {
	sed -n 's/^[0-9]* *\([a-z_0-9]*\)(.*/\1/p' "$1"
}
strace_calls() { awk '$NF == "total" { print $4 }' "$1"; }

printf 'backend\tcase\tinstr\tsyscalls\tsyscall_mix\n' > "$out/counts.tsv"
# enosys, eperm: the fallback's cases behind a seccomp filter refusing statx
for b in statx fallback enosys eperm; do
	lb=$b
	case $b in enosys|eperm) lb=fallback ;; esac
	for c in $("$bench" -l | awk -v b="$lb" 'index($2, b) { print $1 }'); do
		"$bench" -b "$b" -c "$c" -n 1 -f "$cfile" 2>/dev/null ||
			continue
		ir=-
		if have valgrind; then
			ir=$(valgrind --tool=callgrind --collect-atstart=no \
				--toggle-collect=measured_loop \
				--callgrind-out-file=/dev/null \
				"$bench" -b "$b" -c "$c" -n "$ncount" \
				-f "$cfile" 2>&1 |
				awk -v n="$ncount" '/Collected :/ {
					printf "%.0f", $NF / n }')
		fi
		sc=- mix=-
		if have strace; then
			strace -f -qq -o "$work/s0" "$bench" -b "$b" -c "$c" \
				-n 0 -f "$cfile"
			strace -f -qq -o "$work/s1" "$bench" -b "$b" -c "$c" \
				-n "$ncount" -f "$cfile"
			syscall_names "$work/s0" > "$work/n0"
			syscall_names "$work/s1" > "$work/n1"
			sc=$(awk -v n="$ncount" 'FNR == 1 { f++ }
				{ t += f == 2 ? 1 : -1 }
				END { printf "%.2f", t / n }' "$work/n0" "$work/n1")
			mix=$(awk -v n="$ncount" 'FNR == 1 { f++ }
				{ c[$1] += f == 2 ? 1 : -1 }
				END { for (s in c) if (c[s] / n >= 0.01)
					printf "%s%s=%.2g", sep, s, c[s] / n,
					sep = " " }' "$work/n0" "$work/n1")
		fi
		printf '%s\t%s\t%s\t%s\t%s\n' "$b" "$c" "$ir" "$sc" "$mix" |
			tee -a "$out/counts.tsv"
	done
done

# 4. Heap: no allocation per call (memcheck's heap summary).
heap_allocs() {
	valgrind --tool=memcheck "$@" 2>&1 |
		sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' |
		tr -d ,
}
if have valgrind; then
	{
	for b in statx fallback; do
		c=xstat:all+extras
		[ $b = fallback ] && c=xstat-fb:all+extras
		"$bench" -l | grep -q "^$c " || c=${c%+extras}
		a1=$(heap_allocs "$bench" -b $b -c $c -n 10 -f "$cfile")
		a2=$(heap_allocs "$bench" -b $b -c $c -n 10000 -f "$cfile")
		w0=$(heap_allocs "$bench" -b $b -c raw-statx -t "$tree")
		w1=$(heap_allocs "$bench" -b $b -c $c -t "$tree")
		v=PASS
		[ "$a1" = "$a2" ] && [ "$w0" = "$w1" ] || v=FAIL
		echo "  $v  [$clabel, $b] heap: $c allocs: 10 calls $a1," \
		     "10000 calls $a2; walk of $nfiles: raw-statx $w0, $c $w1"
	done
	} | tee -a "$out/targets.txt"
fi

# 5. Instruction target: basic at most 150 user-space instructions over
#    the raw syscall.
awk -F'\t' -v fs="$clabel" '$1 == "statx" { ir[$2] = $3 }
	END { d = ir["xstat:basic"] - ir["raw-statx"];
	      printf "  %s  [%s, statx] basic: user-space instructions over raw statx " \
		     "%d <= 150\n", d <= 150 ? "PASS" : "FAIL", fs, d }' \
	"$out/counts.tsv" | tee -a "$out/targets.txt"

# 6. The plot: per-call cost by request mask on the counted filesystem, in
#    raw statx calls (the paired ratios: robust to a busy machine, where
#    medians of absolute times from different rounds are not).
awk -F'\t' -v fs="$clabel" '
	$1 == "file" && $2 == fs { ns[$3 "/" $4] = $6 }
	function v(k) { return (k in ns) ? ns[k] : "?" }
	END {
		n = split("basic +btime +gen +dv all", m, " ")
		print "# mask xstat-statx limit-statx xstat-fallback " \
		      "limit-fallback raw-statx glibc-statx fstatat uv_fs_stat"
		for (i = 1; i <= n; i++) {
			lim_s = m[i] == "+gen" ? "opath+statx+n2h" : \
				m[i] == "+dv" ? "opath+statx+opr" : \
				m[i] == "all" ? "opath+statx+n2h+opr" : \
				"raw-statx"
			lim_f = m[i] == "+gen" ? "opath+fstatat+n2h" : \
				m[i] == "+btime" || m[i] == "+dv" ? \
				"opath+fstatat+key+opr" : m[i] == "all" ? \
				"opath+fstatat+n2h+opr" : "fstatat"
			pe = i == 1
			printf "%s %s %s %s %s %s %s %s %s\n", m[i],
				v("statx/xstat:" m[i]), v("statx/" lim_s),
				v("fallback/xstat-fb:" m[i]),
				v("fallback/" lim_f),
				pe ? v("statx/raw-statx") : "?",
				pe ? v("statx/glibc-statx") : "?",
				pe ? v("statx/fstatat") : "?",
				pe ? v("statx/uv_fs_stat") : "?"
		}
	}' "$out/file.tsv" > "$out/cost-by-mask.dat"
if have gnuplot; then
	gnuplot -e "datafile='$out/cost-by-mask.dat'; \
		outfile='$out/cost-by-mask.png'; fslabel='$clabel'" \
		"$top/bench/plot.gnuplot"
fi

# 7. Markdown tables for RESULTS.md.
{
	echo "### One file, hot cache, on $clabel"
	echo
	echo "| backend | case | ns/call | x raw statx | x limit | limit |" \
	     "class-3 bits | user instr/call | syscalls/call |"
	echo "|---|---|---:|---:|---:|---|---|---:|---|"
	awk -F'\t' -v fs="$clabel" '
		FILENAME ~ /counts/ { ir[$1 "/" $2] = $3; sc[$1 "/" $2] = $5
				      next }
		$1 == "file" && $2 == fs {
			k = $3 "/" $4
			printf "| %s | %s | %.0f | %.3f | %s | %s | %s | %s | %s |\n",
				$3, $4, $5, $6, $8 == "-" ? "" : sprintf("%.3f", $7),
				$8 == "-" ? "" : $8, $9, ir[k], sc[k] }' \
		"$out/counts.tsv" "$out/file.tsv"
	echo
	echo "### The targets per filesystem (median of per-round ratios)"
	echo
	echo "| filesystem | basic / raw statx | +gen / O_PATH+statx+n2h |" \
	     "fallback basic / fstatat | fallback +gen / O_PATH+fstatat+n2h |"
	echo "|---|---:|---:|---:|---:|"
	awk -F'\t' '$1 == "file" { r[$2 "/" $4] = $7; if (!($2 in seen)) {
			seen[$2] = 1; order[n++] = $2 } }
		END { for (i = 0; i < n; i++) { f = order[i]
			printf "| %s | %.3f | %.3f | %.3f | %.3f |\n", f,
				r[f "/xstat:basic"], r[f "/xstat:+gen"],
				r[f "/xstat-fb:basic"], r[f "/xstat-fb:+gen"] } }' \
		"$out/file.tsv"
	echo
	echo "### Walk over $nfiles files on $walkfs (ns per file, median)"
	echo
	echo "| backend | case | ns/file | x raw statx | x limit |"
	echo "|---|---|---:|---:|---:|"
	awk -F'\t' '$1 == "walk" { printf "| %s | %s | %.0f | %.3f | %s |\n",
		$3, $4, $5, $6, $8 == "-" ? "" : sprintf("%.3f", $7) }' \
		"$out/walk.tsv"
	echo
	echo "| backend | case | 1 thread files/s | 2 threads files/s |" \
	     "scaling |"
	echo "|---|---|---:|---:|---:|"
	awk -F'\t' '$1 == "threads" { printf "| %s | %s | %s | %s | %.2f |\n",
		$3, $4, $5, $6, $7 }' "$out/walk.tsv"
	echo
	echo '```'
	grep -E '^  (PASS|FAIL|N/A)' "$out/targets.txt"
	echo '```'
} > "$out/tables.md"

echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) at end" >> "$out/machine.txt"
echo
echo "== summary ($out/targets.txt)"
grep -E '^  (PASS|FAIL|N/A)' "$out/targets.txt"
! grep -q '^  FAIL' "$out/targets.txt"
