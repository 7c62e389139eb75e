# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/instr-count.awk - the instructions a callgrind profile counts in
# the objects whose file name matches OBJ (an awk regular expression),
# self cost only: code inlined from headers counts where it runs, a call
# out of the object (to libc) does not.  Prints "total N", then "FN N"
# per function of those objects.  Reads callgrind's own output format
# (name compression on or off), not callgrind_annotate's report.
#
#	awk -v OBJ='/libxstat[.]so' -f bench/instr-count.awk callgrind.out

# "(id) name" defines id, "(id)" refers to it, a bare name is itself.
function name(spec, tab,    id) {
	if (match(spec, /^\([0-9]+\)/)) {
		id = substr(spec, 2, RLENGTH - 2)
		if (length(spec) > RLENGTH)
			tab[id] = substr(spec, RLENGTH + 2)
		return tab[id]
	}
	return spec
}

/^ob=/ { ob = name(substr($0, 4), obs); next }
/^cob=/ { name(substr($0, 5), obs); next }
/^fn=/ { fn = name(substr($0, 4), fns); next }
/^cfn=/ { name(substr($0, 5), fns); next }
# the cost line after calls= is the callee's inclusive cost, not ours
/^calls=/ { skip = 1; next }
/^[0-9+*-]/ {
	if (skip) {
		skip = 0
		next
	}
	if (ob ~ OBJ) {
		total += $2
		per[fn] += $2
	}
	next
}
END {
	printf "total %d\n", total
	for (f in per)
		printf "%s %d\n", f, per[f]
}
