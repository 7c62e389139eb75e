#!/bin/sh
# xstat(1)'s backup recipe, run: a tree mirrored to a copy by rsync from
# what one `xstat -r --changes=OLD --save=NEW --names -0` walk a round
# lists (rsync -a --files-from=- --from0 --delete-missing-args --force
# --ignore-times), over rounds of scripted changes (a same-size rewrite
# within one tick, mtime set back by touch -r and touch -d, a rename over
# a name, a move across directories, a hard link, a directory replaced by
# a file and back, chmod -R, a deep new subtree) and random ones
# (tests/changes-mutate.py), some rounds with changes made while the walk
# runs.  After every quiet round the copy must equal the tree byte for
# byte and in mode (tests/changes-treehash.py hashes both), and a second
# copy kept by plain `rsync -a --delete` must still hold the old bytes
# of the scripted rewrite whose size and mtime did not move: the
# oracle's proof that the recipe's list, not rsync's quick check, did it.
#
# As root: loop-mounted ext4, xfs and btrfs and a tmpfs, each as root and
# as nobody (setpriv); else $TMPDIR as the user running it.  3 rounds
# each (quiet, busy, quiet); XSTAT_CHECK_FULL=1: 20 rounds each.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
mutate="$py $here/changes-mutate.py"
treehash="$py $here/changes-treehash.py"

# inner PARENT ROUNDS SEED: the rounds, as the user they run as.
inner() {
	p=$1 rounds=$2 seed=$3
	src=$p/src copy=$p/copy plain=$p/plain snap=$p/snap
	bad=0
	mkdir -p "$src/s" "$src/d1" "$src/d2" "$src/tree/a/b" "$src/rnd" &&
		printf 'back init\n' >"$src/s/back" &&
		printf 'old init\n' >"$src/s/old" &&
		echo over >"$src/d1/over" && echo mover >"$src/d1/mover" &&
		echo leaf >"$src/tree/a/b/leaf" && echo rep >"$src/rep" &&
		$mutate "$src/rnd" "$seed" 40 || return 1
	"$tool" -r --save="$snap" "$src" || { echo "FAIL: first --save"; return 1; }
	rsync -a "$src/" "$copy/" && rsync -a "$src/" "$plain/" || return 1
	i=1
	while [ $i -le "$rounds" ]; do
		s=$src/s
		# same size, within one tick of the write before it
		printf 'one %04d\n' $i >"$s/tick"
		printf 'two %04d\n' $i >"$s/tick"
		# same size, mtime set back: rsync's quick check sees nothing
		touch -r "$s/back" "$s/back.ref"
		printf 'back %04d\n' $i >"$s/back"
		touch -r "$s/back.ref" "$s/back" && rm "$s/back.ref"
		printf 'old %04d\n' $i >"$s/old"
		touch -d '2001-02-03 04:05:06' "$s/old"
		echo "over $i" >"$src/d1/over.new" && mv "$src/d1/over.new" "$src/d1/over"
		if [ -e "$src/d1/mover" ]; then
			mv "$src/d1/mover" "$src/d2/mover"
		else
			mv "$src/d2/mover" "$src/d1/mover"
		fi
		ln "$s/back" "$src/d2/link$i"
		if [ -d "$src/rep" ]; then
			rm -rf "$src/rep" && echo "file $i" >"$src/rep"
		else
			rm -f "$src/rep" && mkdir -p "$src/rep/x/y" &&
				echo "$i" >"$src/rep/x/y/z"
		fi
		if [ $((i % 2)) = 1 ]; then
			chmod -R go-rwx "$src/tree"
		else
			chmod -R go+rX "$src/tree"
		fi
		mkdir -p "$src/deep$i/a/b/c/d/e/f" && echo "$i" >"$src/deep$i/a/b/c/d/e/f/leaf"
		$mutate "$src/rnd" $((seed + i)) 20
		busy=
		if [ $((i % 3)) = 2 ] && [ $i -lt "$rounds" ]; then
			busy=1
			$mutate "$src/rnd" $((seed + 1000 + i)) 60 0.6 &
			mpid=$!
		fi
		# the recipe of xstat(1)
		{ "$tool" -r --changes="$snap" --save="$snap.new" --names -0 "$src"
		  echo $? >"$p/xrc"; } |
			rsync -a --files-from=- --from0 --delete-missing-args \
				--force --ignore-times "$src/" "$copy/" 2>"$p/rsync.err"
		rrc=$?
		xrc=$(cat "$p/xrc")
		rsync -a --delete "$src/" "$plain/" 2>/dev/null
		[ -n "$busy" ] && wait $mpid
		if [ "$xrc" -gt 1 ]; then
			echo "FAIL: round $i: xstat exit status $xrc"
			bad=1
		fi
		mv "$snap.new" "$snap" || bad=1
		if [ -z "$busy" ]; then
			[ $rrc = 0 ] || { echo "FAIL: round $i: rsync exit status $rrc: $(cat "$p/rsync.err")"; bad=1; }
			$treehash "$src" >"$p/h.src" && $treehash "$copy" >"$p/h.copy"
			if ! cmp -s "$p/h.src" "$p/h.copy"; then
				echo "FAIL: round $i: the copy differs:"
				diff "$p/h.src" "$p/h.copy" | head -20
				bad=1
			fi
			if cmp -s "$src/s/back" "$plain/s/back"; then
				echo "FAIL: round $i: plain rsync -a copied the rewrite with its mtime set back (the test proves nothing)"
				bad=1
			fi
		fi
		i=$((i + 1))
	done
	return $bad
}

if [ "${1:-}" = inner ]; then
	shift
	inner "$@"
	exit $?
fi

command -v rsync >/dev/null || { echo "SKIP: no rsync" >&2; exit 77; }
[ -x $py ] || { echo "SKIP: no $py" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-rsync.XXXXXX") || exit 1
chmod 755 "$tmp"
mounts= loops=
cleanup() {
	for m in $mounts; do umount "$m" 2>/dev/null; done
	for l in $loops; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
if ! "$tool" -r --changes=/dev/null "$tmp" 2>"$tmp/err" &&
	grep -q 'without simdjson' "$tmp/err"; then
	echo "SKIP: xstat was built without simdjson" >&2
	exit 77
fi
rounds=3
[ "${XSTAT_CHECK_FULL:-0}" = 1 ] && rounds=20
seed=${XSTAT_RSYNC_SEED:-$(date +%s)}
echo "seed $seed (XSTAT_RSYNC_SEED=$seed repeats it), $rounds rounds"
status=0 ran=0
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"

# one LABEL PARENT [as nobody]
one() {
	label=$1 p=$2
	shift 2
	mkdir -p "$p"
	[ $# -gt 0 ] && chown 65534:65534 "$p"
	if "$@" sh "$0" inner "$p" "$rounds" "$seed"; then
		echo "ok $label"
	else
		echo "FAIL: $label"
		status=1
	fi
	ran=$((ran + 1))
}

both() {
	one "$1, root" "$2/r"
	if ! command -v setpriv >/dev/null; then
		echo "SKIP-part: $1 as nobody: no setpriv" >&2
	elif ! $nobody sh -c 'test -r "$1" && test -x "$2"' - "$0" "$tool"
	then
		echo "SKIP-part: $1 as nobody: nobody cannot read $0 or run $tool (a build tree under a private directory)" >&2
	else
		one "$1, nobody" "$2/n" $nobody
	fi
}

if [ "$(id -u)" != 0 ]; then
	one "\$TMPDIR, $(id -un)" "$tmp/t"
	echo "note: the loop-mounted filesystems need root" >&2
else
	for fs in ext4 xfs btrfs tmpfs; do
		m=$tmp/$fs.mnt
		mkdir "$m"
		if [ $fs = tmpfs ]; then
			mount -t tmpfs -o mode=755 tmpfs "$m" || { echo "FAIL: mount tmpfs"; status=1; continue; }
			mounts="$mounts $m"
			both $fs "$m"
			continue
		fi
		if ! command -v mkfs.$fs >/dev/null; then
			echo "SKIP-part: $fs: no mkfs.$fs" >&2
			continue
		fi
		truncate -s 320M "$tmp/$fs.img"
		case $fs in
		ext4) mkfs.ext4 -q -F "$tmp/$fs.img" ;;
		*) mkfs.$fs -q -f "$tmp/$fs.img" >/dev/null ;;
		esac || { echo "FAIL: mkfs.$fs"; status=1; continue; }
		l=$(losetup -f --show "$tmp/$fs.img" 2>/dev/null) ||
			{ echo "SKIP-part: $fs: no loop device" >&2; continue; }
		loops="$loops $l"
		mount "$l" "$m" || { echo "FAIL: mount $fs"; status=1; continue; }
		mounts="$m $mounts"
		chmod 755 "$m"
		both $fs "$m"
	done
fi
[ $ran -gt 0 ] || { echo "SKIP: nothing could run" >&2; exit 77; }
exit $status
