// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testhelp.h"
#include "ext4-oracle.h"

int ext4_oracle_available(void)
{
	return th_run(NULL, 0, "command -v debugfs && command -v mkfs.ext4")
	       == 0;
}

static const char *const debugfs_env[] = { "DEBUGFS_PAGER=__none__", NULL };

/*
 * @out, debugfs's stat of one inode, into @o: 0, 1 if it has no Mode:
 * (debugfs could not read the inode: try again), -1 if a field is
 * missing.
 */
static int parse_stat(const char *out, struct ext4_oracle *o)
{
	unsigned long a, b;
	const char *p;

	memset(o, 0, sizeof(*o));
	if (!(p = strstr(out, "Mode:")) || sscanf(p, "Mode: %lo", &a) != 1)
		return 1;
	o->mode = (uint32_t)a;
	if (!(p = strstr(out, "Generation:")) ||
	    sscanf(p, "Generation: %lu", &a) != 1)
		return -1;
	o->generation = (uint32_t)a;
	if ((p = strstr(out, "Version: 0x"))) {
		if (sscanf(p, "Version: 0x%lx:%lx", &a, &b) == 2)
			o->version = (uint64_t)a << 32 | b;
		else if (sscanf(p, "Version: 0x%lx", &a) == 1)
			o->version = a;
		else
			return -1;
		o->has_version = 1;
	}
	if (!(p = strstr(out, "User:")) ||
	    sscanf(p, "User: %lu Group: %lu", &a, &b) != 2)
		return -1;
	o->uid = (uint32_t)a;
	o->gid = (uint32_t)b;
	if (!(p = strstr(out, "Links:")) || sscanf(p, "Links: %lu", &a) != 1)
		return -1;
	o->links = (uint32_t)a;
	if ((p = strstr(out, "crtime: 0x")) &&
	    sscanf(p, "crtime: 0x%lx:%lx", &a, &b) == 2) {
		/* i_crtime is signed; two epoch bits, 30 nanosecond bits. */
		o->crtime_sec = (int64_t)(int32_t)(uint32_t)a +
				((int64_t)(b & 3) << 32);
		o->crtime_nsec = (uint32_t)(b >> 2);
		o->has_crtime = 1;
	}
	if ((p = strstr(out, "Size of extra inode fields:")) &&
	    sscanf(p, "Size of extra inode fields: %lu", &a) == 1) {
		o->extra_isize = (uint32_t)a;
		o->has_extra = 1;
	}
	return 0;
}

/* A file holding @cmd (a printf format) for each of @inos[0..n), at 0. */
static int command_file(const char *cmd, const uint64_t *inos, int n)
{
	FILE *f;
	int fd, i, bad;

	fd = th_tmpfd();
	if (fd < 0)
		return -1;
	f = fdopen(dup(fd), "w");
	if (!f) {
		close(fd);
		return -1;
	}
	for (i = 0; i < n; i++)
		fprintf(f, cmd, inos[i]);
	bad = ferror(f);
	if (fclose(f) || bad || lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * `debugfs -f - @dev` with the commands of @cmd_fd (command_file()'s):
 * its output, which echoes each command as "debugfs: COMMAND" before
 * what it printed (malloc()ed).  Its stderr is @err as th_exec_alloc()
 * takes it; a file there is emptied first, and kept apart from the
 * output so that it cannot break a line of it.  NULL if it could not
 * run.
 */
static char *debugfs_run(const char *dev, int cmd_fd, int err, int *st)
{
	const char *argv[] = { "debugfs", "-f", "-", dev, NULL };

	if (err >= 0 && (ftruncate(err, 0) || lseek(err, 0, SEEK_SET)))
		return NULL;
	return th_exec_alloc(st, err, cmd_fd, debugfs_env, argv);
}

/* What debugfs said on stderr, after a failure. */
static void say_stderr(int err_fd)
{
	char buf[4096];
	ssize_t r;

	if (lseek(err_fd, 0, SEEK_SET))
		return;
	while ((r = read(err_fd, buf, sizeof(buf))) > 0 ||
	       (r < 0 && errno == EINTR))
		if (r > 0)
			fwrite(buf, 1, (size_t)r, stderr);
}

int ext4_oracle_stat_many(const char *dev, const uint64_t *inos, int n,
			  struct ext4_oracle *o)
{
	char marker[64], *out = NULL, *at, *end;
	int *todo, left = n, cmd_fd = -1, err_fd = -1, ret = -1;
	int tries, i, k, st, r;
	uint64_t *ask;

	if (n <= 0)
		return 0;
	todo = malloc((size_t)n * sizeof(*todo));
	ask = malloc((size_t)n * sizeof(*ask));
	if (!todo || !ask)
		goto out;
	for (i = 0; i < n; i++)
		todo[i] = i;
	err_fd = th_tmpfd();
	if (err_fd < 0)
		goto out;
	/*
	 * On a mounted filesystem debugfs can read a superblock or group
	 * descriptor the kernel is updating right then and refuse it (bad
	 * checksum): a torn read passes, so each inode debugfs could not
	 * read is asked again a few times.
	 */
	for (tries = 0; left && tries < 5; tries++) {
		if (tries)
			usleep(100000);
		for (k = 0; k < left; k++)
			ask[k] = inos[todo[k]];
		if (cmd_fd >= 0)
			close(cmd_fd);
		cmd_fd = command_file("stat <%" PRIu64 ">\n", ask, left);
		free(out);
		out = cmd_fd < 0 ? NULL : debugfs_run(dev, cmd_fd, err_fd, &st);
		if (!out)
			goto out;
		/* Each inode's part: from its echoed command to the next. */
		at = out;
		for (k = 0, r = 0; k < left; k++) {
			snprintf(marker, sizeof(marker), "debugfs: stat <%"
				 PRIu64 ">\n", ask[k]);
			while (at && strncmp(at, marker, strlen(marker))) {
				at = strstr(at, "\ndebugfs: stat <");
				at = at ? at + 1 : NULL;
			}
			end = NULL;
			if (at) {
				at += strlen(marker);
				end = strstr(at, "\ndebugfs: stat <");
				if (end)
					*end = '\0';
			}
			switch (at && st == 0 ? parse_stat(at, &o[todo[k]]) :
				1) {
			case 0:
				break;
			case 1:
				fprintf(stderr, "debugfs stat <%" PRIu64
					"> %s: exit %d:\n%s\n", ask[k], dev,
					st, at ? at : out);
				say_stderr(err_fd);
				todo[r++] = todo[k];
				break;
			default:
				goto out;
			}
			at = end ? end + 1 : NULL;
		}
		left = r;
	}
	ret = left ? -1 : 0;
out:
	if (cmd_fd >= 0)
		close(cmd_fd);
	if (err_fd >= 0)
		close(err_fd);
	free(out);
	free(ask);
	free(todo);
	return ret;
}

int ext4_oracle_stat(const char *dev, uint64_t ino, struct ext4_oracle *o)
{
	return ext4_oracle_stat_many(dev, &ino, 1, o);
}

int ext4_oracle_imap(const char *dev, const uint64_t *inos, int n,
		     uint32_t block_size, uint64_t *offs)
{
	unsigned long long ino, blk, off;
	int fd, i, st, found = 0;
	char *out, *line, *next;

	fd = command_file("imap <%" PRIu64 ">\n", inos, n);
	if (fd < 0)
		return -1;
	out = debugfs_run(dev, fd, TH_ERR_NULL, &st);
	close(fd);
	if (!out)
		return -1;
	ino = 0;
	for (i = 0; i < n; i++)
		offs[i] = UINT64_MAX;
	for (line = out; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "Inode %llu is part of block group", &ino) == 1)
			continue;
		if (sscanf(line, " located at block %llu, offset 0x%llx", &blk,
			   &off) != 2)
			continue;
		for (i = 0; i < n; i++)
			if (inos[i] == ino && offs[i] == UINT64_MAX) {
				offs[i] = blk * block_size + off;
				found++;
				break;
			}
	}
	free(out);
	return found == n ? 0 : -1;
}
