// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * th-probe - does this machine, as a program of the build's own ABI sees
 * it, give what a shell test is about to hold the tool to?  Exit 0 when
 * it does; exit 77 with the reason on stdout (one line, for the test's
 * SKIP message) when it does not.  It probes the feature itself, never
 * what runs it: an emulator, a container or an old kernel all answer by
 * what they do.
 *
 *   th-probe locale NAME   setlocale() loads NAME and, for a *.UTF-8
 *                          name, its codeset is UTF-8
 *   th-probe mnt-id FILE   statx()'s mount ID of FILE is the one of
 *                          /proc/self/fdinfo, and a unique one agrees with
 *                          name_to_handle_at()'s
 *   th-probe closed-fd N   descriptor N, closed by the caller, is closed
 *                          in the program too (no loader took it)
 *   th-probe statmount     the kernel's statmount(2) answers (the library
 *                          learns multigrain timestamps from it)
 *   th-probe handles FILE  FILE's file handle does not hold its inode
 *                          number byte-swapped (a kernel of the other byte
 *                          order, under a user-mode emulator), so the
 *                          library can decode it (a tmpfs generation)
 *   th-probe strerror NAME the C library's words for the errno NAME
 *                          (ELOOP), in the environment's locale as the
 *                          tool sets it, on stdout: the tool appends them
 *                          to its messages, and glibc's and musl's differ
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/stat.h>

#define SKIP	77

#ifndef STATX_MNT_ID
#define STATX_MNT_ID		0x00001000U
#endif
#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE	0x00004000U
#endif
#ifndef AT_HANDLE_MNT_ID_UNIQUE
#define AT_HANDLE_MNT_ID_UNIQUE	0x001
#endif

static int probe_locale(const char *name)
{
	const char *dot = strrchr(name, '.');
	const char *set;

	if (!setlocale(LC_ALL, name)) {
		printf("this C library cannot load the locale %s\n", name);
		return SKIP;
	}
	set = nl_langinfo(CODESET);
	if (dot && !strcasecmp(dot + 1, "UTF-8") && strcmp(set, "UTF-8")) {
		printf("the locale %s loads with the codeset %s\n", name, set);
		return SKIP;
	}
	return 0;
}

/* The kernel's own reckoning of @fd's mount: fdinfo's mnt_id, or -1. */
static long fdinfo_mnt_id(int fd)
{
	char path[64], line[256];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "mnt_id: %ld", &id) == 1)
			break;
	fclose(f);
	return id;
}

static int sys_statx(int fd, unsigned int mask, struct statx *sx)
{
	return (int)syscall(SYS_statx, fd, "", AT_EMPTY_PATH |
			    AT_SYMLINK_NOFOLLOW, mask, sx);
}

static int probe_mnt_id(const char *file)
{
	struct {
		struct file_handle h;
		unsigned char buf[MAX_HANDLE_SZ];
	} fh;
	unsigned long long handle_id = 0;
	struct statx sx;
	long fdinfo;
	int fd, rc = 0;

	fd = open(file, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		printf("cannot open %s: %s\n", file, strerror(errno));
		return SKIP;
	}
	fdinfo = fdinfo_mnt_id(fd);
	memset(&sx, 0, sizeof(sx));
	if (fdinfo >= 0 && !sys_statx(fd, STATX_MNT_ID, &sx) &&
	    (sx.stx_mask & STATX_MNT_ID) &&
	    sx.stx_mnt_id != (unsigned long long)fdinfo) {
		printf("statx's mount ID %llu is not fdinfo's %ld\n",
		       (unsigned long long)sx.stx_mnt_id, fdinfo);
		rc = SKIP;
		goto out;
	}
	memset(&sx, 0, sizeof(sx));
	fh.h.handle_bytes = MAX_HANDLE_SZ;
	if (!sys_statx(fd, STATX_MNT_ID_UNIQUE, &sx) &&
	    (sx.stx_mask & STATX_MNT_ID_UNIQUE) &&
	    !syscall(SYS_name_to_handle_at, fd, "", &fh.h, &handle_id,
		     AT_EMPTY_PATH | AT_HANDLE_MNT_ID_UNIQUE) &&
	    handle_id != sx.stx_mnt_id) {
		printf("statx's unique mount ID %llu is not "
		       "name_to_handle_at's %llu\n",
		       (unsigned long long)sx.stx_mnt_id, handle_id);
		rc = SKIP;
	}
out:
	close(fd);
	return rc;
}

static int probe_closed_fd(int fd)
{
	if (fcntl(fd, F_GETFD) >= 0) {
		printf("descriptor %d, closed by the caller, is open in "
		       "the program\n", fd);
		return SKIP;
	}
	return 0;
}

/* 457 on every ABI; an emulator that does not know it says ENOSYS. */
static int probe_statmount(void)
{
	errno = 0;
	if (syscall(457, NULL, NULL, 0, 0) != 0 && errno == ENOSYS) {
		printf("no statmount(2) in this process (ENOSYS)\n");
		return SKIP;
	}
	return 0;
}

/* ext4 and xfs hold the inode number first, tmpfs after the generation. */
static int probe_handles(const char *file)
{
	struct {
		struct file_handle h;
		unsigned char buf[MAX_HANDLE_SZ];
	} fh;
	struct stat st;
	uint32_t ino, word;
	int mnt, i;

	fh.h.handle_bytes = MAX_HANDLE_SZ;
	if (lstat(file, &st) ||
	    name_to_handle_at(AT_FDCWD, file, &fh.h, &mnt, 0)) {
		printf("no file handle of %s: %s\n", file, strerror(errno));
		return SKIP;
	}
	ino = (uint32_t)st.st_ino;
	if (ino == __builtin_bswap32(ino))
		return 0;	/* cannot tell */
	for (i = 0; i < 2 && 4 * (i + 1) <= (int)fh.h.handle_bytes; i++) {
		memcpy(&word, fh.h.f_handle + 4 * i, 4);
		if (word == ino)
			return 0;
		if (word == __builtin_bswap32(ino)) {
			printf("the file handle of %s holds its inode number "
			       "%#x byte-swapped: the kernel is of another "
			       "byte order than this program\n", file, ino);
			return SKIP;
		}
	}
	return 0;
}

/* Exit 0 having printed the words, or 2 for an errno it does not name. */
static int probe_strerror(const char *name)
{
	static const struct {
		const char	*name;
		int		err;
	} names[] = {
		{ "ELOOP", ELOOP },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i].name)) {
			setlocale(LC_ALL, "");
			printf("%s\n", strerror(names[i].err));
			return 0;
		}
	}
	fprintf(stderr, "th-probe: no errno named %s here\n", name);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "locale"))
		return probe_locale(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mnt-id"))
		return probe_mnt_id(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "closed-fd"))
		return probe_closed_fd(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "statmount"))
		return probe_statmount();
	if (argc == 3 && !strcmp(argv[1], "handles"))
		return probe_handles(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "strerror"))
		return probe_strerror(argv[2]);
	fprintf(stderr, "usage: th-probe locale NAME | mnt-id FILE | "
		"closed-fd N | statmount | handles FILE | "
		"strerror NAME\n");
	return 2;
}
