// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xstat - print extended file status, in the format of the test program
 * that accompanied the xstat() patch, or as JSON.  Uses only the public
 * header, like any application.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "xstat.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

static void print_time(const char *field, const struct xstat_time *xt)
{
	char buf[100];
	struct tm tm;
	time_t t = (time_t)xt->tv_sec;

	if (!localtime_r(&t, &tm) || !strftime(buf, sizeof(buf), "%F %T", &tm)) {
		printf("%s%lld.%09llu\n", field, xt->tv_sec, xt->tv_nsec);
		return;
	}
	printf("%s%s.%09llu", field, buf, xt->tv_nsec);
	strftime(buf, sizeof(buf), "%z", &tm);
	printf("%s\n", buf);
}

static char file_type(unsigned mode, const char **name)
{
	switch (mode & S_IFMT) {
	case S_IFIFO:	*name = "FIFO"; return 'p';
	case S_IFCHR:	*name = "character special file"; return 'c';
	case S_IFDIR:	*name = "directory"; return 'd';
	case S_IFBLK:	*name = "block special file"; return 'b';
	case S_IFREG:	*name = "regular file"; return '-';
	case S_IFLNK:	*name = "symbolic link"; return 'l';
	case S_IFSOCK:	*name = "socket"; return 's';
	}
	*name = "unknown type";
	return '?';
}

/* Extra results, found with the library's accessor, never by offset. */
struct extras {
	const struct xstat_mnt_id		*mnt;
	const struct xstat_attributes		*attr;
	const struct xstat_dioalign		*dio;
	const struct xstat_subvol		*subvol;
	const struct xstat_write_atomic		*atomic;
	const struct xstat_dio_read_align	*dio_read;
};

static void find_extras(const struct xstat *x, size_t len, struct extras *e)
{
	e->mnt = xstat_extra(x, len, XSTAT_REQUEST_MNT_ID);
	e->attr = xstat_extra(x, len, XSTAT_REQUEST_ATTRIBUTES);
	e->dio = xstat_extra(x, len, XSTAT_REQUEST_DIOALIGN);
	e->subvol = xstat_extra(x, len, XSTAT_REQUEST_SUBVOL);
	e->atomic = xstat_extra(x, len, XSTAT_REQUEST_WRITE_ATOMIC);
	e->dio_read = xstat_extra(x, len, XSTAT_REQUEST_DIO_READ_ALIGN);
}

static void dump_text_extras(const struct extras *e)
{
	if (e->mnt)
		printf("Mount ID: %llu%s\n", e->mnt->mnt_id,
		       e->mnt->unique ? " (unique)" : "");
	if (e->attr)
		printf("Attributes: %llxh (known: %llxh)\n",
		       e->attr->attributes, e->attr->attributes_mask);
	if (e->dio)
		printf("DIO align: memory %u, offset %u\n", e->dio->mem_align,
		       e->dio->offset_align);
	if (e->subvol)
		printf("Subvolume: %llu\n", e->subvol->subvol);
	if (e->atomic)
		printf("Atomic write: unit min %u, max %u, max opt %u, "
		       "segments %u\n", e->atomic->unit_min,
		       e->atomic->unit_max, e->atomic->unit_max_opt,
		       e->atomic->segments_max);
	if (e->dio_read)
		printf("DIO read align: offset %u\n",
		       e->dio_read->offset_align);
}

static void dump_text(const struct xstat *x)
{
	unsigned long long rm = x->st_result_mask;
	const char *tname = "";
	char buf[64], ft = '?';
	unsigned m = x->st_mode;

	printf("results=%llx\n", rm);
	printf(" ");
	if (rm & XSTAT_REQUEST_SIZE)
		printf(" Size: %-15llu", x->st_size);
	if (rm & XSTAT_REQUEST_BLOCKS)
		printf(" Blocks: %-10llu", x->st_blocks);
	printf(" IO Block: %-6llu ", x->st_blksize);
	if (rm & XSTAT_REQUEST_MODE) {
		ft = file_type(m, &tname);
		printf(" %s", tname);
	}
	printf("\n");

	snprintf(buf, sizeof(buf), "%02x:%02x", x->st_dev.major,
		 x->st_dev.minor);
	printf("Device: %-15s", buf);
	if (rm & XSTAT_REQUEST_INO)
		printf(" Inode: %-11llu", x->st_ino);
	if (rm & XSTAT_REQUEST_NLINK)
		printf(" Links: %-5u", x->st_nlink);
	if (rm & XSTAT_REQUEST_RDEV)
		printf(" Device type: %u,%u", x->st_rdev.major,
		       x->st_rdev.minor);
	printf("\n");

	if (rm & XSTAT_REQUEST_MODE)
		printf("Access: (%04o/%c%c%c%c%c%c%c%c%c%c)  ", m & 07777, ft,
		       m & S_IRUSR ? 'r' : '-', m & S_IWUSR ? 'w' : '-',
		       m & S_IXUSR ? 'x' : '-', m & S_IRGRP ? 'r' : '-',
		       m & S_IWGRP ? 'w' : '-', m & S_IXGRP ? 'x' : '-',
		       m & S_IROTH ? 'r' : '-', m & S_IWOTH ? 'w' : '-',
		       m & S_IXOTH ? 'x' : '-');
	if (rm & XSTAT_REQUEST_UID)
		printf("Uid: %u   \n", x->st_uid);
	if (rm & XSTAT_REQUEST_GID)
		printf("Gid: %u\n", x->st_gid);
	if (rm & XSTAT_REQUEST_ATIME)
		print_time("Access: ", &x->st_atim);
	if (rm & XSTAT_REQUEST_MTIME)
		print_time("Modify: ", &x->st_mtim);
	if (rm & XSTAT_REQUEST_CTIME)
		print_time("Change: ", &x->st_ctim);
	if (rm & XSTAT_REQUEST_BTIME)
		print_time("Create: ", &x->st_btim);
	if (rm & XSTAT_REQUEST_GEN)
		printf("Inode version: %llxh\n", x->st_gen);
	if (rm & XSTAT_REQUEST_DATA_VERSION)
		printf("Data version: %llxh\n", x->st_data_version);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_time(const char *name, const struct xstat_time *t, int have)
{
	if (have)
		printf(",\"%s\":{\"sec\":%lld,\"nsec\":%llu}", name, t->tv_sec,
		       t->tv_nsec);
	else
		printf(",\"%s\":null", name);
}

static void dump_json_extras(const struct extras *e)
{
	if (e->mnt)
		printf(",\"mnt_id\":{\"id\":%llu,\"unique\":%s}",
		       e->mnt->mnt_id, e->mnt->unique ? "true" : "false");
	if (e->attr)
		printf(",\"attributes\":{\"set\":%llu,\"known\":%llu}",
		       e->attr->attributes, e->attr->attributes_mask);
	if (e->dio)
		printf(",\"dioalign\":{\"mem\":%u,\"offset\":%u}",
		       e->dio->mem_align, e->dio->offset_align);
	if (e->subvol)
		printf(",\"subvol\":%llu", e->subvol->subvol);
	if (e->atomic)
		printf(",\"write_atomic\":{\"unit_min\":%u,\"unit_max\":%u,"
		       "\"unit_max_opt\":%u,\"segments_max\":%u}",
		       e->atomic->unit_min, e->atomic->unit_max,
		       e->atomic->unit_max_opt, e->atomic->segments_max);
	if (e->dio_read)
		printf(",\"dio_read_align\":%u", e->dio_read->offset_align);
}

static void dump_json(const char *path, ssize_t size, const struct xstat *x,
		      const struct extras *e)
{
	unsigned long long rm = x->st_result_mask;

	printf("{\"path\":");
	json_string(path);
	printf(",\"size_needed\":%zd,\"result_mask\":%llu", size, rm);
	printf(",\"mode\":%u,\"nlink\":%u,\"uid\":%u,\"gid\":%u", x->st_mode,
	       x->st_nlink, x->st_uid, x->st_gid);
	if (rm & XSTAT_REQUEST_RDEV)
		printf(",\"rdev\":{\"major\":%u,\"minor\":%u}",
		       x->st_rdev.major, x->st_rdev.minor);
	else
		printf(",\"rdev\":null");
	printf(",\"dev\":{\"major\":%u,\"minor\":%u}", x->st_dev.major,
	       x->st_dev.minor);
	json_time("atime", &x->st_atim, !!(rm & XSTAT_REQUEST_ATIME));
	json_time("mtime", &x->st_mtim, !!(rm & XSTAT_REQUEST_MTIME));
	json_time("ctime", &x->st_ctim, !!(rm & XSTAT_REQUEST_CTIME));
	json_time("btime", &x->st_btim, !!(rm & XSTAT_REQUEST_BTIME));
	printf(",\"ino\":%llu,\"size\":%llu,\"blksize\":%llu,\"blocks\":%llu",
	       x->st_ino, x->st_size, x->st_blksize, x->st_blocks);
	if (rm & XSTAT_REQUEST_GEN)
		printf(",\"gen\":%llu", x->st_gen);
	else
		printf(",\"gen\":null");
	if (rm & XSTAT_REQUEST_DATA_VERSION)
		printf(",\"data_version\":%llu", x->st_data_version);
	else
		printf(",\"data_version\":null");
	dump_json_extras(e);
	printf("}\n");
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: xstat [OPTION]... FILE...\n"
		"Print extended file status with xstat(3).\n\n"
		"  -F           force attribute synchronisation (AT_FORCE_ATTR_SYNC)\n"
		"  -N           never synchronise attributes (AT_NO_ATTR_SYNC)\n"
		"  -L           follow a final symbolic link\n"
		"  -O           do not request the basic stats\n"
		"  -m MASK      request exactly MASK (hex with 0x, or decimal)\n"
		"  -a, --all    request every defined result, extras included\n"
		"      --mnt-id --attributes --dioalign --subvol --write-atomic\n"
		"      --dio-read-align   also request that extra result\n"
		"  -j, --json   print one JSON object per file\n"
		"  -h, --help   show this help and exit\n"
		"  -V, --version  show the version and exit\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "all", no_argument, NULL, 'a' },
		{ "mnt-id", no_argument, NULL, 0x100 },
		{ "attributes", no_argument, NULL, 0x101 },
		{ "dioalign", no_argument, NULL, 0x102 },
		{ "subvol", no_argument, NULL, 0x103 },
		{ "write-atomic", no_argument, NULL, 0x104 },
		{ "dio-read-align", no_argument, NULL, 0x105 },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long query = XSTAT_REQUEST__EXTENDED_STATS;
	unsigned flags = AT_SYMLINK_NOFOLLOW;
	int c, json = 0, status = 0;
	char *end;

	while ((c = getopt_long(argc, argv, "FNLOm:ajhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			flags |= AT_FORCE_ATTR_SYNC;
			break;
		case 'N':
			flags |= AT_NO_ATTR_SYNC;
			break;
		case 'L':
			flags &= ~AT_SYMLINK_NOFOLLOW;
			break;
		case 'O':
			query &= ~XSTAT_REQUEST__BASIC_STATS;
			break;
		case 'm':
			errno = 0;
			query = strtoull(optarg, &end, 0);
			if (errno || *end || end == optarg) {
				fprintf(stderr, "xstat: invalid mask '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'j':
			json = 1;
			break;
		case 'a':
			query = XSTAT_REQUEST__ALL_STATS;
			break;
		case 0x100: case 0x101: case 0x102:
		case 0x103: case 0x104: case 0x105:
			/* the extra bits, in option order */
			query |= XSTAT_REQUEST_MNT_ID << (c - 0x100);
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("xstat (libxstat) %s\n", PACKAGE_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}

	for (; optind < argc; optind++) {
		const char *path = argv[optind];
		struct xstat_parameters params = { query };
		union {
			struct xstat	x;
			unsigned char	room[1024];
		} buf;
		struct xstat *x = &buf.x;
		struct extras e;
		ssize_t ret;

		memset(&buf, 0xbf, sizeof(buf));
		ret = xstat(AT_FDCWD, path, flags, &params, x, sizeof(buf));
		if (ret < 0) {
			fprintf(stderr, "xstat: cannot stat '%s': %s\n", path,
				strerror(errno));
			status = 1;
			continue;
		}
		find_extras(x, sizeof(buf), &e);
		if (json) {
			dump_json(path, ret, x, &e);
		} else {
			printf("xstat(%s) = %zd\n", path, ret);
			dump_text(x);
			dump_text_extras(&e);
		}
		fflush(stdout);
	}
	return status;
}
