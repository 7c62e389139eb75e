#!/bin/sh
# xstat --check-promises never calls a cell kept that it did not measure:
# an LD_PRELOAD shim (tests/coarse-step-shim.c) moves the coarse clock a
# tick on every ftruncate(), so every round of the three "truncate" cells
# straddles a tick and is discarded, as a throttled writer's rounds are.
# Those cells, and only those, must be "unmeasured: 0 of 2 rounds" in the
# table and "unmeasured" with rounds 0 and rounds_asked 2 in JSON (read
# by python3's json), not counted as kept, and the run must exit 3.  The
# oracle is the shim: it names the change it starves.  No root needed.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
top_srcdir=${top_srcdir:-.}
rounds=2
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is not installed" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-unmeasured.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! ${CC:-cc} -shared -fPIC -o "$tmp/shim.so" \
	"$top_srcdir/tests/coarse-step-shim.c" -ldl 2>"$tmp/cc.err"; then
	echo "SKIP: cannot build the shim: $(cat "$tmp/cc.err")" >&2
	exit 77
fi
mkdir "$tmp/dir"
fail=0
# A tool built with AddressSanitizer refuses any preload before its
# runtime: the shim cannot be put under it.
if LD_PRELOAD=$tmp/shim.so "$tool" --version 2>&1 >/dev/null |
	grep -q 'ASan runtime does not come first'; then
	echo "SKIP: the tool is built with AddressSanitizer, which loads no LD_PRELOAD shim before its runtime" >&2
	exit 77
fi

LD_PRELOAD=$tmp/shim.so "$tool" --check-promises --rounds=$rounds \
	"$tmp/dir" >"$tmp/text" 2>"$tmp/text.err"
rc=$?
[ $rc = 3 ] || {
	echo "FAIL: the table's run exited $rc, not 3:"
	cat "$tmp/text" "$tmp/text.err"
	fail=1
}
got=$(awk '/unmeasured: / { print $1, $2, $3 }' "$tmp/text" | sort |
	tr '\n' ',')
want="regular truncate dirstream,regular truncate fxstat,regular truncate xstat,"
[ "$got" = "$want" ] || {
	echo "FAIL: unmeasured cells in the table: '$got', not '$want'"
	fail=1
}
grep -q "unmeasured: 0 of $rounds rounds\$" "$tmp/text" || {
	echo "FAIL: no 'unmeasured: 0 of $rounds rounds' verdict"
	fail=1
}
if grep -q -e 'interrupted' "$tmp/text"; then
	echo "FAIL: an undocumented verdict:"
	grep -e 'interrupted' "$tmp/text"
	fail=1
fi
# the summary counts them apart from the kept ones
cells=$(grep -c -e ' ok$' -e ' BROKEN$' -e ' unmeasured: ' -e ' skipped: ' \
	-e ' error: ' "$tmp/text")
kept=$(grep -c ' ok$' "$tmp/text")
skipped=$(grep -c ' skipped: ' "$tmp/text")
sum="$cells cells: $kept kept, 0 broken, 3 unmeasured, $skipped skipped, 0 errors"
grep -qx "$sum" "$tmp/text" || {
	echo "FAIL: the summary is not '$sum':"
	tail -n 1 "$tmp/text"
	fail=1
}

LD_PRELOAD=$tmp/shim.so "$tool" --check-promises --rounds=$rounds --json \
	"$tmp/dir" >"$tmp/json" 2>"$tmp/json.err"
rc=$?
[ $rc = 3 ] || {
	echo "FAIL: the JSON run exited $rc, not 3:"
	cat "$tmp/json.err"
	fail=1
}
python3 - "$tmp/json" $rounds <<'EOF' || fail=1
import json, sys

rounds = int(sys.argv[2])
known = {"ok", "broken", "unmeasured", "skipped", "error"}
bad = 0
unmeasured = []
for line in open(sys.argv[1]):
    c = json.loads(line)
    cell = "%s %s %s" % (c["type"], c["change"], c["way"])
    if c["verdict"] not in known:
        print("FAIL: %s: undocumented verdict %r" % (cell, c["verdict"]))
        bad = 1
    if c.get("rounds_asked") != rounds:
        print("FAIL: %s: rounds_asked %r" % (cell, c.get("rounds_asked")))
        bad = 1
    if c["verdict"] == "unmeasured":
        unmeasured.append(cell)
        if c["rounds"] >= rounds or c["promise"] is not None:
            print("FAIL: %s: unmeasured with rounds %r, promise %r" %
                  (cell, c["rounds"], c["promise"]))
            bad = 1
    elif c["verdict"] == "ok" and c["rounds"] != rounds:
        print("FAIL: %s: ok after %r rounds" % (cell, c["rounds"]))
        bad = 1
want = ["regular truncate " + w for w in ("dirstream", "fxstat", "xstat")]
if sorted(unmeasured) != want:
    print("FAIL: unmeasured in JSON: %r, not %r" % (sorted(unmeasured), want))
    bad = 1
sys.exit(bad)
EOF
if ls -A "$tmp/dir" | grep -q .; then
	echo "FAIL: the scratch directory was left in $tmp/dir"
	fail=1
fi
[ $fail = 0 ] && echo "the truncate cells are unmeasured, exit 3"
exit $fail
