// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Directory streams: xstat_opendir(), xstat_readdir(), xstat_dirfd(),
 * xstat_closedir().
 *
 * The directory is read with getdents64 in BULK_DENTS reads; a window of
 * its entries (bulk.h: BULK_BATCH or BULK_SMALL, names copied) forms a
 * batch, sorted by inode number (the order of inode tables on ext4, and
 * of inode allocation elsewhere), and handed out in that order.  Memory
 * is bounded by the batch, never by the directory.
 *
 * An entry's result is the one xstat(dirfd, name, AT_SYMLINK_NOFOLLOW |
 * flags, params) gives: by default that call itself, made when the entry
 * is handed out.  When a request needs the raw ext4 inode (generation,
 * data version; creation time too without statx), the batch is stat'ed
 * together instead, and bulk_ext4.c reads the inode tables once for all
 * of its entries, checking each raw inode against that entry's statx
 * answer; an entry that does not match goes the per-call way.
 *
 * Nothing is opened but the directory (O_CLOEXEC) while the caller's code
 * runs: the block device lives only inside the batch fill.  errno is set
 * only at the four public functions.
 *
 * A stream starts with plain statx calls and times the first few of each
 * batch; when they wait for the disk, the rest of the stream's batches
 * are read ahead through io_uring first (bulk_uring.c), then stat'ed the
 * same plain way, so the results are the same either way.  Never on a
 * remote filesystem, and never when this thread's statx is refused now
 * (a ring's operations pass no seccomp filter).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include "bulk.h"
#include "bulk_uring.h"
#include "fallback.h"
#include "statx_backend.h"

#define SYNC_FLAGS	(AT_FORCE_ATTR_SYNC | AT_NO_ATTR_SYNC)
#define DIR_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | \
			 AT_EMPTY_PATH | SYNC_FLAGS)
/* What an entry is looked up with: never through a final symlink. */
#define ENTRY_FLAGS	(AT_NO_AUTOMOUNT | SYNC_FLAGS)

/* One getdents64 record (the kernel's struct linux_dirent64). */
struct bulk_dirent64 {
	uint64_t	d_ino;
	int64_t		d_off;
	unsigned short	d_reclen;
	unsigned char	d_type;
	char		d_name[];
};

struct bulk_key {
	uint64_t	ino;
	uint32_t	idx;
};

struct xstat_dir {
	int			fd;
	unsigned		flags;		/* per entry: ENTRY_FLAGS */
	struct xstat_parameters	params;
	uint64_t		request;
	int			ext4;		/* the directory is on ext4 */
	int			remote;		/* network or FUSE, or unknown */
	int			unasked_cmtime;	/* see unasked_times() */
	uint32_t		dev_major, dev_minor;
	/* ext4: the directory's unique mount ID (0: unknown), its idmap */
	uint64_t		mnt_key, idmap_mnt;
	/* getdents64 buffer: [dpos, dlen) not yet taken into a batch */
	char			*dents;
	size_t			dlen, dpos;
	int			eof;
	/* the batch, handed out in keys[] order; names in the arena */
	struct bulk_ent		*ents;
	struct bulk_key		*keys, *keys_tmp;
	char			*names;
	size_t			n, next;
	/* a raw-read batch's records and bulk_ext4.c's scratch */
	struct xs_stat		*sts;
	struct bulk_ent		**order;
	uint64_t		*offs;
	uint8_t			*run;
	/* io_uring read-ahead (bulk_uring.c): on, and the sampling */
	int			uring;
	unsigned		sampled;	/* calls timed in this batch */
	uint64_t		sample_ns;
	const char		**ahead;	/* names, in keys[] order */
	struct xstat_dirent	out;
	union {
		struct xstat	x;
		unsigned char	bytes[BULK_RESULT];
	}			res;
};

static void free_dir(struct xstat_dir *d)
{
	free(d->dents);
	free(d->ents);
	free(d->keys);
	free(d->keys_tmp);
	free(d->names);
	free(d->sts);
	free(d->order);
	free(d->offs);
	free(d->run);
	free(d->ahead);
	free(d);
}

/*
 * With multigrain timestamps (6.13+) statx reports ctime and mtime only
 * when asked for one of them.  A batch that reads raw inodes asks for the
 * ctime to check them against; where the caller did not, its answer must
 * still be the one xstat() gives, so those two are dropped again.  Seen
 * once per stream, on the directory, with a request that does not ask.
 */
static int unasked_times(const struct xstat_dir *d)
{
	struct xs_target t = { d->fd, "", AT_EMPTY_PATH, 0, NULL, 0, 0 };
	struct xs_statx sx;

	if (d->request & (XSTAT_REQUEST_CTIME | XSTAT_REQUEST_MTIME))
		return 0;
	return xs_statx_call(&t, XSTAT_REQUEST_MODE, &sx) == 0 &&
	       !(sx.stx_mask & (XS_STATX_CTIME | XS_STATX_MTIME));
}

/*
 * The directory's mount, on ext4: its unique ID, and whether it is
 * idmapped (fscache.c), so that raw owners are compared as the per-call
 * probe compares them (xs_ext4_same_file()).
 */
static void dir_mount(struct xstat_dir *d)
{
	struct xs_target t = { d->fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
			       0, NULL, 1, 0 };
	struct xs_stat st;
	uint32_t fsflags = 0;

	if (xs_unique_mnt_id(&t, &d->mnt_key))
		d->mnt_key = 0;
	if (!d->mnt_key)
		return;
	memset(&st, 0, sizeof(st));
	st.fs_key = d->mnt_key;
	if (xs_fs_magic(&t, &st, &fsflags))
		d->idmap_mnt = xs_ext4_idmap_of(d->mnt_key, fsflags);
}

/* What the kernel says about the directory itself. */
static int dir_facts(struct xstat_dir *d)
{
	struct statfs sfs;
	struct stat sb;

	if (fstat(d->fd, &sb))
		return -errno;
	if (!S_ISDIR(sb.st_mode))
		return -ENOTDIR;
	d->dev_major = major(sb.st_dev);
	d->dev_minor = minor(sb.st_dev);
	if (fstatfs(d->fd, &sfs)) {
		d->remote = 1;	/* unknown: no read-ahead */
		return 0;
	}
	/*
	 * On a network or FUSE filesystem every statx can be a request to
	 * the server: a read-ahead there doubles them and shares nothing.
	 */
	d->remote = xs_fs_remote((uint32_t)sfs.f_type);
	/* Only a hint: each entry's device is checked, each inode too. */
	d->ext4 = (uint32_t)sfs.f_type == XS_EXT4_SUPER_MAGIC;
	if (d->ext4) {
		d->unasked_cmtime = unasked_times(d);
		dir_mount(d);
	}
	return 0;
}

static int open_dir(int dfd, const char *path, unsigned flags)
{
	int oflags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY;
	int fd;

	/* "" with AT_EMPTY_PATH: @dfd itself, with an offset of our own. */
	if (!*path && (flags & AT_EMPTY_PATH))
		path = ".";
	if (flags & AT_SYMLINK_NOFOLLOW)
		oflags |= O_NOFOLLOW;
	do
		fd = openat(dfd, path, oflags);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

static struct xstat_dir *alloc_dir(void)
{
	struct xstat_dir *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->fd = -1;
	d->dents = malloc(BULK_DENTS);
	d->ents = malloc(BULK_BATCH * sizeof(*d->ents));
	d->keys = malloc(BULK_BATCH * sizeof(*d->keys));
	d->keys_tmp = malloc(BULK_BATCH * sizeof(*d->keys));
	d->names = malloc(BULK_NAMES);
	if (!d->dents || !d->ents || !d->keys || !d->keys_tmp || !d->names) {
		free_dir(d);
		return NULL;
	}
	return d;
}

XS_EXPORT struct xstat_dir *xstat_opendir(int dfd, const char *path,
					  unsigned flags,
					  const struct xstat_parameters *params)
{
	struct xstat_dir *d;
	int ret;

	if (flags & ~DIR_FLAGS || (flags & SYNC_FLAGS) == SYNC_FLAGS) {
		errno = EINVAL;
		return NULL;
	}
	if (!path) {
		errno = EFAULT;
		return NULL;
	}
	d = alloc_dir();
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	d->flags = flags & ENTRY_FLAGS;
	d->uring = bulk_uring_forced();
	d->params.request_mask = params ? params->request_mask &
					  XSTAT_REQUEST__ALL_STATS :
					  XSTAT_REQUEST__EXTENDED_STATS;
	d->request = d->params.request_mask;
	ret = open_dir(dfd, path, flags);
	if (ret >= 0) {
		d->fd = ret;
		ret = dir_facts(d);
	}
	if (ret < 0) {
		if (d->fd >= 0)
			close(d->fd);
		free_dir(d);
		errno = -ret;
		return NULL;
	}
	return d;
}

XS_EXPORT int xstat_dirfd(struct xstat_dir *d)
{
	if (!d) {
		errno = EINVAL;
		return -1;
	}
	return d->fd;
}

XS_EXPORT int xstat_closedir(struct xstat_dir *d)
{
	int ret;

	if (!d) {
		errno = EINVAL;
		return -1;
	}
	/* Linux closes the fd even when close() fails: never retry it. */
	ret = close(d->fd);
	free_dir(d);
	return ret ? -1 : 0;
}

/* The next getdents64 read; 0 at the end, else bytes or -errno. */
static long read_dents(struct xstat_dir *d)
{
	long n;

	do
		n = syscall(SYS_getdents64, d->fd, d->dents, BULK_DENTS);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int is_dot(const char *name)
{
	return name[0] == '.' &&
	       (!name[1] || (name[1] == '.' && !name[2]));
}

/*
 * Sort the window's keys by inode number: a stable LSD radix sort, one
 * pass per byte, skipping bytes that are the same in every key (the high
 * bytes of most inode numbers).  Stable, so the names of one inode keep
 * the directory's order.
 */
static void sort_keys(struct xstat_dir *d)
{
	struct bulk_key *src = d->keys, *dst = d->keys_tmp, *t;
	size_t count[256], i, sum;
	unsigned shift;

	for (shift = 0; shift < 64; shift += 8) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < d->n; i++)
			count[src[i].ino >> shift & 0xff]++;
		if (d->n == 0 || count[src[0].ino >> shift & 0xff] == d->n)
			continue;
		for (i = 0, sum = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < d->n; i++)
			dst[count[src[i].ino >> shift & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != d->keys)
		memcpy(d->keys, src, d->n * sizeof(*src));
}

/*
 * Take the next window: up to BULK_BATCH entries, their names copied into
 * the arena while room for the longest name is left, reading the
 * directory as needed.
 */
static int collect(struct xstat_dir *d, size_t window)
{
	size_t used = 0, len;

	d->n = 0;
	d->next = 0;
	while (d->n < window && used + 256 <= BULK_NAMES && !d->eof) {
		struct bulk_dirent64 *de;
		struct bulk_ent *e;

		if (d->dpos >= d->dlen) {
			long got = read_dents(d);

			if (got < 0) {
				if (d->n)
					break;	/* the error again next time */
				return (int)got;
			}
			d->dlen = (size_t)got;
			d->dpos = 0;
			if (!got)
				d->eof = 1;
			continue;
		}
		de = (struct bulk_dirent64 *)(d->dents + d->dpos);
		d->dpos += de->d_reclen;
		if (is_dot(de->d_name))
			continue;
		len = strnlen(de->d_name, 255) + 1;
		e = &d->ents[d->n];
		e->name = memcpy(d->names + used, de->d_name, len);
		d->names[used + len - 1] = '\0';
		used += len;
		e->d_ino = de->d_ino;
		e->d_type = de->d_type;
		e->state = BULK_PENDING;
		e->err = 0;
		e->st = NULL;
		d->keys[d->n].ino = de->d_ino;
		d->keys[d->n].idx = (uint32_t)d->n;
		d->n++;
	}
	sort_keys(d);
	return 0;
}

/* The raw fields a request needs and the kernel's answer cannot give. */
static uint64_t raw_wanted(uint64_t request)
{
	uint64_t want = request & (XSTAT_REQUEST_GEN |
				   XSTAT_REQUEST_DATA_VERSION);

	/*
	 * statx gives ext4's creation time itself, fstatat does not: alone
	 * it is worth a raw read unless statx is known to answer.  With the
	 * others it is taken from the raw inode where the answer lacks it.
	 */
	if ((request & XSTAT_REQUEST_BTIME) &&
	    (want || xs_backend_current() != XS_BACKEND_STATX))
		want |= XSTAT_REQUEST_BTIME;
	return want;
}

/* One name's kernel answer into @st, as xstat.c records it: 0 or -errno. */
static int stat_name(const struct xstat_dir *d, const char *name,
		     uint64_t request, struct xs_stat *st)
{
	struct xs_target t = { d->fd, name, AT_SYMLINK_NOFOLLOW | d->flags,
			       0, NULL, 0, 0 };
	union {
		struct xs_statx	sx;
		struct stat	sb;
	} k;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = xs_statx_call(&t, request, &k.sx);
	if (ret == 0) {
		xs_stat_from_statx(st, &k.sx, d->request);
	} else if (ret == -ENOSYS) {
		ret = xs_fstatat(&t, &k.sb);
		if (ret == 0)
			xs_stat_from_stat(st, &k.sb);
	}
	st->mask &= ~XS_EXTRAS | d->request;
	return ret;
}

static void stat_entry(struct xstat_dir *d, struct bulk_ent *e,
		       uint64_t request)
{
	int ret = stat_name(d, e->name, request, e->st);

	if (ret) {
		e->state = BULK_FAILED;
		e->err = -ret;
		return;
	}
	e->state = BULK_STATED;
}

/*
 * The batch as a whole, on ext4: the device opened (if it can be: else
 * every entry goes the per-call way, with no statx wasted), statx for
 * every entry in inode order, the raw inodes, the device closed.
 * Entries on another device (mount points) and those the raw read cannot
 * vouch for stay to the per-call path.
 */
static void fill_raw(struct xstat_dir *d, uint64_t want)
{
	uint64_t request = xs_bulk_arm_request(d->request);
	struct xs_bulk_dev dv;
	size_t i, m = 0;

	/* Allocated by the first raw-read batch; a failure: per call. */
	if (!d->sts)
		d->sts = malloc(BULK_BATCH * sizeof(*d->sts));
	if (!d->order)
		d->order = malloc(BULK_BATCH * sizeof(*d->order));
	if (!d->offs)
		d->offs = malloc(BULK_BATCH * sizeof(*d->offs));
	if (!d->run)
		d->run = malloc(BULK_RUN);
	if (!d->sts || !d->order || !d->offs || !d->run)
		return;
	if (xs_bulk_ext4_open(d->dev_major, d->dev_minor, d->fd, &dv))
		return;
	for (i = 0; i < d->n; i++) {
		struct bulk_ent *e = &d->ents[d->keys[i].idx];

		e->st = &d->sts[i];
		stat_entry(d, e, request);
		if (e->state != BULK_STATED)
			continue;
		/*
		 * Another mount of the same filesystem (a bind mount in the
		 * directory) may map owners otherwise: per call.
		 */
		if (e->st->dev_major != d->dev_major ||
		    e->st->dev_minor != d->dev_minor ||
		    (e->st->mnt_id_unique && d->mnt_key &&
		     e->st->mnt_id != d->mnt_key) ||
		    (e->st->mask & BULK_CHECK) != BULK_CHECK) {
			e->state = BULK_PENDING;
			continue;
		}
		d->order[m++] = e;
	}
	xs_bulk_ext4_read(&dv, d->order, m, want, d->idmap_mnt, d->run,
			  d->offs);
	xs_bulk_ext4_close(&dv);
}

/* Calls timed per batch while deciding whether it is cold. */
#define URING_SAMPLE	16

/*
 * Only on the statx backend: a ring's statx is not seen by a seccomp
 * filter, and the fallback backend may be there because statx is refused.
 * Never on a remote filesystem (dir_facts()).  That the backend is statx
 * says only that statx worked once in the process: each read-ahead also
 * asks this thread (statx_allowed()).
 */
static int uring_allowed(const struct xstat_dir *d)
{
	return !d->remote && xs_backend_current() == XS_BACKEND_STATX &&
	       bulk_uring_usable();
}

/*
 * May this thread make the ring's statx calls now?  A seccomp filter
 * belongs to a thread and may arrive at any time (filters only
 * accumulate), and no filter sees a ring's operations: so before each
 * read-ahead, one real statx of the first entry it would read, with the
 * descriptor, flags and mask the ring would use (all a filter can see).
 * Only an answer about that entry allows it: an error, or a success that
 * filled nothing (a filter's faked return), means no ring for this batch.
 * A filter that arrives while the ring runs (another thread's TSYNC)
 * stops it from the next batch on.
 */
static int statx_allowed(const struct xstat_dir *d, size_t i)
{
#ifdef XS_NR_statx
	const struct bulk_ent *e = &d->ents[d->keys[i].idx];
	struct xs_statx sx;

	memset(&sx, 0, sizeof(sx));
	return xs_raw_statx(d->fd, e->name, AT_SYMLINK_NOFOLLOW | d->flags,
			    xs_statx_request(d->request), &sx) == 0 &&
	       (sx.stx_mask & XS_STATX_INO) && sx.stx_ino == e->d_ino;
#else
	(void)d;
	(void)i;
	return 0;
#endif
}

/* Read ahead the inodes of the batch's entries [from, n). */
static void read_ahead(struct xstat_dir *d, size_t from)
{
	size_t i;

	if (d->n - from < 2 || !uring_allowed(d) || !statx_allowed(d, from))
		return;
	if (!d->ahead)
		d->ahead = malloc(BULK_BATCH * sizeof(*d->ahead));
	if (!d->ahead)
		return;
	for (i = from; i < d->n; i++)
		d->ahead[i - from] = d->ents[d->keys[i].idx].name;
	if (bulk_uring_prefetch(d->fd, d->ahead, d->n - from,
				AT_SYMLINK_NOFOLLOW | d->flags,
				xs_statx_request(d->request)) < 0 &&
	    !bulk_uring_usable())
		d->uring = 0;	/* refused: plain calls from now on */
}

/*
 * Add one timed plain call; once URING_SAMPLE of this batch say cold,
 * switch to read-ahead, starting with the rest of this batch.
 */
static void sample(struct xstat_dir *d, uint64_t t0)
{
	d->sample_ns += bulk_uring_now() - t0;
	if (++d->sampled < URING_SAMPLE)
		return;
	if (bulk_uring_cold(d->sample_ns, d->sampled) && uring_allowed(d)) {
		d->uring = 1;
		read_ahead(d, d->next);
	}
}

/*
 * A batch that reads raw inodes shares more the larger it is; one stat'ed
 * entry by entry shares nothing but the order, and a small one stays in
 * the caches.
 */
static int fill_batch(struct xstat_dir *d)
{
	uint64_t want = d->ext4 ? raw_wanted(d->request) : 0;
	int ret = collect(d, want ? BULK_BATCH : BULK_SMALL);

	if (ret || !d->n)
		return ret;
	d->sampled = 0;
	d->sample_ns = 0;
	if (d->uring)
		read_ahead(d, 0);
	if (want) {
		uint64_t t0 = d->uring ? 0 : bulk_uring_now();

		fill_raw(d, want);
		/* a raw batch stats together: its whole time is the sample */
		if (!d->uring && bulk_uring_cold(bulk_uring_now() - t0,
						 (unsigned)d->n) &&
		    uring_allowed(d))
			d->uring = 1;
		d->sampled = URING_SAMPLE;
	}
	return 0;
}

/*
 * A request with no class (3) field and no extra result: one statx, as
 * xstat() would make it, without the entry point's checks, which
 * xstat_opendir() made once.
 */
static ssize_t stat_basic(struct xstat_dir *d, struct bulk_ent *e)
{
	struct xs_stat st;
	int ret = stat_name(d, e->name, d->request, &st);

	if (ret) {
		e->err = -ret;
		e->state = BULK_FAILED;
		return 0;
	}
	return xs_copyout(&st, d->request, &d->res.x, sizeof(d->res));
}

/* The result of @e into d->res, as xstat() would write it. */
static void result_of(struct xstat_dir *d, struct bulk_ent *e)
{
	ssize_t len;

	switch (e->state) {
	case BULK_FAILED:
		len = 0;
		break;
	case BULK_READY:
		if (d->unasked_cmtime) {
			e->st->mask &= ~(XSTAT_REQUEST_CTIME |
					 XSTAT_REQUEST_MTIME);
			memset(&e->st->ctime, 0, sizeof(e->st->ctime));
			memset(&e->st->mtime, 0, sizeof(e->st->mtime));
		}
		/*
		 * Class (3) is decided by the raw inode.  An extra result the
		 * backend did not give (the fallback's mount ID, attributes)
		 * needs the per-call path's anchored supplements.  So does
		 * the change token: it needs a ctime read by a stat of the
		 * entry, which arms its next change; a raw read arms nothing.
		 * And the reasons for missing fields, which why.c gives from
		 * that path's knowledge.
		 */
		if (!(d->request & (XS_PROMISE_EXTRAS |
				    XSTAT_REQUEST_WHY_MISSING)) &&
		    !(d->request & XS_SUPPLEMENTABLE & ~XS_CLASS3 &
		      ~e->st->mask)) {
			len = xs_copyout(e->st, d->request, &d->res.x,
					 sizeof(d->res));
			break;
		}
		/* fall through */
	default: {	/* the per-call pipeline, by name */
		uint64_t t0 = 0;

		if (!d->uring && d->sampled < URING_SAMPLE)
			t0 = bulk_uring_now();
		if (!(d->request & (XS_CLASS3 | XS_EXTRAS))) {
			len = stat_basic(d, e);
		} else {
			len = xstat(d->fd, e->name,
				    AT_SYMLINK_NOFOLLOW | d->flags,
				    &d->params, &d->res.x, sizeof(d->res));
			if (len < 0) {
				e->err = errno;
				e->state = BULK_FAILED;
			}
		}
		if (t0)
			sample(d, t0);
		break;
	}
	}
	if (e->state == BULK_FAILED) {
		memset(&d->res, 0, sizeof(struct xstat));
		len = 0;
	}
	d->out.d_name = e->name;
	d->out.d_xstat = &d->res.x;
	d->out.d_xstat_len = (size_t)len;
	d->out.d_ino = e->d_ino;
	d->out.d_error = e->err;
	d->out.d_type = e->d_type;
}

XS_EXPORT const struct xstat_dirent *xstat_readdir(struct xstat_dir *d)
{
	int ret, saved = errno;

	if (!d) {
		errno = EINVAL;
		return NULL;
	}
	if (d->next >= d->n) {
		ret = fill_batch(d);
		if (ret) {
			errno = -ret;
			return NULL;
		}
		if (!d->n) {
			errno = saved;
			return NULL;
		}
	}
	result_of(d, &d->ents[d->keys[d->next++].idx]);
	/* What the library's own calls did to errno is not the caller's. */
	errno = saved;
	return &d->out;
}
