#!/bin/sh
# xstat asks for what it prints: each -c directive requests its bits and
# only those, seen two ways: at the library's door (an LD_PRELOAD shim
# logging each call's request mask) and at the kernel's (strace: the
# statx(2) mask, for stat's directives, whose bits map one to one).  The
# layouts ask for stat's fields and the birth time; -e, -m, -a add; a
# walk asks the same for every entry and makes no per-entry open.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
top_srcdir=${top_srcdir:-.}
case $tool in
*/.libs/*) ;;
*) echo "SKIP: the tool is libtool's wrapper (no shared library?)" >&2
   exit 77 ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-request.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! ${CC:-cc} -shared -fPIC -I"$top_srcdir/include" -o "$tmp/shim.so" \
	"$top_srcdir/tests/tool-request-shim.c" -ldl -pthread 2>"$tmp/cc.err"; then
	echo "SKIP: cannot build the shim: $(cat "$tmp/cc.err")" >&2
	exit 77
fi
# The extra results' directives and their bits: the rows of fields.h.
if ! ${CC:-cc} -I"$top_srcdir/include" -I"$top_srcdir/lib" \
	-o "$tmp/fields" "$top_srcdir/tests/tool-request-fields.c" \
	2>"$tmp/cc.err"; then
	echo "SKIP: cannot build the field list: $(cat "$tmp/cc.err")" >&2
	exit 77
fi
fail=0
n=0
f=$tmp/file
echo data >"$f"
# An awk program's END: the distinct values it put in seen[], sorted as
# sort -u sorts them, each followed by a space.
distinct='END {
	for (v in seen)
		a[++k] = v
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			v = a[j]; a[j] = a[j - 1]; a[j - 1] = v
		}
	for (i = 1; i <= k; i++)
		printf "%s ", a[i]
}'

# $1 directive(s), $2 expected request (hex), rest: more options
asks() {
	fmt=$1
	want=$2
	shift 2
	: >"$tmp/log"
	XSTAT_REQUEST_LOG=$tmp/log LD_PRELOAD=$tmp/shim.so \
		"$tool" "$@" -c "$fmt" "$f" >/dev/null 2>&1
	got=$(awk -v p="$f" '$1 == "xstat" && $2 == p { seen[$3] }
		'"$distinct" "$tmp/log")
	n=$((n + 1))
	[ "$got" = "$(printf '%#x ' "$want")" ] || {
		echo "FAIL -c '$fmt' $*: requested $got, not $(printf '%#x' "$want")"
		fail=1
	}
}

# The request bits, as the public header defines them, read once:
# $bit_NAME is XSTAT_REQUEST_NAME's value.  -a below: every bit the header
# defines, as the header defines each one (its sums, named from "_", are
# expressions of them).
sed -n 's/^#define XSTAT_REQUEST_\([A-Z_][A-Z_]*\)[[:space:]]*\(0x[0-9a-f]*\)ULL.*/\1 \2/p' \
	"$top_srcdir/include/xstat.h" >"$tmp/bits"
all=0
while read -r name val; do
	eval "bit_$name=\$val"
	case $name in
	[A-Z]*) all=$((all | val)) ;;
	esac
done <"$tmp/bits"
R_MODE=${bit_MODE-} R_NLINK=${bit_NLINK-} R_UID=${bit_UID-}
R_GID=${bit_GID-} R_RDEV=${bit_RDEV-} R_ATIME=${bit_ATIME-}
R_MTIME=${bit_MTIME-} R_CTIME=${bit_CTIME-} R_INO=${bit_INO-}
R_SIZE=${bit_SIZE-} R_BLOCKS=${bit_BLOCKS-} R_BTIME=${bit_BTIME-}
R_GEN=${bit_GEN-} R_DV=${bit_DATA_VERSION-} R_MNT_ID=${bit_MNT_ID-}
R_TOKEN=${bit_CHANGE_TOKEN-} R_BASIC=${bit__BASIC_STATS-}
R_EXTENDED=${bit__EXTENDED_STATS-}
for d in n d D B o C; do asks "%$d" 0; done
asks %i $R_INO
for d in a A f; do asks "%$d" $R_MODE; done
asks %N $R_MODE
asks %m $R_MODE
asks %F $((R_MODE | R_SIZE))
asks %h $R_NLINK
for d in u U; do asks "%$d" $R_UID; done
for d in g G; do asks "%$d" $R_GID; done
for d in r R t T Hr Lr; do asks "%$d" $((R_RDEV | R_MODE)); done
asks %s $R_SIZE
asks %b $R_BLOCKS
for d in w W; do asks "%$d" $R_BTIME; done
for d in x X; do asks "%$d" $R_ATIME; done
for d in y Y; do asks "%$d" $R_MTIME; done
for d in z Z; do asks "%$d" $R_CTIME; done
asks '%{gen}' $R_GEN
asks '%{data_version}' $R_DV
asks '%{result_mask} %{size_needed}' 0
# each directive of an extra result asks for its bit and only that
"$tmp/fields" >"$tmp/directives"
[ -s "$tmp/directives" ] || { echo "FAIL: fields.h lists no directive"; fail=1; }
while read -r d want; do
	asks "%{$d}" "$want"
done <"$tmp/directives"
asks '%{mnt_id} %{mnt_id_unique}' $R_MNT_ID
asks '%i %s %Y %W' $((R_INO | R_SIZE | R_MTIME | R_BTIME))
asks '%i %W %{gen} %{data_version}' $((R_INO | R_BTIME | R_GEN | R_DV))
# options add to a format's bits
asks %i $((R_INO | R_GEN | R_DV)) -e
asks %i $((R_INO | R_BASIC)) -m $R_BASIC
asks %i $((R_INO | R_MNT_ID)) --mnt-id
asks %i $((R_INO | R_TOKEN)) --change-token

# $1 label, $2 expected, rest: the options (no format)
layout_asks() {
	label=$1
	want=$2
	shift 2
	: >"$tmp/log"
	XSTAT_REQUEST_LOG=$tmp/log LD_PRELOAD=$tmp/shim.so \
		"$tool" "$@" "$f" >/dev/null 2>&1
	got=$(awk -v p="$f" '$1 == "xstat" && $2 == p { seen[$3] }
		'"$distinct" "$tmp/log")
	n=$((n + 1))
	[ "$got" = "$(printf '%#x ' "$want")" ] || {
		echo "FAIL $label: requested $got, not $(printf '%#x' "$want")"
		fail=1
	}
}
layout_asks "default layout" $((R_BASIC | R_BTIME))
layout_asks "-e" $R_EXTENDED -e
# -a: every bit the header defines ($all, above).
layout_asks "-a" "$all" -a
layout_asks "-m 0x100" 0x100 -m 0x100
# JSON asks why a class (3) field is missing (its "why_missing")
R_WHY=$((0x100000000))
layout_asks "--json" $((R_BASIC | R_BTIME | R_WHY)) --json
layout_asks "--json -e" $((R_EXTENDED | R_WHY)) --json -e
layout_asks "--json -m 0x100" 0x100 --json -m 0x100
layout_asks "-t" $((R_BASIC | R_BTIME)) -t
# the Generation and Data version lines: only when asked for
if "$tool" "$f" | grep -q '^Generation:\|^Data version:'; then
	echo "FAIL: the default layout shows a Generation or Data version line"
	fail=1
fi
"$tool" -e "$f" | grep -q '^Generation:' || {
	echo "FAIL: -e shows no Generation line"
	fail=1
}
n=$((n + 2))

# A walk: the same request for the tree's streams and its root.
mkdir -p "$tmp/t/a/b"
touch "$tmp/t/a/1" "$tmp/t/a/b/2"
rm -f "$tmp/log"
XSTAT_REQUEST_LOG=$tmp/log LD_PRELOAD=$tmp/shim.so \
	"$tool" -r -c '%i %s %Y %W' "$tmp/t" >/dev/null 2>&1
got=$(awk '{ seen[$1 " " $3] }
	'"$distinct" "$tmp/log")
n=$((n + 1))
walk=$(printf '%#x' $((R_INO | R_SIZE | R_MTIME | R_BTIME)))
[ "$got" = "opendir $walk xstat $walk " ] || {
	echo "FAIL -r: requests '$got'"
	fail=1
}

# The kernel's side: statx's mask for stat's directives.
if command -v strace >/dev/null 2>&1; then
	# $1 directive, $2 the statx mask as strace names it
	kernel_asks() {
		strace -f -e trace=statx -o "$tmp/st" "$tool" -c "$1" "$f" \
			>/dev/null 2>&1
		got=$(awk -v p="\"$f\"" 'index($0, p) {
				sub(/.*AT_NO_AUTOMOUNT[A-Z_|]*, /, "")
				sub(/, [{].*/, "")
				seen[$0]
			}
			'"$distinct" "$tmp/st")
		n=$((n + 1))
		[ "$got" = "$2 " ] || {
			echo "FAIL statx for $1: '$got', not '$2'"
			fail=1
		}
	}
	kernel_asks %n 0
	kernel_asks %i STATX_INO
	kernel_asks %s STATX_SIZE
	kernel_asks %a 'STATX_TYPE|STATX_MODE'
	kernel_asks %h STATX_NLINK
	kernel_asks %U STATX_UID
	kernel_asks %G STATX_GID
	kernel_asks %X STATX_ATIME
	kernel_asks %Y STATX_MTIME
	kernel_asks %Z STATX_CTIME
	kernel_asks %b STATX_BLOCKS
	kernel_asks '%i %s %Y' 'STATX_MTIME|STATX_INO|STATX_SIZE'
	# a walk: no open and no file handle per entry (find makes none)
	mkdir -p "$tmp/w"
	for i in $(seq 1 50); do : >"$tmp/w/f$i"; done
	strace -f -o "$tmp/st" "$tool" -r -c '%i %s %Y %W' "$tmp/w" \
		>/dev/null 2>&1
	opens=$(grep -c 'open.*/w/f\|open.*"f[0-9]\|handle_at([0-9]*, "f' "$tmp/st")
	n=$((n + 1))
	[ "$opens" = 0 ] || {
		echo "FAIL -r: $opens opens or handles of entries"
		fail=1
	}
	# A block device that refused to open (always, without root) is why
	# the data version is missing; whether the reason is PRIVILEGE or
	# REFUSED is asked of the kernel (geteuid) only by a caller who asks
	# for the reasons, not once an entry by every caller.
	if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
		chmod 755 "$tmp" "$tmp/w"
		rm -f "$tmp/st"
		strace -f -u nobody -o "$tmp/st" "$tool" -r \
			-c '%{data_version}' "$tmp/w" >/dev/null 2>&1
		refused=$(grep -c 'open.*"/dev/.* EACCES' "$tmp/st")
		euid=$(grep -c 'geteuid' "$tmp/st")
		if [ "$refused" = 0 ]; then
			echo "note: no device refused under $tmp: geteuid not counted"
		else
			n=$((n + 1))
			[ "$euid" -lt 10 ] || {
				echo "FAIL -r as nobody: $euid geteuid calls for 50 entries"
				fail=1
			}
		fi
	fi
else
	echo "note: no strace: the statx masks are not checked"
fi
echo "$n checks"
exit $fail
