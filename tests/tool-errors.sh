#!/bin/sh
# Exit statuses and messages: 0 all examined, 1 a file failed or output
# was lost (full disk, closed stdout, a reader gone with SIGPIPE ignored;
# stat's own "write error" text), 2 a command line error with a one-line
# hint; numbers parsed strictly; "-" is standard input.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
LC_ALL=C
export LC_ALL
unset QUOTING_STYLE
probe=${XSTAT_PROBE:-./tests/th-probe}
# The locales the tool's C library loads (a big-endian C library cannot
# read a little-endian machine's locale files): the others are skipped.
locales=C
if why=$("$probe" locale C.UTF-8); then
	locales="C C.UTF-8"
else
	echo "skip C.UTF-8: $why"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-errors.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
hint="Try 'xstat --help' for more information."

check() {	# what expected actual
	n=$((n + 1))
	if [ "$2" != "$3" ]; then
		echo "FAIL $1: expected '$2', got '$3'"
		fail=1
	fi
}

: >"$tmp/f"

# Command line errors: status 2, the message, the hint, nothing on stdout.
usage_err() {	# expected first line, arguments...
	msg=$1
	shift
	out=$("$tool" "$@" 2>"$tmp/err")
	st=$?
	check "status of $*" 2 "$st"
	check "stdout of $*" "" "$out"
	# its lines 1, and 2 and 3, read without a process each
	l1= l2= l3=
	{ IFS= read -r l1; IFS= read -r l2; IFS= read -r l3; } <"$tmp/err"
	check "message of $*" "$msg" "$l1"
	check "hint of $*" "$hint" "$l2${l3:+
$l3}"
}
usage_err "xstat: missing operand"
usage_err "xstat: missing operand" -L
usage_err "xstat: -F (--force-sync) and -N (--no-sync) are mutually exclusive" \
	-F -N "$tmp/f"
usage_err "xstat: -F (--force-sync) and -N (--no-sync) are mutually exclusive" \
	--force-sync --no-sync "$tmp/f"
usage_err "xstat: --json and --patch are mutually exclusive" -j --patch "$tmp/f"
usage_err "xstat: --format/--printf and --json are mutually exclusive" \
	-c %n -j "$tmp/f"
usage_err "xstat: --patch and --terse are mutually exclusive" \
	--patch -t "$tmp/f"
for m in -1 ' 0x7ff' '0x7ff ' '' 0x +1 08 0x1g 18446744073709551616 \
	0x10000000000000000 1e3; do
	usage_err "xstat: invalid mask: '$m'" -m "$m" "$tmp/f"
done
usage_err "xstat: invalid argument 'sometimes' for '--cached'" \
	--cached=sometimes "$tmp/f"
# the first line of stat's message, in a locale with its own quotes too
for loc in $locales; do
	exp=$(LC_ALL=$loc stat --cached=x "$tmp/f" 2>&1 | sed -n 's/^stat:/xstat:/p')
	got=$(LC_ALL=$loc "$tool" --cached=x "$tmp/f" 2>&1 | sed -n 1p)
	check "$loc: --cached=x message" "$exp" "$got"
done
usage_err "xstat: unrecognized option '--no-such-option'" \
	--no-such-option "$tmp/f"
usage_err "xstat: invalid option -- 'q'" -q "$tmp/f"
usage_err "xstat: '%5': invalid directive" -c '%5' "$tmp/f"

# getopt's messages echo an unknown option as typed ("xstat *" with a
# file "--\033[31mred"): stat's message, with the bytes of characters
# the locale cannot print written as \ooo, never raw.
if command -v python3 >/dev/null 2>&1 &&
   stat --version 2>/dev/null | grep -q coreutils; then
	for loc in $locales; do
		res=$(LC_ALL=$loc python3 - "$tool" "$tmp/f" <<'EOF'
import locale, os, subprocess, sys
tool, f = sys.argv[1], os.fsencode(sys.argv[2])
enc = "utf-8" if locale.nl_langinfo(locale.CODESET) == "UTF-8" else None
for opt in [b"--\x1b[31mred", b"-\x1b", b"--a\nb", b"-\xff",
            b"--\xc3\xa9", b"--x\xc2\x9b1m", b"--\x7f"]:
    exp = subprocess.run([b"stat", opt, f], stderr=subprocess.PIPE,
                         stdout=subprocess.DEVNULL)
    got = subprocess.run([tool, opt, f], stderr=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    first, hint = exp.stderr.rsplit(b"\n", 2)[:2]
    if enc:
        units = [c.encode(enc, "surrogateescape") for c in
                 first.decode(enc, "surrogateescape")]
    else:
        units = [bytes([c]) for c in first]
    want = b""
    for u in units:
        c = u.decode(enc or "ascii", "replace")
        ok = c.isprintable() and c != "\ufffd"
        want += u if ok else b"".join(b"\\%03o" % x for x in u)
    want = (b"x" + want + b"\n" + hint.replace(b"'stat", b"'xstat") +
            b"\n")
    if got.returncode != 2 or got.stdout or got.stderr != want:
        print("FAIL %r: status %d, %r, expected %r" %
              (opt, got.returncode, got.stderr, want))
EOF
)
		check "$loc: unknown options' messages" "" "$res"
	done
else
	echo "note: no python3 or coreutils stat for getopt's messages"
fi

# Masks that are numbers: accepted (hex, octal, decimal, the maximum).
for m in 0x7ff 0X7FF 03777 2047 0 18446744073709551615; do
	"$tool" -m "$m" -c %i "$tmp/f" >/dev/null 2>&1
	st=$?
	# 0 or, for bits the library rejects, a failed file (1), never 2
	n=$((n + 1))
	[ "$st" != 2 ] || { echo "FAIL -m $m: status 2"; fail=1; }
done
check "-m 0x7ff" "$(stat -c %i "$tmp/f")" "$("$tool" -m 0x7ff -c %i "$tmp/f")"
check "--mask=03777" "$(stat -c %i "$tmp/f")" \
	"$("$tool" --mask=03777 -c %i "$tmp/f")"

# Long options do what the short ones do.
ln -s f "$tmp/l"
check "--dereference" "$("$tool" -L -c %i "$tmp/l")" \
	"$("$tool" --dereference -c %i "$tmp/l")"
check "--cached=always" "$("$tool" -N -c %i "$tmp/f")" \
	"$("$tool" --cached=always --no-sync -c %i "$tmp/f")"
check "--no-basic-stats" "$("$tool" -O --patch "$tmp/f" | sed -n 2p)" \
	"$("$tool" --no-basic-stats --patch "$tmp/f" | sed -n 2p)"
check "--terse" "$("$tool" -t "$tmp/f")" "$("$tool" --terse "$tmp/f")"
check "--format" "$("$tool" -c %s "$tmp/f")" "$("$tool" --format=%s "$tmp/f")"
check "--all" "$("$tool" -a -c %{result_mask} "$tmp/f")" \
	"$("$tool" --all -c %{result_mask} "$tmp/f")"

# Files: 0 when all were examined, 1 when one was not, the others still.
"$tool" "$tmp/f" >/dev/null 2>&1
check "all examined" 0 $?
out=$("$tool" -c %n "$tmp/missing" "$tmp/f" 2>"$tmp/err")
check "one missing: status" 1 $?
check "one missing: others printed" "$tmp/f" "$out"
stat "$tmp/missing" 2>&1 | sed 's/^stat: cannot statx/xstat: cannot stat/' \
	>"$tmp/exp"
check "one missing: message" "$(cat "$tmp/exp")" "$(cat "$tmp/err")"
exp=$(stat -c %i - <"$tmp/f")
check "- is standard input" "$exp" "$("$tool" -c %i - <"$tmp/f")"
# (a program's loader may take the descriptor its parent closed: probed)
if why=$("$probe" closed-fd 0 <&-); then
	check "- closed: message" \
		"xstat: cannot stat standard input: Bad file descriptor" \
		"$("$tool" - <&- 2>&1)"
	"$tool" - <&- >/dev/null 2>&1
	check "- closed: status" 1 $?
else
	echo "skip - closed: $why"
fi

# Write errors, in every output form and for --help and --version.
if [ -w /dev/full ]; then
	for args in "$tmp/f" "-j $tmp/f" "--patch $tmp/f" "-t $tmp/f" \
		"-c %n $tmp/f" "--printf %n $tmp/f" --help --version; do
		# shellcheck disable=SC2086
		"$tool" $args >/dev/full 2>"$tmp/err"
		check "$args >/dev/full: status" 1 $?
		check "$args >/dev/full: message" \
			"xstat: write error: No space left on device" \
			"$(cat "$tmp/err")"
	done
	stat "$tmp/f" >/dev/full 2>"$tmp/exp"
	check "like stat >/dev/full" \
		"$(sed 's/^stat:/xstat:/' "$tmp/exp")" "$(cat "$tmp/err")"
else
	echo "note: no /dev/full"
fi
for args in "$tmp/f" "-j $tmp/f" --help --version; do
	# shellcheck disable=SC2086
	"$tool" $args >&- 2>"$tmp/err"
	check "$args >&-: status" 1 $?
	check "$args >&-: message" "xstat: write error: Bad file descriptor" \
		"$(cat "$tmp/err")"
done
if command -v python3 >/dev/null 2>&1; then
	# the reader is gone before the first write; SIGPIPE is ignored
	res=$(python3 - "$tool" "$tmp/f" "$tmp/missing" <<'EOF'
import os, signal, subprocess, sys
tool, f, missing = sys.argv[1:]
r, w = os.pipe()
os.close(r)
p = subprocess.run([tool] + [f] * 2000 + [missing], stdout=w,
                   stderr=subprocess.PIPE,
                   preexec_fn=lambda: signal.signal(signal.SIGPIPE,
                                                    signal.SIG_IGN))
print(p.returncode, p.stderr.decode().strip())
EOF
)
	check "EPIPE, SIGPIPE ignored" "1 xstat: write error: Broken pipe" "$res"
fi

echo "$n checks"
exit $fail
