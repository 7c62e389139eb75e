#!/bin/sh
# The EXAMPLES programs of xstat(3) and xstat_extra(3) (built by
# tests/ship.am from the pages themselves) run and print what coreutils
# stat(1), lsattr(1) and /proc/self/fdinfo say about the same files, with
# the statx backend and with the fallback.
set -u
: "${top_builddir:?}"

ex=$top_builddir/tests/xstat-example
exx=$top_builddir/tests/xstat-extra-example
exc=$top_builddir/tests/xstat-changed-example
for p in "$ex" "$exx" "$exc"; do
	[ -x "$p" ] || { echo "FAIL: $p was not built"; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-example.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

. "$(dirname "$0")/output-field.sh"	# field

check() {	# check LABEL FILE [ENV...]
	label=$1 file=$2
	shift 2
	if ! out=$(env "$@" "$ex" "$file" 2>&1); then
		fail "$label: $out"
		return
	fi
	echo "--- $label"
	echo "$out"

	[ "$(field ino "$out")" = "$(stat -c %i "$file")" ] ||
		fail "$label: ino is not stat's $(stat -c %i "$file")"
	[ "$(field size "$out")" = "$(stat -c %s "$file")" ] ||
		fail "$label: size is not stat's $(stat -c %s "$file")"
	mode=$(printf '%o' "0x$(stat -c %f "$file")")
	[ "$(field mode "$out")" = "$mode" ] ||
		fail "$label: mode is not stat's $mode"

	# stat(1) gets the birth time from statx; 0 means unknown.
	btime=$(field btime "$out")
	born=$(stat -c %W "$file")
	if [ "$btime" != unavailable ]; then
		[ "${btime%.*}" = "$born" ] ||
			fail "$label: btime $btime, stat says $born"
		nsec=$(stat -c %.9W "$file" 2>/dev/null)
		case $nsec in
		*.*)	[ "$btime" = "$nsec" ] ||
				fail "$label: btime $btime, stat says $nsec";;
		esac
	elif [ "$label" = statx ] && [ "$born" != 0 ]; then
		fail "$label: btime unavailable, stat says $born"
	fi

	# lsattr -v reads the generation with FS_IOC_GETVERSION.
	gen=$(field gen "$out")
	lsgen=$(lsattr -vd "$file" 2>/dev/null | awk '{ print $1 }')
	if [ -n "$lsgen" ] && [ "$gen" != unavailable ]; then
		[ "$gen" = "$lsgen" ] || fail "$label: gen $gen, lsattr $lsgen"
	elif [ -n "$lsgen" ] && [ "$(stat -f -c %T "$file")" = ext2/ext3 ]; then
		fail "$label: gen unavailable on ext4, lsattr says $lsgen"
	fi

	[ -n "$(field 'data version' "$out")" ] ||
		fail "$label: no data version line"
}

printf 'some text\n' >"$tmp/file"
mkdir "$tmp/dir"
ln -s file "$tmp/link"

for f in file dir link; do
	check statx "$tmp/$f"
	check fallback "$tmp/$f" LIBXSTAT_NO_STATX=1
done

# The page says: -1 and errno on a missing file, exit status 1.
if out=$("$ex" "$tmp/missing" 2>&1); then
	fail "missing file: exit status 0"
else
	case $out in
	"xstat: No such file or directory") ;;
	*)	fail "missing file: '$out'";;
	esac
fi

# xstat_extra(3): the mount ID is the one in /proc/PID/fdinfo (unless it
# is the never-reused 64-bit ID, which statx and name_to_handle_at must
# then agree on), and each attribute is what lsattr shows.
check_extra() {	# check_extra LABEL FILE [ENV...]
	label=$1 file=$2
	shift 2
	if ! out=$(env "$@" "$exx" "$file" 2>&1); then
		fail "extra $label: $out"
		return
	fi
	echo "--- extra $label"
	echo "$out"

	[ "$(field ino "$out")" = "$(stat -c %i "$file")" ] ||
		fail "extra $label: ino is not stat's $(stat -c %i "$file")"

	mnt=$(field 'mount ID' "$out")
	if ! why=$("${XSTAT_PROBE:-$top_builddir/tests/th-probe}" mnt-id "$file"); then
		echo "skip extra $label: mount ID: $why"
		mnt=skipped
	fi
	case $mnt in
	skipped) ;;
	*"(reusable)")
		exec 9<"$file"
		fdinfo=$(awk '$1 == "mnt_id:" { print $2 }' "/proc/$$/fdinfo/9")
		exec 9<&-
		[ "${mnt% (reusable)}" = "$fdinfo" ] ||
			fail "extra $label: mount ID $mnt, fdinfo says $fdinfo";;
	*"(unique)")
		eval "unique_$label=\${mnt% (unique)}"
		# A 64-bit unsigned value: compared as digits, since the
		# shell's [ -gt ] stops at 2^63.
		case ${mnt% (unique)} in
		''|*[!0-9]*|0*) fail "extra $label: unique mount ID $mnt";;
		esac;;
	*)	fail "extra $label: mount ID '$mnt'";;
	esac

	flags=$(lsattr -d "$file" 2>/dev/null | awk '{ print $1 }')
	[ -n "$flags" ] || return 0
	for a in append:a nodump:d immutable:i; do
		name=${a%:*} letter=${a#*:}
		got=$(field "$name" "$out")
		case $flags in
		*"$letter"*) want=yes;;
		*)	want=no;;
		esac
		[ "$got" = unknown ] || [ "$got" = "$want" ] ||
			fail "extra $label: $name $got, lsattr says $flags"
	done
	# Where the statx backend answers, it knows these three on ext4.
	if [ "$label" = statx ] &&
		[ "$(stat -f -c %T "$file")" = ext2/ext3 ]; then
		case $out in
		*unknown*|*"attributes: unavailable"*)
			fail "extra $label: attributes unknown on ext4";;
		esac
	fi
}

# nodump can be set by the owner without privileges, where supported.
chattr +d "$tmp/file" 2>/dev/null || true
unique_statx='' unique_fallback=''
check_extra statx "$tmp/file"
check_extra fallback "$tmp/file" LIBXSTAT_NO_STATX=1
if [ -n "$unique_statx" ] && [ -n "$unique_fallback" ] &&
	[ "$unique_statx" != "$unique_fallback" ]; then
	fail "unique mount ID: statx $unique_statx, fallback $unique_fallback"
fi

# "Has this file changed?": the test's own changes are the oracle.
changed() {	# changed LABEL EXPECTED [ENV...]
	label=$1 want=$2
	shift 2
	got=$(env "$@" "$exc" "$tmp/state" "$tmp/watched" 2>&1)
	echo "--- changed: $label: $got"
	case $got in
	"$want"*)	;;
	*)	fail "changed example, $label: \"$got\", expected \"$want\"";;
	esac
}
for env in LIBXSTAT_NO_STATX=0 LIBXSTAT_NO_STATX=1; do
	rm -f "$tmp/state" "$tmp/watched"
	echo one >"$tmp/watched"
	changed "first look ($env)" new "$env"
	changed "second look ($env)" unchanged "$env"
	echo two >>"$tmp/watched"
	changed "after a write ($env)" changed "$env"
	chmod 600 "$tmp/watched"
	changed "after chmod ($env)" changed "$env"
	changed "again ($env)" unchanged "$env"
	rm "$tmp/watched"
	echo one >"$tmp/watched"
	changed "after replacing ($env)" replaced "$env"
done

exit $status
