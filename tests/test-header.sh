#!/bin/sh
# include/xstat.h is self-contained: it compiles alone and together with
# <sys/stat.h> and <fcntl.h>, as C (with and without _GNU_SOURCE, -std=c99
# and c11) and as C++, and its static layout checks hold for -m32 too.
# Everything a program uses from it - the inline conversions, the buffer
# union, the typed extra-result accessors, fxstat() with an int fd - and
# the EXAMPLES programs of the man pages compile warning-free under
# -Wall -Wextra -pedantic -Wsign-conversion as C99, C11, C++17 and -m32.
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
	if "$@" -I"$inc" -Wall -Wextra -pedantic -Wsign-conversion -Werror \
		-c -o "$tmp/t.o" "$tmp/t.src" \
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

# What a program reaches for, with an int descriptor.
uses='#include <stdio.h>
#include <xstat.h>
int f(const char *p, int fd)
{
	struct xstat_parameters q = { XSTAT_REQUEST__ALL_STATS };
	union xstat_buffer b;
	const struct xstat_mnt_id *m;
	const struct xstat_attributes *a;
	const struct xstat_dioalign *d;
	const struct xstat_subvol *v;
	const struct xstat_write_atomic *w;
	const struct xstat_dio_read_align *r;
	struct stat sb;
	ssize_t n = xstat(AT_FDCWD, p, 0, &q, &b.x, sizeof(b));
	size_t len = n > 0 ? (size_t)n : 0;
	dev_t dev = xstat_makedev(b.x.st_dev);
#ifdef XSTAT_HAVE_TIMESPEC
	struct timespec ts;
	if (xstat_to_timespec(&b.x.st_btim, &ts))
		return -1;
#endif
	m = xstat_extra_mnt_id(&b.x, len);
	a = xstat_extra_attributes(&b.x, len);
	d = xstat_extra_dioalign(&b.x, len);
	v = xstat_extra_subvol(&b.x, len);
	w = xstat_extra_write_atomic(&b.x, len);
	r = xstat_extra_dio_read_align(&b.x, len);
	if (fxstat(fd, 0, &q, &b.x, sizeof(b)) < 0 ||
	    xstat_to_stat(&b.x, &sb))
		return -1;
	if ((xstat_known_mask() & q.request_mask) != q.request_mask)
		return -1;
	printf("%d %d %d %d %d %d %llu\n", m != NULL, a != NULL, d != NULL,
	       v != NULL, w != NULL, r != NULL, (unsigned long long)dev);
	return (int)sb.st_nlink + (int)sizeof(b) +
	       (LIBXSTAT_VERSION_AT_LEAST(0, 2, 0) ? 1 : 0);
}'
posix='#define _POSIX_C_SOURCE 200809L'

# The EXAMPLES programs of the pages, as the reader sees them.
examples=''
for page in "$top_srcdir"/man/man3/*.3; do
	head -n 1 "$page" | grep -q '^\.so ' && continue
	grep -q '^\.SS Program source' "$page" || continue
	name=$(basename "$page" .3)
	if sh "$top_srcdir/tests/extract-example.sh" "$page" \
		>"$tmp/ex-$name.c" 2>"$tmp/err"; then
		examples="$examples $name"
	else
		echo "FAIL $name.3: no example"; cat "$tmp/err"; fail=1
	fi
done

for std in c99 c11 gnu11; do
	printf '%s\n' "$uses" | try "C $std helpers" $cc -std=$std -x c
	printf '%s\n%s\n' "$posix" "$uses" |
		try "C $std _POSIX_C_SOURCE helpers" $cc -std=$std -x c
	for e in $examples; do
		try "C $std example $e" $cc -std=$std -x c <"$tmp/ex-$e.c"
	done
done
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
	for std in c++11 c++17; do
		printf '%s\n' "$uses" | try "C++ $std helpers" $cxx -std=$std -x c++
		for e in $examples; do
			# realloc's void * needs a cast in C++: only the
			# examples written for both languages.
			grep -q 'alloc(' "$tmp/ex-$e.c" && continue
			try "C++ $std example $e" $cxx -std=$std -x c++ \
				<"$tmp/ex-$e.c"
		done
	done
else
	echo "skip C++: no compiler"
fi
# The layout asserts in the header are checked at compile time: as i386 too.
# -m32 needs the 32-bit kernel headers as well as the 32-bit libc
# (Debian's gcc-multilib gives them; the cross compilers replace it).
if printf '#include <errno.h>\nint main(void){return 0;}\n' |
     $cc -m32 -x c -o "$tmp/a" - 2>/dev/null; then
	echo "$alone" | try "C -m32 (layout asserts)" $cc -m32 -std=c11 -x c
	printf '%s\n' "$uses" | try "C -m32 helpers" $cc -m32 -std=c99 -x c
	printf '%s\n' "$uses" | try "C -m32 helpers, 64-bit off_t and time_t" \
		$cc -m32 -std=c11 -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 -x c
	for e in $examples; do
		try "C -m32 example $e" $cc -m32 -std=c99 -x c <"$tmp/ex-$e.c"
	done
	if command -v "$cxx" >/dev/null 2>&1; then
		printf '%s\n' "$uses" | try "C++17 -m32 helpers" $cxx -m32 -std=c++17 \
			-x c++
	fi
else
	echo "skip -m32: no multilib (gcc -m32 cannot build with <errno.h>)"
fi
exit $fail
