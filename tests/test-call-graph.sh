#!/bin/sh
# No two files of lib/ call each other, directly or round a longer loop:
# the calls between files are read from the built objects' symbols (each
# object's undefined symbols against the symbols every other object
# defines), and tsort(1) finds any cycle among them.  The directory
# stream's files call one way (bulk.c -> bulk_entry.c -> bulk_window.c ->
# bulk_fs.c), and so does every other file.  Skips (77) without nm,
# tsort or the library's objects.
set -u
: "${top_builddir:?}"
nm=${NM:-nm}		# libtool's: "/usr/bin/nm -B"
for tool in "${nm%% *}" tsort awk; do
	command -v "$tool" >/dev/null 2>&1 ||
		{ echo "SKIP: $tool is missing" >&2; exit 77; }
done

# libtool's objects of lib/libxstat_core.la: PIC ones in .libs when there
# is a shared library, else beside the sources.
objs=$(ls "$top_builddir"/lib/.libs/libxstat_core_la-*.o 2>/dev/null) ||
	objs=$(ls "$top_builddir"/lib/libxstat_core_la-*.o 2>/dev/null) ||
	{ echo "SKIP: no objects of lib/libxstat_core.la in $top_builddir/lib" >&2
	  exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xs-calls.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# "D file symbol" for what a file defines, "U file symbol" for what it
# calls or reads from elsewhere.
for o in $objs; do
	f=${o##*libxstat_core_la-}
	f=${f%.o}.c
	$nm --defined-only "$o" | awk -v f="$f" \
		'$2 ~ /^[TDBRV]$/ { print "D", f, $3 }' || exit 1
	$nm -u "$o" | awk -v f="$f" '{ print "U", f, $NF }' || exit 1
done > "$tmp/syms"

# "caller callee" between two files, once each.
awk '$1 == "D" { def[$3] = $2; next }
	{ use[NR] = $2 " " $3 }
	END {
		for (i in use) {
			split(use[i], u, " ")
			if ((u[2] in def) && def[u[2]] != u[1])
				print u[1], def[u[2]]
		}
	}' "$tmp/syms" | sort -u > "$tmp/edges"

n=$(wc -l < "$tmp/edges")
if ! grep -q '^bulk\.c bulk_entry\.c$' "$tmp/edges"; then
	echo "FAIL: no call from bulk.c to bulk_entry.c found: the symbols were not read"
	exit 1
fi
if ! tsort "$tmp/edges" > /dev/null 2> "$tmp/loops"; then
	loop=$(sed -n 's/^tsort: \([a-z_0-9]*\.c\)$/\1/p' "$tmp/loops" | sort -u)
	echo "FAIL: files of lib/ that call each other in a loop:" $loop
	echo "(the calls between them:)"
	for a in $loop; do
		for b in $loop; do
			grep -q "^$a $b\$" "$tmp/edges" || continue
			awk -v a="$a" -v b="$b" '$1 == "D" && $2 == b { d[$3] = 1 }
				$1 == "U" && $2 == a { u[$3] = 1 }
				END { for (s in u) if (s in d) print "  " a " -> " b ": " s }' \
				"$tmp/syms"
		done
	done
	exit 1
fi
echo "lib/: $(echo "$objs" | wc -l) objects, $n calls between files, no cycle"
exit 0
