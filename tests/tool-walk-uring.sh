#!/bin/sh
# Directory streams with io_uring read-ahead (lib/bulk_uring.c), through
# xstat -r: LIBXSTAT_URING=always (rings on a hot cache too) gives what
# the plain path gives (=never), in JSON and format modes; strace shows
# that rings are set up then, and never when statx is refused (the
# fallback backend: a ring's statx would bypass the filter), with
# LIBXSTAT_NO_STATX=1, or with kernel.io_uring_disabled=2 (root, set and
# restored); io_uring_setup refused by seccomp leaves the results alone.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
bld=${top_builddir:-.}
lt=$bld/libtool
seccomp=$bld/tests/seccomp-run
if ! grep -q '^#define HAVE_LIBURING 1' "$bld/config.h" 2>/dev/null; then
	echo "SKIP: built without liburing (plain path only)" >&2
	exit 77
fi
if [ ! -x "$lt" ]; then
	echo "SKIP: no libtool script in $bld" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-uring.XXXXXX")
sysctl_saved=
cleanup() {
	[ -n "$sysctl_saved" ] &&
		echo "$sysctl_saved" >/proc/sys/kernel/io_uring_disabled
	rm -rf "$tmp"
}
trap cleanup EXIT
status=0
fail() {
	echo "FAIL: $*"
	status=1
}

t=$tmp/tree
for i in 1 2 3 4; do
	mkdir -p "$t/d$i/sub"
	for j in $(seq 1 200); do : >"$t/d$i/f$j"; done
	ln -s f1 "$t/d$i/link"
done
find "$t" >/dev/null	# directory atimes move once, now

# The program itself, not libtool's wrapper, so strace and seccomp see
# only it (--mode=execute finds it among the arguments).
x() { "$lt" --mode=execute "$@"; }

for mode in -j "-c %n|%i|%s|%h|%Y|%W|%{gen}"; do
	# shellcheck disable=SC2086
	LIBXSTAT_URING=never "$tool" -r $mode "$t" | sort >"$tmp/plain"
	# shellcheck disable=SC2086
	LIBXSTAT_URING=always "$tool" -r $mode "$t" | sort >"$tmp/ring"
	[ -s "$tmp/plain" ] || fail "$mode: no output"
	cmp -s "$tmp/plain" "$tmp/ring" ||
		fail "$mode: io_uring changes the results:" \
		     "$(diff "$tmp/plain" "$tmp/ring" | head -4)"
	if [ -x "$seccomp" ]; then
		# 425: io_uring_setup on every architecture
		# shellcheck disable=SC2086
		LIBXSTAT_URING=always x "$seccomp" -e EPERM -s 425 -- \
			"$tool" -r $mode "$t" | sort >"$tmp/refused"
		cmp -s "$tmp/plain" "$tmp/refused" ||
			fail "$mode: io_uring_setup refused changes the results"
	fi
done

if command -v strace >/dev/null 2>&1; then
	n=$(LIBXSTAT_URING=always x strace -f -qq -e trace=io_uring_setup \
	    -o "$tmp/st" "$tool" -r -j "$t" >/dev/null 2>&1;
	    grep -c "io_uring_setup(" "$tmp/st")
	[ "$n" -gt 0 ] || fail "LIBXSTAT_URING=always: no ring set up"
	n=$(LIBXSTAT_URING=always LIBXSTAT_NO_STATX=1 x strace -f -qq \
	    -e trace=io_uring_setup -o "$tmp/st" "$tool" -r -j "$t" \
	    >/dev/null 2>&1; grep -c "io_uring_setup(" "$tmp/st")
	[ "$n" -eq 0 ] || fail "fallback backend (LIBXSTAT_NO_STATX): rings"
	if [ -x "$seccomp" ]; then
		n=$(LIBXSTAT_URING=always x strace -f -qq \
		    -e trace=io_uring_setup -o "$tmp/st" "$seccomp" -e EPERM \
		    -s statx -- "$tool" -r -j "$t" >/dev/null 2>&1;
		    grep -c "io_uring_setup(" "$tmp/st")
		[ "$n" -eq 0 ] || fail "statx refused by seccomp: rings used"
	fi
	f=/proc/sys/kernel/io_uring_disabled
	if [ "$(id -u)" = 0 ] && [ -w "$f" ]; then
		sysctl_saved=$(cat "$f")
		if echo 2 >"$f" 2>/dev/null; then
			n=$(LIBXSTAT_URING=always x strace -f -qq \
			    -e trace=io_uring_setup -o "$tmp/st" "$tool" -r \
			    -j "$t" 2>/dev/null | sort >"$tmp/dis";
			    grep -c "io_uring_setup(" "$tmp/st")
			echo "$sysctl_saved" >"$f" && sysctl_saved=
			[ "$n" -eq 0 ] || fail "io_uring_disabled=2: rings used"
			LIBXSTAT_URING=never "$tool" -r -j "$t" |
				sort >"$tmp/plain"
			cmp -s "$tmp/dis" "$tmp/plain" ||
				fail "io_uring_disabled=2: other results"
		else
			sysctl_saved=
			echo "note: kernel.io_uring_disabled not settable here"
		fi
	else
		echo "note: kernel.io_uring_disabled not tested (not root)"
	fi
else
	echo "note: no strace: which path ran is not checked"
fi
exit $status
