#!/bin/sh
# Names quoted as coreutils 9.1 quotes them, in the C and C.UTF-8 locales:
# every byte 0x01-0xff (but '/') alone and inside a name, apostrophes,
# shell specials, valid, invalid and unprintable UTF-8.  Oracles: stat's
# error messages (always shell-escape-always), stat -c %N under every
# QUOTING_STYLE, and ls --quoting-style=shell-escape for the File: line.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
probe=${XSTAT_PROBE:-$PWD/tests/th-probe}
unset QUOTING_STYLE
if ! stat --version 2>/dev/null | grep -q coreutils ||
   ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: needs coreutils stat and ls, and python3" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-quote.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# The names, made by python (a shell cannot hold every byte in a word).
mkdir "$tmp/d"
python3 - "$tmp/d" <<'EOF'
import os, sys
d = os.fsencode(sys.argv[1])
names = set()
for b in range(1, 256):
    if b == 0x2f:
        continue
    c = bytes([b])
    names.update([c, b"a" + c + b"b", c + b"x", b"x" + c])
names.discard(b".")
names.update(x.encode() if isinstance(x, str) else x for x in [
    "it's", "a'b$", "a'b c", "'", "''", "a b", "~x", "x~", "#a", "a#",
    "{", "}", "{}", "a{", "=", "a=b", "?", "*", "\\", "a\\b", "-n",
    "tab\tnew\nline", "\n\n", "a\n", "\x1b[31mred", "\x1b",
    "\u00e9t\u00e9", "\u200b", "\u2018q\u2019", "x\u2019y", "\u00a0",
    b"\xc3", b"\xc3(", b"\xe2\x82", b"\xe2\x82a", b"\xed\xa0\x80",
    b"\xf0\x9f\x98\x80", b"\xf4\x90\x80\x80", b"\xc2\x9b1m", b"\xc0\xaf",
    b"\xff\xfe", "a'\x01b", "'\n'", "a\"b", "\"", "x\u2019"])
with open(os.path.join(d, b"..", b"names"), "wb") as f:
    for n in sorted(names):
        open(os.path.join(d, n), "w").close()
        f.write(n + b"\0")
EOF
cd "$tmp/d" || exit 1
count=$(tr -cd '\0' <"$tmp/names" | wc -c)
# The names under a directory that is not there, for the error messages.
python3 -c '
import sys
for n in open(sys.argv[1], "rb").read().split(b"\0")[:-1]:
    sys.stdout.buffer.write(b"nonexistent/" + n + b"\0")' "$tmp/names" \
	>"$tmp/missing"

run() {	# file for output, command...: all names as arguments
	out=$1
	shift
	xargs -0 "$@" -- <"$tmp/names" >"$out" 2>&1
}

same() {	# what, expected file, actual file
	n=$((n + 1))
	if ! cmp -s "$2" "$3"; then
		echo "FAIL $1:"
		diff "$2" "$3" | head -n 10 | od -c | head -n 20
		fail=1
	fi
}

for loc in C C.UTF-8; do
	LC_ALL=$loc
	export LC_ALL
	if [ "$(locale charmap 2>/dev/null)" = ANSI_X3.4-1968 ] &&
	   [ "$loc" != C ]; then
		echo "note: no $loc locale"
		continue
	fi
	# and the tool's C library must load it too
	if ! why=$("$probe" locale "$loc"); then
		echo "note: $why"
		continue
	fi
	# messages: "cannot stat" for stat's "cannot statx"
	xargs -0 stat -- <"$tmp/missing" 2>&1 >/dev/null |
		sed 's/^stat: cannot statx /xstat: cannot stat /' >"$tmp/exp"
	xargs -0 "$tool" -- <"$tmp/missing" 2>"$tmp/got" >/dev/null
	same "$loc: error messages" "$tmp/exp" "$tmp/got"

	for style in shell-escape shell-escape-always shell shell-always \
		literal c c-maybe escape locale clocale; do
		QUOTING_STYLE=$style run "$tmp/exp" stat -c %N
		QUOTING_STYLE=$style run "$tmp/got" "$tool" -c %N
		same "$loc: %N QUOTING_STYLE=$style" "$tmp/exp" "$tmp/got"
	done
	run "$tmp/exp" stat -c %N
	run "$tmp/got" "$tool" -c %N
	same "$loc: %N unset QUOTING_STYLE" "$tmp/exp" "$tmp/got"

	# the File: line and %Qn: shell-escape, as ls prints names
	run "$tmp/exp" ls -d --quoting-style=shell-escape
	run "$tmp/got" "$tool" -c %Qn
	same "$loc: %Qn vs ls" "$tmp/exp" "$tmp/got"
	sort "$tmp/exp" >"$tmp/exp.s"
	run "$tmp/got" "$tool"
	sed -n 's/^  File: //p' "$tmp/got" | sort >"$tmp/got.s"
	same "$loc: File: vs ls" "$tmp/exp.s" "$tmp/got.s"

	# No ESC, newline or other control byte raw in any text form but
	# %n (the raw name, asked for).
	for form in "" -t --patch "-c %N" "-c %Qn" -j; do
		# shellcheck disable=SC2086
		xargs -0 "$tool" $form -- <"$tmp/names" >"$tmp/got" 2>&1
		lines=$(wc -l <"$tmp/got")
		bad=$(tr -d '\n\t' <"$tmp/got" | LC_ALL=C tr -d ' -~\200-\377' |
			wc -c)
		n=$((n + 1))
		if [ "$bad" != 0 ]; then
			echo "FAIL $loc: '$form' wrote $bad control bytes"
			fail=1
		fi
		# Nor a C1 control (\233 is CSI to some terminals): in C no
		# byte past ASCII but in JSON (UTF-8), in UTF-8 no U+0080-9F.
		if [ "$loc" = C ] && [ "$form" != -j ]; then
			high=$(LC_ALL=C tr -d '\000-\177' <"$tmp/got" | wc -c)
		else
			high=$(LC_ALL=C grep -c "$(printf '\302[\200-\237]')" \
				"$tmp/got")
		fi
		n=$((n + 1))
		if [ "$high" != 0 ]; then
			echo "FAIL $loc: '$form' wrote $high C1 or non-ASCII bytes"
			fail=1
		fi
		case $form in
		-t|-j|"-c %N"|"-c %Qn")
			n=$((n + 1))
			[ "$lines" = "$count" ] || {
				echo "FAIL $loc: '$form': $lines lines," \
					"$count names"
				fail=1
			} ;;
		esac
	done
done

# QUOTING_STYLE not a style: stat's warning, shell-escape-always.
: >"a b"
QUOTING_STYLE=nonsense LC_ALL=C stat -c %N "a b" >"$tmp/exp" 2>&1
# (only xstat's lines: a libtool wrapper's ls warns too)
QUOTING_STYLE=nonsense LC_ALL=C "$tool" -c %N "a b" 2>&1 |
	grep -v '^ls: ' | sed 's/^xstat:/stat:/' >"$tmp/got"
same "invalid QUOTING_STYLE" "$tmp/exp" "$tmp/got"

echo "$n comparisons"
exit $fail
