#define _GNU_SOURCE
#define _ATFILE_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <time.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/types.h>

#define AT_FORCE_ATTR_SYNC	0x800

struct xstat_parameters {
	unsigned long long	request_mask;
#define XSTAT_REQUEST_MODE		0x00000001ULL
#define XSTAT_REQUEST_NLINK		0x00000002ULL
#define XSTAT_REQUEST_UID		0x00000004ULL
#define XSTAT_REQUEST_GID		0x00000008ULL
#define XSTAT_REQUEST_RDEV		0x00000010ULL
#define XSTAT_REQUEST_ATIME		0x00000020ULL
#define XSTAT_REQUEST_MTIME		0x00000040ULL
#define XSTAT_REQUEST_CTIME		0x00000080ULL
#define XSTAT_REQUEST_INO		0x00000100ULL
#define XSTAT_REQUEST_SIZE		0x00000200ULL
#define XSTAT_REQUEST_BLOCKS		0x00000400ULL
#define XSTAT_REQUEST__BASIC_STATS	0x000007ffULL
#define XSTAT_REQUEST_BTIME		0x00000800ULL
#define XSTAT_REQUEST_GEN		0x00001000ULL
#define XSTAT_REQUEST_DATA_VERSION	0x00002000ULL
#define XSTAT_REQUEST__EXTENDED_STATS	0x00003fffULL
#define XSTAT_REQUEST__ALL_STATS	0x00003fffULL
};

struct xstat_dev {
	unsigned int	major;
	unsigned int	minor;
};

struct xstat_time {
	unsigned long long	tv_sec;
	unsigned long long	tv_nsec;
};

struct xstat {
	unsigned int		st_mode;
	unsigned int		st_nlink;
	unsigned int		st_uid;
	unsigned int		st_gid;
	struct xstat_dev	st_rdev;
	struct xstat_dev	st_dev;
	struct xstat_time	st_atim;
	struct xstat_time	st_mtim;
	struct xstat_time	st_ctim;
	struct xstat_time	st_btim;
	unsigned long long	st_ino;
	unsigned long long	st_size;
	unsigned long long	st_blksize;
	unsigned long long	st_blocks;
	unsigned long long	st_gen;
	unsigned long long	st_data_version;
	unsigned long long	st_result_mask;
	unsigned long long	st_extra_results[0];
};

#define __NR_xstat				300
#define __NR_fxstat				301

static __attribute__((unused))
ssize_t xstat(int dfd, const char *filename, unsigned flags,
	      struct xstat_parameters *params,
	      struct xstat *buffer, size_t bufsize)
{
	return syscall(__NR_xstat, dfd, filename, flags,
		       params, buffer, bufsize);
}

static __attribute__((unused))
ssize_t fxstat(int fd, unsigned flags,
	       struct xstat_parameters *params,
	       struct xstat *buffer, size_t bufsize)
{
	return syscall(__NR_fxstat, fd, flags,
		       params, buffer, bufsize);
}

static void print_time(const char *field, const struct xstat_time *xstm)
{
	struct tm tm;
	time_t tim;
	char buffer[100];
	int len;

	tim = xstm->tv_sec;
	if (!localtime_r(&tim, &tm)) {
		perror("localtime_r");
		exit(1);
	}
	len = strftime(buffer, 100, "%F %T", &tm);
	if (len == 0) {
		perror("strftime");
		exit(1);
	}
	printf("%s", field);
	fwrite(buffer, 1, len, stdout);
	printf(".%09llu", xstm->tv_nsec);
	len = strftime(buffer, 100, "%z", &tm);
	if (len == 0) {
		perror("strftime2");
		exit(1);
	}
	fwrite(buffer, 1, len, stdout);
	printf("\n");
}

static void dump_xstat(struct xstat *xst)
{
	char buffer[256], ft;

	printf("results=%llx\n", xst->st_result_mask);

	printf(" ");
	if (xst->st_result_mask & XSTAT_REQUEST_SIZE)
		printf(" Size: %-15llu", xst->st_size);
	if (xst->st_result_mask & XSTAT_REQUEST_BLOCKS)
		printf(" Blocks: %-10llu", xst->st_blocks);
	printf(" IO Block: %-6llu ", xst->st_blksize);
	if (xst->st_result_mask & XSTAT_REQUEST_MODE) {
		switch (xst->st_mode & S_IFMT) {
		case S_IFIFO:	printf(" FIFO\n");			ft = 'p'; break;
		case S_IFCHR:	printf(" character special file\n");	ft = 'c'; break;
		case S_IFDIR:	printf(" directory\n");			ft = 'd'; break;
		case S_IFBLK:	printf(" block special file\n");	ft = 'b'; break;
		case S_IFREG:	printf(" regular file\n");		ft = '-'; break;
		case S_IFLNK:	printf(" symbolic link\n");		ft = 'l'; break;
		case S_IFSOCK:	printf(" socket\n");			ft = 's'; break;
		default:
			printf("unknown type (%o)\n", xst->st_mode & S_IFMT);
			ft = '?';
			break;
		}
	}

	sprintf(buffer, "%02x:%02x", xst->st_dev.major, xst->st_dev.minor);
	printf("Device: %-15s", buffer);
	if (xst->st_result_mask & XSTAT_REQUEST_INO)
		printf(" Inode: %-11llu", xst->st_ino);
	if (xst->st_result_mask & XSTAT_REQUEST_SIZE)
		printf(" Links: %-5u", xst->st_nlink);
	if (xst->st_result_mask & XSTAT_REQUEST_RDEV)
		printf(" Device type: %u,%u",
		       xst->st_rdev.major, xst->st_rdev.minor);
	printf("\n");

	if (xst->st_result_mask & XSTAT_REQUEST_MODE)
		printf("Access: (%04o/%c%c%c%c%c%c%c%c%c%c)  ",
		       xst->st_mode & 07777,
		       ft,
		       xst->st_mode & S_IRUSR ? 'r' : '-',
		       xst->st_mode & S_IWUSR ? 'w' : '-',
		       xst->st_mode & S_IXUSR ? 'x' : '-',
		       xst->st_mode & S_IRGRP ? 'r' : '-',
		       xst->st_mode & S_IWGRP ? 'w' : '-',
		       xst->st_mode & S_IXGRP ? 'x' : '-',
		       xst->st_mode & S_IROTH ? 'r' : '-',
		       xst->st_mode & S_IWOTH ? 'w' : '-',
		       xst->st_mode & S_IXOTH ? 'x' : '-');
	if (xst->st_result_mask & XSTAT_REQUEST_UID)
		printf("Uid: %d   \n", xst->st_uid);
	if (xst->st_result_mask & XSTAT_REQUEST_GID)
		printf("Gid: %u\n", xst->st_gid);

	if (xst->st_result_mask & XSTAT_REQUEST_ATIME)
		print_time("Access: ", &xst->st_atim);
	if (xst->st_result_mask & XSTAT_REQUEST_MTIME)
		print_time("Modify: ", &xst->st_mtim);
	if (xst->st_result_mask & XSTAT_REQUEST_CTIME)
		print_time("Change: ", &xst->st_ctim);
	if (xst->st_result_mask & XSTAT_REQUEST_BTIME)
		print_time("Create: ", &xst->st_btim);

	if (xst->st_result_mask & XSTAT_REQUEST_GEN)
		printf("Inode version: %llxh\n", xst->st_gen);
	if (xst->st_result_mask & XSTAT_REQUEST_DATA_VERSION)
		printf("Data version: %llxh\n", xst->st_data_version);
}

int main(int argc, char **argv)
{
	struct xstat_parameters params;
	struct xstat xst;
	int ret, atflag = AT_SYMLINK_NOFOLLOW;

	unsigned long long query =
		XSTAT_REQUEST__BASIC_STATS |
		XSTAT_REQUEST_BTIME |
		XSTAT_REQUEST_GEN |
		XSTAT_REQUEST_DATA_VERSION;

	for (argv++; *argv; argv++) {
		if (strcmp(*argv, "-F") == 0) {
			atflag |= AT_FORCE_ATTR_SYNC;
			continue;
		}
		if (strcmp(*argv, "-L") == 0) {
			atflag &= ~AT_SYMLINK_NOFOLLOW;
			continue;
		}
		if (strcmp(*argv, "-O") == 0) {
			query &= ~XSTAT_REQUEST__BASIC_STATS;
			continue;
		}

		memset(&xst, 0xbf, sizeof(xst));
		params.request_mask = query;
		ret = xstat(AT_FDCWD, *argv, atflag, &params, &xst, sizeof(xst));
		printf("xstat(%s) = %d\n", *argv, ret);
		if (ret < 0) {
			perror(*argv);
			exit(1);
		}

		dump_xstat(&xst);
	}
	return 0;
}
