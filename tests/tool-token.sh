#!/bin/sh
# xstat --change-token and --dv-promise: the token and its promise in the
# layout, in %{...} directives and in JSON, the three agreeing; the token
# the same while the file is left alone and different after the test's
# own write and chmod; "every_change" claimed exactly where the oracle
# (uname -r 6.13+, findmnt's type ext4/xfs/btrfs/tmpfs, stat's ctime with
# nanoseconds) says multigrain timestamps arm the ctime.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-token.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
fail() {
	echo "FAIL: $*"
	status=1
}

f=$tmp/file
echo one >"$f"
tok() { "$tool" --change-token -c '%#{change_token}' "$f"; }

t1=$(tok) && t2=$(tok) || { echo "FAIL: xstat --change-token failed"; exit 1; }
[ "$t1" = "$t2" ] || fail "token moved without a change: $t1 $t2"
echo two >>"$f"
t3=$(tok)
[ "$t3" != "$t2" ] || fail "token did not move after a write: $t3"
chmod 600 "$f"
t4=$(tok)
[ "$t4" != "$t3" ] || fail "token did not move after chmod: $t4"

# The layout line and the directives say the same.
line=$("$tool" --change-token "$f" | sed -n 's/^Change token: //p')
case $line in
"$t4 (from ctime: "*")")	;;
*)	fail "layout line '$line', directive $t4";;
esac
# JSON's --change-token asks for the filesystem ID too (a snapshot's): the
# same request here, so that both learn the filesystem the same way (a
# chroot that hides its mount knows it only through the anchor).
promise=$("$tool" --change-token -m 0x800000000 -c '%#{token_promise}' "$f")
src=$("$tool" --change-token -c '%{token_source}' "$f")
[ "$src" = 2 ] || fail "token source $src, expected 2 (ctime)"

# JSON: the same token (decimal) and the same promise, flags by name.
if command -v python3 >/dev/null 2>&1; then
	"$tool" -j --change-token --dv-promise "$f" | python3 -c '
import json, sys
o = json.loads(sys.stdin.read())
t = o["change_token"]
tok, promise = int(sys.argv[1], 16), int(sys.argv[2], 16)
names = ["every_change", "tick", "monotonic", "persistent", "metadata",
         "atime", "wrap32", "clock_step", "lags", "names"]
assert int(t["token"]) == tok, (t, tok)
assert t["promise"] == promise, (t, promise)
assert t["source"] == "ctime", t
assert t["flags"] == [n for i, n in enumerate(names) if promise >> i & 1], t
assert "dv_promise" in o and o["dv_promise"] is None, o
' "$t4" "$promise" || fail "JSON disagrees with the directives"
fi

# The oracle for "every change".
rel=$(uname -r)
maj=${rel%%.*} rest=${rel#*.} min=${rest%%[!0-9]*}
type=$(findmnt -n -o FSTYPE -T "$f" 2>/dev/null)
nsec=$(stat -c %.9Z "$f" 2>/dev/null)
nsec=${nsec#*.}
want=0
# The library learns a mount's multigrain timestamps from statmount(2).
if ! why=$("${XSTAT_PROBE:-./tests/th-probe}" statmount); then
	echo "note: $why: only the weak promise is checked"
elif [ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -ge 13 ]; }; then
	case $type in
	ext4|xfs|btrfs|tmpfs) [ "${nsec:-0}" != 000000000 ] && want=1;;
	esac
fi
every=$(( promise & 1 )) tick=$(( (promise >> 1) & 1 ))
if [ -z "$type" ]; then
	echo "note: findmnt gave no type; the promise is not checked"
elif [ "$every" != "$want" ] || [ "$tick" = "$want" ]; then
	fail "promise $promise on $type ($rel, ctime .$nsec): every_change $every, expected $want"
fi

# Without statx the call anchors the file and learns its filesystem from
# the anchor's mount ID: asked alone or with the rest, the token must
# promise every change exactly where statx's does (where the kernel has
# no unique mount ID for handles, before 6.12, it may say only "tick").
for m in "-m 0x200000000" "--change-token"; do
	# shellcheck disable=SC2086
	p=$(LIBXSTAT_NO_STATX=1 "$tool" $m -c '%#{token_promise}' "$f")
	[ $(( p & 1 )) = "$(( promise & 1 ))" ] || [ $(( p & 3 )) = 2 ] ||
		fail "fallback promise $p ($m), statx's $promise"
	if [ "$want" = 1 ] && { [ "$maj" -gt 6 ] ||
	    { [ "$maj" -eq 6 ] && [ "$min" -ge 12 ]; }; } &&
	    [ $(( p & 1 )) != 1 ]; then
		fail "fallback promise $p ($m) is not every-change on $type"
	fi
done
exit $status
