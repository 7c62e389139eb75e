#!/bin/sh
# Print, as C, the test program of the xstat() patch mail ("[ver #3]",
# July 2010: the "TESTING" section, indented by one tab), so that
# tests/tool-patch.sh compiles the very text the patch carries.
# tests/patch-test-program.c is this script's output on that mail.
set -eu
awk '
/^The following test program can be used/ { on = 1; next }
on && /^Just compile and run/ { exit }
on {
	if ($0 != "" && substr($0, 1, 1) != "\t") {
		print FILENAME ": unindented line in the program" > "/dev/stderr"
		exit 1
	}
	lines[++n] = substr($0, 2)
}
END {
	while (n > 0 && lines[n] == "")
		n--
	for (i = 1; i <= n; i++)
		if (i > 1 || lines[i] != "")
			print lines[i]
}
' "$1"
