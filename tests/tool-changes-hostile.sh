#!/bin/sh
# xstat --changes given snapshots nobody should trust (issue 41): each is
# refused with exit status 2 and a message naming the line, never a
# crash, a hang or a verdict: a truncated last line, a line past the
# 64 KiB limit (a 1 GiB line is made on the fly, streamed through a pipe,
# never stored), huge and negative numbers, invalid UTF-8, a duplicate
# name, a duplicate member, deep nesting, a newer schema, a snapshot of
# another tree and of another directory at the same name, a missing
# field the result mask claims, an empty file.  A well-formed snapshot
# edited to lie about one file's size must give "data" for it: the
# checks are on the form, the verdict on the values.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-hostile-snap.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
fail() {
	echo "FAIL: $*"
	status=1
}

d=$tmp/tree
mkdir -p "$d/sub"
echo a >"$d/a"
echo b >"$d/sub/b"
sleep 1.1
"$tool" -r --json --change-token "$d" >"$tmp/good" || exit 1
"$tool" -r --changes="$tmp/good" "$d" >"$tmp/out" 2>"$tmp/err"
rc=$?
if grep -q 'without simdjson' "$tmp/err"; then
	echo "SKIP: xstat was built without simdjson"
	exit 77
fi
# Nothing changed: nothing to say (0), or only "unproven" where the
# promises are weak (a mount hidden from /proc/self/mountinfo: TICK).
if [ $rc -gt 1 ] || grep -v '^unproven ' "$tmp/out" | grep -q .; then
	fail "the good snapshot: $(cat "$tmp/err") $(cat "$tmp/out")"
fi

# expect NAME PATTERN: --changes on $tmp/NAME exits 2 saying PATTERN.
expect() {
	name=$1 pattern=$2
	"$tool" -r --changes="$tmp/$name" "$d" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc != 2 ]; then
		fail "$name: exit status $rc, want 2 ($(cat "$tmp/out"))"
	elif ! grep -q -- "$pattern" "$tmp/err"; then
		fail "$name: message '$(cat "$tmp/err")', want /$pattern/"
	elif [ -s "$tmp/out" ]; then
		fail "$name: printed a verdict: $(cat "$tmp/out")"
	else
		echo "ok $name: $(cat "$tmp/err")"
	fi
}

# Built by python from the good snapshot: one edit each.
$py - "$tmp" "$d" <<'EOF' || exit 1
import json, os, re, sys
tmp, root = sys.argv[1:]
lines = open(os.path.join(tmp, "good"), "rb").read().splitlines(True)
objs = [json.loads(l) for l in lines]
def put(name, data):
    open(os.path.join(tmp, name), "wb").write(data)
def dump(objs):
    return b"".join(json.dumps(o).encode() + b"\n" for o in objs)
put("truncated", b"".join(lines)[:-40])
put("empty", b"")
o = [dict(x) for x in objs]; o[0]["size"] = 10**40
put("huge", dump(o))
o = [dict(x) for x in objs]; o[0]["ino"] = -5
put("negative", dump(o))
o = [dict(x) for x in objs]; o[0]["ino"] = "123456789012345678901234"
put("hugestring", dump(o))
o = [dict(x) for x in objs]; o[0]["mtime"] = {"sec": 1, "nsec": 10**9}
put("nsec", dump(o))
put("utf8", lines[0].replace(b'"path":"', b'"path":"\xff\xfe', 1) + b"".join(lines[1:]))
put("dupname", b"".join(lines) + lines[0])
put("dupmember", lines[0].replace(b'{"path"', b'{"size":1,"size":2,"path"', 1) + b"".join(lines[1:]))
put("deep", b"".join(lines) + b'{"path":' + b"[" * 20000 + b"]" * 20000 + b"}\n")
o = [dict(x) for x in objs]; o[0]["schema"] = 99
put("schema", dump(o))
o = [dict(x) for x in objs]; o[1]["path"] = "/elsewhere/x"
put("othertree", dump(o))
o = [dict(x) for x in objs]; del o[0]["ctime"]
put("missing", dump(o))
o = [dict(x) for x in objs]
for x in o:
    if x["path"] == root:
        x["ino"] = x["ino"] + 1000
put("otherdir", dump(o))
put("notobject", b"[1,2,3]\n")
put("nul", lines[0].replace(b'"path":"', b'"path":"\\u0000', 1))
# What the parser alone must refuse, and the checks after it.
rest = b"".join(lines[1:])
put("surrogate", lines[0].replace(b'"path":"', b'"path":"\\ud800', 1) + rest)
put("control", lines[0].replace(b'"path":"', b'"path":"\x01', 1) + rest)
put("nesteddup", lines[0].replace(b'"mtime":{"sec":', b'"mtime":{"sec":1,"sec":', 1) + rest)
put("trailing", lines[0].replace(b'\n', b'{}\n') + rest)
put("sourcenul", re.sub(rb'("fs_id":\{[^}]*"source":"[a-z]*)', rb'\1\\u0000',
                        lines[0]) + rest)
o = [dict(x) for x in objs]
for x in o:
    if x["path"].endswith("/a"):
        x["size"] = x["size"] + 1
put("lie", dump(o))
EOF
expect truncated 'cut short'
expect empty 'empty snapshot'
expect huge 'line 1:\|:1:'
expect negative ':1: bad or missing "ino"'
expect hugestring ':1: bad or missing "ino"'
expect nsec ':1: bad or missing "mtime"'
expect utf8 ':1: not JSON'
expect dupname 'twice'
expect dupmember ':1: not JSON'
expect deep 'not JSON'
expect schema 'newer than'
expect othertree 'not of one tree'
expect missing ':1: bad or missing "ctime"'
expect otherdir 'another directory'
expect notobject 'not a JSON object'
expect nul ':1: bad or missing "path"'
expect surrogate ':1: not JSON'
expect control ':1: not JSON'
expect nesteddup ':1: not JSON: a member name given twice'
expect trailing ':1: not JSON'
expect sourcenul ':1: unknown "fs_id" source'

# A line of 1 GiB, streamed: refused after 64 KiB, not read to the end.
{ printf '{"path":"'; head -c 1073741824 /dev/zero | tr '\0' 'a'; echo '"}'; } |
	"$tool" -r --changes=/dev/stdin "$d" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc != 2 ] || ! grep -q 'longer than' "$tmp/err"; then
	fail "1 GiB line: exit status $rc, '$(cat "$tmp/err")'"
else
	echo "ok 1 GiB line: $(cat "$tmp/err")"
fi

# Values are trusted only as values: a size that differs is data.
"$tool" -r --changes="$tmp/lie" "$d" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -qx "data '\{0,1\}$d/a'\{0,1\}" "$tmp/out" ||
	fail "lie: exit status $rc, '$(cat "$tmp/out" "$tmp/err")'"
exit $status
