#!/bin/sh
# Seeds for fuzz/fuzz-snapshot.c in $1: a real snapshot of a small tree
# "/t" (taken with the built tool, paths rewritten to /t) and a few
# hand-made edge cases.  Used by .ci/fuzz.
set -eu
out=$1
tool=${XSTAT_TOOL:-./tools/xstat}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-snapseed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t/d"
echo a >"$tmp/t/a"
ln "$tmp/t/a" "$tmp/t/d/b"
ln -s a "$tmp/t/l"
printf 'x' >"$tmp/t/$(printf 'n\377')"
"$tool" -r --json --change-token "$tmp/t" | sed "s|$tmp/t|/t|g" >"$out/real"
head -n 1 "$out/real" >"$out/one"
printf '{"path":"/t","schema":1,"error":{"errno":2,"message":"x"}}\n' \
	>"$out/error"
printf '{"path":"/t","path_bytes":"2f74","schema":1}\n' >"$out/bytes"
