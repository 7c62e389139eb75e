#!/bin/sh
# Build the fuzzer's seed corpus from real ext2/3/4 images made here:
# 1 KiB and 4 KiB blocks, 128/256-byte inodes, 64bit, metadata_csum,
# bigalloc, meta_bg, flex_bg.  Each seed is the superblock, an inode
# number, the group descriptor of its group and its raw inode, as read
# from the image by dd at the offsets debugfs reports.  No root needed.
# Exits 77 (with the reason on stderr) where e2fsprogs is missing, 1 when
# it made no seed.
set -eu
out=${1:?usage: make-seeds.sh OUTDIR}
# e2fsprogs lives in /sbin, which an ordinary user's PATH lacks.
PATH=$PATH:/usr/sbin:/sbin
for tool in mke2fs dumpe2fs debugfs; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "SKIP: $tool is missing (Debian: e2fsprogs)" >&2
		exit 77
	}
done
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xstat-seeds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src" "$tmp/src/dir"
echo hello >"$tmp/src/file"
ln -s file "$tmp/src/link"
i=0
for opts in "-t ext4 -b 4096" "-t ext4 -b 1024" "-t ext4 -I 128" \
	"-t ext4 -O 64bit,metadata_csum" "-t ext4 -O ^metadata_csum" \
	"-t ext4 -O bigalloc -C 16384" "-t ext4 -b 1024 -O bigalloc -C 4096" \
	"-t ext4 -O meta_bg,^resize_inode" "-t ext4 -O ^flex_bg" \
	"-t ext2" "-t ext3" "-t ext4 -O inline_data"; do
	img="$tmp/img"
	rm -f "$img"
	truncate -s 64M "$img"
	# shellcheck disable=SC2086
	mke2fs -q -F $opts -d "$tmp/src" "$img" >/dev/null 2>&1 || continue
	bs=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Block size: *//p')
	isz=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Inode size: *//p')
	dsz=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Group descriptor size: *//p')
	dsz=${dsz:-32}
	[ "$dsz" -gt 64 ] && dsz=64
	gdt=$(( (1024 / bs + 1) * bs ))
	for ino in 2 11 12 13 14; do
		loc=$(debugfs -R "imap <$ino>" "$img" 2>/dev/null |
		      sed -n 's/.*located at block \([0-9]*\), offset 0x\([0-9a-f]*\).*/\1 \2/p')
		[ -n "$loc" ] || continue
		blk=${loc% *}; hoff=${loc#* }
		f="$out/seed-$i-$ino"
		dd if="$img" bs=1024 skip=1 count=1 status=none >"$f"
		printf "$(printf '\\%03o' $((ino & 255)) 0 0 0 0 0 0 0)" >>"$f"
		dd if="$img" bs=1 skip="$gdt" count="$dsz" status=none >>"$f"
		dd if="$img" bs=1 skip=$((blk * bs + 0x$hoff)) count="$isz" \
			status=none >>"$f"
	done
	i=$((i + 1))
done
n=$(ls "$out" | wc -l)
echo "$n"
if [ "$n" -eq 0 ]; then
	echo "make-seeds.sh: e2fsprogs made no seed image" >&2
	exit 1
fi
