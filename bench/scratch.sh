# Sourced by the bench scripts that loop-mount an image: a scratch
# directory in $tmp, and whatever was mounted or attached there
# (umount $tmp/mnt, the loop device in $dev) undone at exit.
#   scratch_dir NAME
scratch_dir() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
	dev=
	trap scratch_cleanup EXIT
}

scratch_cleanup() {
	umount "$tmp/mnt" 2>/dev/null || true
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null || true
	rm -rf "$tmp"
}
