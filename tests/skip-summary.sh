#!/bin/sh
# After "make check" (check-local): every test that skipped, grouped by
# what this machine lacks, each with the reason its .trs file keeps
# (tests/driver.sh).  Arguments: the tests' .log files (TEST_LOGS); those
# that did not run or did not skip are passed over.
out=$(for log; do
	trs=${log%.log}.trs
	[ -f "$trs" ] && grep -q '^:test-result: *SKIP' "$trs" || continue
	why=$(sed -n 's/^:skip-reason: *//p' "$trs" | head -n 1)
	[ -n "$why" ] || why="no reason recorded in $trs"
	# The kind, from the reason's words; the first that matches.
	# "root" as a word, not in a path (/root/...) nor in "chroot".
	kind=$(printf '%s\n' "$why" | awk '{ r = tolower($0); w = r
		gsub(/\/[^ ]*/, "", w) }
		w ~ /(^|[^a-z])root([^a-z]|$)|privilege|cap_sys|cannot drop to another uid/ {
			print "1 needs root"; exit }
		r ~ /loop/ { print "2 no loop device"; exit }
		r ~ /missing|not installed|not available|no (ntfs-3g|fuse|debugfs|mkfs)|needs (debugfs|mkfs|coreutils)|debian: / {
			print "3 a tool or package is missing"; exit }
		r ~ /built without|not built|--disable|no shared|instrumented|libtool|configure/ {
			print "4 left out of this build"; exit }
		r ~ /seccomp|kernel|statx|io_uring|namespace|idmap|lease|mount|tmpfs|\/dev|\/sys|\/proc|ext4|semaphore/ {
			print "5 the kernel or the machine lacks a feature"; exit }
		{ print "6 other"; exit }')
	printf '%s\t%s\t%s\n' "$kind" "${log%.log}" "$why"
done | sort -t '	' -k1,1 -k2,2)
[ -n "$out" ] || exit 0
n=$(printf '%s\n' "$out" | wc -l)
echo "Skipped: $n, and why:"
printf '%s\n' "$out" | awk -F '\t' '
	$1 != kind { kind = $1; sub(/^[0-9] /, "", $1); print "  " $1 ":" }
	{ print "    " $2 ": " $3 }'
