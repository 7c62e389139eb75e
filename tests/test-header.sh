#!/bin/sh
# include/xstat.h is self-contained: it compiles alone and together with
# <sys/stat.h> and <fcntl.h>, as C (with and without _GNU_SOURCE, -std=c99
# and c11) and as C++, and its static layout checks hold for -m32 too.
set -u
cc=${CC:-cc}
cxx=${CXX:-c++}
inc="$top_srcdir/include"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-hdr.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0

try() {		# name compiler flags... < source
	name=$1; shift
	cat >"$tmp/t.src"
	if "$@" -I"$inc" -Wall -Wextra -Werror -c -o "$tmp/t.o" "$tmp/t.src" \
		>"$tmp/err" 2>&1; then
		echo "ok   $name"
	else
		echo "FAIL $name"; sed 's/^/     | /' "$tmp/err"; fail=1
	fi
}

alone='#include <xstat.h>
int f(void) { struct xstat x; x.st_mode = 0; return (int)sizeof(x) + (int)x.st_mode; }'
both='#include <sys/stat.h>
#include <fcntl.h>
#include <xstat.h>
int f(const char *p) {
	struct stat sb; struct xstat x; struct xstat_parameters q = { XSTAT_REQUEST_BTIME };
	(void)stat(p, &sb);
	return (int)xstat(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW | AT_FORCE_ATTR_SYNC, &q, &x, sizeof(x))
		+ (int)sb.st_atime + (int)x.st_atim.tv_sec;
}'
after='#include <xstat.h>
#include <sys/stat.h>
#include <fcntl.h>
int f(void) { return AT_NO_AUTOMOUNT + AT_EMPTY_PATH + AT_NO_ATTR_SYNC + AT_SYMLINK_NOFOLLOW; }'

for std in c99 c11 gnu11; do
	echo "$alone" | try "C $std alone" $cc -std=$std -x c
	echo "$both" | try "C $std with sys/stat.h" $cc -std=$std -x c
	echo "$after" | try "C $std, xstat.h first" $cc -std=$std -x c
	echo "$both" | try "C $std _GNU_SOURCE" $cc -std=$std -D_GNU_SOURCE -x c
done
echo "$both" | try "C _FILE_OFFSET_BITS=64" $cc -D_FILE_OFFSET_BITS=64 -x c
if command -v "$cxx" >/dev/null 2>&1; then
	echo "$both" | try "C++" $cxx -x c++
	echo "$alone" | try "C++ alone" $cxx -x c++ -std=c++11
else
	echo "skip C++: no compiler"
fi
# The layout asserts in the header are checked at compile time: as i386 too.
if echo 'int main(void){return 0;}' | $cc -m32 -x c -o "$tmp/a" - 2>/dev/null; then
	echo "$alone" | try "C -m32 (layout asserts)" $cc -m32 -std=c11 -x c
else
	echo "skip -m32: no multilib"
fi
exit $fail
