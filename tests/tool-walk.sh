#!/bin/sh
# xstat -r against find(1) and coreutils stat(1): every entry of a tree
# exactly once, each record equal to xstat on that one path (layout,
# format and JSON), with the statx backend and the fallback (statx
# refused by seccomp with EPERM and ENOSYS, LIBXSTAT_NO_STATX=1); -L
# with a symlink loop, -x across a tmpfs mount, an unreadable directory
# (as nobody when root), entries removed during the walk, EMFILE, a tree
# deeper than PATH_MAX.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
bld=${top_builddir:-.}
for t in find stat sort uniq python3; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "SKIP: $t is not installed" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-walk.XXXXXX")
mnt=
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	chmod -R u+rwx "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
status=0
fail() {
	echo "FAIL: $*"
	status=1
}

# The test tree: depth, width, every file type, odd names, hard links,
# symlinks to a file, to a directory and dangling (no loop: -L below).
t=$tmp/tree
mkdir -p "$t/a/b/c/d/e" "$t/wide" "$t/sp ace/é" "$t/empty"
for i in $(seq 1 300); do : >"$t/wide/f$i"; done
for i in 1 2 3; do mkdir "$t/wide/d$i"; echo $i >"$t/wide/d$i/x"; done
echo data >"$t/a/b/c/file"
ln "$t/a/b/c/file" "$t/a/hard"
ln -s ../a "$t/sp ace/todir"
ln -s c/file "$t/a/b/tofile"
mkfifo "$t/a/fifo"
: >"$t/sp ace/é/'quote\"s"
ln -s nowhere "$t/dangling"
# Reading a directory or a symlink (the layout's -> target) moves its
# atime while that is not after its mtime and ctime (relatime): once, or
# again where a slow run (an emulator) crosses a clock tick in between.
# Atimes an hour ahead move no more.
find "$t" -exec touch -h -a -d "@$(($(date +%s) + 3600))" {} +

# $1: a label; the rest: a prefix command (seccomp-run, env) or nothing.
# The oracle stat(1) runs outside that prefix.
run_all() {
	label=$1
	shift
	fmt='%n|%i|%s|%h|%u|%g|%f|%d|%X|%Y|%Z|%b|%F'
	"$@" "$tool" -r -c "$fmt" "$t" >"$tmp/walk" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || fail "$label: -r -c: status $rc: $(cat "$tmp/err")"
	sort "$tmp/walk" >"$tmp/walk.s"
	dups=$(cut -d'|' -f1 "$tmp/walk.s" | uniq -d)
	[ -z "$dups" ] || fail "$label: listed twice: $dups"
	find "$t" -printf '%p\n' | sort >"$tmp/find"
	cut -d'|' -f1 "$tmp/walk.s" | sort >"$tmp/walk.n"
	cmp -s "$tmp/find" "$tmp/walk.n" ||
		fail "$label: not find's entries: $(diff "$tmp/find" \
			"$tmp/walk.n" | head -5)"
	find "$t" -print0 | xargs -0 stat -c "$fmt" | sort >"$tmp/stat"
	cmp -s "$tmp/stat" "$tmp/walk.s" ||
		fail "$label: not stat's values: $(diff "$tmp/stat" \
			"$tmp/walk.s" | head -5)"
	# each record is xstat's on that path: format, layout, JSON
	for mode in "-c %n|%i|%w|%{gen}|%{data_version}|%{result_mask}" \
	    "" "-j" "--printf=%n\\t%W\\n" "-t"; do
		# word splitting of $mode is meant: the option and its value
		# shellcheck disable=SC2086
		"$@" "$tool" -r $mode "$t" 2>"$tmp/err" | records |
			sort >"$tmp/r"
		find "$t" -print0 | "$@" xargs -0 "$tool" $mode |
			records | sort >"$tmp/s"
		cmp -s "$tmp/r" "$tmp/s" ||
			fail "$label: -r ${mode:-(layout)} differs from" \
			     "xstat on each path: $(diff "$tmp/r" "$tmp/s" |
						     head -4)"
		[ -s "$tmp/r" ] || fail "$label: -r ${mode:-(layout)}: nothing"
	done
	# one thread and many give the same
	"$@" "$tool" -r --threads=1 -c "$fmt" "$t" | sort >"$tmp/one"
	cmp -s "$tmp/one" "$tmp/walk.s" || fail "$label: --threads=1 differs"
}

# One line per record: the layout's records begin with "  File: ".
records() {
	awk '/^  File: / { if (r != "") print r; r = $0; next }
	     r != "" { r = r "\\n" $0; next } { print }
	     END { if (r != "") print r }'
}

lt=$bld/libtool
[ -x "$lt" ] || lt=
run_all statx
run_all nostatx env LIBXSTAT_NO_STATX=1
# libtool's wrapper script would run under the filter too: run the
# program itself (--mode=execute finds it among the arguments).  Where
# neither the tool nor seccomp-run is a script, there is nothing for
# libtool to find, and each of its runs is a dozen processes.
seccomp=$bld/tests/seccomp-run
script() {
	line=
	IFS= read -r line <"$1" 2>/dev/null
	case $line in
	'#!'*) return 0 ;;
	esac
	return 1
}
ltexec() {
	if [ -n "$lt" ] && { script "$tool" || script "$seccomp"; }; then
		"$lt" --mode=execute "$@"
	else
		"$@"
	fi
}
# seccomp-run exits 77 where the filter cannot be installed, and says why
st=0
[ -x "$seccomp" ] && why=$("$seccomp" -e EPERM -s statx -- true 2>&1) || st=$?
if [ "$st" = 77 ]; then
	echo "skip eperm, enosys: $why"
elif [ -x "$seccomp" ] && [ -n "$lt" ]; then
	run_all eperm ltexec "$seccomp" -e EPERM -s statx --
	run_all enosys ltexec "$seccomp" -e ENOSYS -s statx --
else
	echo "note: no tests/seccomp-run (cmocka missing?): fallback via" \
	     "LIBXSTAT_NO_STATX only"
fi

# -L: links followed, every entry as xstat -L and stat -L give it.
fmt='%n|%i|%s|%F'
rm "$t/dangling"
"$tool" -r -L -c "$fmt" "$t" 2>"$tmp/err" | sort >"$tmp/walk" ||
	fail "-L: status not 0: $(cat "$tmp/err")"
find -L "$t" -print0 | xargs -0 stat -L -c "$fmt" | sort >"$tmp/stat"
cmp -s "$tmp/walk" "$tmp/stat" ||
	fail "-L: not stat -L's: $(diff "$tmp/walk" "$tmp/stat" | head -5)"
grep -q "^$t/sp ace/todir/b/c/file|" "$tmp/walk" ||
	fail "-L: the link to a directory was not entered"

# A loop: reported once as ELOOP on stderr, status 1, the rest still
# listed, no path under the loop twice; the looping entry has its record
# (as find -L prints it), no error record besides.
ln -s ../.. "$t/a/b/up"
# ELOOP's words are the C library's the tool was built with (glibc's and
# musl's differ), taken from a program of the build's own.
eloop=$("${XSTAT_PROBE:-$bld/tests/th-probe}" strerror ELOOP) ||
	fail "loop: no words for ELOOP from th-probe"
"$tool" -r -L -j "$t" >"$tmp/j" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "loop: status $rc, not 1"
# two ways in: a/b/up itself and through "sp ace/todir" -> ../a
for p in "$t/a/b/up" "$t/sp ace/todir/b/up"; do
	[ "$(grep -c -F -e "file system loop at '$p': $eloop" \
	    -e "file system loop at $p: $eloop" "$tmp/err")" = 1 ] ||
		fail "loop: message for $p: $(cat "$tmp/err")"
done
python3 - "$tmp/j" "$t" <<'EOF' || fail "loop: JSON records"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1], "rb")]
t = sys.argv[2]
errs = [r for r in recs if "error" in r]
paths = [r["path"] for r in recs]
ok = len(paths) == len(set(paths)) and not errs
ok &= t + "/wide/f300" in paths and t + "/a/b/up" in paths
ok &= t + "/sp ace/todir/b/up" in paths
sys.exit(0 if ok else 1)
EOF
# without -L the link is only a link
"$tool" -r -c %n "$t" >/dev/null 2>"$tmp/err" ||
	fail "no -L: a loop through a symlink is no error: $(cat "$tmp/err")"
rm "$t/a/b/up"

# -x: a tmpfs mounted inside is printed, not entered; without -x entered.
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m xstat-walk "$t/empty" \
    2>/dev/null; then
	mnt=$t/empty
	: >"$mnt/inside"
	"$tool" -r -x -c %n "$t" >"$tmp/x" 2>&1 || fail "-x: status not 0"
	grep -qx "$mnt" "$tmp/x" || fail "-x: the mount point is not listed"
	grep -q "inside" "$tmp/x" && fail "-x: entered another file system"
	find "$t" -xdev | sort >"$tmp/find"
	sort "$tmp/x" | cmp -s - "$tmp/find" || fail "-x: not find -xdev's"
	"$tool" -r -c %n "$t" | grep -q "inside" ||
		fail "without -x: the mount was not entered"
	umount "$mnt" && mnt=
else
	echo "note: -x not tested (not root or no tmpfs mount)"
fi

# Directories whose entry can be examined but which cannot be opened:
# closed (000) and search-only (0111: nobody can look names up in it,
# not list it).  Reported on stderr, status 1, the rest listed; each
# path has one record (its entry's, no error record besides), so the
# output is also a snapshot --changes reads.  root reads anything: then
# as nobody.
mkdir "$t/closed" "$t/xonly"
: >"$t/closed/secret"
: >"$t/xonly/hidden"
chmod 000 "$t/closed"
chmod 111 "$t/xonly"
as=
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1 &&
	    setpriv --reuid=nobody --regid=nogroup --clear-groups true \
	    2>/dev/null; then
		as="setpriv --reuid=nobody --regid=nogroup --clear-groups"
		chmod 755 "$tmp"
		chmod -R a+rX "$t" 2>/dev/null
		chmod 000 "$t/closed"
		chmod 111 "$t/xonly"
		# A build tree under a 0700 directory (CI's mktemp copies)
		# holds a tool nobody cannot run.
		if ! $as "$tool" --version >/dev/null 2>&1; then
			echo "note: unreadable directory not tested" \
			    "(nobody cannot run $tool)"
			as=skip
		fi
	else
		echo "note: unreadable directory not tested (no setpriv)"
		as=skip
	fi
fi
if [ "$as" != skip ]; then
	$as "$tool" -r -j "$t" >"$tmp/j" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] || fail "unreadable: status $rc, not 1"
	for d in closed xonly; do
		grep -q "cannot open directory.*$d.*Permission denied" \
		    "$tmp/err" || fail "unreadable $d: message: $(cat "$tmp/err")"
	done
	python3 - "$tmp/j" "$t" <<'EOF' || fail "unreadable: JSON records"
import collections, json, sys
recs = [json.loads(l) for l in open(sys.argv[1], "rb")]
t = sys.argv[2]
twice = [p for p, n in collections.Counter(r["path"] for r in recs).items()
         if n > 1]
errs = [(r["path"], r["error"]["errno"]) for r in recs if "error" in r]
paths = [r["path"] for r in recs if "error" not in r]
ok = not twice and not errs
ok &= t + "/closed" in paths and t + "/closed/secret" not in paths
ok &= t + "/xonly" in paths and t + "/xonly/hidden" not in paths
ok &= t + "/wide/f1" in paths and t + "/a/b/c/d/e" in paths
if not ok:
    print("twice:", twice, "error records:", errs)
sys.exit(0 if ok else 1)
EOF
	# the same walk as a snapshot, read back by --changes
	$as "$tool" -r -j --change-token "$t" >"$tmp/snap" 2>/dev/null
	$as "$tool" -r --changes="$tmp/snap" "$t" >/dev/null 2>"$tmp/err"
	grep -q "there twice" "$tmp/err" &&
		fail "unreadable: snapshot refused: $(cat "$tmp/err")"
fi
chmod 755 "$t/closed" "$t/xonly"

# Entries removed while the walk reads: no path twice (error records
# included), every failure an ENOENT (a message; an error record for an
# entry that vanished, none for a directory whose entry was printed), the
# walk ends.
v=$tmp/vanish
set --
for i in $(seq 1 40); do
	set -- "$@" "$v/d$i/s"
done
mkdir -p "$@"
hundred=$(seq 1 100)
for i in $(seq 1 40); do
	for j in $hundred; do : >"$v/d$i/f$j"; done
done
(for i in $(seq 40 -1 1); do rm -rf "$v/d$i"; done) &
deleter=$!
"$tool" -r -j "$v" >"$tmp/j" 2>"$tmp/err"
rc=$?
wait $deleter
[ $rc -le 1 ] || fail "vanishing: status $rc"
python3 - "$tmp/j" <<'EOF' || fail "vanishing: $(head -3 "$tmp/err")"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1], "rb")]
paths = [r["path"] for r in recs]
errs = [r["error"]["errno"] for r in recs if "error" in r]
sys.exit(0 if len(paths) == len(set(paths)) and set(errs) <= {2} else 1)
EOF
grep -v "No such file or directory\|changed during the walk" "$tmp/err" |
	grep . && fail "vanishing: other errors"

# EMFILE: with room for one directory at a time (-n 4: 0-2 and one) the
# four threads take turns, nothing is lost.  (With no room at all the
# dynamic loader fails first: the error path is not reached from here.)
# Descriptors 3-5 that the test inherits (a wrapper's log file, say) are
# closed first: the room is the tool's.
if [ -n "$lt" ]; then
	find "$t" | sort >"$tmp/find"
	for n in 4 5 6; do
		ltexec sh -c \
			"exec 3>&- 4>&- 5>&-; ulimit -n $n; exec \"\$@\"" sh \
			"$tool" -r -c %n "$t" >"$tmp/x" 2>"$tmp/err" ||
			fail "EMFILE ($n): status: $(head -2 "$tmp/err")"
		sort "$tmp/x" | cmp -s - "$tmp/find" ||
			fail "EMFILE ($n): entries lost"
	done
else
	echo "note: EMFILE not tested (no libtool script in $bld)"
fi

# A tree deeper than PATH_MAX: 24 levels of 200-byte names (4,824 bytes
# of path).  Every entry once, with find's inode numbers and sizes.
deep=$tmp/deep
mkdir "$deep"
name=$(printf '%0200d' 0)
(cd "$deep" && for i in $(seq 1 24); do
	mkdir "$name" && cd "$name" && echo "$i" >"f$i" || exit 1
done) || fail "deep: cannot make the tree"
"$tool" -r -c '%n|%i|%s' "$deep" 2>"$tmp/err" | sort >"$tmp/r"
find "$deep" -printf '%p|%i|%s\n' | sort >"$tmp/s"
[ "$(wc -l <"$tmp/s")" -eq 49 ] || fail "deep: find lists $(wc -l <"$tmp/s")"
cmp -s "$tmp/r" "$tmp/s" ||
	fail "deep: not find's: $(head -c 300 "$tmp/err")"
rm -rf "$deep"

# Usage errors.
"$tool" -x . >/dev/null 2>&1
[ $? -eq 2 ] || fail "-x without -r is not a usage error"
"$tool" -r --threads=0 . >/dev/null 2>&1
[ $? -eq 2 ] || fail "--threads=0 is not a usage error"
exit $status
