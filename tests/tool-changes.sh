#!/bin/sh
# xstat -r --changes=SNAP (issue 41): a scripted mix of changes - the
# adversarial ones (same-size rewrite within one tick, a write with mtime
# set back by touch -r, chmod -R, hard links added, unlink and create of
# a name, rename over a name whose inode number the new file reuses where
# the filesystem gives it, renames, entries added and removed) - made to a
# tree after its snapshot; every line of --changes --json is checked
# against what the script did to that name, and every name the script
# changed must be reported.  Rules: a name left alone is not reported or
# "unproven"; nothing chmod'ed or hard-linked is "data"; nothing that was
# not recreated is "replaced"; a surviving directory is never new, gone
# or replaced.
#
# Runs in $TMPDIR with statx, with statx refused (seccomp, EPERM), as root
# with the kernel saying it has no huge pages (the snapshot mapped), and as
# the user nobody; as root also on loop-mounted ext4, xfs, btrfs and
# tmpfs, the same three ways, the first three filesystems unmounted and
# mounted again between a snapshot and its comparison (on another loop
# device: nothing may turn into another file).  Cases whose tool (mkfs.*, setpriv) is missing say so.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
seccomp=${top_builddir:-.}/tests/seccomp-run
py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-changes.XXXXXX") || exit 1
chmod 755 "$tmp"
mounts=
cleanup() {
	for m in $mounts; do umount "$m" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
status=0
ran=0
fail() {
	echo "FAIL: $*"
	status=1
}

if ! "$tool" -r --changes=/dev/null "$tmp" 2>"$tmp/err" &&
	grep -q 'without simdjson' "$tmp/err"; then
	echo "SKIP: xstat was built without simdjson"
	exit 77
fi

# The tree, as the snapshot sees it.
make_tree() {
	d=$1
	mkdir -p "$d/keep" "$d/cr/sub" "$d/gonedir" "$d/keepdir"
	for n in k1 k2 c1 h1 r1 m1 u1 o1 n1 g1; do
		echo "hello $n" >"$d/$n"
	done
	for n in a b c; do
		echo "$n" >"$d/cr/$n"
		echo "$n" >"$d/cr/sub/$n"
		echo "$n" >"$d/keep/$n"
	done
	echo x >"$d/gonedir/x"
	echo y >"$d/keepdir/y"
	chmod -R a+rX "$d"
}

# The mix.  Writes "NAME CHANGE" lines of what it did to $d.expect.
mix() {
	d=$1
	e=$1.expect
	: >"$e"
	chmod 600 "$d/c1"; echo "c1 metadata" >>"$e"
	chmod -R g+w "$d/cr"
	for n in cr cr/sub cr/a cr/b cr/c cr/sub/a cr/sub/b cr/sub/c; do
		echo "$n metadata" >>"$e"
	done
	ln "$d/h1" "$d/h1.link"
	echo "h1 metadata" >>"$e"; echo "h1.link new" >>"$e"
	# same size, same tick as the write that made it, possibly
	printf 'HELLO r1\n' >"$d/r1.tmp" && cat "$d/r1.tmp" >"$d/r1"
	rm "$d/r1.tmp"
	echo "r1 data" >>"$e"
	touch -r "$d/m1" "$d/m1.ref"
	printf 'HELLO m1\n' >"$d/m1"
	touch -r "$d/m1.ref" "$d/m1"; rm "$d/m1.ref"
	echo "m1 metadata" >>"$e"
	rm "$d/u1"; echo "hello u1" >"$d/u1"
	echo "u1 replaced" >>"$e"
	# rename over: the new file takes o1's inode number where it can
	ino=$(stat -c %i "$d/o1")
	rm "$d/o1"; echo "hello o1" >"$d/o1.tmp"
	[ "$(stat -c %i "$d/o1.tmp")" = "$ino" ] && reused=$((reused + 1))
	mv "$d/o1.tmp" "$d/o1"
	echo "o1 replaced" >>"$e"
	mv "$d/n1" "$d/n1.moved"; echo "n1.moved moved n1" >>"$e"
	echo new >"$d/new1"; echo "new1 new" >>"$e"
	mkdir "$d/newdir"; echo z >"$d/newdir/z"
	echo "newdir new" >>"$e"; echo "newdir/z new" >>"$e"
	rm "$d/g1"; echo "g1 gone" >>"$e"
	rm -r "$d/gonedir"
	echo "gonedir gone" >>"$e"; echo "gonedir/x gone" >>"$e"
}

# check LABEL DIR OUTPUT: every reported line against the script.
check() {
	label=$1 d=$2 out=$3
	$py - "$label" "$d" "$out" "$d.expect" <<'EOF' || status=1
import json, os, sys
label, root, out, expect = sys.argv[1:]
want = {}
for line in open(expect):
    name, change, *rest = line.split()
    want[name] = (change, rest[0] if rest else None)
got = {}
bad = 0
def fail(msg):
    global bad
    print("FAIL: %s: %s" % (label, msg))
    bad = 1
for line in open(out):
    o = json.loads(line)
    p = o["path"]
    name = os.path.relpath(p, root) if p != root else "."
    if name in got:
        fail("%s reported twice" % name)
    got[name] = (o["change"], o.get("from"), o.get("also"))
no_btime = os.environ.get("NO_BTIME") == "1"
for name, (change, frm) in want.items():
    g = got.get(name)
    if g is None:
        fail("%s: %s not reported" % (name, change))
        continue
    if change == "moved":
        if g[0] != "moved" or os.path.relpath(g[1], root) != frm:
            fail("%s: %s, want moved from %s" % (name, g, frm))
        if g[2] == "data":
            fail("%s: a rename is no data change" % name)
        continue
    if change == "replaced" and g[0] == "data" and no_btime:
        continue    # no creation time nor generation to tell
    if g[0] != change:
        fail("%s: %s, want %s" % (name, g[0], change))
for name, g in got.items():
    if name in want:
        continue
    full = os.path.join(root, name) if name != "." else root
    if os.path.isdir(full) and not os.path.islink(full):
        if g[0] not in ("data", "metadata", "unproven"):
            fail("directory %s: %s" % (name, g[0]))
        continue
    if g[0] != "unproven":
        fail("%s left alone, reported %s" % (name, g[0]))
print("%s: %d lines, %d changes made, all seen as made" %
      (label, len(got), len(want)) if not bad else "")
sys.exit(bad)
EOF
}

# run LABEL DIR [REMOUNT] -- PREFIX...: snapshot, (remount,) mix, changes.
run() {
	label=$1 d=$2 remount=$3
	shift 4
	make_tree "$d"
	# outside the racy window of the snapshot's walk (xstat_compare(3))
	sleep 1.1
	"$@" "$tool" -r --json --change-token "$d" >"$d.snap" ||
		{ fail "$label: snapshot failed"; return; }
	[ -n "$remount" ] && { eval "$remount" || { fail "$label: remount"; return; }; }
	mix "$d"
	"$@" "$tool" -r --json --changes="$d.snap" "$d" >"$d.out"
	rc=$?
	[ $rc = 1 ] || fail "$label: exit status $rc, want 1"
	check "$label" "$d" "$d.out"
	# Nothing changed since: only "unproven" may be left.
	"$@" "$tool" -r --json --change-token "$d" >"$d.snap2"
	sleep 1.1
	"$@" "$tool" -r --changes="$d.snap2" "$d" >"$d.out2"
	rc=$?
	if grep -v '^unproven ' "$d.out2"; then
		fail "$label: reported without a change"
	fi
	[ $rc = 0 ] || [ -s "$d.out2" ] || fail "$label: exit status $rc"
	ran=$((ran + 1))
	echo "$label: done at $(date +%T)"
}

reused=0
run tmpdir "$tmp/plain" "" --
export NO_BTIME=1
run "statx refused" "$tmp/eperm" "" -- "$seccomp" -e EPERM -s statx --
unset NO_BTIME
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir "$tmp/nobody" && chmod 777 "$tmp/nobody"
	run nobody "$tmp/nobody/t" "" -- setpriv --reuid=65534 --regid=65534 \
		--clear-groups
fi
# The snapshot is read into huge pages, or mapped where the kernel says
# it gives none or the process's memory is limited to less than eight
# times its size (tools/hugemem.c: huge_read_fits()).  The answers must
# not differ; strace shows which way was taken.
thp=/sys/kernel/mm/transparent_hugepage/enabled
in_ns() {	# in_ns FILE TARGET CMD...: CMD with FILE bound over TARGET
	unshare -m sh -c 'mount --bind "$0" "$1" && shift && exec "$@"' "$@"
}
# way LABEL WANT CMD...: --changes by CMD maps the snapshot (WANT mapped)
# or reads it (WANT read)
way() {
	label=$1 want=$2
	shift 2
	"$@" strace -f -o "$tmp/trace" -e trace=mmap "$tool" -r \
		--changes="$tmp/plain.snap" "$tmp/plain" >/dev/null 2>&1
	rc=$?
	# the tree changed since plain.snap: 1, as in run()
	[ $rc = 1 ] || fail "$label: exit status $rc, want 1"
	if grep -q 'MAP_POPULATE' "$tmp/trace"; then got=mapped; else got=read; fi
	[ "$got" = "$want" ] || fail "$label: the snapshot $got, want $want"
}
if [ "$(id -u)" = 0 ] && [ -f "$thp" ] && command -v unshare >/dev/null &&
	echo 'always madvise [never]' >"$tmp/thp-never" &&
	in_ns "$tmp/thp-never" "$thp" true 2>/dev/null; then
	run "huge pages off" "$tmp/nothp" "" -- in_ns "$tmp/thp-never" "$thp"
	if command -v strace >/dev/null; then
		grep -q '\[never\]' "$thp" && want=mapped || want=read
		way "as it is" $want
		way "huge pages off" mapped in_ns "$tmp/thp-never" "$thp"
		# every cgroup of this process limited to 4 KiB
		mkdir "$tmp/cg"
		while IFS=: read -r _ ctl path; do
			case $ctl in
			"")	mkdir -p "$tmp/cg$path" &&
				echo 4096 >"$tmp/cg$path/memory.max" ;;
			*memory*) mkdir -p "$tmp/cg/memory$path" &&
				echo 4096 >"$tmp/cg/memory$path/memory.limit_in_bytes" ;;
			esac
		done </proc/self/cgroup
		way "memory limited" mapped in_ns "$tmp/cg" /sys/fs/cgroup
	else
		echo "note: which way the snapshot is read: no strace"
	fi
else
	echo "note: huge pages off: needs root, unshare and $thp"
fi

# The same filesystem with statx refused (the fallback) and as nobody:
# in make check on ext4 and tmpfs only (the snapshot and its comparison
# are the same code on every filesystem; the fallback's probes of xfs and
# btrfs have tests of their own), on all under XSTAT_CHECK_FULL=1.
variants() {
	case $1 in
	ext4|tmpfs) ;;
	*)	if [ "${XSTAT_CHECK_FULL:-}" != 1 ]; then
			echo "note: $1, statx refused and nobody: sampled out" \
				"(XSTAT_CHECK_FULL=1 runs them)"
			return 0
		fi ;;
	esac
	export NO_BTIME=1
	run "$1, statx refused" "$2/e" "" -- "$seccomp" -e EPERM -s statx --
	unset NO_BTIME
	if command -v setpriv >/dev/null; then
		chmod 755 "$2"
		run "$1, nobody" "$2/n" "" -- setpriv --reuid=65534 \
			--regid=65534 --clear-groups
	fi
}

# Loop images: root, loop devices, mkfs.
loop_fs() {
	fs=$1
	img=$tmp/$fs.img m=$tmp/$fs.mnt
	mkdir "$m"
	if [ "$fs" = tmpfs ]; then
		mount -t tmpfs tmpfs "$m" || return 1
		mounts="$mounts $m"
		run "$fs" "$m/t" "" --
		variants "$fs" "$m"
		return 0
	fi
	command -v "mkfs.$fs" >/dev/null || { echo "note: no mkfs.$fs"; return 0; }
	truncate -s 300M "$img"
	case $fs in
	ext4) mkfs.ext4 -q -F "$img" ;;
	*) "mkfs.$fs" -q -f "$img" >/dev/null ;;
	esac || { fail "mkfs.$fs"; return 1; }
	# A device of our own stays attached over the remount, so that
	# the image comes back on another loop device.
	hold=$(losetup -f --show "$img") || { echo "note: no loop device"; return 0; }
	mount "$hold" "$m" || { losetup -d "$hold"; fail "mount $fs"; return 1; }
	mounts="$mounts $m"
	truncate -s 1M "$tmp/dummy.img"
	run "$fs, remounted" "$m/t" \
		"umount '$m' && losetup -d '$hold' && \
		 dummy=\$(losetup -f --show '$tmp/dummy.img') && \
		 mount -o loop '$img' '$m'" --
	variants "$fs" "$m"
	umount "$m"
	[ -n "${dummy:-}" ] && losetup -d "$dummy"
	dummy=
	return 0
}
if [ "$(id -u)" = 0 ] && [ -e /dev/loop-control ]; then
	for fs in ext4 xfs btrfs tmpfs; do
		loop_fs $fs
	done
else
	echo "note: the loop-mounted filesystems need root and loop devices"
fi
echo "rename over that reused the inode number: $reused times"
[ $ran -gt 0 ] || exit 77
exit $status
