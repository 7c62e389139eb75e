#!/bin/sh
# xstat -r's options against find(1) and stat(1): the entry set and the
# values of each entry (find -printf), user and group names equal to
# stat's (ids with and without a name), --max-depth against find
# -maxdepth, -0 against find -print0, and the progress line: on a
# terminal's stderr (a pty) while a walk runs, never when stderr is not
# a terminal or with --no-progress.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
for t in find stat sort; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "SKIP: $t is not installed" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-wopt.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
check() {
	n=$((n + 1))
	[ "$2" = "$3" ] || {
		echo "FAIL $1:"
		printf '%s\n' "$2" | head -5 | sed 's/^/  want: /'
		printf '%s\n' "$3" | head -5 | sed 's/^/  got:  /'
		fail=1
	}
}

t=$tmp/t
mkdir -p "$t/a/b/c" "$t/d" "$t/sp ace"
for i in 1 2 3 4 5; do echo $i >"$t/a/f$i"; : >"$t/d/e$i"; done
echo x >"$t/a/b/c/deep"
ln -s a "$t/link"
mkfifo "$t/a/fifo"
: >"$t/sp ace/file"
if [ "$(id -u)" = 0 ]; then
	# names and no names: root, a system user, ids nobody has
	chown 1:1 "$t/a/f1"
	chown 54321:54321 "$t/a/f2"
	chown 65534 "$t/a/f3"
	chown -h 4242:4243 "$t/link"
fi

# Entry set and values: find -printf is the oracle.
got=$("$tool" -r -c '%n|%i|%s|%.10Y|%h|%a|%u|%g' "$t" | sort)
exp=$(find "$t" -printf '%p|%i|%s|%T@|%n|%m|%U|%G\n' | sort)
check "entries and values against find" "$exp" "$got"
got=$("$tool" -r --threads=1 -c '%n|%i|%s|%.10Y|%h|%a|%u|%g' "$t" | sort)
check "entries and values, one thread" "$exp" "$got"

# Names as stat prints them ("UNKNOWN" for an id without one).
got=$("$tool" -r -c '%n %U %G' "$t" | sort)
exp=$(find "$t" -exec stat -c '%n %U %G' {} + | sort)
check "names against stat" "$exp" "$got"
got=$("$tool" -r "$t" | grep '^Access: (' | sort)
exp=$(find "$t" -exec stat {} + | grep '^Access: (' | sort)
check "layout's Uid/Gid lines against stat" "$exp" "$got"

# --max-depth=N is find's -maxdepth N.
for d in 0 1 2 3 9; do
	got=$("$tool" -r --max-depth=$d -c %n "$t" | sort)
	exp=$(find "$t" -maxdepth $d | sort)
	check "--max-depth=$d" "$exp" "$got"
done
"$tool" --max-depth=1 "$t" >/dev/null 2>&1
check "--max-depth without -r: usage error" 2 $?
"$tool" -r --max-depth=x "$t" >/dev/null 2>&1
check "--max-depth=x: usage error" 2 $?

# -0: each record ends with NUL instead of its newline.
got=$("$tool" -r -0 -c %n "$t" | tr '\0' '\n' | sort)
exp=$(find "$t" -print0 | tr '\0' '\n' | sort)
check "-r -0 -c %n against find -print0" "$exp" "$got"
got=$("$tool" -0 -c '%n' "$t/a/f4" "$t/a/f5" | od -An -c | tr -s ' ')
exp=$(printf '%s\0%s\0' "$t/a/f4" "$t/a/f5" | od -An -c | tr -s ' ')
check "-0 -c: two records" "$exp" "$got"
got=$("$tool" -0 "$t/a/f4" "$t/a/f5" | tr -cd '\0' | wc -c)
check "-0 layout: one NUL a record" 2 "$got"
got=$("$tool" -0 "$t/a/f4" | tr '\0' '\n')
exp=$("$tool" "$t/a/f4")
check "-0 layout: the newline replaced, nothing else" "$exp" "$got"
got=$("$tool" -0 -j "$t/a/f4" | tr -cd '\0\n' | od -An -c | tr -d ' ')
check "-0 --json: NUL ends the record" '\0' "$got"
"$tool" -0 --printf '%n\n' "$t" >/dev/null 2>&1
check "-0 with --printf: usage error" 2 $?

# The progress line, on a pty's stderr.  Output blocks on a pipe that is
# not read until the line has been seen, so the walk outlasts the line's
# first second whatever the machine's speed.
if [ -x /usr/bin/python3 ]; then
	mkdir "$t/many"
	(cd "$t/many" && seq 1 3000 | sed 's/^/file-with-a-long-name-/' |
		xargs touch)
	/usr/bin/python3 - "$tool" "$t" <<'PY'
import os, pty, select, subprocess, sys, time
tool, tree = sys.argv[1], sys.argv[2]
fail = 0

def run(extra, want_line):
    global fail
    master, slave = pty.openpty()
    r, w = os.pipe()
    p = subprocess.Popen([tool, "-r"] + extra + [tree], stdout=w,
                         stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    os.close(w)
    seen = b""
    deadline = time.monotonic() + 60      # a hung walk, not a timing
    while time.monotonic() < deadline and b"entries/s" not in seen:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                seen += os.read(master, 4096)
            except OSError:
                break
        if not want_line and time.monotonic() > deadline - 57:
            break                          # 3 s without a line: enough
    # drawn while the output waited for its reader (stdout's lock is
    # not the progress line's)
    early = b"entries/s" in seen
    out = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        out += chunk
    p.wait()
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                break
            more = os.read(master, 4096)
            if not more:
                break
            seen += more
    except OSError:
        pass
    os.close(master)
    os.close(r)
    shown = b"entries/s" in seen
    if want_line and not early:
        print("FAIL progress: no line while the output was blocked")
        fail = 1
    if shown != want_line:
        print("FAIL progress %s: line %s" % (extra, "shown" if shown
                                             else "not shown"))
        fail = 1
    if want_line:
        if not (b"directories" in seen and b"errors" in seen):
            print("FAIL progress: %r" % seen[:200])
            fail = 1
        # cleared at the end: the last thing written is a bare \r
        if not seen.endswith(b"\r"):
            print("FAIL progress: not cleared: %r" % seen[-80:])
            fail = 1
    if p.returncode != 0:
        print("FAIL progress %s: status %d" % (extra, p.returncode))
        fail = 1
    if out.count(b"\n") < 3000:
        print("FAIL progress %s: %d records" % (extra, out.count(b"\n")))
        fail = 1

try:
    for fd in pty.openpty():
        os.close(fd)
except OSError as e:
    # a chroot without /dev/pts: no terminal to draw on here
    print("note: no pty (%s): the progress line is not checked" % e)
    sys.exit(0)
run(["-c", "%n %i %s %Y %U %G %A"], True)
run(["--no-progress", "-c", "%n %i %s %Y %U %G %A"], False)
sys.exit(fail)
PY
	[ $? = 0 ] || fail=1
	n=$((n + 2))
	# stderr not a terminal: nothing on it
	"$tool" -r -c %n "$t" >/dev/null 2>"$tmp/err"
	check "no progress without a terminal" "" "$(cat "$tmp/err")"
else
	echo "note: no /usr/bin/python3: the progress line is not checked"
fi
echo "$n checks"
exit $fail
