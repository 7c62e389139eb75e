#!/bin/sh
# --changes=OLD --save=NEW reads OLD deferred: a record whose text (up to
# "taken") is the new record's is rebuilt from the new result, not parsed.
# Oracle: --changes against OLD written out again with other spacing by
# Python's json (no record's text is then the new record's, so every one
# is parsed whole by simdjson) must give the same list and exit status, and NEW what -r --json --change-token prints,
# on a tree with every kind of change and with names the fast cut skips
# (escapes, bad UTF-8).  A bad record refuses the snapshot as before
# (exit 2, its line, nothing listed, NEW untouched): one the walk meets
# and one it does not.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no $py" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-deferred.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
# SRC's records with a space after each ',' and ':' (the same JSON)
respaced() {
	$py -c 'import json, sys
for line in open(sys.argv[1], "rb"):
    sys.stdout.write(json.dumps(json.loads(line), separators=(", ", ": ")) + "\n")' "$1"
}
fail() {
	echo "FAIL: $*"
	status=1
}
. "$(dirname "$0")/quiet-cycle.sh"
# --save writes without simdjson; only reading a snapshot needs it.
if ! "$tool" -r --changes=/dev/null "$tmp" >/dev/null 2>"$tmp/err"; then
	grep -q "without simdjson" "$tmp/err" &&
		{ echo "SKIP: xstat built without simdjson" >&2; exit 77; }
fi
t=$tmp/t
mkdir -p "$t/a/b" "$t/gone/deep" "$t/moveme"
for i in 1 2 3 4 5 6 7 8; do echo "file $i" >"$t/a/f$i"; done
echo x >"$t/gone/deep/x"
echo m >"$t/moveme/m"
echo q >"$t/quo\"te"
echo b >"$t/$(printf 'bad\377')"
echo u >"$t/$(printf 'utf\303\251')"
ln -s a "$t/link"
sleep 1.1	# past the racy window: OLD proves what it can
cd "$tmp" || exit 1
"$tool" -r --save=old t || fail "first snapshot"
cp old old.copy
# every kind of change
echo "FILE 1" >t/a/f1			# same size, data
chmod 600 t/a/f2			# metadata
rm -r t/gone				# gone subtree
mv t/moveme/m t/a/m			# moved
echo new >t/a/new			# new
rm t/a/f3; echo other >t/a/f3		# replaced
touch -d 2001-01-01 t/a/f4		# mtime set back
sleep 1.1
respaced old >old.spaced || fail "respaced old"
cmp -s old old.spaced && fail "old.spaced is old"
"$tool" -r --changes=old.spaced t >alone 2>alone.err
ra=$?
"$tool" -r --changes=old --save=new t >cycle 2>cycle.err
rc=$?
[ $ra = $rc ] || fail "exit status: --changes $ra, the cycle $rc"
[ $ra = 1 ] || fail "--changes: status $ra, not 1: $(cat alone.err)"
cmp -s alone cycle || fail "lists differ: $(diff alone cycle | head -5)"
grep -q "^data t/a/f1$" cycle || fail "no data verdict: $(cat cycle)"
"$tool" -r --json --change-token t >oracle 2>/dev/null
$py - new oracle <<'EOF' || fail "NEW is not the walk's JSON"
import json, sys
def load(p):
    out = {}
    for line in open(p, "rb"):
        r = json.loads(line)
        r.pop("taken", None)
        if r.get("type") == "directory":
            r.pop("atime", None)
        out[r["path"]] = r
    return out
sys.exit(0 if load(sys.argv[1]) == load(sys.argv[2]) else 1)
EOF
# The next cycle, nothing changed: the same again (rebuilt results),
# clean where the tokens prove it (tests/quiet-cycle.sh).
respaced new >new.spaced || fail "respaced new"
"$tool" -r --changes=new.spaced t >alone 2>&1
ra=$?
cp new new.copy
"$tool" -r --changes=new --save=new2 t >cycle 2>&1
rc=$?
proven=
proves t/a/f5 && proven=1
quiet "$proven" $ra alone t && quiet "$proven" $rc cycle t ||
	fail "quiet cycle: status $ra and $rc: $(head -5 cycle)"
cmp -s alone cycle || fail "quiet lists differ: $(diff alone cycle | head)"
# A bad record the walk meets (t/a/f5) and one it does not (t/gone/...):
# the same message as --changes alone, exit 2, no list, NEW untouched.
for which in t/a/f5 t/gone/deep/x; do
	$py - old.copy "$which" >bad <<'EOF'
import sys
for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape"):
    if line.startswith('{"path":"%s"' % sys.argv[2]):
        line = line.replace('"nlink":1', '"nlink":-1')
    sys.stdout.write(line)
EOF
	cmp -s bad old.copy && { fail "$which: not made bad"; continue; }
	echo keep >new3
	"$tool" -r --changes=bad t >alone 2>alone.err
	ra=$?
	"$tool" -r --changes=bad --save=new3 t >cycle 2>cycle.err
	rc=$?
	[ "$ra:$rc" = "2:2" ] || fail "$which: status $ra and $rc, not 2"
	[ -s cycle ] && fail "$which: a list printed: $(head -3 cycle)"
	grep "bad:" alone.err >a.msg
	grep "bad:" cycle.err >c.msg
	[ -s a.msg ] && cmp -s a.msg c.msg ||
		fail "$which: messages: $(cat alone.err) / $(cat cycle.err)"
	[ "$(cat new3)" = keep ] || fail "$which: NEW touched"
	ls -a | grep -q "xstat-" && fail "$which: a temporary left"
done
exit $status
