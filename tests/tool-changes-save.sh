#!/bin/sh
# xstat -r --save=NEW: what it writes and how.
# - The saved snapshot is what -r --json --change-token prints for the
#   same tree (that walk is the oracle), but for "taken" and a
#   directory's atime; --changes=S --save=S replaces S; NEW's mode is
#   kept, 0600 where it is new.
# - Atomic: killed by SIGTERM mid-walk or in the racy wait, and by
#   SIGKILL, NEW is as before (or absent) and no temporary is left; on a
#   full filesystem (tmpfs size=) exit 2 and NEW intact.
# - An unchanged tree saved a moment after its last change compares
#   clean (exit 0, nothing printed) on the next cycle: ext4, xfs and
#   btrfs loop mounts as root, and as nobody where the kernel has
#   multigrain timestamps (6.13+).  Clean where the change tokens can
#   prove it: where the library cannot learn that the mount has
#   multigrain timestamps (statmount(2) refused, as it is for an ordinary
#   user in a chroot: the mount is not reachable from the root), every
#   token says "tick" and the cycle lists every entry "unproven" (exit
#   1), nothing else; the same again with statmount refused by seccomp.
# - An entry that could not be examined (a directory nobody may open)
#   keeps its old records in NEW, and is not reported gone.
# - Refusals, exit 2 with a message: a snapshot made without
#   --change-token; another directory (both names printed whole); NEW
#   not a regular file (a FIFO is never opened); the options' misuse.
#   DIR/ and a relative spelling of the snapshot's DIR are the same tree,
#   and every change is still found there (records compared as text but
#   for the name), with names JSON escapes and a DIR spelled with one.
# - Text and --json list the verdicts in one order: by the path's bytes.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-save.XXXXXX") || exit 1
chmod 755 "$tmp"
mounts= loops=
cleanup() {
	for m in $mounts; do umount "$m" 2>/dev/null; done
	for l in $loops; do losetup -d "$l" 2>/dev/null; done
	chmod -R u+rwx "$tmp" 2>/dev/null
	rm -rf "$tmp" "$tmp.w"
}
trap cleanup EXIT
status=0
fail() {
	echo "FAIL: $*"
	status=1
}
ok() {
	echo "ok $*"
}
if ! "$tool" -r --changes=/dev/null "$tmp" 2>"$tmp/err" &&
	grep -q 'without simdjson' "$tmp/err"; then
	echo "SKIP: xstat was built without simdjson" >&2
	exit 77
fi
root=
[ "$(id -u)" = 0 ] && root=1
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
command -v setpriv >/dev/null || nobody=

. "$(dirname "$0")/quiet-cycle.sh"

# expect2 LABEL PATTERN CMD...: exit 2, PATTERN on stderr, nothing out.
expect2() {
	label=$1 pattern=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc != 2 ]; then
		fail "$label: exit status $rc, want 2 ($(cat "$tmp/err"))"
	elif ! grep -q -- "$pattern" "$tmp/err"; then
		fail "$label: message '$(cat "$tmp/err")', want /$pattern/"
	elif [ -s "$tmp/out" ]; then
		fail "$label: printed $(cat "$tmp/out")"
	else
		ok "$label: $(head -1 "$tmp/err")"
	fi
}

# The records of a snapshot without "taken" and a directory's atime.
normalize() {
	$py -c '
import json, sys
out = []
for l in open(sys.argv[1], "rb"):
    o = json.loads(l)
    o.pop("taken", None)
    if o.get("type") == "directory":
        o.pop("atime", None)
    out.append(json.dumps(o, sort_keys=True))
print("\n".join(sorted(out)))' "$1"
}

d=$tmp/tree
mkdir -p "$d/sub/deeper" "$d/other"
for n in a b c 'sp ace' "$(printf 'nl\nx')" "$(printf '\377bad')"; do
	echo "$n" >"$d/$n"
done
echo x >"$d/sub/deeper/x"
ln -s a "$d/link"
mkfifo "$d/fifo"

# --- the snapshot is -r --json --change-token's output ---------------
# Tokens that prove "unchanged", or "tick" everywhere (a chroot's user).
proven=
proves "$d/a" && proven=1
[ -n "$proven" ] ||
	echo "SKIP-part: clean cycles: the change tokens here prove nothing (statmount refused?): every entry unproven instead" >&2
sleep 1.1
"$tool" -r --save="$tmp/s1" "$d" || fail "--save alone: exit status $?"
"$tool" -r --json --change-token "$d" >"$tmp/j1"
normalize "$tmp/s1" >"$tmp/n1"
normalize "$tmp/j1" >"$tmp/nj1"
if cmp -s "$tmp/n1" "$tmp/nj1"; then
	ok "--save alone writes what -r --json --change-token prints"
else
	fail "--save alone differs from -r --json --change-token:"
	diff "$tmp/n1" "$tmp/nj1" | head -5
fi
mode=$(stat -c %a "$tmp/s1")
[ "$mode" = 600 ] && ok "a new NEW is 0600" || fail "a new NEW is $mode"
chmod 640 "$tmp/s1"
"$tool" -r --changes="$tmp/s1" --save="$tmp/s1" "$d" >"$tmp/out"
rc=$?
quiet "$proven" $rc "$tmp/out" "$d" ||
	fail "--changes=S --save=S on a quiet tree: exit $rc, $(head -5 "$tmp/out")"
normalize "$tmp/s1" >"$tmp/n1"
"$tool" -r --json --change-token "$d" >"$tmp/j1"
normalize "$tmp/j1" >"$tmp/nj1"
cmp -s "$tmp/n1" "$tmp/nj1" && ok "--changes=S --save=S: S replaced, the same" ||
	fail "--changes=S --save=S: not what -r --json --change-token prints"
mode=$(stat -c %a "$tmp/s1")
[ "$mode" = 640 ] && ok "NEW's mode kept" || fail "NEW's mode is $mode, was 640"
left=$(ls -A "$tmp" | grep xstat- )
[ -z "$left" ] || fail "temporaries left: $left"

# --- one order for text and --json -----------------------------------
for n in z y a0 B '~' 'sp ace'; do echo "$n$n" >"$d/$n"; done
rm "$d/b"
mv "$d/c" "$d/sub/c"
chmod 600 "$d/a"
"$tool" -r --changes="$tmp/s1" "$d" >"$tmp/text"
"$tool" -r --changes="$tmp/s1" --json "$d" >"$tmp/json"
$py - "$tmp/text" "$tmp/json" "$d" <<'EOF'
import json, shlex, sys
text = [l for l in open(sys.argv[1], encoding="utf-8", errors="surrogateescape")]
objs = [json.loads(l) for l in open(sys.argv[2])]
def raw(o):
    return bytes.fromhex(o["path_bytes"]) if o.get("path_bytes") else o["path"].encode()
paths = [raw(o) for o in objs]
assert paths == sorted(paths), "--json is not sorted by the path's bytes"
assert len(text) == len(objs), "text and --json differ in length"
for l, o in zip(text, objs):
    assert l.split(" ", 1)[0] == o["change"], (l, o)
print("ok text and --json: %d verdicts, one order (by bytes)" % len(objs))
EOF
[ $? = 0 ] || fail "order"

# --- spellings of the snapshot's DIR ---------------------------------
sleep 1.1
"$tool" -r --save="$tmp/s2" "$d"
(cd "$tmp" && "$tool" -r --changes=s2 tree/) >"$tmp/out" 2>"$tmp/err"
rc=$?
quiet "$proven" $rc "$tmp/out" "$d" && ok "DIR/ relative is the same tree" ||
	fail "tree/ from its parent: exit $rc $(cat "$tmp/err"; head -5 "$tmp/out")"
(cd "$d/sub" && "$tool" -r --changes="$tmp/s2" ../../tree) >"$tmp/out" 2>"$tmp/err"
rc=$?
quiet "$proven" $rc "$tmp/out" "$d" && ok "../../tree is the same tree" ||
	fail "../../tree: exit $rc $(cat "$tmp/err"; head -5 "$tmp/out")"
# a changed entry is reported in DIR's spelling, gone ones too
echo more >>"$d/a"
rm "$d/z"
(cd "$tmp" && "$tool" -r --changes=s2 ./tree//) >"$tmp/out" 2>"$tmp/err"
printf '%s\n' "data ./tree//a" "data ./tree//" "gone ./tree//z" | sort >"$tmp/want"
grep -v '^unproven ' "$tmp/out" | sort >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" && ok "verdicts in DIR's spelling" ||
	fail "verdicts in another spelling: $(cat "$tmp/got" "$tmp/err")"
# An old record is compared with the new one as text from after its name
# on (a respelled DIR must not make every entry differ): nothing that
# changed may pass for the same, in both directions of respelling, with
# names in plain ASCII (read deferred) and ones JSON escapes (parsed at
# once), and with a DIR whose own spelling needs an escape.
echo q >"$d/q\"uote"
mkdir "$tmp/q\"d"
sleep 1.1
"$tool" -r --save="$tmp/s4" "$d"
(cd "$tmp" && "$tool" -r --changes=s4 --save=s5 tree/) >"$tmp/out" 2>"$tmp/err"
rc=$?
quiet "$proven" $rc "$tmp/out" "$d" && ok "respelled cycle, unchanged: quiet" ||
	fail "respelled cycle, unchanged: exit $rc $(cat "$tmp/err"; head -5 "$tmp/out")"
chmod 600 "$d/sub/deeper/x"
for n in 'sp ace' "$(printf 'nl\nx')" "$(printf '\377bad')" 'q"uote'; do
	echo more >>"$d/$n"
done
# verdicts: DIR PREFIX, --json on stdin; all but "unproven", sorted
verdicts() {
	$py -c '
import json, sys
want = [("sub/deeper/x", "metadata"), ("sp ace", "data"),
        ("nl\nx", "data"), ("\udcffbad", "data"), ("q\"uote", "data")]
want = sorted((sys.argv[1] + p, c) for p, c in want)
got = []
for l in sys.stdin:
    o = json.loads(l)
    p = (bytes.fromhex(o["path_bytes"]).decode(errors="surrogateescape")
         if o.get("path_bytes") else o["path"])
    if o["change"] != "unproven":
        got.append((p, o["change"]))
sys.exit(0 if sorted(got) == want else "got %r, want %r" % (sorted(got), want))
' "$1"
}
(cd "$tmp" && "$tool" -r --json --changes=s4 tree/) 2>"$tmp/err" |
	verdicts "tree/" && ok "respelled: each change found" ||
	fail "respelled: $(cat "$tmp/err")"
"$tool" -r --json --changes="$tmp/s5" "$d" 2>"$tmp/err" |
	verdicts "$d/" && ok "respelled the other way: each change found" ||
	fail "respelled the other way: $(cat "$tmp/err")"
(cd "$tmp" && "$tool" -r --json --changes=s4 'q"d/../tree') 2>"$tmp/err" |
	verdicts 'q"d/../tree/' && ok "a DIR spelled with an escape: each change found" ||
	fail "a DIR spelled with an escape: $(cat "$tmp/err")"

# --- refusals ---------------------------------------------------------
"$tool" -r --json "$d" >"$tmp/notoken"
expect2 "no change tokens" 'made without --change-token' \
	"$tool" -r --changes="$tmp/notoken" "$d"
long=$tmp/$(printf '%0200d' 0)/$(printf '%0200d' 1)
mkdir -p "$long/src" "$long/s"
"$tool" -r --save="$tmp/s3" "$long/s"
expect2 "another directory, both names whole" \
	"is a snapshot of '$long/s', not of '$long/src': another directory" \
	"$tool" -r --changes="$tmp/s3" "$long/src"
expect2 "another directory, DIR/" "not of '$long/src/'" \
	"$tool" -r --changes="$tmp/s3" "$long/src/"
mkfifo "$tmp/fifo"
if command -v timeout >/dev/null; then
	expect2 "--save to a FIFO" 'not a regular file' \
		timeout 10 "$tool" -r --save="$tmp/fifo" "$d"
fi
ln -s s1 "$tmp/symlink"
expect2 "--save to a symlink" 'not a regular file' \
	"$tool" -r --save="$tmp/symlink" "$d"
expect2 "--save into a missing directory" 'cannot open the directory' \
	"$tool" -r --save="$tmp/none/s" "$d"
expect2 "--save without -r" '--save takes -r' "$tool" --save="$tmp/x" "$d"
expect2 "--save with --json alone" '--save takes -r' \
	"$tool" -r --json --save="$tmp/x" "$d"
expect2 "--names without --changes" '--names takes --changes' \
	"$tool" -r --names --save="$tmp/x" "$d"
expect2 "-0 without --names" '-0 with --changes takes --names' \
	"$tool" -r -0 --changes="$tmp/s1" "$d"
[ -e "$tmp/x" ] && fail "a refused --save wrote its file"

# --- killed: NEW as before, no temporary -----------------------------
big=$tmp/big
mkdir -p "$big"
$py -c '
import os, sys
for i in range(200):
    d = os.path.join(sys.argv[1], "d%03d" % i)
    os.mkdir(d)
    for j in range(100):
        open(os.path.join(d, "f%03d" % j), "w").close()' "$big"
# killed KIND SIGNAL WHEN DIR: a cycle of DIR against the snapshot k,
# signalled once its temporary is open (seen in /proc/PID/fd) and then
# WHEN: "walk": at once, the tool stopped (SIGSTOP) the moment the
# temporary is seen and the signal sent while it is stopped, so that
# no machine walks DIR faster than the signal comes; or "wait": when
# the tool is seen asleep in the racy wait (its /proc/PID/wchan a
# nanosleep; where the kernel hides that, its state S: with one thread,
# nothing else after the temporary is opened sleeps), so that a loaded
# machine cannot make the signal come early or late.  DIR/racy is
# touched just before the tool starts.
# Default signal actions (a shell's background job ignores SIGINT, nohup
# SIGHUP, and the tool keeps a signal ignored as it found it); k
# must be as it was, nothing else left beside it.  k is made by a quiet
# cycle (see quiet()).
killed() {
	kind=$1 sig=$2 delay=$3 dir=$4
	"$tool" -r --save="$tmp/k" "$dir" ||
		{ fail "$kind: the first snapshot: exit $?"; return; }
	sleep 1.1
	"$tool" -r --changes="$tmp/k" --save="$tmp/k" "$dir" >"$tmp/out"
	rc=$?
	quiet "$proven" $rc "$tmp/out" "$dir" || {
		fail "$kind: the first snapshot's cycle: exit $rc, $(head -3 "$tmp/out")"
		return
	}
	cp "$tmp/k" "$tmp/k.before"
	changes=--changes="$tmp/k"
	if [ "${5:-}" = absent ]; then
		rm "$tmp/k" "$tmp/k.before"
		changes=--threads=1
	fi
	ls -A "$tmp" >"$tmp/ls.before"
	$py - "$sig" "$delay" "$tmp" "$dir/racy" "$tool" -r --threads=1 \
		"$changes" --save="$tmp/k" "$dir" <<'EOF2'
import os, signal, subprocess, sys, time
sig, when, where, racy = sys.argv[1:5]
sig = getattr(signal, "SIG" + sig)
with open(racy, "a"):
    os.utime(racy)
p = subprocess.Popen(sys.argv[5:], stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL,
                     preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL)
                                         for s in (signal.SIGINT, signal.SIGTERM,
                                                   signal.SIGHUP)])
proc = "/proc/%d/" % p.pid

def read(name):
    try:
        with open(proc + name) as f:
            return f.read()
    except OSError:
        return ""

def temporary_open():
    for fd in os.listdir(proc + "fd") if p.poll() is None else []:
        try:
            if os.readlink(proc + "fd/" + fd).startswith(where + "/"):
                return True
        except OSError:
            pass
    return False

def asleep():
    wchan = read("wchan")
    if wchan not in ("", "0"):
        return "nanosleep" in wchan
    return read("stat").rpartition(")")[2].split()[:1] == ["S"]

while p.poll() is None and not temporary_open():
    pass
if when == "wait":
    while p.poll() is None and not asleep():
        time.sleep(0.001)
    p.send_signal(sig)
else:
    p.send_signal(signal.SIGSTOP)
    if not temporary_open():
        p.send_signal(signal.SIGCONT)
        sys.exit(p.wait())
    p.send_signal(sig)
    p.send_signal(signal.SIGCONT)
sys.exit(128 - p.wait() if p.wait() < 0 else p.wait())
EOF2
	rc=$?
	if [ $rc -lt 128 ]; then
		fail "$kind: done (exit $rc) before the signal"
		return
	fi
	if [ "${5:-}" = absent ]; then
		[ -e "$tmp/k" ] && fail "$kind: NEW made"
	else
		cmp -s "$tmp/k.before" "$tmp/k" || fail "$kind: NEW changed"
	fi
	ls -A "$tmp" | cmp -s - "$tmp/ls.before" ||
		fail "$kind: left $(ls -A "$tmp" | grep -vxF -f "$tmp/ls.before")"
	ok "$kind (exit $rc): NEW intact, nothing left"
}
killed "SIGTERM mid-walk" TERM walk "$big"
killed "SIGINT mid-walk" INT walk "$big"
killed "SIGKILL mid-walk" KILL walk "$big"
# a racy entry: the walk is done, its second reading waits (only for a
# token that can prove it unchanged)
if [ -n "$proven" ]; then
	killed "SIGTERM in the racy wait" TERM wait "$d"
	killed "SIGHUP in the racy wait" HUP wait "$d"
else
	echo "SKIP-part: the racy wait: tokens that prove nothing are not read again" >&2
fi
killed "SIGTERM mid-walk, no NEW before" TERM walk "$big" absent

# --- again with statmount(2) refused ----------------------------------
# As for an ordinary user in a chroot: the library cannot learn the
# mount's type, nor so its multigrain timestamps.  The tool runs under a
# seccomp filter, from a wrapper outside $tmp (killed() looks for the
# tool's files there).
seccomp=${top_builddir:-.}/tests/seccomp-run
if [ -x "$seccomp" ] && "$seccomp" -e EPERM -s 457 -- true 2>/dev/null; then
	seccomp=$(cd "$(dirname "$seccomp")" && pwd)/seccomp-run
	mkdir "$tmp.w" && chmod 755 "$tmp.w"
	printf '#!/bin/sh\nexec "%s" -e EPERM -s 457 -- "%s" "$@"\n' \
		"$seccomp" "$tool" >"$tmp.w/xstat"
	chmod 755 "$tmp.w/xstat"
	real=$tool real_proven=$proven
	tool=$tmp.w/xstat proven=
	proves "$d/a" && proven=1
	echo "statmount refused: the tokens ${proven:+do not }say tick"
	"$tool" -r --save="$tmp/r" "$d" || fail "statmount refused: save"
	sleep 1.1
	"$tool" -r --changes="$tmp/r" --save="$tmp/r" "$d" >"$tmp/out"
	rc=$?
	quiet "$proven" $rc "$tmp/out" "$d" &&
		ok "statmount refused: a quiet cycle (exit $rc)" ||
		fail "statmount refused: a quiet cycle: exit $rc, $(head -3 "$tmp/out")"
	killed "statmount refused: SIGTERM mid-walk, no NEW before" TERM walk \
		"$big" absent
	tool=$real proven=$real_proven
else
	echo "SKIP-part: statmount refused: no seccomp-run, or no seccomp here" >&2
fi

# --- could not be examined: the old records kept ---------------------
if [ -n "$nobody" ] && [ -n "$root" ]; then
	u=$tmp/locked
	mkdir -p "$u/in/deep" && echo 1 >"$u/in/one" && echo 2 >"$u/in/deep/two"
	echo 3 >"$u/three"
	chown -R 65534:65534 "$u"
	sleep 1.1
	nb=$tmp/nb
	mkdir "$nb" && chown 65534:65534 "$nb"
	$nobody "$tool" -r --save="$nb/u1" "$u/" || fail "locked: first save"
	chmod 0 "$u/in"
	rm "$u/three"
	$nobody "$tool" -r --changes="$nb/u1" --save="$nb/u2" "$u" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	grep -q "cannot open directory" "$tmp/err" && [ $rc = 2 ] ||
		fail "locked: exit $rc, $(cat "$tmp/err")"
	grep -q "gone '*$u/in/" "$tmp/out" && fail "locked: reported gone: $(cat "$tmp/out")"
	grep -q "gone '*$u/three" "$tmp/out" || fail "locked: three not gone: $(cat "$tmp/out")"
	# kept, in the new spelling
	for n in in/one in/deep in/deep/two; do
		grep -q "^{\"path\":\"$u/$n\"," "$nb/u2" ||
			fail "locked: no old record of $n in NEW"
	done
	chmod 755 "$u/in"
	rm "$u/in/deep/two"
	$nobody "$tool" -r --changes="$nb/u2" "$u" >"$tmp/out" 2>"$tmp/err"
	grep -q "^gone '*$u/in/deep/two" "$tmp/out" &&
		ok "an entry not examined: its old record kept, compared next time" ||
		fail "locked, next cycle: $(cat "$tmp/out" "$tmp/err")"
else
	echo "SKIP-part: an unreadable directory needs root and setpriv" >&2
fi

# --- a full filesystem -----------------------------------------------
if [ -n "$root" ]; then
	f=$tmp/full
	mkdir "$f"
	mount -t tmpfs -o size=256k tmpfs "$f" && mounts="$f $mounts"
	g=$tmp/grow
	mkdir -p "$g" && touch "$g/a" "$g/b"
	"$tool" -r --save="$f/s" "$g" || fail "full: the first save"
	cp "$f/s" "$tmp/full.before"
	# some 1,000 records more: about 700 KiB
	$py -c '
import os, sys
for i in range(1000):
    open(os.path.join(sys.argv[1], "f%04d" % i), "w").close()' "$g"
	"$tool" -r --changes="$f/s" --save="$f/s" "$g" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc = 2 ] && grep -q 'No space left' "$tmp/err" &&
		cmp -s "$f/s" "$tmp/full.before" && [ "$(ls -A "$f")" = s ]; then
		ok "a full filesystem: exit 2, NEW intact: $(grep space "$tmp/err")"
	else
		fail "full: exit $rc, $(cat "$tmp/err"), $(ls -A "$f")"
	fi
	umount "$f"
else
	echo "SKIP-part: a full filesystem needs root (tmpfs size=)" >&2
fi

# --- saved a moment after the last change: clean next cycle ----------
multigrain=
v=$(uname -r)
maj=${v%%.*} min=${v#*.}
min=${min%%[!0-9]*}
[ "$maj" -gt 6 ] || { [ "$maj" = 6 ] && [ "$min" -ge 13 ]; } && multigrain=1
# clean LABEL DIR [PREFIX...]
clean() {
	label=$1 t=$2
	shift 2
	"$@" mkdir -p "$t/x/y" && "$@" sh -c "echo 1 >'$t/x/y/f'; echo 2 >'$t/g'; chmod 600 '$t/g'"
	"$@" "$tool" -r --save="$t.snap" "$t" || { fail "$label: save"; return; }
	"$@" "$tool" -r --changes="$t.snap" "$t" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc = 0 ] && [ ! -s "$tmp/out" ]; then
		ok "$label: clean the cycle after"
	else
		fail "$label: exit $rc: $(cat "$tmp/out" "$tmp/err")"
	fi
}
if [ -n "$root" ] && [ -e /dev/loop-control ]; then
	for fs in ext4 xfs btrfs; do
		command -v mkfs.$fs >/dev/null ||
			{ echo "SKIP-part: $fs: no mkfs.$fs" >&2; continue; }
		img=$tmp/$fs.img m=$tmp/$fs.mnt
		truncate -s 320M "$img" && mkdir "$m"
		case $fs in
		ext4) mkfs.ext4 -q -F "$img" ;;
		*) mkfs.$fs -q -f "$img" >/dev/null ;;
		esac || { fail "mkfs.$fs"; continue; }
		l=$(losetup -f --show "$img") ||
			{ echo "SKIP-part: $fs: no loop device" >&2; continue; }
		loops="$loops $l"
		mount "$l" "$m" || { fail "mount $fs"; continue; }
		mounts="$m $mounts"
		chmod 755 "$m"
		clean "$fs, root" "$m/r"
		if [ -z "$nobody" ]; then
			echo "SKIP-part: $fs as nobody: no setpriv" >&2
		elif [ -z "$multigrain" ]; then
			echo "SKIP-part: $fs as nobody: kernel $v has no multigrain timestamps (6.13+): ctime ticks prove nothing" >&2
		else
			mkdir "$m/n" && chown 65534:65534 "$m/n"
			clean "$fs, nobody" "$m/n/t" $nobody
		fi
		umount "$m" && mounts=${mounts#"$m "}
	done
else
	echo "SKIP-part: ext4, xfs, btrfs clean cycles need root and loop devices" >&2
fi
exit $status
