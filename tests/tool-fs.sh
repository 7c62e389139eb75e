#!/bin/sh
# xstat -f against coreutils stat -f, byte for byte: the default layout,
# -t and every directive (with flags and widths), on the file systems at
# hand: a tmpfs, /proc, /sys, and as root loop-mounted ext4, xfs and
# btrfs (each skipped when its mkfs is missing).  Only quiet file systems
# (a fresh mount of our own, or one whose counts do not move).
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
if ! stat -f -c %T / >/dev/null 2>&1; then
	echo "SKIP: coreutils stat -f is not available" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-fs.XXXXXX")
mnts=
devs=
cleanup() {
	for m in $mnts; do umount "$m" 2>/dev/null; done
	for d in $devs; do losetup -d "$d" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
n=0
checked=

# $1: a label, $2: a path on the file system
check_fs() {
	label=$1
	p=$2
	for args in "" "-t" \
		"-c %n|%i|%l|%t|%T|%s|%S|%b|%f|%a|%c|%d|%%" \
		"-c [%-20T][%12b][%-8i][%010c][%#x][%N][%Q][%5t]" \
		"--printf=%T\t%l\n"; do
		# shellcheck disable=SC2086
		exp=$(stat -f $args "$p" 2>&1; echo "status $?")
		# shellcheck disable=SC2086
		got=$("$tool" -f $args "$p" 2>&1; echo "status $?")
		n=$((n + 1))
		[ "$got" = "$exp" ] || {
			echo "FAIL $label -f $args:"
			echo "  stat:  $exp"
			echo "  xstat: $got"
			fail=1
		}
	done
	checked="$checked $label"
}

if mkdir "$tmp/tmpfs" && mount -t tmpfs -o size=4m xstat-test "$tmp/tmpfs" \
	2>/dev/null; then
	mnts="$tmp/tmpfs $mnts"
	check_fs tmpfs "$tmp/tmpfs"
fi
[ -d /proc/self ] && check_fs proc /proc
[ -d /sys/kernel ] && check_fs sysfs /sys
# "-" and a missing file: stat's messages and status
for p in - "$tmp/missing"; do
	exp=$(stat -f "$p" 2>&1 </dev/null; echo "status $?")
	got=$("$tool" -f "$p" 2>&1 </dev/null; echo "status $?")
	exp=$(printf '%s\n' "$exp" | sed 's/^stat:/xstat:/')
	n=$((n + 1))
	[ "$got" = "$exp" ] || { echo "FAIL $p: '$got', not '$exp'"; fail=1; }
done

if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1; then
	for fs in ext4 xfs btrfs; do
		command -v mkfs.$fs >/dev/null 2>&1 || {
			echo "note: mkfs.$fs is missing: $fs not checked"
			continue
		}
		truncate -s 300M "$tmp/$fs.img"
		mkfs.$fs -q "$tmp/$fs.img" >/dev/null 2>&1 ||
			mkfs.$fs "$tmp/$fs.img" >/dev/null 2>&1 || continue
		d=$(losetup -f --show "$tmp/$fs.img" 2>/dev/null) || continue
		devs="$d $devs"
		mkdir "$tmp/$fs"
		mount "$d" "$tmp/$fs" 2>/dev/null || continue
		mnts="$tmp/$fs $mnts"
		check_fs $fs "$tmp/$fs"
	done
else
	echo "note: not root: no loop-mounted ext4, xfs, btrfs"
fi
echo "checked:$checked; $n comparisons"
[ -n "$checked" ] || { echo "SKIP: no file system to check" >&2; exit 77; }
exit $fail
