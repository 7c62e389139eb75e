#!/bin/sh
# xstat --json read back by python3's json.loads (strict: no raw control
# characters): every byte 0x01-0xff in a name, invalid UTF-8, files that
# fail; the exact name recovered from path/path_bytes; every member always
# present (null when absent); the values against os.lstat(); no ESC or
# newline raw.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is not installed" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-json.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for loc in C C.UTF-8; do
	LC_ALL=$loc python3 - "$tool" "$tmp" <<'EOF' || exit 1
import errno, json, os, subprocess, sys

tool, tmp = sys.argv[1], os.fsencode(sys.argv[2])
os.chdir(tmp)
names = []
for b in range(1, 256):
    if b == 0x2f:
        continue
    names += [bytes([b]) + b"x", b"a" + bytes([b]) + b"b"]
names += [b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf",
          b"\xe2\x80\xa8", b"\xc2\x9b1m", b"\x1b[31mred", b"ok\n",
          "\u00e9t\u00e9".encode(), b"\xf0\x9f\x98\x80", b"\xff\xfe\x00"[:2]]
for n in names:
    if not os.path.exists(n):
        open(n, "w").close()
missing = [b"gone\xff" + bytes([b]) for b in (1, 10, 27, 0x7f, 0x80, 0xff)]
args = names + missing + [b"-m", b"0x7ff", names[0], names[1]]
args = [b"-j", b"--"] + names + missing
p = subprocess.run([tool] + args, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE)
out = p.stdout
fail = 0

def bad(msg):
    global fail
    print("FAIL %s: %s" % (os.environ.get("LC_ALL"), msg))
    fail = 1

if p.returncode != 1:
    bad("status %d with missing files, not 1" % p.returncode)
if b"\x1b" in out or out.count(b"\n") != len(names) + len(missing):
    bad("raw ESC or newline in the output")
if any(c < 0x20 and c != 0x0a for c in out):
    bad("raw control byte in the output")
lines = out.split(b"\n")[:-1]
keys = None
for name, line in zip(names + missing, lines):
    try:
        r = json.loads(line)
    except ValueError as e:
        bad("json.loads: %s: %r" % (e, line))
        continue
    got = (bytes.fromhex(r["path_bytes"]) if r["path_bytes"] is not None
           else r["path"].encode("utf-8"))
    if got != name:
        bad("name %r came back as %r" % (name, got))
    try:
        name.decode("utf-8")
        if r["path_bytes"] is not None:
            bad("path_bytes for valid UTF-8 %r" % name)
    except UnicodeDecodeError:
        if r["path_bytes"] is None:
            bad("no path_bytes for %r" % name)
    if r["schema"] != 1:
        bad("schema %r" % r["schema"])
    if name in missing:
        e = r.get("error")
        if e != {"errno": errno.ENOENT,
                 "message": os.strerror(errno.ENOENT)}:
            bad("error record %r" % e)
        if set(r) != {"schema", "path", "path_bytes", "error"}:
            bad("error record members %r" % sorted(r))
        continue
    if keys is None:
        keys = set(r)
    elif set(r) != keys:
        bad("members differ: %r" % (set(r) ^ keys))
    st = os.lstat(name)
    for k, v in (("ino", st.st_ino), ("size", st.st_size),
                 ("mode", st.st_mode), ("nlink", st.st_nlink),
                 ("uid", st.st_uid), ("gid", st.st_gid),
                 ("blocks", st.st_blocks)):
        if r[k] != v:
            bad("%s of %r: %r, lstat %r" % (k, name, r[k], v))
    m = r["mtime"]
    if m["sec"] * 10**9 + m["nsec"] != st.st_mtime_ns:
        bad("mtime of %r" % name)
    if r["dev"] != {"major": os.major(st.st_dev),
                    "minor": os.minor(st.st_dev)}:
        bad("dev of %r" % name)
if len(lines) != len(names) + len(missing):
    bad("%d records for %d files" % (len(lines), len(names) + len(missing)))

# Absent values are null, members still there.
p = subprocess.run([tool, "-j", "-m", "0x7ff", "--", names[0]],
                   stdout=subprocess.PIPE)
r = json.loads(p.stdout)
for k in ("btime", "gen", "data_version", "mnt_id", "subvol"):
    if k not in r or r[k] is not None:
        bad("-m 0x7ff: %s is %r, not null" % (k, r.get(k)))
if keys is not None and set(r) != keys:
    bad("-m 0x7ff: members differ")

# Numbers: JSON integers up to 2^53, decimal strings beyond.
for line in lines:
    def walk(v):
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, bool) or v is None:
            pass
        elif isinstance(v, int):
            if abs(v) > 2**53:
                bad("inexact number %d" % v)
        elif isinstance(v, float):
            bad("float %r" % v)
    r = json.loads(line)
    r.pop("path"), r.pop("path_bytes"), r.pop("error", None)
    walk(r)
print("%s: %d records" % (os.environ.get("LC_ALL"), len(lines)))
sys.exit(fail)
EOF
done
if command -v jq >/dev/null 2>&1; then
	printf 'x' >"$tmp/f"
	"$tool" -j "$tmp/f" "$tmp/nope" 2>/dev/null | jq -e . >/dev/null || {
		echo "FAIL: jq rejects the output"
		exit 1
	}
fi
exit 0
