#!/bin/sh
# The xstat tool against coreutils stat(1) and lsattr(1) on the same files:
# every printed field of the --patch layout (the test program's), exit
# status and error text.  tool-*.sh test the default layout and the rest.
set -u
tool=${XSTAT_TOOL:-./tools/xstat}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-tool.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0

check() {	# name expected actual
	if [ "$2" = "$3" ]; then
		echo "ok   $1: $3"
	else
		echo "FAIL $1: expected '$2', got '$3'"
		fail=1
	fi
}

field() {	# the text after "LABEL: " up to two spaces or end of line
	sed -n "s/.*$1: \([^ ]*\( [^ ]\+\)*\).*/\1/p" | head -n 1
}

printf 'hello, xstat tool\n' >"$tmp/file"
mkdir "$tmp/dir"
ln -s file "$tmp/link"

for f in "$tmp/file" "$tmp/dir" "$tmp/link"; do
	out=$("$tool" --patch "$f") || { echo "FAIL: tool exited $? on $f"; fail=1; }
	echo "$out" | sed 's/^/     | /'
	check "header" "xstat($f) = 152" "$(echo "$out" | head -n 1)"
	check "size" "$(stat -c %s "$f")" \
		"$(echo "$out" | sed -n 's/.*Size: \([0-9]*\).*/\1/p')"
	check "blocks" "$(stat -c %b "$f")" \
		"$(echo "$out" | sed -n 's/.*Blocks: \([0-9]*\).*/\1/p')"
	check "io block" "$(stat -c %o "$f")" \
		"$(echo "$out" | sed -n 's/.*IO Block: \([0-9]*\).*/\1/p')"
	check "type" "$(stat -c %F "$f")" \
		"$(echo "$out" | sed -n 's/.*IO Block: [0-9]* *//p')"
	check "device" "$(printf '%02x:%02x' "$(stat -c %Hd "$f")" \
		"$(stat -c %Ld "$f")")" \
		"$(echo "$out" | sed -n 's/^Device: \([0-9a-f:]*\).*/\1/p')"
	check "inode" "$(stat -c %i "$f")" \
		"$(echo "$out" | sed -n 's/.*Inode: \([0-9]*\).*/\1/p')"
	check "links" "$(stat -c %h "$f")" \
		"$(echo "$out" | sed -n 's/.*Links: \([0-9]*\).*/\1/p')"
	check "access" "($(stat -c '%a' "$f" | awk '{printf "%04d", $1}')/$(stat -c %A "$f"))" \
		"$(echo "$out" | sed -n 's/^Access: \((.*)\) .*/\1/p')"
	check "uid" "$(stat -c %u "$f")" \
		"$(echo "$out" | sed -n 's/.*Uid: \([0-9]*\).*/\1/p')"
	check "gid" "$(stat -c %g "$f")" \
		"$(echo "$out" | sed -n 's/^Gid: \([0-9]*\).*/\1/p')"
	check "mtime" "$(stat -c %y "$f" | tr -d ' ' )" \
		"$(echo "$out" | sed -n 's/^Modify: //p' | tr -d ' ')"
	check "ctime" "$(stat -c %z "$f" | tr -d ' ')" \
		"$(echo "$out" | sed -n 's/^Change: //p' | tr -d ' ')"
	if [ "$(stat -c %W "$f")" != 0 ]; then
		check "btime" "$(stat -c %w "$f" | tr -d ' ')" \
			"$(echo "$out" | sed -n 's/^Create: //p' | tr -d ' ')"
	fi
	if [ ! -L "$f" ] && gen=$(lsattr -dv "$f" 2>/dev/null); then
		check "generation" "$(printf '%xh' "${gen%% *}")" \
			"$(echo "$out" | sed -n 's/^Inode version: //p')"
	fi
done

# -L follows the link: the target's inode.
check "-L" "$(stat -L -c %i "$tmp/link")" \
	"$("$tool" --patch -L "$tmp/link" | sed -n 's/.*Inode: \([0-9]*\).*/\1/p')"

# --json: one object per file, the same values.
json=$("$tool" --json "$tmp/file" "$tmp/dir")
check "json lines" 2 "$(echo "$json" | wc -l)"
check "json ino" "\"ino\":$(stat -c %i "$tmp/file")," \
	"$(echo "$json" | head -n 1 | grep -o '"ino":[0-9]*,')"
check "json size" "\"size\":$(stat -c %s "$tmp/file")," \
	"$(echo "$json" | head -n 1 | grep -o '"size":[0-9]*,')"

# A missing file: message on stderr, exit 1, other files still printed.
err=$("$tool" "$tmp/missing" "$tmp/file" 2>&1 >/dev/null)
st=$?
check "missing: status" 1 "$st"
check "missing: message" \
	"xstat: cannot stat '$tmp/missing': No such file or directory" "$err"
check "missing: others printed" 1 \
	"$("$tool" --patch "$tmp/missing" "$tmp/file" 2>/dev/null |
		grep -c '= 152')"
"$tool" "$tmp/file" >/dev/null 2>&1
check "success: status" 0 "$?"
"$tool" --help >/dev/null
check "--help: status" 0 "$?"
"$tool" --no-such-option >/dev/null 2>&1
check "bad option: status" 2 "$?"
"$tool" --patch -m 0x800 "$tmp/file" | grep -q '^results=' 
check "-m: runs" 0 "$?"

exit $fail
