#!/bin/sh
# The "only here" claims of lib/'s comments and docs/ARCHITECTURE.md that
# a grep can check ("the only place", "nowhere else", "the one place"...):
# each claim is quoted from where it is made (so that a claim reworded or
# moved fails here until this list follows), and the code it speaks of is
# looked for in every lib/ file, outside comments.  Claims no grep can
# settle (which code knows the public layout, say) are not listed.
set -u
: "${top_srcdir:?}"
cd "$top_srcdir" || exit 1
status=0

# claimed FILE TEXT: the claim is still made, word for word, in FILE.
claimed() {
	sed 's/^[[:space:]]*\/\{0,1\}\*[[:space:]]*//' "$1" | tr '\n' ' ' |
		sed 's/[[:space:]][[:space:]]*/ /g' | grep -qF "$2" && return 0
	echo "FAIL: $1 no longer says \"$2\": reword this test with it"
	status=1
	return 1
}

# only ERE FILE...: code (not comment) lines of lib/ that match ERE are
# in the named lib/ files only.
only() {
	ere=$1
	shift
	grep -nE "$ere" lib/*.c lib/*.h |
		grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)' |
		while IFS=: read -r f n rest; do
			ok=0
			for a in "$@"; do
				[ "$f" = "lib/$a" ] && ok=1
			done
			[ "$ok" = 1 ] || echo "$f:$n:$rest"
		done > "$tmp"
	if [ -s "$tmp" ]; then
		echo "FAIL: /$ere/ outside $*:"
		sed 's/^/  /' "$tmp"
		status=1
	fi
}

tmp=$(mktemp "${TMPDIR:-/tmp}/xs-claims.XXXXXX") || exit 1
trap 'rm -f "$tmp"' EXIT

claimed lib/ret.h "The only place errno is set for the caller (rawsys.h only puts back what a raw system call clobbered)" &&
	only '(^|[^_a-z])errno[[:space:]]*=[^=]' ret.h rawsys.h

claimed docs/ARCHITECTURE.md 'and `xs_promise_fill()`, `xs_why_fill()` and `xs_copyout()` are called nowhere else' &&
	only '(xs_promise_fill|xs_why_fill|xs_copyout)\(' pipeline.h result.h \
		promise.c why.c copyout.c

claimed lib/xstat.c "The one place that decides which backend answers a call or a stream entry" &&
	only '(xs_statx_call|xs_fstatat)\(' xstat.c backend_statx.h \
		backend_statx.c backend_fstatat.h

claimed lib/why.c "Two sources, one place. The probes note what stopped them" && {
	only 'why_(btime|gen|dv)[[:space:]]*(=[^=]|[|]=)' why.c why.h
	only 'XSTAT_WHY_' why.c why.h copyout.c probe_ext4.c bulk_ext4.c
	only 'XSTAT_WHY_(PRIVILEGE|REFUSED|KERNEL|NO_SYNC|NO_DEVICE)' why.c why.h
}

claimed lib/supplement.c "recorded here and nowhere below" &&
	only 'xs_fs_set_flag\(' supplement.c fscache.c fscache.h

claimed docs/ARCHITECTURE.md 'checked against `gettid()` where a refusal is learned and nowhere else' &&
	only 'gettid' backend_statx.c

claimed lib/fs.h "Asked only where a call resolves its row (xs_fs_row(), fscache.c) and where a stream resolves its directory's (bulk_fs.c)" &&
	only 'xs_fs_of\(' fs.c fs.h fscache.c bulk_fs.c

# fs.h: a row's statfs magic (its #define in its fs_*.c) is named in no
# other lib/ file, by name or by value; ext4_disk.h's on-disk superblock
# magic is ext4's number by another name.
if claimed lib/fs.h "no other file under lib/ names the statfs magic number of a filesystem that has a row"; then
	defs=$(sed -n 's/^#define[[:space:]]\{1,\}\([A-Z0-9_]*MAGIC\)[[:space:]]\{1,\}\(0x[0-9A-Fa-f]*\).*/\1 \2/p' lib/fs_*.c)
	[ -n "$defs" ] || { echo "FAIL: no row magic found in lib/fs_*.c"; status=1; }
	echo "$defs" | while read -r name value; do
		hex=$(printf '%x' "$value")
		grep -lniE "(^|[^A-Za-z0-9_])($name|0x0*$hex)([^A-Za-z0-9_]|$)" \
			lib/*.c lib/*.h |
			grep -vE '^lib/fs_[a-z0-9]+\.c$' |
			grep -vxF lib/ext4_disk.h |
			sed "s|^|FAIL: $name ($value) named in |"
	done > "$tmp"
	[ -s "$tmp" ] && { cat "$tmp"; status=1; }
fi

[ "$status" = 0 ] && echo "lib/: every listed only-here claim holds"
exit $status
