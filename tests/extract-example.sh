#!/bin/sh
# Print, as C, the program in the "Program source" subsection of the
# EXAMPLES section of the man page $1 (the $2nd such subsection, default
# the first), so that "make check" compiles and runs the very text the
# reader sees.  Unknown roff escapes are an error:
# better a failed build than a program that differs from the page.
set -eu
page=$1
nth=${2:-1}
awk -v want="$nth" '
function unescape(s,    out, c, n) {
	out = ""
	while ((n = index(s, "\\")) > 0) {
		out = out substr(s, 1, n - 1)
		c = substr(s, n + 1, 1)
		if (c == "e") {
			out = out "\\"; s = substr(s, n + 2)
		} else if (c == "-") {
			out = out "-"; s = substr(s, n + 2)
		} else if (c == "&") {
			s = substr(s, n + 2)
		} else if (c == "f") {
			s = substr(s, n + 3)
		} else if (substr(s, n + 1, 3) == "(aq") {
			out = out "\047"; s = substr(s, n + 4)
		} else if (substr(s, n + 1, 3) == "(dq") {
			out = out "\""; s = substr(s, n + 4)
		} else if (substr(s, n + 1, 3) == "(rs") {
			out = out "\\"; s = substr(s, n + 4)
		} else {
			printf("%s:%d: unknown escape \\%s\n", FILENAME, FNR, c) \
				> "/dev/stderr"
			bad = 1
			exit 1
		}
	}
	return out s
}
/^\.SH / { in_examples = ($2 == "EXAMPLES") }
in_examples && /^\.SS Program source/ { in_source = (++seen == want); next }
in_source && /^\.EX/ { in_block = 1; next }
in_block && /^\.EE/ { done = 1; exit }
in_block { print unescape($0) }
END {
	if (bad)
		exit 1
	if (!done) {
		print FILENAME ": no Program source in EXAMPLES" > "/dev/stderr"
		exit 1
	}
}
' "$page"
