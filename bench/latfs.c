// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * latfs - a made-up tree served over FUSE with a fixed delay per request,
 * like a network filesystem's round trip.
 *
 *   latfs --dirs=D --files=F --latency-us=US [--cache-s=S]
 *         [-o max_threads=N] MOUNTPOINT
 *
 * The root holds D directories d0000..., each holding F empty regular
 * files f00000....  Every request (lookup, getattr, opendir, readdir,
 * releasedir, statfs) sleeps US microseconds before it is answered.
 *
 * Multi-threaded, unlike tests/fuse/countfs: a request does not wait for
 * the one before it, so concurrent clients overlap their round trips as
 * they would on a real server, and a scan is bound by how many requests
 * it keeps in flight.  The kernel keeps names and attributes --cache-s
 * seconds (default 30), as an NFS client keeps them (actimeo): a cold
 * scan is one on a fresh mount.
 *
 * Built by "make bench-dask" (bench/dask-run.sh); never by make check.
 */
#define FUSE_USE_VERSION 34
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <fuse.h>

static struct {
	unsigned	dirs;
	unsigned	files;
	unsigned	latency_us;
	unsigned	cache_s;
} cfg = { 100, 1000, 1000, 30 };

static const struct fuse_opt opts[] = {
	{ "--dirs=%u", offsetof(typeof(cfg), dirs), 0 },
	{ "--files=%u", offsetof(typeof(cfg), files), 0 },
	{ "--latency-us=%u", offsetof(typeof(cfg), latency_us), 0 },
	{ "--cache-s=%u", offsetof(typeof(cfg), cache_s), 0 },
	FUSE_OPT_END
};

/* The round trip: the thread sleeps, others go on answering. */
static void delay(void)
{
	struct timespec ts = {
		.tv_sec = cfg.latency_us / 1000000,
		.tv_nsec = (long)(cfg.latency_us % 1000000) * 1000,
	};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* "/", "/dNNNN" or "/dNNNN/fNNNNN": 0, 1 or 2 levels; -1 for no file. */
static int parse(const char *path, unsigned *d, unsigned *f)
{
	char tail;

	if (strcmp(path, "/") == 0)
		return 0;
	if (sscanf(path, "/d%4u%c", d, &tail) == 1 && *d < cfg.dirs &&
	    strlen(path) == 6)
		return 1;
	if (sscanf(path, "/d%4u/f%5u%c", d, f, &tail) == 2 &&
	    *d < cfg.dirs && *f < cfg.files && strlen(path) == 13)
		return 2;
	return -1;
}

static void fill(struct stat *st, int level, unsigned d, unsigned f)
{
	memset(st, 0, sizeof(*st));
	st->st_mtim.tv_sec = st->st_ctim.tv_sec = st->st_atim.tv_sec =
		1700000000;
	if (level == 0) {
		st->st_ino = 1;
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2 + cfg.dirs;
		st->st_size = 32LL * cfg.dirs;
	} else if (level == 1) {
		st->st_ino = 2 + d;
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		st->st_size = 32LL * cfg.files;
	} else {
		st->st_ino = 2 + cfg.dirs + (unsigned long long)d * cfg.files +
			     f;
		st->st_mode = S_IFREG | 0644;
		st->st_nlink = 1;
		st->st_size = f;
	}
}

static int lat_getattr(const char *path, struct stat *st,
		       struct fuse_file_info *fi)
{
	unsigned d = 0, f = 0;
	int level = parse(path, &d, &f);

	(void)fi;
	delay();
	if (level < 0)
		return -ENOENT;
	fill(st, level, d, f);
	return 0;
}

static int lat_opendir(const char *path, struct fuse_file_info *fi)
{
	unsigned d = 0, f = 0;
	int level = parse(path, &d, &f);

	(void)fi;
	delay();
	if (level < 0)
		return -ENOENT;
	return level == 2 ? -ENOTDIR : 0;
}

static int lat_releasedir(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	delay();
	return 0;
}

/* Offsets are entry numbers + 1: a reply ends when the buffer is full. */
static int lat_readdir(const char *path, void *buf, fuse_fill_dir_t filler,
		       off_t off, struct fuse_file_info *fi,
		       enum fuse_readdir_flags flags)
{
	unsigned d = 0, f = 0, i, n;
	int level = parse(path, &d, &f);
	char name[16];

	(void)fi;
	(void)flags;
	delay();
	if (level < 0 || level == 2)
		return level < 0 ? -ENOENT : -ENOTDIR;
	n = level == 0 ? cfg.dirs : cfg.files;
	for (i = (unsigned)off; i < n; i++) {
		if (level == 0)
			snprintf(name, sizeof(name), "d%04u", i);
		else
			snprintf(name, sizeof(name), "f%05u", i);
		if (filler(buf, name, NULL, (off_t)i + 1, 0))
			break;
	}
	return 0;
}

static void *lat_init(struct fuse_conn_info *conn, struct fuse_config *c)
{
	(void)conn;
	c->use_ino = 1;
	c->entry_timeout = cfg.cache_s;
	c->attr_timeout = cfg.cache_s;
	c->negative_timeout = 0;
	return NULL;
}

static const struct fuse_operations ops = {
	.init		= lat_init,
	.getattr	= lat_getattr,
	.opendir	= lat_opendir,
	.readdir	= lat_readdir,
	.releasedir	= lat_releasedir,
};

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	int ret;

	if (fuse_opt_parse(&args, &cfg, opts, NULL) < 0)
		return 1;
	if (cfg.dirs > 10000 || cfg.files > 100000) {
		fprintf(stderr, "latfs: at most 10000 dirs of 100000 files\n");
		return 1;
	}
	ret = fuse_main(args.argc, args.argv, &ops, NULL);
	fuse_opt_free_args(&args);
	return ret;
}
