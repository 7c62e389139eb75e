// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -f/--file-system: stat -f's directives over statfs(2)'s answer, and the
 * names stat(1) gives the file system types.
 */
#include <stdio.h>
#include <stdint.h>
#include "conv.h"
#include "fs.h"
#include "out.h"

/* f_type, as linux/magic.h and the file systems define it; stat's names */
static const struct {
	unsigned long magic;
	const char *name;
} fs_types[] = {
	{ 0x0000ADF5, "adfs" }, { 0x0000ADFF, "affs" },
	{ 0x5346414F, "afs" }, { 0x61756673, "aufs" },
	{ 0x00000187, "autofs" }, { 0x42465331, "befs" },
	{ 0x62646576, "bdevfs" }, { 0x1BADFACE, "bfs" },
	{ 0x42494E4D, "binfmt_misc" }, { 0xCAFE4A11, "bpf_fs" },
	{ 0x9123683E, "btrfs" }, { 0x73727279, "btrfs_test" },
	{ 0x00C36400, "ceph" }, { 0x0027E0EB, "cgroupfs" },
	{ 0x63677270, "cgroup2fs" }, { 0xFF534D42, "cifs" },
	{ 0x73757245, "coda" }, { 0x62656570, "configfs" },
	{ 0x28CD3D45, "cramfs" }, { 0x453DCD28, "cramfs-wend" },
	{ 0x64626720, "debugfs" }, { 0x00001373, "devfs" },
	{ 0x00001CD1, "devpts" }, { 0x0000F15F, "ecryptfs" },
	{ 0xDE5E81E4, "efivarfs" }, { 0x00414A53, "efs" },
	{ 0xE0F5E1E2, "erofs" }, { 0x2011BAB0, "exfat" },
	{ 0x0000137D, "ext" }, { 0x0000EF53, "ext2/ext3" },
	{ 0x0000EF51, "ext2" }, { 0xF2F52010, "f2fs" },
	{ 0x00004006, "fat" }, { 0x65735546, "fuseblk" },
	{ 0x65735543, "fusectl" }, { 0x01161970, "gfs/gfs2" },
	{ 0x47504653, "gpfs" }, { 0x00004244, "hfs" },
	{ 0x0000482B, "hfs+" }, { 0x00004858, "hfsx" },
	{ 0xF995E849, "hpfs" }, { 0x958458F6, "hugetlbfs" },
	{ 0x00009660, "isofs" }, { 0x000072B6, "jffs2" },
	{ 0x3153464A, "jfs" }, { 0x0BD00BD0, "lustre" },
	{ 0x0000137F, "minix" }, { 0x0000138F, "minix (30 char.)" },
	{ 0x00002468, "minix v2" }, { 0x00002478, "minix v2 (30 char.)" },
	{ 0x00004D5A, "minix3" }, { 0x19800202, "mqueue" },
	{ 0x00004D44, "msdos" }, { 0x00006969, "nfs" },
	{ 0x6E667364, "nfsd" }, { 0x00003434, "nilfs" },
	{ 0x6E736673, "nsfs" }, { 0x5346544E, "ntfs" },
	{ 0x7461636F, "ocfs2" }, { 0x00009FA1, "openprom" },
	{ 0x794C7630, "overlayfs" }, { 0x50495045, "pipefs" },
	{ 0x00009FA0, "proc" }, { 0x6165676C, "pstorefs" },
	{ 0x0000002F, "qnx4" }, { 0x68191122, "qnx6" },
	{ 0x858458F6, "ramfs" }, { 0x52654973, "reiserfs" },
	{ 0x00007275, "romfs" }, { 0x67596969, "rpc_pipefs" },
	{ 0x73636673, "securityfs" }, { 0xF97CFF8C, "selinux" },
	{ 0x43415D53, "smackfs" }, { 0x0000517B, "smb" },
	{ 0xFE534D42, "smb2" }, { 0x534F434B, "sockfs" },
	{ 0x73717368, "squashfs" }, { 0x62656572, "sysfs" },
	{ 0x01021994, "tmpfs" }, { 0x74726163, "tracefs" },
	{ 0x24051905, "ubifs" }, { 0x15013346, "udf" },
	{ 0x00011954, "ufs" }, { 0x54190100, "ufs" },
	{ 0x00009FA2, "usbdevfs" }, { 0x01021997, "v9fs" },
	{ 0xA501FCF5, "vxfs" }, { 0xABBA1974, "xenfs" },
	{ 0x58465342, "xfs" }, { 0x2FC12FC1, "zfs" },
	{ 0x5A4F4653, "zonefs" },
};

const char *fs_type_name(unsigned long magic, char buf[32])
{
	size_t i;

	for (i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++)
		if (fs_types[i].magic == magic)
			return fs_types[i].name;
	snprintf(buf, 32, "UNKNOWN (0x%lx)", magic);
	return buf;
}

/* The two words of f_fsid as one number, the first one high, as stat. */
static uintmax_t fsid_of(const struct statfs *st)
{
	const unsigned *w = (const unsigned *)&st->f_fsid;

	return (uintmax_t)w[0] << 32 | w[1];
}

void fs_conv(const struct spec *s, char c, const struct fs_result *fs)
{
	const struct statfs *st = &fs->st;
	char buf[32];

	switch (c) {
	case 'n':
		out_string(s, fs->name);
		break;
	case 'i':
		out_uint_x(s, fsid_of(st));
		break;
	case 'l':
		out_uint(s, (uintmax_t)st->f_namelen);
		break;
	case 't':
		out_uint_x(s, (uintmax_t)(unsigned long)st->f_type);
		break;
	case 'T':
		out_string(s, fs_type_name((unsigned long)st->f_type, buf));
		break;
	case 'b':
		out_int(s, (intmax_t)st->f_blocks);
		break;
	case 'f':
		out_int(s, (intmax_t)st->f_bfree);
		break;
	case 'a':
		out_int(s, (intmax_t)st->f_bavail);
		break;
	case 's':
		out_uint(s, (uintmax_t)st->f_bsize);
		break;
	case 'S':
		out_uint(s, (uintmax_t)(st->f_frsize ? st->f_frsize :
						       st->f_bsize));
		break;
	case 'c':
		out_int(s, (intmax_t)st->f_files);
		break;
	case 'd':
		out_int(s, (intmax_t)st->f_ffree);
		break;
	default:
		putc('?', out_fp());
		break;
	}
}
