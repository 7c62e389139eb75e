#!/bin/sh
# Install into a DESTDIR, then build a consumer with nothing but what
# "pkg-config libxstat" says, linked shared and static, and check that it
# prints the inode number stat(1) gives.  Also checks that the header,
# library and man pages land where a system library's do.
set -u
: "${top_builddir:?}"

if ! command -v pkg-config >/dev/null 2>&1; then
	echo "SKIP: pkg-config is not installed"
	exit 77
fi
cc=${CC:-cc}
if [ -n "${top_builddir:-}" ] && [ ! -e "$top_builddir/lib/.libs/libxstat.so" ]; then
	echo "SKIP: this build makes no shared library (--disable-shared)"
	exit 77
fi
case " ${BUILD_CFLAGS:-} " in
*-fsanitize=*)
	# A plain consumer cannot link a library built with sanitizers.
	echo "SKIP: this build of the library is instrumented (sanitizers)"
	exit 77
	;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-pkgconfig.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

# A make started from a test is not part of the jobserver of the make that
# runs the tests; a plain serial install is enough.  $MAKE may carry words.
# shellcheck disable=SC2086
if ! env -u MAKEFLAGS -u MFLAGS ${MAKE:-make} -C "$top_builddir" install \
	DESTDIR="$root" >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "FAIL: make install DESTDIR=$root"
	exit 1
fi

pc=$(find "$root" -name libxstat.pc)
[ -n "$pc" ] || { echo "FAIL: libxstat.pc not installed"; exit 1; }
pcdir=$(dirname "$pc")
echo "installed: $(cd "$root" && find . -type f -o -type l | sort | tr '\n' ' ')"

# Only the DESTDIR's .pc, with its paths moved under the DESTDIR.
PKG_CONFIG_PATH=$pcdir
PKG_CONFIG_LIBDIR=$pcdir
PKG_CONFIG_SYSROOT_DIR=$root
export PKG_CONFIG_PATH PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR

pkg-config --exists libxstat || { echo "FAIL: pkg-config libxstat"; exit 1; }
cflags=$(pkg-config --cflags libxstat)
libs=$(pkg-config --libs libxstat)
slibs=$(pkg-config --static --libs libxstat)
# pkgconf puts the sysroot in front of variables, pkg-config does not.
libdir=$(pkg-config --variable=libdir libxstat)
libdir=${libdir#"$root"}
includedir=$(pkg-config --variable=includedir libxstat)
includedir=${includedir#"$root"}
echo "cflags: $cflags"
echo "libs: $libs"
echo "static libs: $slibs"

for f in "$includedir/xstat.h" "$libdir/libxstat.so.1" "$libdir/libxstat.a"; do
	[ -e "$root$f" ] || fail "$f not installed"
done
for f in man1/xstat.1 man3/xstat.3 man3/fxstat.3 man3/xstat_extra.3 \
	man7/libxstat.7; do
	found=$(find "$root" -path "*/man/$f")
	[ -n "$found" ] || fail "$f not installed"
done

cat >"$tmp/consumer.c" <<'EOC'
#include <stdio.h>
#include <xstat.h>

int main(int argc, char **argv)
{
	struct xstat_parameters p = { XSTAT_REQUEST_INO };
	struct xstat x;

	if (argc < 2 || argc > 3 ||
	    xstat(AT_FDCWD, argv[1], 0, &p, &x, sizeof(x)) < 0) {
		perror("xstat");
		return 1;
	}
	printf("%llu\n", x.st_ino);
	if (argc == 3) {	/* the kernel's list of what is mapped */
		FILE *maps = fopen("/proc/self/maps", "r");
		int c;

		while (maps && (c = getc(maps)) != EOF)
			putchar(c);
	}
	return 0;
}
EOC

file=$tmp/consumer.c
want=$(stat -c %i "$file")

# shellcheck disable=SC2086 # the flags are words
if $cc $cflags -o "$tmp/consumer-shared" "$tmp/consumer.c" $libs \
	2>"$tmp/cc.log"; then
	got=$(LD_LIBRARY_PATH=$root$libdir "$tmp/consumer-shared" "$file")
	[ "$got" = "$want" ] || fail "shared consumer: '$got', stat says $want"
	echo "shared consumer: inode $got, stat says $want"
	# It really uses the installed shared library: the kernel's maps of
	# the running consumer, whatever its C library's loader (musl's has
	# no LD_TRACE_LOADED_OBJECTS: the consumer would run instead).
	if [ -r /proc/self/maps ]; then
		LD_LIBRARY_PATH=$root$libdir "$tmp/consumer-shared" "$file" \
			maps | grep -q " $root$libdir/libxstat\.so\.1" ||
			fail "shared consumer does not load $root$libdir/libxstat.so.1"
	else
		echo "shared consumer: no /proc/self/maps, its library not checked"
	fi
else
	cat "$tmp/cc.log"
	fail "shared consumer does not build with: $cflags ... $libs"
fi

# shellcheck disable=SC2086
if $cc -static $cflags -o "$tmp/consumer-static" "$tmp/consumer.c" \
	$slibs 2>"$tmp/cc.log"; then
	got=$(env -u LD_LIBRARY_PATH "$tmp/consumer-static" "$file")
	[ "$got" = "$want" ] || fail "static consumer: '$got', stat says $want"
	echo "static consumer: inode $got, stat says $want"
elif grep -q 'cannot find -lc\b' "$tmp/cc.log"; then
	echo "static consumer: no static C library here, not tested"
else
	cat "$tmp/cc.log"
	fail "static consumer does not build with: $cflags ... $slibs"
fi

# The README's example, built the way the README says.
awk '/^## Install/ { i = 1 } i && /^```c$/ { c = 1; next }
	c && /^```$/ { exit } c' "${top_srcdir:?}/README.md" >"$tmp/born.c"
# shellcheck disable=SC2086
if [ -s "$tmp/born.c" ] && $cc $cflags -o "$tmp/born" "$tmp/born.c" $libs \
	2>"$tmp/cc.log"; then
	got=$(LD_LIBRARY_PATH=$root$libdir "$tmp/born" "$file")
	born=$(stat -c %W "$file")
	case $got in
	"born $born") echo "README example: $got, stat says $born";;
	"")	[ "$born" = 0 ] ||
			fail "README example: nothing, stat says born $born";;
	*)	fail "README example: '$got', stat says born $born";;
	esac
	# Without its argument it says how to use it, not an errno that
	# nothing set ("xstat: Success").
	LD_LIBRARY_PATH=$root$libdir "$tmp/born" >/dev/null 2>"$tmp/usage"
	rc=$?
	grep -q '^usage: ' "$tmp/usage" && [ $rc -eq 2 ] ||
		fail "README example without its argument: exit $rc, $(cat "$tmp/usage")"
else
	cat "$tmp/cc.log"
	fail "the README's example does not build"
fi

exit $status
