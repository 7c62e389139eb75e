// SPDX-License-Identifier: LGPL-2.1-or-later
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

int ext4_oracle_stat(const char *dev, uint64_t ino, struct ext4_oracle *o)
{
	static char out[16384];
	unsigned long a, b;
	const char *p = NULL;
	int ret, tries;

	memset(o, 0, sizeof(*o));
	/*
	 * On a mounted filesystem debugfs can read a superblock or group
	 * descriptor the kernel is updating right then and refuse it (bad
	 * checksum): a torn read passes, so try again a few times.
	 */
	for (tries = 0; tries < 5; tries++) {
		if (tries)
			usleep(100000);
		ret = th_run(out, sizeof(out),
			     "DEBUGFS_PAGER=__none__ debugfs -R "
			     "'stat <%" PRIu64 ">' '%s' 2>&1", ino, dev);
		if (ret == 0 && (p = strstr(out, "Mode:")) &&
		    sscanf(p, "Mode: %lo", &a) == 1)
			break;
		fprintf(stderr, "debugfs stat <%" PRIu64 "> %s: exit %d:\n"
			"%s\n", ino, dev, ret, out);
	}
	if (tries == 5)
		return -1;
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

int ext4_oracle_imap(const char *dev, const uint64_t *inos, int n,
		     uint32_t block_size, uint64_t *offs)
{
	char cmds[] = "/tmp/xstat-imap.XXXXXX";
	char line[512];
	unsigned long long ino, blk, off;
	int fd, i, found = 0;
	FILE *f, *p;

	fd = mkstemp(cmds);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	for (i = 0; i < n; i++)
		fprintf(f, "imap <%" PRIu64 ">\n", inos[i]);
	fclose(f);
	snprintf(line, sizeof(line), "debugfs -f '%s' '%s' 2>/dev/null", cmds,
		 dev);
	p = popen(line, "r");
	if (!p) {
		unlink(cmds);
		return -1;
	}
	ino = 0;
	for (i = 0; i < n; i++)
		offs[i] = UINT64_MAX;
	while (fgets(line, sizeof(line), p)) {
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
	pclose(p);
	unlink(cmds);
	return found == n ? 0 : -1;
}
