#!/bin/sh
# The layers of lib/ (docs/ARCHITECTURE.md, "Layers"), checked on the
# tree: every file under lib/ is named in exactly one layer, and every
# #include "..." of a file names a header of its own layer or below.
# The public header (xstat.h) is below them all.
set -u
: "${top_srcdir:?}"
cd "$top_srcdir" || exit 1

layers=$(sed -n '/^<!-- layers -->$/,/^<!-- \/layers -->$/p' \
	docs/ARCHITECTURE.md | grep -E '^[a-z]+: ')
[ -n "$layers" ] || { echo "FAIL: no layer list in docs/ARCHITECTURE.md"; exit 1; }

# "file rank" lines, rank 1 at the bottom.
ranks=$(echo "$layers" | awk '{ for (i = 2; i <= NF; i++) print $i, NR }')

# A file named in no layer takes the layer of a pattern that matches it
# (fs_*.c: a filesystem's row is placed by its name alone).
rank_of() {
	r=$(echo "$ranks" | awk -v f="$1" '$1 == f { print $2; n++ }
		END { if (n > 1) print "dup" }' | tail -n 1)
	if [ -z "$r" ]; then
		r=$(echo "$ranks" | while read -r p n; do
			case $p in *'*'*) case $1 in $p) echo "$n" ;; esac ;; esac
		done | head -n 1)
	fi
	echo "$r"
}

status=0
for path in lib/*.c lib/*.h; do
	f=${path#lib/}
	r=$(rank_of "$f")
	case $r in
	"") echo "FAIL: $path is in no layer of docs/ARCHITECTURE.md"
	    status=1; continue ;;
	dup) echo "FAIL: $path is in two layers"; status=1; continue ;;
	esac
	for inc in $(sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$path"); do
		inc=${inc#../lib/}
		[ "$inc" = xstat.h ] && continue
		ir=$(rank_of "$inc")
		if [ -z "$ir" ] || [ "$ir" = dup ]; then
			echo "FAIL: $path includes $inc, which is in no layer"
			status=1
		elif [ "$ir" -gt "$r" ]; then
			echo "FAIL: $path (layer $r) includes $inc (layer $ir, above it)"
			status=1
		fi
	done
done
for f in $(echo "$ranks" | awk '$1 !~ /\*/ { print $1 }'); do
	[ -e "lib/$f" ] || { echo "FAIL: docs/ARCHITECTURE.md names lib/$f, which does not exist"; status=1; }
done
[ "$status" = 0 ] && echo "lib/: $(echo "$ranks" | wc -l) files in $(echo "$layers" | wc -l) layers, every include downward or level"
exit $status
