#!/bin/sh
# %{why_missing} and JSON's "why_missing" (xstat(1)): each requested class
# (3) field the result lacks, with its reason, in the spelling xstat(1)
# documents, against what the machine itself says:
#  - a tmpfs file (stat -f says tmpfs): no data version, "no_source";
#  - as root, a file on an ext4 whose device root's own open is refused
#    (sh's redirection from the node sysfs names): "refused";
#  - a field not asked for is not listed; nothing missing prints "-" and
#    {}; the directive and the JSON member say the same;
#  - every XSTAT_WHY_* of the header has its spelling in xstat(1).
# A condition the machine lacks is skipped with its reason (77 if all).
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
top_srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-why.XXXXXX")
mnt=
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0 ran=0
. "$(dirname "$0")/quiet-cycle.sh"

# $1 label, $2 got, $3 want
same() {
	if [ "$2" = "$3" ]; then
		echo "ok $1: $2"
	else
		echo "FAIL $1: '$2', want '$3'"
		fail=1
	fi
}

# "why_missing" of the one JSON record on stdin, as FIELD=REASON,...
json_why() {
	python3 -c 'import json, sys
w = json.loads(sys.stdin.read())["why_missing"]
print("null" if w is None else ",".join("%s=%s" % kv for kv in w.items()) or "-")'
}

# $1 label, $2 file, $3 the reasons wanted for -e (gen and data version)
check_file() {
	same "$1: %{why_missing}" \
		"$("$tool" -e -c '%{why_missing}' "$2")" "$3"
	if command -v python3 >/dev/null 2>&1; then
		same "$1: JSON" "$("$tool" --json -e "$2" | json_why)" "$3"
	fi
	ran=1
}

# Spelling: one per code of the header, each in xstat(1).
for code in $(sed -n 's/^#define XSTAT_WHY_\([A-Z_]*\)[[:space:]].*/\1/p' \
		"$top_srcdir/include/xstat.h"); do
	word=$(echo "$code" | tr 'A-Z' 'a-z')
	grep -q "^\.B $word\$\|^\.BR $word " "$top_srcdir/man/man1/xstat.1" ||
		{ echo "FAIL: xstat(1) does not spell XSTAT_WHY_$code ($word)"
		  fail=1; }
done

# Nothing class (3) asked: nothing listed.
: >"$tmp/f"
same "no class (3) field asked" \
	"$("$tool" -c '%n %{why_missing}' "$tmp/f")" "$tmp/f -"

# tmpfs: ours as root, else /dev/shm.
dir=
if [ "$(id -u)" = 0 ] && mkdir "$tmp/mnt" &&
   mount -t tmpfs -o size=64k none "$tmp/mnt" 2>/dev/null; then
	mnt=$tmp/mnt
	dir=$mnt
elif [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
     [ -w /dev/shm ]; then
	dir=/dev/shm
fi
if [ -n "$dir" ]; then
	f=$dir/xstat-why.$$
	: >"$f"
	same "oracle: stat -f" "$(stat -f -c %T "$f")" tmpfs
	# tmpfs's generation comes from its file handles.
	if why=$("${XSTAT_PROBE:-./tests/th-probe}" handles "$f"); then
		check_file tmpfs "$f" data_version=no_source
	else
		echo "SKIP-part: tmpfs: $why" >&2
	fi
	rm -f "$f"
else
	echo "SKIP: no tmpfs to write to" >&2
fi

# Root on an ext4 whose device refuses root.
f=$tmp/f
node=
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: not root: no refusal to root to see" >&2
elif [ "$(findmnt -n -o FSTYPE -T "$f" 2>/dev/null | tail -n 1)" != ext4 ]
then
	echo "SKIP: \$TMPDIR is not ext4" >&2
else
	majmin=$(findmnt -n -o MAJ:MIN -T "$f" | tail -n 1 | tr -d ' ')
	name=$(sed -n 's/^DEVNAME=//p' "/sys/dev/block/$majmin/uevent" \
		2>/dev/null)
	[ -n "$name" ] && node=/dev/$name
fi
if [ -n "$node" ]; then
	if err=$( (: <"$node") 2>&1); then
		echo "SKIP: root opens $node here: nothing refuses it" >&2
	else
		case $err in
		*"not permitted"*|*"denied"*)
			echo "oracle: $err"
			check_file "refused ext4" "$f" data_version=refused ;;
		*)
			echo "SKIP: $node: $err" >&2 ;;
		esac
	fi
fi

# Snapshots: one saved before the member was added (no "why_missing", no
# bit 32 in result_mask) reads as the same tree (clean where the tokens
# prove it: tests/quiet-cycle.sh).
mkdir "$tmp/t" && : >"$tmp/t/a" || exit 1
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: no python3 to rewrite a snapshot with" >&2
elif ! "$tool" -r --save="$tmp/new.snap" "$tmp/t"; then
	echo "FAIL: --save"
	fail=1
else
	grep -q '"why_missing":{}' "$tmp/new.snap" ||
		{ echo "FAIL: --save wrote no why_missing"; fail=1; }
	python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    r.pop("why_missing", None)
    r["result_mask"] &= ~(1 << 32)
    print(json.dumps(r, separators=(",", ":")))' \
		"$tmp/new.snap" >"$tmp/old.snap"
	"$tool" -r --changes="$tmp/old.snap" "$tmp/t" >"$tmp/out" 2>&1
	rc=$? proven=
	proves "$tmp/t/a" && proven=1
	if grep -q 'without simdjson' "$tmp/out"; then
		echo "SKIP-part: snapshots: xstat was built without simdjson" >&2
	elif quiet "$proven" $rc "$tmp/out" "$tmp/t"; then
		echo "ok a snapshot without why_missing: the same tree (exit $rc)"
	else
		echo "FAIL: a snapshot without why_missing:"; cat "$tmp/out"
		fail=1
	fi
fi

[ "$fail" = 0 ] || exit 1
[ "$ran" = 1 ] || exit 77
