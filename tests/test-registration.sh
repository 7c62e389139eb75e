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

# The values of one list over every fragment, or over the files named
# after it (continuation lines joined, conditionals ignored: every value
# counts).
list() {
	v=$1
	shift
	[ $# -gt 0 ] || set -- tests/*.am
	cat "$@" | awk -v v="$v" '
		{ line = line $0 }
		/\\$/ { sub(/\\$/, " ", line); next }
		{ if (line ~ "^" v " *\\+?=") { sub(/^[^=]*=/, "", line)
			print line }
		  line = "" }' | tr -s ' \t' '\n' | grep -v '^$'
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
for c in tests/test-*.c; do
	grep -q '^int main' "$c" || continue
	t=${c%.c}
	echo "$tests" | grep -qxF "$t" && continue
	for s in $sh_tests; do
		grep -qF "/${t#tests/}" "$s" 2>/dev/null && continue 2
	done
	fail "$c: not in XS_TESTS, nor run by a test of XS_SH_TESTS"
done

# The source of program tests/NAME holding its main(): tests/NAME.c, or
# the first file of tests_NAME_SOURCES.
source_of() {
	src=$(list "tests_$(echo "${1#tests/}" | tr -c 'a-zA-Z0-9\n' _)_SOURCES" |
		head -n 1)
	echo "${src:-$1.c}"
}

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
	echo "$tests" | grep -qxF "$base" ||
		fail "$v: $base is not in XS_TESTS"
	sh tests/variant.sh "$v" >/dev/null || fail "$v: variant.sh refuses it"
	case $v in
	*.enosys*|*.eperm*|*.kill*)
		grep -q 'th_block_from_env()' "$(source_of "$base")" ||
			fail "$v: $(source_of "$base") never calls th_block_from_env()," \
				"so the variant would run unblocked" ;;
	esac
	case $v in
	*.loop*)
		grep -q -- '--loop' "$(source_of "$base")" ||
			fail "$v: $(source_of "$base") has no --loop" ;;
	esac
done

# 5. One style: a cmocka array run by th_run_tests() (th_run_program()
#    for a program whose cases run in order as one test).
own=" $(echo "$own_main" | tr '\n' ' ') "
for t in $tests; do
	n=${t#tests/}
	c=$(source_of "$t")
	case $own in
	*" $n "*)
		grep -qE 'th_run_(tests|program)\(' "$c" &&
			fail "$c uses th_run_tests(): remove $n from own_main" \
				"in $0"
		continue ;;
	esac
	grep -qE 'th_run_(tests|program)\(' "$c" ||
		fail "$c: no th_run_tests(): one cmocka array per program" \
			"(tests/README.md)"
done
for n in $own_main; do
	echo "$tests" | grep -qxF "tests/$n" ||
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
	list TESTS Makefile.am */*.am)
subsets=$(sed -n 's/^\(XS_CI_[A-Z0-9_]*\)[[:space:]]*=.*/\1/p' Makefile.am)
[ -n "$subsets" ] || fail "no CI subsets (XS_CI_* =) in Makefile.am"
nsub=0
for s in $subsets; do
	grep -qF "'\$($s)'" Makefile.am ||
		fail "$s: not printed by Makefile.am's ci-tests rule"
	for t in $(list "$s" Makefile.am */*.am); do
		case $t in '$('*) continue ;; esac
		nsub=$((nsub + 1))
		echo "$registered" | grep -qxF "$t" ||
			fail "$s names $t, which is not a registered test"
	done
done

[ "$status" -eq 0 ] && echo "PASS: $(echo "$tests" | wc -l) programs," \
	"$(echo "$variants" | wc -l) generated variants," \
	"$(echo "$sh_tests" | wc -l) shell tests, each one line;" \
	"$(echo "$subsets" | wc -l) CI subsets naming $nsub registered tests"
exit "$status"
