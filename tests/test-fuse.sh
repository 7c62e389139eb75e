#!/bin/sh
# Server round trips on FUSE: the statx backend, then the fallback with
# statx(2) blocked by seccomp as container sandboxes do (ENOSYS, and
# EPERM as older Docker profiles did).  Skips (77) only if every run
# skips; fails if any run fails.
t="${top_builddir:-.}/tests"

"$t/test-fuse" statx
r1=$?
"$t/seccomp-run" -e ENOSYS -s statx -- "$t/test-fuse" fallback
r2=$?
"$t/seccomp-run" -e EPERM -s statx -- "$t/test-fuse" fallback
r3=$?

if [ "$r1" -eq 77 ] && [ "$r2" -eq 77 ] && [ "$r3" -eq 77 ]; then
	exit 77
fi
for r in "$r1" "$r2" "$r3"; do
	if [ "$r" -ne 0 ] && [ "$r" -ne 77 ]; then
		exit 1
	fi
done
exit 0
