#!/bin/sh
# The man pages lint clean (mandoc -T lint at warning level, groff -ww,
# man -l at 80 columns), and document what the header and code define:
# every function has a page, every request bit and flag is in xstat(3),
# every errno the entry points set themselves is in its ERRORS.
set -u
: "${top_srcdir:?}"

if ! command -v mandoc >/dev/null 2>&1; then
	echo "SKIP: mandoc is not installed"
	exit 77
fi

man=$top_srcdir/man
header=$top_srcdir/include/xstat.h
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

# Alias pages are one ".so man3/PAGE" line (man-pages(7)); the rest are
# pages and get every check below.
all=$(cd "$man" && ls man1/*.1 man3/*.3 man7/*.7)
pages='' aliases=''
for p in $all; do
	if head -n 1 "$man/$p" | grep -q '^\.so '; then
		aliases="$aliases $p"
	else
		pages="$pages $p"
	fi
done
[ -n "$pages" ] || fail "no man pages under $man"

# An alias has one line, names an existing page, and that page's NAME
# lists the alias.
for a in $aliases; do
	[ "$(wc -l <"$man/$a")" -eq 1 ] || fail "$a: an alias is one .so line"
	target=$(sed -n 's/^\.so //p' "$man/$a")
	[ -f "$man/$target" ] || fail "$a: .so $target: no such page"
	name=$(basename "$a" .3)
	sed -n '/^\.SH NAME/,/^\.SH /p' "$man/$target" 2>/dev/null |
		grep -q "\<$name\>" || fail "$a: $target does not name $name"
done

# One statement of where bugs go, the same on every page that has the
# section (libxstat publishes no bug address).
bugs=$(for p in $pages; do
	sed -n '/^\.SH REPORTING BUGS/,/^\.SH /p' "$man/$p" | sed '1d;$d'
done | sort | uniq -c)
[ "$(printf '%s\n' "$bugs" | awk '{ print $1 }' | sort -u | wc -l)" -le 1 ] ||
	fail "REPORTING BUGS differs between pages:
$bugs"
printf '%s\n' "$bugs" | grep -q 'publishes no bug address' ||
	fail "REPORTING BUGS does not say that there is no bug address"

for p in $pages; do
	# An example's display (.EX ... .EE, indented by .in) ends a
	# paragraph: the text after it starts one (.PP), else it runs on
	# right under the example.
	out=$(awk 'prev == ".EE" && $0 == ".in" { check = 1; prev = $0; next }
		check && !/^\./ { print FILENAME ":" FNR ": " $0 }
		{ check = 0; prev = $0 }' "$man/$p")
	[ -z "$out" ] || fail "$p: text right after an example, no .PP:
$out"
	out=$(cd "$man" && mandoc -T lint -W warning "$p" 2>&1)
	[ -z "$out" ] || fail "mandoc -T lint $p:
$out"
	if command -v groff >/dev/null 2>&1; then
		out=$(cd "$man" && groff -t -man -ww -z "$p" 2>&1)
		[ -z "$out" ] || fail "groff -ww $p:
$out"
	fi
	# man -l formats with groff's nroff and tbl: without them, not run.
	if command -v man >/dev/null 2>&1 &&
	   command -v nroff >/dev/null 2>&1 && command -v tbl >/dev/null 2>&1
	then
		text=$(cd "$man" && MANWIDTH=80 man --warnings -l "$p" \
			2>"${TMPDIR:-/tmp}/xstat-man.$$")
		out=$(cat "${TMPDIR:-/tmp}/xstat-man.$$")
		rm -f "${TMPDIR:-/tmp}/xstat-man.$$"
		[ -z "$out" ] || fail "man -l $p:
$out"
		echo "$text" | grep -q '^NAME' || fail "man -l $p: no NAME"
	fi
done

# Sections every page must have (man-pages(7) order is checked by mandoc).
for p in $pages; do
	case $p in man3/*) ;; *) continue;; esac
	for s in NAME SYNOPSIS DESCRIPTION "RETURN VALUE" EXAMPLES "SEE ALSO"; do
		grep -q "^\.SH \"*$s\"*\$" "$man/$p" || fail "$p: no $s section"
	done
done
for p in man3/xstat.3 man3/fxstat.3; do
	grep -q '^\.SH ERRORS$' "$man/$p" || fail "$p: no ERRORS section"
done
grep -q '^\.SH NOTES$' "$man/man3/xstat.3" || fail "xstat.3: no NOTES"
grep -q '^\.BR statx (2)' "$man/man3/xstat.3" || fail "xstat.3: no statx(2)"
grep -q '^\.BR stat (2)' "$man/man3/xstat.3" || fail "xstat.3: no stat(2)"

# Every public function has a page of its own.
funcs=$(sed -n 's/^[a-z_][a-z_0-9 ]*[ *]\([a-z_][a-z_0-9]*\)(.*/\1/p' \
	"$header")
[ -n "$funcs" ] || fail "no functions found in $header"
for f in $funcs; do
	[ -f "$man/man3/$f.3" ] || fail "$f: no man3/$f.3"
done

# Every request bit and flag macro of the header is in xstat(3) with the
# header's value.
sed -n 's/^#define[ 	]\{1,\}\(XSTAT_REQUEST_[A-Z_]*\)[ 	]\{1,\}\(0x[0-9a-fA-F]*\).*/\1 \2/p' \
	"$header" >"${TMPDIR:-/tmp}/xstat-man-bits.$$"
[ -s "${TMPDIR:-/tmp}/xstat-man-bits.$$" ] || fail "no XSTAT_REQUEST_* in $header"
while read -r m hv; do
	hv=$(printf '0x%x' "$hv")
	mv=$(sed -n "s/^\.BR $m \" (\(0x[0-9a-f]*\))\"\$/\1/p" \
		"$man/man3/xstat.3")
	[ "$hv" = "$mv" ] || fail "xstat.3: $m is '$mv', the header says '$hv'"
done <"${TMPDIR:-/tmp}/xstat-man-bits.$$"
rm -f "${TMPDIR:-/tmp}/xstat-man-bits.$$"
for m in AT_SYMLINK_NOFOLLOW AT_NO_AUTOMOUNT AT_EMPTY_PATH \
	AT_FORCE_ATTR_SYNC AT_NO_ATTR_SYNC; do
	hv=$(sed -n "s/^#define[ 	]\{1,\}${m}[ 	]\{1,\}\(0x[0-9a-f]*\).*/\1/p" \
		"$header")
	mv=$(sed -n "s/^\.BR $m \" (\(0x[0-9a-f]*\))\"\$/\1/p" \
		"$man/man3/xstat.3")
	if [ -z "$hv" ] || [ "$hv" != "$mv" ]; then
		fail "xstat.3: $m is '$mv', the header says '$hv'"
	fi
done

# The XSTAT_ATTR_* values are given as ".B NAME" then "(VALUE)...".
sed -n 's/^#define[ 	]\{1,\}\(XSTAT_ATTR_[A-Z_]*\)[ 	]\{1,\}\(0x[0-9a-fA-F]*\).*/\1 \2/p' \
	"$header" >"${TMPDIR:-/tmp}/xstat-man-attrs.$$"
while read -r m hv; do
	hv=$(printf '0x%x' "$hv")
	mv=$(awk -v m="$m" 'prev == ".B " m { sub(/^\(/, ""); sub(/\).*/, "");
		print } { prev = $0 }' "$man/man3/xstat.3")
	[ "$hv" = "$mv" ] || fail "xstat.3: $m is '$mv', the header says '$hv'"
done <"${TMPDIR:-/tmp}/xstat-man-attrs.$$"
rm -f "${TMPDIR:-/tmp}/xstat-man-attrs.$$"

# Every errno the entry points set themselves is documented.
errs=$(sed -n 's/.*\(xs_ret(\|xs_ret_raw(\|return \)-\(E[A-Z]*\)[,;)].*/\2/p' \
	"$top_srcdir/lib/xstat.c" | sort -u)
[ -n "$errs" ] ||
	fail "no xs_ret(-E...), xs_ret_raw(-E...), return -E... in lib/xstat.c"
errors=$(sed -n '/^\.SH ERRORS/,/^\.SH /p' "$man/man3/xstat.3")
for e in $errs; do
	echo "$errors" | grep -q "^\.B $e\$" || fail "xstat.3 ERRORS: no $e"
done

# Every option of the xstat tool is in xstat(1).
tool=$top_srcdir/tools/xstat.c
longs=$(sed -n 's/^[ 	]*{ "\([a-z-]*\)", [a-z_]*argument.*/\1/p' "$tool")
shorts=$(sed -n 's/^#define SHORT_OPTIONS[ 	]*"\([A-Za-z0-9:]*\)".*/\1/p' \
	"$tool" | tr -d :)
if [ -z "$longs" ] || [ -z "$shorts" ]; then
	fail "no options found in $tool"
fi
page1=$(sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$man/man1/xstat.1")
for o in $longs; do
	o=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	printf '%s\n' "$page1" | grep -q "\\\\-\\\\-$o\\>" ||
		fail "xstat.1: no option --$o"
done
for o in $(printf '%s' "$shorts" | sed 's/./& /g'); do
	printf '%s\n' "$page1" | grep -q "^\.B[IR]* \\\\-$o\\>" ||
		fail "xstat.1: no option -$o"
done

# The pages are installed: listed in man/man.am.
for p in $pages $aliases; do
	grep -q "man/$p" "$man/man.am" || fail "$p is not in man/man.am"
done

# Packaging conventions (lintian, man-pages(7)): no source line over 80
# bytes (mandoc reports those only at style level), a REPORTING BUGS
# section, SEE ALSO ordered by section then name.
for p in $pages; do
	awk 'length($0) > 80 { printf "%d ", FNR }' "$man/$p" | grep . &&
		fail "$p: lines over 80 bytes (line numbers above)"
	grep -q '^\.SH REPORTING BUGS$' "$man/$p" ||
		fail "$p: no REPORTING BUGS section"
	got=$(sed -n '/^\.SH SEE ALSO/,/^\.SH /s/^\.BR \([^ ]*\) (\([0-9]\)).*/\2 \1/p' \
		"$man/$p")
	want=$(printf '%s\n' "$got" | LC_ALL=C sort -k1,1n -k2,2)
	[ -n "$got" ] || fail "$p: SEE ALSO is empty"
	[ "$got" = "$want" ] || fail "$p: SEE ALSO is not in section, name order"
done

exit $status
