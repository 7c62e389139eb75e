#!/bin/sh
# xstat -c/--printf/-t against coreutils stat -c/--printf/-t: every
# directive, with flags, widths and precisions, on every file type; the
# same bytes on stdout and the same exit status.  The default layout's
# stat lines against stat's own default output.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
LC_ALL=C TZ=UTC0
export LC_ALL TZ
unset QUOTING_STYLE
if ! stat --version 2>/dev/null | grep -q coreutils; then
	echo "SKIP: coreutils stat is not installed" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-format.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
nfail=0

printf 'some data\n' >"$tmp/reg"
: >"$tmp/empty"
chmod 4751 "$tmp/reg"
mkdir "$tmp/dir"
chmod 1777 "$tmp/dir"
ln -s reg "$tmp/link"
mkfifo "$tmp/fifo"
files="$tmp/reg $tmp/empty $tmp/dir $tmp/link $tmp/fifo"
if command -v python3 >/dev/null 2>&1 &&
   python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
	"$tmp/sock" 2>/dev/null; then
	files="$files $tmp/sock"
else
	echo "note: no socket (python3 missing)"
fi
if mknod "$tmp/chr" c 1 3 2>/dev/null; then
	files="$files $tmp/chr"
else
	files="$files /dev/null"
fi
if mknod "$tmp/blk" b 7 200 2>/dev/null; then
	files="$files $tmp/blk"
else
	blk=$(find /dev -maxdepth 1 -type b 2>/dev/null | head -n 1)
	[ -n "$blk" ] && files="$files $blk" || echo "note: no block device"
fi

compare() {	# description, then the command's arguments after the tool
	what=$1
	shift
	exp=$(stat "$@" 2>"$tmp/exp.err"; echo "status $?")
	got=$("$tool" "$@" 2>"$tmp/got.err"; echo "status $?")
	n=$((n + 1))
	if [ "$exp" != "$got" ]; then
		nfail=$((nfail + 1))
		echo "FAIL $what: $*"
		echo "  stat:  $(printf '%s' "$exp" | od -c | head -n 3)"
		echo "  xstat: $(printf '%s' "$got" | od -c | head -n 3)"
		fail=1
	fi
}

# Many formats at once: one run of each program for the whole list, and
# only where the two differ, one run per format to say which.
compare_all() {	# file, then the formats
	file=$1
	shift
	all=
	for spec in "$@"; do
		all="${all}[$spec]
"
	done
	exp=$(stat -c "$all" "$file" 2>"$tmp/exp.err"; echo "status $?")
	got=$("$tool" -c "$all" "$file" 2>"$tmp/got.err"; echo "status $?")
	n=$((n + $#))
	[ "$exp" = "$got" ] && return
	fail=1
	k=$nfail
	for spec in "$@"; do
		compare "-c $spec" -c "[$spec]" "$file"
	done
	[ "$nfail" != "$k" ] && return
	echo "FAIL: $file: the formats differ together, not alone"
	echo "  stat:  $(printf '%s' "$exp" | od -c | head -n 3)"
	echo "  xstat: $(printf '%s' "$got" | od -c | head -n 3)"
}

# Each directive alone, then with flags and widths stat honours or drops.
directives='a A b B d D f F g G h i m n N o s r R t T u U w W x X y Y z Z
Hd Ld Hr Lr C'
# one a line: '% s' and '%-+#0 12.5s' hold spaces
variants='%s
%-12s
%12s
%012s
%+s
%#s
%'\''s
% s
%.3s
%-+#0 12.5s
%I5s'
specs=
nspecs=
nl='
'
for d in $directives; do
	IFS=$nl
	for v in $variants; do
		unset IFS
		case $v in
		*s) spec=${v%s}$d ;;
		*) spec=$v ;;
		esac
		# stat 9.1 quotes %N only when "%N" is spelt so in the
		# format (strstr), else prints it raw; xstat always quotes,
		# as later coreutils do.
		case $spec in
		%?*N) continue ;;
		# Reading a link (%N) can move its atime: those first.
		*N) nspecs="$nspecs$spec
" ;;
		*) specs="$specs$spec
" ;;
		esac
	done
	unset IFS
done
times=
for t in X Y Z; do
	for v in '%.' '%.0' '%.1' '%.9' '%.12' '%20.3' '%-20.3' \
		'%020.3' '%+.2' '%1.3' '%2.3' '%5.3' '%08.' '% .4'; do
		times="$times$v$t
"
	done
done
for f in $files; do
	# One spec per line; no glob expansion of them.
	set -f
	IFS=$nl
	# shellcheck disable=SC2086
	compare_all "$f" $nspecs
	# shellcheck disable=SC2086
	compare_all "$f" $specs
	# shellcheck disable=SC2086
	compare_all "$f" $times
	unset IFS
	set +f
	compare "terse" -t "$f"
	compare "-L terse" -L -t "$f"
	compare "-L %N %F" -L -c '%N %F %i' "$f"
	compare "--printf" --printf '%n\t%s\\n\\t\\x41\\101\\e\\q%%\\' "$f"
	compare "escaped %" --printf '\%5|\%\n' "$f"
	compare "no directive" -c 'plain text' "$f"
	compare "lone %" -c 'x %' "$f"
	compare "unknown" -c '%q %Hx %L %Qx %E %j' "$f"
	# %W and %w: the same birth time, or both "unknown" (0, -)
	compare "birth" -c '%W %w %.W %.3W %15.4W %-15.1W|' "$f"
	# The default layout: stat's lines, then libxstat's own.
	exp=$(stat "$f")
	got=$("$tool" "$f" | head -n "$(echo "$exp" | wc -l)")
	n=$((n + 1))
	if [ "$exp" != "$got" ]; then
		echo "FAIL default layout of $f:"
		echo "$exp" | diff - "$(printf '%s' "$got" >"$tmp/got"; echo "$tmp/got")"
		fail=1
	fi
done

# Times stat can only print past strftime's range, and before year 0.
shm=$(mktemp -d /dev/shm/xstat-format.XXXXXX 2>/dev/null) || shm=
if [ -n "$shm" ]; then
	# (one second past each end, localtime fails: seconds, as stat)
	for t in 67768036191676799 -67768040609740800 -62198755200 \
		-62135596801 253402300800 -1 67768036191676800 \
		-67768040609740801; do
		if touch -d "@$t" "$shm/t" 2>/dev/null; then
			compare "time @$t" -c '%y|%Y|%.3Y|%x' "$shm/t"
			exp=$(stat "$shm/t" | sed -n 's/^Modify: //p')
			got=$("$tool" "$shm/t" | sed -n 's/^Modify: //p')
			n=$((n + 1))
			[ "$exp" = "$got" ] || {
				echo "FAIL layout @$t: '$got', stat '$exp'"
				fail=1
			}
			TZ=Asia/Kolkata compare "time @$t +0553" -c '%y' \
				"$shm/t"
		fi
	done
	rm -rf "$shm"
else
	echo "note: no /dev/shm for extreme times"
fi

# Invalid directives: stat dies (1), xstat calls it a usage error (2);
# neither prints anything on stdout.
for bad in '%-%' '%5' '%{nosuch}' '%{gen'; do
	out=$("$tool" -c "$bad" "$tmp/reg" 2>/dev/null)
	st=$?
	n=$((n + 1))
	if [ "$st" != 2 ] || [ -n "$out" ]; then
		echo "FAIL invalid $bad: status $st, output '$out'"
		fail=1
	fi
done

# An unknown escape's warning: stat's, but a control byte as \ooo.
for e in q "$(printf '\033')" "$(printf '\177')"; do
	compare "unknown escape" --printf "\\$e|%s\\n" "$tmp/reg"
	exp=$(sed "s/^stat:/xstat:/; s/$(printf '\033')/\\\\033/; \
		s/$(printf '\177')/\\\\177/" "$tmp/exp.err")
	got=$(cat "$tmp/got.err")
	n=$((n + 1))
	[ "$exp" = "$got" ] || {
		printf 'FAIL unknown escape warning: %s, expected %s\n' \
			"$got" "$exp"
		fail=1
	}
done

# Standard input: fxstat(0), like stat -.
compare "stdin" -c '%i %F %s' - <"$tmp/reg"
compare "stdin dir" -c '%i %F' - <"$tmp/dir"
# No name to find a mount point from: "?", status 1 and, as stat, a
# message saying why (not a silent failure).
compare "stdin %m" -c '%m' - <"$tmp/reg"
n=$((n + 1))
[ -s "$tmp/exp.err" ] && [ -s "$tmp/got.err" ] || {
	echo "FAIL stdin %m: no message: '$(cat "$tmp/got.err")'"
	fail=1
}

# libxstat's own directives against independent sources.
# (--patch asks for the extended set: as -m 0x3fff does)
got=$("$tool" -m 0x3fff -c '%{result_mask} %#{result_mask} %{size_needed}' \
	"$tmp/reg")
exp=$("$tool" --patch "$tmp/reg" | sed -n 's/^results=//p')
n=$((n + 1))
case $got in
"$exp 0x$exp 152") ;;
*) echo "FAIL %{result_mask}: '$got', patch layout says $exp"; fail=1 ;;
esac
if gen=$(lsattr -dv "$tmp/reg" 2>/dev/null); then
	got=$("$tool" -c '%{gen}' "$tmp/reg")
	n=$((n + 1))
	[ "$got" = "${gen%% *}" ] || {
		echo "FAIL %{gen}: '$got', lsattr says ${gen%% *}"
		fail=1
	}
fi
# A field the file system cannot give prints what stat prints for an
# unknown value: /proc has no birth time, no generation, no data version.
if [ -r /proc/self/status ]; then
	got=$("$tool" -c '%{gen}|%{data_version}|%{subvol}|%W|%w' \
		/proc/self/status)
	exp=$(stat -c '?|?|?|%W|%w' /proc/self/status)
	n=$((n + 1))
	[ "$got" = "$exp" ] || { echo "FAIL absent: '$got', not '$exp'"; fail=1; }
fi
# The never-reused 64-bit ID is above 2^31: compared as digits, since the
# shell's [ -gt ] stops at 2^63.  Where statx's own mount ID is not the
# kernel's (probed), the tool cannot be held to findmnt.
unique() {
	case $1 in
	''|*[!0-9]*|0*) return 1;;
	esac
	[ ${#1} -gt 10 ] || { [ ${#1} -eq 10 ] && [ "$1" \> 2147483647 ]; }
}
if why=$("${XSTAT_PROBE:-./tests/th-probe}" mnt-id "$tmp/reg"); then
	got=$("$tool" --mnt-id -c '%{mnt_id}' "$tmp/reg")
	exp=$(findmnt -no ID -T "$tmp/reg" 2>/dev/null || echo "")
	n=$((n + 1))
	[ -z "$exp" ] || [ "$got" = "$exp" ] || unique "$got" || {
		echo "FAIL %{mnt_id}: '$got', findmnt says '$exp'"
		fail=1
	}
else
	echo "skip %{mnt_id}: $why"
fi

echo "$n comparisons"
exit $fail
