#!/bin/sh
# The harness around the tests (tests/driver.sh, tests/skip-summary.sh),
# on made-up tests run through automake's test-driver as "make check"
# runs them: a skip's reason is on its result line, in its .trs file and
# in the summary, under the kind of thing the machine lacks; a test whose
# output blames errno 0 ("...: Success", "(Success)") is an ERROR even
# when it exits 0 or 77.  Then, as root on x86_64, the user-namespace
# helper of the tests with unshare(2) refused: the skip names the
# kernel's error, not "Success".
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
status=0
fail() {
	echo "FAIL: $*"
	status=1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-harness.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

# run NAME EXIT-STATUS MESSAGE: a test that prints MESSAGE on stderr and
# exits with EXIT-STATUS, run by the driver; its result line in NAME.out.
run() {
	printf '#!/bin/sh\necho "%s" >&2\nexit %s\n' "$3" "$2" >"$tmp/$1"
	sh "$top_srcdir/tests/driver.sh" sh "$top_srcdir/build-aux/test-driver" \
		--test-name "$1" --log-file "$tmp/$1.log" \
		--trs-file "$tmp/$1.trs" --color-tests no \
		--enable-hard-errors yes --expect-failure no -- \
		sh "$tmp/$1" >"$tmp/$1.out"
}
result() {
	sed -n 's/^:test-result: *//p' "$tmp/$1.trs"
}

run skip-root 77 "SKIP: loop-mounted images need root"
[ "$(cat "$tmp/skip-root.out")" = "SKIP: skip-root - loop-mounted images need root" ] ||
	fail "skip's result line: $(cat "$tmp/skip-root.out")"
grep -qx ':skip-reason: loop-mounted images need root' "$tmp/skip-root.trs" ||
	fail "no :skip-reason: in the .trs"
run skip-tool 77 "SKIP: xfs: mkfs.xfs is missing"
run skip-none 77 "nothing said"
grep -q '^SKIP: skip-none - no reason given' "$tmp/skip-none.out" ||
	fail "a skip without a reason: $(cat "$tmp/skip-none.out")"
run pass 0 "all fine"
[ "$(cat "$tmp/pass.out")" = "PASS: pass" ] && [ "$(result pass)" = PASS ] ||
	fail "a pass: $(cat "$tmp/pass.out")"

# errno 0 as a reason, in any result.
run errno0-pass 0 "setup: Success"
run errno0-skip 77 "SKIP: no user namespace with a mapping: Success"
run errno0-paren 1 "FAIL: stat f: 12 (Success)"
for t in errno0-pass errno0-skip errno0-paren; do
	[ "$(result $t)" = ERROR ] || fail "$t: $(result $t), not ERROR"
	grep -q "^ERROR: $t - errno 0 printed" "$tmp/$t.out" ||
		fail "$t's result line: $(cat "$tmp/$t.out")"
done
run success-word 0 "Success rate 100%"
[ "$(result success-word)" = PASS ] || fail "\"Success\" as a word is no error"

sh "$top_srcdir/tests/skip-summary.sh" "$tmp"/skip-root.log \
	"$tmp"/skip-tool.log "$tmp"/pass.log "$tmp"/missing.log >"$tmp/summary"
cat "$tmp/summary"
printf '%s\n' "Skipped: 2, and why:" "  needs root:" \
	"    $tmp/skip-root: loop-mounted images need root" \
	"  a tool or package is missing:" \
	"    $tmp/skip-tool: xfs: mkfs.xfs is missing" >"$tmp/want"
cmp -s "$tmp/want" "$tmp/summary" || fail "the summary, not as expected"

# The helper behind th_mount_idmapped() where unshare(CLONE_NEWUSER) is
# refused (272 on x86_64): it skips, with the kernel's errno.
idmap=$top_builddir/tests/test-ext4-idmap
if [ "$(id -u)" = 0 ] && [ "$(uname -m)" = x86_64 ] && [ -x "$idmap" ] &&
   [ -x "$top_builddir/tests/seccomp-run" ]; then
	"$top_builddir/tests/seccomp-run" -e EPERM -s 272 -- "$idmap" \
		>"$tmp/idmap.log" 2>&1
	rc=$?
	grep '^SKIP' "$tmp/idmap.log"
	# A skip before it reaches unshare (no loop devices in a chroot)
	# proves nothing either way: only the namespace's skip is checked.
	if grep -q 'user namespace' "$tmp/idmap.log"; then
		grep -q 'user namespace with a mapping: Operation not permitted' \
			"$tmp/idmap.log" ||
			fail "idmap without unshare: $(grep -i 'namespace' "$tmp/idmap.log")"
	elif [ $rc -eq 77 ]; then
		echo "idmap without unshare: not reached (the helper skipped first)"
	else
		[ $rc -eq 0 ] || fail "idmap without unshare: exit $rc"
	fi
else
	echo "not root on x86_64, or no test-ext4-idmap: its unshare case not run"
fi
exit $status
