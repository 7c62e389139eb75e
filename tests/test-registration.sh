#!/bin/sh
# How tests are registered (tests/README.md), checked on the tree: a test
# is one line in one of the lists XS_TESTS, XS_VARIANTS, XS_SH_TESTS of a
# tests/<topic>.am fragment; environment variants are generated from
# their names by tests/variant.sh, never written by hand; a variant that
# blocks statx runs a program that installs the block itself
# (th_block_from_env); a C test runs its cmocka array with th_run_tests();
# the CI subsets (XS_CI_*) name registered tests only.
set -u
: "${top_srcdir:?}"
cd "$top_srcdir" || exit 1
status=0
fail() {
	echo "FAIL: $*"
	status=1
}

# C test programs that still have a main() of their own rather than a
# cmocka array run by th_run_tests() (issue 15's one style): none, and
# nothing joins this list.
own_main=""

nl='
'
soh=$(printf '\001')

# Every variable set in the makefiles, read by one awk (a pipeline per
# look-up would cost far more than the checks): continuation lines
# joined, conditionals ignored, every value counts.  A section "\001A VAR"
# holds the values VAR takes in the fragments tests/*.am, one a line; a
# section "\001B VAR" those in Makefile.am and */*.am.
table=$(awk -v soh="$soh" '
function add(scope, line,    v, w, n, i) {
	if (line !~ /^[A-Za-z0-9_]+ *\+?=/)
		return
	v = line
	sub(/ *\+?=.*/, "", v)
	sub(/^[^=]*=/, "", line)
	# Only the lists this test reads: the look-ups in the shell are
	# slow on a long text.
	if (v ~ /^tests_[A-Za-z0-9_]+_SOURCES$/) {
		if (scope == "A" && !(v in first) && split(line, w) > 0)
			first[v] = w[1]
		return
	}
	if (v !~ /^(XS_TESTS|XS_VARIANTS|XS_SH_TESTS|TESTS|XS_CI_[A-Z0-9_]+)$/)
		return
	n = split(line, w, /[ \t]+/)
	for (i = 1; i <= n; i++) {
		if (w[i] == "")
			continue
		if (!((scope, v) in vals))
			keys[++nkeys] = scope SUBSEP v
		vals[scope, v] = vals[scope, v] "\n" w[i]
	}
}
{
	a = FILENAME ~ /^tests\/[^\/]*\.am$/
	all = all $0
	if (a)
		fragment = fragment $0
	if (/\\$/) {
		sub(/\\$/, " ", all)
		if (a)
			sub(/\\$/, " ", fragment)
		next
	}
	add("B", all)
	all = ""
	if (a) {
		add("A", fragment)
		fragment = ""
	}
}
END {
	for (v in first)
		print v " " first[v]
	for (i = 1; i <= nkeys; i++) {
		split(keys[i], k, SUBSEP)
		print soh k[1] " " k[2] vals[keys[i]]
	}
	print soh
}' Makefile.am */*.am)

# The values of one list over every fragment, or (B) over Makefile.am
# and */*.am, one a line.  The lines before the first section give the
# first value of each tests_NAME_SOURCES of the fragments.
sources_first=$nl${table%%"$soh"*}
list() {
	case $table in
	*"$soh${2:-A} $1$nl"*) ;;
	*) return ;;
	esac
	l=${table#*"$soh${2:-A} $1$nl"}
	printf '%s\n' "${l%%"$nl$soh"*}"
}

# Whether a list, one a line, has a line.
has() {
	case "$nl$1$nl" in *"$nl$2$nl"*) return 0 ;; esac
	return 1
}

# The number of lines of a list (0 or more values, one a line, as
# wc -l counts "echo").
lines() {
	set -f
	set -- $1
	set +f
	[ $# -gt 0 ] || set -- ''
	echo $#
}

# 1. The fragments add to the lists only; Makefile.am owns TESTS.
if grep -nE '^[[:space:]]*TESTS[[:space:]]*\+?=' tests/*.am; then
	fail "a fragment adds to TESTS itself: use XS_TESTS, XS_VARIANTS or" \
		"XS_SH_TESTS (tests/README.md)"
fi

# 2. No hand-written variant wrappers.
for f in tests/*-enosys.sh tests/*-eperm.sh tests/*-kill.sh \
	tests/*-nostatx.sh tests/*-loop.sh; do
	[ -e "$f" ] || continue
	s=${f##*-}
	fail "$f: a hand-written variant; list ${f%-*}.${s%.sh} in" \
		"XS_VARIANTS instead"
done

tests=$(list XS_TESTS)
variants=$(list XS_VARIANTS)
sh_tests=$(list XS_SH_TESTS)
if [ -z "$tests" ] || [ -z "$variants" ] || [ -z "$sh_tests" ]; then
	fail "could not read the lists from tests/*.am"
fi

# 3. Every test program is in XS_TESTS, or is run by a shell test of
# XS_SH_TESTS.
mains=$(grep -l '^int main' tests/test-*.c)
for c in $mains; do
	t=${c%.c}
	has "$tests" "$t" && continue
	# shellcheck disable=SC2086
	grep -qF "/${t#tests/}" $sh_tests 2>/dev/null && continue
	fail "$c: not in XS_TESTS, nor run by a test of XS_SH_TESTS"
done

# The source of program tests/NAME holding its main(): tests/NAME.c, or
# the first file of tests_NAME_SOURCES.
source_of() {
	n=${1#tests/} src=
	while :; do
		case $n in
		*[!a-zA-Z0-9_]*)
			pre=${n%%[!a-zA-Z0-9_]*}
			src=$src${pre}_
			n=${n#"$pre"?} ;;
		*) break ;;
		esac
	done
	case $sources_first in
	*"${nl}tests_$src${n}_SOURCES "*)
		src=${sources_first#*"${nl}tests_$src${n}_SOURCES "}
		src=${src%%"$nl"*} ;;
	*) src= ;;
	esac
	echo "${src:-$1.c}"
}

# The sources of the programs of XS_TESTS, and those that block, loop and
# run a cmocka array: one grep each.
sources=
for t in $tests; do
	sources="$sources$nl$(source_of "$t")"
done
blocks=$(grep -l 'th_block_from_env()' $sources)
loops=$(grep -l -- '--loop' $sources)
cmocka=$(grep -lE 'th_run_(tests|program)\(' $sources)

# 4. Every variant is of a registered program, has suffixes that
# tests/variant.sh knows, and a blocking one runs a program that blocks.
for v in $variants; do
	base=$v
	while :; do
		case $base in
		*/*.*.*|*/*.enosys|*/*.eperm|*/*.kill|*/*.nostatx|*/*.loop)
			base=${base%.*} ;;
		*) break ;;
		esac
	done
	has "$tests" "$base" ||
		fail "$v: $base is not in XS_TESTS"
	sh tests/variant.sh "$v" >/dev/null || fail "$v: variant.sh refuses it"
	case $v in
	*.enosys*|*.eperm*|*.kill*)
		has "$blocks" "$(source_of "$base")" ||
			fail "$v: $(source_of "$base") never calls th_block_from_env()," \
				"so the variant would run unblocked" ;;
	esac
	case $v in
	*.loop*)
		has "$loops" "$(source_of "$base")" ||
			fail "$v: $(source_of "$base") has no --loop" ;;
	esac
done

# 5. One style: a cmocka array run by th_run_tests() (th_run_program()
#    for a program whose cases run in order as one test).
own=" "
for n in $own_main; do
	own="$own$n "
done
for t in $tests; do
	n=${t#tests/}
	c=$(source_of "$t")
	case $own in
	*" $n "*)
		has "$cmocka" "$c" &&
			fail "$c uses th_run_tests(): remove $n from own_main" \
				"in $0"
		continue ;;
	esac
	has "$cmocka" "$c" ||
		fail "$c: no th_run_tests(): one cmocka array per program" \
			"(tests/README.md)"
done
for n in $own_main; do
	has "$tests" "tests/$n" ||
		fail "own_main lists $n, which is not in XS_TESTS"
done

# 6. The CI subsets: declared in Makefile.am (XS_CI_NAME =) and printed
# by its ci-tests rule, added to by the fragments only with +=, naming
# only registered tests: the lists above, or a TESTS line of Makefile.am
# or of another directory's fragment (tests/cmocka-missing.sh,
# python/test-python.sh).
if grep -nE '^[[:space:]]*XS_CI_[A-Z0-9_]+[[:space:]]*:?=' tests/*.am; then
	fail "a fragment sets a CI subset: add to it with +=" \
		"(tests/README.md)"
fi
registered=$(printf '%s\n' "$tests" "$variants" "$sh_tests"
	list TESTS B)
subsets=$(sed -n 's/^\(XS_CI_[A-Z0-9_]*\)[[:space:]]*=.*/\1/p' Makefile.am)
[ -n "$subsets" ] || fail "no CI subsets (XS_CI_* =) in Makefile.am"
makefile=$(cat Makefile.am)
nsub=0
for s in $subsets; do
	case $makefile in *"'\$($s)'"*) false ;; esac &&
		fail "$s: not printed by Makefile.am's ci-tests rule"
	for t in $(list "$s" B); do
		case $t in '$('*) continue ;; esac
		nsub=$((nsub + 1))
		has "$registered" "$t" ||
			fail "$s names $t, which is not a registered test"
	done
done

[ "$status" -eq 0 ] && echo "PASS: $(lines "$tests") programs," \
	"$(lines "$variants") generated variants," \
	"$(lines "$sh_tests") shell tests, each one line;" \
	"$(lines "$subsets") CI subsets naming $nsub registered tests"
exit "$status"
