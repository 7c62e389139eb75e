// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --patch: the layout of the test program that came with the xstat()
 * patch (July 2010), byte for byte, quirks kept: "Links" shown when the
 * size is, "Gid" on a line of its own, hexadecimal device numbers.  Two
 * deliberate differences: a name that is not plain printable text is
 * quoted (shell-escape style) instead of reaching the terminal raw, and a
 * time that cannot be broken down is printed as seconds.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "human.h"
#include "out.h"
#include "patch.h"
#include "quote.h"

/* Raw when printable; otherwise quoted, never control bytes. */
static const char *patch_name(const char *name)
{
	return quote_has_nonprint(name) ?
	       quote_n(2, name, QS_SHELL_ESCAPE) : name;
}

/*
 * "%F %T.NNNNNNNNN%z" as the program's strftime() wrote it, but formatted
 * by human_time(), whatever the C library: musl writes the year 10000
 * "+10000", glibc wraps a year past an int.  Seconds where no date can be
 * made.
 */
static void patch_time(const char *field, const struct xstat_time *xt)
{
	char buf[HUMAN_TIME_MAX], *zone;

	human_time(buf, xt);
	zone = strrchr(buf, ' ');
	if (zone && zone > strchr(buf, ' '))
		memmove(zone, zone + 1, strlen(zone));
	fprintf(out_fp(), "%s%s\n", field, buf);
}

static char patch_type(unsigned m)
{
	switch (m & S_IFMT) {
	case S_IFIFO:
		fprintf(out_fp(), " FIFO\n");
		return 'p';
	case S_IFCHR:
		fprintf(out_fp(), " character special file\n");
		return 'c';
	case S_IFDIR:
		fprintf(out_fp(), " directory\n");
		return 'd';
	case S_IFBLK:
		fprintf(out_fp(), " block special file\n");
		return 'b';
	case S_IFREG:
		fprintf(out_fp(), " regular file\n");
		return '-';
	case S_IFLNK:
		fprintf(out_fp(), " symbolic link\n");
		return 'l';
	case S_IFSOCK:
		fprintf(out_fp(), " socket\n");
		return 's';
	}
	fprintf(out_fp(), "unknown type (%o)\n", m & S_IFMT);
	return '?';
}

void patch_print(const struct file_result *r)
{
	const struct xstat *x = r->x;
	unsigned long long rm;
	unsigned m;
	char buf[64], ft = '?';

	fprintf(out_fp(), "xstat(%s) = %d\n", patch_name(r->name), (int)r->ret);
	if (r->ret < 0)
		return;
	rm = x->st_result_mask;
	m = x->st_mode;
	fprintf(out_fp(), "results=%llx\n", rm);
	fprintf(out_fp(), " ");
	if (rm & XSTAT_REQUEST_SIZE)
		fprintf(out_fp(), " Size: %-15llu", x->st_size);
	if (rm & XSTAT_REQUEST_BLOCKS)
		fprintf(out_fp(), " Blocks: %-10llu", x->st_blocks);
	fprintf(out_fp(), " IO Block: %-6llu ", x->st_blksize);
	if (rm & XSTAT_REQUEST_MODE)
		ft = patch_type(m);

	snprintf(buf, sizeof(buf), "%02x:%02x", x->st_dev.major,
		 x->st_dev.minor);
	fprintf(out_fp(), "Device: %-15s", buf);
	if (rm & XSTAT_REQUEST_INO)
		fprintf(out_fp(), " Inode: %-11llu", x->st_ino);
	if (rm & XSTAT_REQUEST_SIZE)	/* sic: the size bit, as the patch */
		fprintf(out_fp(), " Links: %-5u", x->st_nlink);
	if (rm & XSTAT_REQUEST_RDEV)
		fprintf(out_fp(), " Device type: %u,%u", x->st_rdev.major,
		       x->st_rdev.minor);
	fprintf(out_fp(), "\n");

	if (rm & XSTAT_REQUEST_MODE)
		/* the patch knows no setuid/sticky letters */
		fprintf(out_fp(), "Access: (%04o/%c%c%c%c%c%c%c%c%c%c)  ",
			m & 07777, ft, m & S_IRUSR ? 'r' : '-',
			m & S_IWUSR ? 'w' : '-', m & S_IXUSR ? 'x' : '-',
			m & S_IRGRP ? 'r' : '-', m & S_IWGRP ? 'w' : '-',
			m & S_IXGRP ? 'x' : '-', m & S_IROTH ? 'r' : '-',
			m & S_IWOTH ? 'w' : '-', m & S_IXOTH ? 'x' : '-');
	if (rm & XSTAT_REQUEST_UID)
		fprintf(out_fp(), "Uid: %d   \n", (int)x->st_uid);
	if (rm & XSTAT_REQUEST_GID)
		fprintf(out_fp(), "Gid: %u\n", x->st_gid);

	if (rm & XSTAT_REQUEST_ATIME)
		patch_time("Access: ", &x->st_atim);
	if (rm & XSTAT_REQUEST_MTIME)
		patch_time("Modify: ", &x->st_mtim);
	if (rm & XSTAT_REQUEST_CTIME)
		patch_time("Change: ", &x->st_ctim);
	if (rm & XSTAT_REQUEST_BTIME)
		patch_time("Create: ", &x->st_btim);

	if (rm & XSTAT_REQUEST_GEN)
		fprintf(out_fp(), "Inode version: %llxh\n", x->st_gen);
	if (rm & XSTAT_REQUEST_DATA_VERSION)
		fprintf(out_fp(), "Data version: %llxh\n", x->st_data_version);
}
