#!/bin/sh
# The driver of every test of "make check" (LOG_DRIVER): automake's
# test-driver, named by the first argument and given the others, and then
#
#  - a test that skipped says why on its result line, and the .trs file
#    keeps it (":skip-reason:", read by tests/skip-summary.sh): the first
#    "SKIP: " line of its log (tests/README.md), with a count of the
#    others;
#  - a test whose output gives "Success" as the reason of a failure is an
#    ERROR, whatever its exit status: that is strerror(0), errno read
#    after a call that does not set it (a short write, a child's failure,
#    a function that returns its error) or after cleanup reset it.
real=$1
shift
log= trs= name= prev=
for a; do
	case $prev in
	--log-file) log=$a ;;
	--trs-file) trs=$a ;;
	--test-name) name=$a ;;
	esac
	[ "$a" = -- ] && break
	prev=$a
done

# test-driver writes the test's output to the log and its one result
# line to stdout; that line is printed again below, with the reason.
line=$("$real" "$@")
st=$?
if [ -z "$log" ] || [ -z "$trs" ] || [ ! -f "$trs" ]; then
	[ -n "$line" ] && printf '%s\n' "$line"
	exit $st
fi

# One awk reads the log and the .trs (this runs once per test): it prints
# "E" and the first line that gives "Success" as a reason, else, for a
# test that skipped, "K" and the reason, else nothing.
info=$(awk -v logf="$log" -v trs="$trs" 'BEGIN {
	while ((getline l < trs) > 0)
		if (l ~ /^:test-result: *SKIP/)
			skip = 1
	while ((getline l < logf) > 0) {
		if (l ~ /(: |\()Success(\)|$)/) {
			print "E" l
			exit
		}
		if (skip && l ~ /^SKIP: */) {
			sub(/^SKIP: */, "", l)
			if (!nseen++)
				first = l
			if (!seen[l]++)
				n++
		}
	}
	if (!skip)
		exit
	if (n > 1)
		first = first " (and " n - 1 " more)"
	print "K" first
}')
success= why= skip=
case $info in
E*) success=${info#E} ;;
K*) why=${info#K}; skip=1 ;;
esac
if [ -n "$success" ]; then
	sed -i -e 's/^:test-result:.*/:test-result: ERROR/' \
		-e 's/^:global-test-result:.*/:global-test-result: ERROR/' \
		-e 's/^:recheck:.*/:recheck: yes/' \
		-e 's/^:copy-in-global-log:.*/:copy-in-global-log: yes/' "$trs"
	echo "driver.sh: ERROR: an error message ends in \"Success\"" \
		"(strerror(0): errno read where nothing set it): $success" \
		>>"$log"
	# In test-driver's colour for ERROR, where it coloured its line.
	esc=$(printf '\033')
	case $line in
	*"$esc"*) line="${esc}[0;35mERROR${esc}[m: $name" ;;
	*) line="ERROR: $name" ;;
	esac
	printf '%s - errno 0 printed as a reason: %s\n' "$line" "$success"
	exit $st
fi

if [ -n "$skip" ]; then
	[ -n "$why" ] || why="no reason given (no \"SKIP: \" line in $log)"
	printf ':skip-reason: %s\n' "$why" >>"$trs"
	line="$line - $why"
fi
printf '%s\n' "$line"
exit $st
