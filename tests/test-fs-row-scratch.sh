#!/bin/sh
# Adding a filesystem is what docs/ARCHITECTURE.md ("Filesystems: one row
# each") says it is: in a copy of the source tree, write one lib/fs_*.c,
# one line in lib/fs_rows.h and one line in lib/fs.am, nothing else;
# build the library and the filesystem unit tests there, and check that
# the layer test places the new file, that the unit tests pass, and that
# the lookup finds the new row by its magic (its declaration and its place
# in fs.c's table followed from the row-list line alone).
#
# Full run (XSTAT_CHECK_FULL=1; CI runs it once, after the README's
# run): a copy of the sources, autoreconf, configure, and the library
# and two test programs built, nothing else: about a minute on two
# cores.  Sampled run (make check's default, where the build tree has
# its configuration and core library): automake regenerates the copy's
# Makefile.in, which must build the new file into the core library; the
# file that includes the row list (fs.c) and the new row are compiled
# with the build's own config.h and warnings as errors, and linked before
# the build's core library, whose fs.c they replace; the unit tests with
# the new row are left to the full run.  Time budget: XS_SCRATCH_BUDGET
# seconds (600), over it the test fails.  Skips (77) without autoreconf,
# a compiler or timeout(1).
set -u
: "${top_srcdir:?}"
cc=${CC:-cc}
make=${MAKE:-make}
# The build tree's --host, for a cross compiler (configure checks that
# the compiler compiles for the host it is told).
host=$(sed -n "s/^host_alias='\(.*\)'\$/\1/p" \
	"${top_builddir:-.}/config.log" 2>/dev/null | sed -n 1p)
budget=${XS_SCRATCH_BUDGET:-600}

for tool in autoreconf automake libtoolize timeout tar "$make"; do
	command -v "$tool" >/dev/null 2>&1 ||
		{ echo "SKIP: $tool is missing" >&2; exit 77; }
done
command -v "${cc%% *}" >/dev/null 2>&1 ||
	{ echo "SKIP: no compiler ($cc)" >&2; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xs-fs-row.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
src=$tmp/src
mkdir "$src" || exit 1

# The sources as they are now: a git checkout's files (tracked, and new
# ones not ignored), else (an unpacked tarball, or git refusing a tree
# another user owns) the whole tree without build products.
files=
if [ -e "$top_srcdir/.git" ] && command -v git >/dev/null 2>&1; then
	files=$(cd "$top_srcdir" && git ls-files -co --exclude-standard \
		2>/dev/null | head -n 1)
fi
if [ -n "$files" ]; then
	(cd "$top_srcdir" && git ls-files -co --exclude-standard -z |
		xargs -0 tar -cf - --) | tar -C "$src" -xf - || exit 1
else
	tar -C "$top_srcdir" --exclude=.git --exclude='*.o' --exclude='*.lo' \
		--exclude='*.la' --exclude=.libs --exclude=.deps \
		--exclude=autom4te.cache -cf - . | tar -C "$src" -xf - ||
		exit 1
	chmod -R u+w "$src"
fi
[ -f "$src/lib/fs_rows.h" ] || { echo "FAIL: no lib/fs_rows.h in the copy"; exit 1; }

# The three edits, and only these.
magic=0x5c7a7c40
cat > "$src/lib/fs_scratch.c" <<EOF
// SPDX-License-Identifier: LGPL-2.1-or-later
/* A filesystem no kernel has: the row tests/test-fs-row-scratch.sh adds. */
#include "fs.h"

const struct xs_fs xs_fs_scratch = {
	.magic		= $magic,
	.name		= "scratch",
};
EOF
echo 'XS_FS_ROW(scratch)' >> "$src/lib/fs_rows.h"
echo 'lib_libxstat_core_la_SOURCES += lib/fs_scratch.c' >> "$src/lib/fs.am"

# The lookup, asked from outside the library's sources.
cat > "$tmp/row.c" <<EOF
#include <string.h>
#include "fs.h"

int main(void)
{
	const struct xs_fs *fs = xs_fs_of($magic);

	return !(fs == &xs_fs_scratch && strcmp(fs->name, "scratch") == 0);
}
EOF

# The build, as a script of its own for timeout(1) to run.
bld=${top_builddir:-}
sampled=0
if [ "${XSTAT_CHECK_FULL:-}" != 1 ] && [ -n "$bld" ] &&
   [ -f "$bld/config.h" ] && [ -f "$bld/lib/libxstat_core.la" ] &&
   [ -x "$bld/libtool" ] && [ -f "$top_srcdir/aclocal.m4" ] &&
   [ -f "$top_srcdir/build-aux/ltmain.sh" ]; then
	sampled=1
fi
if [ "$sampled" = 1 ]; then
	flags="-std=gnu11 -Wall -Wextra -Werror -include $bld/config.h"
	flags="$flags -I$src/include -I$src/lib -I$src"
	cat > "$tmp/build.sh" <<EOF
set -e
cd "$src"
# What autogen.sh made beside the tracked files, as it is.
for f in aclocal.m4 config.h.in; do
	[ -f "\$f" ] || cp "$top_srcdir/\$f" .
done
mkdir -p build-aux m4
for f in "$top_srcdir"/build-aux/* "$top_srcdir"/m4/*.m4; do
	d=\${f#"$top_srcdir"/}
	[ ! -f "\$f" ] || [ -e "\$d" ] || cp "\$f" "\$d"
done
automake
grep -q 'libxstat_core_la-fs_scratch[.]lo' Makefile.in ||
	{ echo "lib/fs.am's line does not build lib/fs_scratch.c"; exit 1; }
$cc $flags -fvisibility=hidden -pthread -c -o "$tmp/fs.o" lib/fs.c
$cc $flags -fvisibility=hidden -pthread -c -o "$tmp/fs_scratch.o" \\
	lib/fs_scratch.c
$cc $flags -c -o "$tmp/row.o" "$tmp/row.c"
"$bld/libtool" --mode=link $cc -pthread -o "$tmp/row" "$tmp/row.o" \\
	"$tmp/fs.o" "$tmp/fs_scratch.o" "$bld/lib/libxstat_core.la"
EOF
else
	cat > "$tmp/build.sh" <<EOF
set -e
cd "$src"
autoreconf --install --force
./configure --enable-werror --disable-dependency-tracking CC="$cc" \
	${host:+--host="$host"}
m="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $make -j2"
\$m lib/libxstat_core.la
$cc -I"$src/include" -I"$src/lib" -I"$src" -c -o "$tmp/row.o" "$tmp/row.c"
./libtool --mode=link $cc -o "$tmp/row" "$tmp/row.o" lib/libxstat_core.la
if grep -q '^CMOCKA_LIBS = *[^ ]' Makefile; then
	\$m tests/test-otherfs-unit
else
	touch "$tmp/no-cmocka"
fi
EOF
fi
timeout "$budget" sh "$tmp/build.sh" >"$tmp/log" 2>&1
rc=$?
if [ "$rc" = 124 ]; then
	echo "FAIL: the scratch build took over its budget of $budget s"
	exit 1
fi
if [ "$rc" != 0 ]; then
	tail -n 30 "$tmp/log"
	echo "FAIL: the tree with one row added does not build"
	exit 1
fi

status=0
out=$(top_srcdir=$src sh "$src/tests/test-layers.sh" 2>&1) ||
	{ echo "$out"; echo "FAIL: the layer test rejects the new row"; status=1; }
if [ "$sampled" = 1 ]; then
	echo "SKIP: sampled run (XSTAT_CHECK_FULL=1 builds them)" \
		> "$tmp/unit.log"
	rc=77
elif [ -e "$tmp/no-cmocka" ]; then
	echo "SKIP: cmocka missing" > "$tmp/unit.log"
	rc=77
else
	(cd "$src" && top_srcdir=$src top_builddir=$src \
		tests/test-otherfs-unit) >"$tmp/unit.log" 2>&1
	rc=$?
fi
case $rc in
0) ;;
77) echo "# test-otherfs-unit skipped: $(grep SKIP "$tmp/unit.log")" ;;
*) cat "$tmp/unit.log"; echo "FAIL: test-otherfs-unit with the new row"
   status=1 ;;
esac
"$tmp/row" ||
	{ echo "FAIL: xs_fs_of($magic) does not find the new row"; status=1; }
[ "$status" = 0 ] &&
	echo "one fs_*.c, one fs_rows.h line, one fs.am line: built, placed, found"
exit $status
