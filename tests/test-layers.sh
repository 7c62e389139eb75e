#!/bin/sh
# The layers of lib/ (docs/ARCHITECTURE.md, "Layers"), checked on the
# tree: every file under lib/ is named in exactly one layer, and every
# #include "..." of a file names a header of its own layer or below.
# The public header (xstat.h) is below them all.
#
# One awk reads the layer list and every file of lib/ (process creation,
# a pipeline per file and per include, would cost far more than the
# checks); it prints the failures, "name FILE" for each file the list
# names and "count FILES LAYERS" last, and the shell checks that the
# named files exist.
set -u
: "${top_srcdir:?}"
cd "$top_srcdir" || exit 1

out=$(awk '
# A shell pattern as an extended regular expression: *, ? and [...] as
# case would take them, everything else literal.
function glob_re(p,    re, c, i, j) {
	re = "^"
	for (i = 1; i <= length(p); i++) {
		c = substr(p, i, 1)
		if (c == "*") {
			re = re ".*"
		} else if (c == "?") {
			re = re "."
		} else if (c == "[" && (j = index(substr(p, i + 1), "]")) > 1) {
			c = substr(p, i + 1, j - 1)
			sub(/^!/, "^", c)
			re = re "[" c "]"
			i += j
		} else if (c ~ /[A-Za-z0-9_]/) {
			re = re c
		} else if (c == "\\" || c == "^") {
			re = re "\\" c
		} else {
			re = re "[" c "]"
		}
	}
	return re "$"
}

# The rank of a file, rank 1 at the bottom: "" if in no layer, "dup" if
# in two.  A file named in no layer takes the layer of a pattern that
# matches it (fs_*.c: a filesystem row is placed by its name alone).
function rank_of(f,    i) {
	if (f in nnamed)
		return nnamed[f] > 1 ? "dup" : named[f]
	for (i = 1; i <= npat; i++)
		if (f ~ pat_re[i])
			return pat_rank[i]
	return ""
}

BEGIN {
	doc = ARGV[1]
	while ((getline line < doc) > 0) {
		if (line == "<!-- layers -->")
			inlist = 1
		if (inlist && line ~ /^[a-z]+: /) {
			nlayers++
			n = split(line, w)
			for (i = 2; i <= n; i++) {
				nranks++
				if (w[i] ~ /\*/) {
					npat++
					pat_re[npat] = glob_re(w[i])
					pat_rank[npat] = nlayers
				} else {
					nnamed[w[i]]++
					named[w[i]] = nlayers
					list[++nlist] = w[i]
				}
			}
		}
		if (line == "<!-- /layers -->")
			inlist = 0
	}
	if (!nlayers) {
		print "FAIL: no layer list in docs/ARCHITECTURE.md"
		exit 1
	}

	for (a = 2; a < ARGC; a++) {
		path = ARGV[a]
		r = rank_of(substr(path, 5))
		if (r == "") {
			print "FAIL: " path " is in no layer of docs/ARCHITECTURE.md"
			bad = 1
			continue
		}
		if (r == "dup") {
			print "FAIL: " path " is in two layers"
			bad = 1
			continue
		}
		while ((getline line < path) > 0) {
			if (line !~ /^#[ \t]*include[ \t]*"[^"]*"/)
				continue
			inc = line
			sub(/^#[ \t]*include[ \t]*"/, "", inc)
			sub(/".*/, "", inc)
			sub(/^\.\.\/lib\//, "", inc)
			if (inc == "" || inc == "xstat.h")
				continue
			ir = rank_of(inc)
			if (ir == "" || ir == "dup") {
				print "FAIL: " path " includes " inc ", which is in no layer"
				bad = 1
			} else if (ir + 0 > r + 0) {
				print "FAIL: " path " (layer " r ") includes " inc \
					" (layer " ir ", above it)"
				bad = 1
			}
		}
		close(path)
	}
	for (i = 1; i <= nlist; i++)
		print "name " list[i]
	print "count " (nranks ? nranks : 1) " " nlayers
	exit bad
}' docs/ARCHITECTURE.md lib/*.c lib/*.h)
status=$?
[ "$status" -le 1 ] || status=1

count=
while IFS= read -r line; do
	case $line in
	"name "*)
		f=${line#name }
		[ -e "lib/$f" ] || { echo "FAIL: docs/ARCHITECTURE.md names lib/$f, which does not exist"; status=1; } ;;
	"count "*)
		count=${line#count } ;;
	*)
		printf '%s\n' "$line" ;;
	esac
done <<EOF
$out
EOF
[ -n "$count" ] || exit 1
[ "$status" = 0 ] && echo "lib/: ${count% *} files in ${count#* } layers, every include downward or level"
exit $status
