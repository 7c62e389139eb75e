// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A directory stream's window (bulk.c says what a stream is): the next
 * entries read with getdents64, sorted by inode number, and, when the
 * request needs raw ext4 inodes, stat'ed together and read by
 * bulk_ext4.c.  Here too the decision to read a stream's inodes ahead
 * through io_uring (bulk_uring.c), from the time its plain calls take.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "bulk_dir.h"
#include "fs.h"
#include "cmtime.h"
#include "bulk_uring.h"
#include "backend_statx.h"
#include "pipeline.h"

/* The next getdents64 read into @buf; 0 at the end, else bytes or -errno. */
static long read_dents(const struct xstat_dir *d, char *buf)
{
	return XS_EINTR(xs_neg_errno(syscall(SYS_getdents64, d->fd, buf,
					     BULK_DENTS)));
}

/*
 * The directory is read into the name arena itself, one getdents64 read
 * after another, so that a window's names stay where the kernel wrote
 * them (each NUL-terminated inside its record).  The arena is a ring:
 * the next read goes where it overwrites none of the window's records
 * (from the first taken, ents[0]'s, to the end of the last read), or
 * nowhere (NULL) and the window ends there.  A window of @n == 0 keeps
 * nothing.
 */
_Static_assert(BULK_NAMES >= 2 * BULK_DENTS, "two reads fit the arena");

static char *next_read(const struct xstat_dir *d, size_t n)
{
	char *end = d->dents + d->dlen, *top = d->names + BULK_NAMES;
	const char *lo;

	if (!n)
		return d->names;
	lo = (const char *)bulk_rec(&d->ents[0]);
	if (lo < end) {		/* [lo, end) */
		if (end + BULK_DENTS <= top)
			return end;
		if (d->names + BULK_DENTS <= lo)
			return d->names;
		return NULL;
	}
	/* wrapped: [lo, top) and [names, end) */
	return end + BULK_DENTS <= lo ? end : NULL;
}

static int is_dot(const char *name)
{
	return name[0] == '.' &&
	       (!name[1] || (name[1] == '.' && !name[2]));
}

struct bulk_key {
	uint64_t	ino;
	uint32_t	idx;
};

/* Inode numbers in order; the names of one inode in the directory's. */
static int key_cmp(const void *a, const void *b)
{
	const struct bulk_key *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * A window whose inode numbers do not fit a key beside the index: sorted
 * by comparison, each key then the index alone.  No room for it (ENOMEM):
 * the directory's order, which only costs the disk more seeking.
 */
static void sort_wide(struct xstat_dir *d)
{
	size_t i;

	if (!d->wide)
		d->wide = malloc(BULK_WINDOW * sizeof(*d->wide));
	for (i = 0; i < d->n; i++)
		d->keys[i] = i;
	if (!d->wide)
		return;
	for (i = 0; i < d->n; i++) {
		d->wide[i].ino = bulk_rec(&d->ents[i])->d_ino;
		d->wide[i].idx = (uint32_t)i;
	}
	qsort(d->wide, d->n, sizeof(*d->wide), key_cmp);
	for (i = 0; i < d->n; i++)
		d->keys[i] = d->wide[i].idx;
}

/*
 * Sort the window's keys: a stable radix sort, a byte of the inode
 * numbers at a time from the lowest, of only the bytes in which they
 * differ (@vary: their bits that are not all the same; @all: the bits
 * set in every one), so that a directory's usual span of inode numbers
 * takes two passes; the indexes below them are in order already.  The
 * values of a byte lie between its constant bits alone and those with
 * all its varying bits set (@m), so that a byte of few varying bits, the
 * top of a span, sums few counters.  The first KEY_HIST_BYTES bytes are
 * counted by collect() as it makes the keys (d->hist, all zero before:
 * clear_hist() zeroes what it counted); a byte above them is counted
 * here, by its varying bits alone.
 */
/*
 * Zero again the counters of d->hist that collect() counted, for the next
 * window: each byte's values lie in [lo, lo | bits] (sort_keys()).
 */
static void clear_hist(struct xstat_dir *d, uint64_t all, uint64_t vary)
{
	unsigned byte, bits, lo;

	for (byte = 0; byte < KEY_HIST_BYTES; byte++) {
		bits = vary >> 8 * byte & 0xff;
		lo = all >> 8 * byte & 0xff & ~bits;
		memset(&d->hist[byte][lo], 0,
		       ((lo | bits) - lo + 1) * sizeof(d->hist[0][0]));
	}
}

static void sort_keys(struct xstat_dir *d, uint64_t all, uint64_t vary)
{
	uint64_t *src = d->keys, *dst = d->keys_tmp, *tmp;
	uint32_t more[256], *count, *p, *top, sum, c;
	size_t i, n = d->n;
	unsigned byte, shift, bits, m, lo;

	if (vary >> (64 - KEY_IDX_BITS)) {
		sort_wide(d);
		clear_hist(d, all, vary);
		return;
	}
	for (byte = 0; byte < 8 && vary >> 8 * byte; byte++) {
		shift = KEY_IDX_BITS + 8 * byte;
		bits = vary >> 8 * byte & 0xff;
		if (!bits)
			continue;
		if (byte < KEY_HIST_BYTES) {
			/* counted by the byte's value: [lo, lo | bits] */
			count = d->hist[byte];
			lo = all >> 8 * byte & 0xff & ~bits;
			m = 0xff;
		} else {
			/* counted by its varying bits: [0, bits] */
			count = more;
			lo = 0;
			m = bits;
			memset(count, 0, (m + 1) * sizeof(count[0]));
			for (i = 0; i < n; i++)
				count[src[i] >> shift & m]++;
		}
		top = count + (lo | bits);
		for (sum = 0, p = count + lo; p <= top; p++) {
			c = *p;
			*p = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[src[i] >> shift & m]++] = src[i];
		tmp = src;
		src = dst;
		dst = tmp;
	}
	d->keys = src;
	d->keys_tmp = dst;
	clear_hist(d, all, vary);
}

_Static_assert(KEY_HIST_BYTES == 2, "collect() counts two bytes");

/*
 * Take the next window: up to @window entries, reading the directory as
 * needed while the arena has room (next_read()), and count the values of
 * their inode numbers' two low bytes for sort_keys().  The records of one
 * read are taken in locals: the entries' stores cannot then make the
 * compiler read the stream's state again for each record.
 */
static int collect(struct xstat_dir *d, size_t window)
{
	uint64_t any = 0, all = UINT64_MAX;
	const struct bulk_dirent64 *last = NULL;
	size_t n = 0;

	d->n = 0;
	d->next = 0;
	d->filled = 0;
	while (n < window) {
		struct bulk_ent *ents = d->ents;
		uint64_t *keys = d->keys;
		uint32_t (*hist)[256] = d->hist;
		const char *dents = d->dents;
		size_t pos = d->dpos, len = d->dlen;

		if (pos >= len) {
			char *buf;
			long got;

			if (d->eof || !(buf = next_read(d, n)))
				break;
			got = read_dents(d, buf);
			if (got < 0) {
				if (n)
					break;	/* the error again next time */
				return (int)got;
			}
			d->dents = buf;
			d->dlen = (size_t)got;
			d->dpos = 0;
			if (!got)
				d->eof = 1;
			continue;
		}
		while (pos < len && n < window) {
			const struct bulk_dirent64 *de =
				(const struct bulk_dirent64 *)(dents + pos);
			uint64_t ino = de->d_ino;
			struct bulk_ent *e = &ents[n];

			pos += de->d_reclen;
			last = de;
			if (is_dot(de->d_name))
				continue;
			e->name = de->d_name;
			e->state = BULK_PENDING;
			keys[n] = ino << KEY_IDX_BITS | n;
			hist[0][ino & 0xff]++;
			hist[1][ino >> 8 & 0xff]++;
			any |= ino;
			all &= ino;
			n++;
		}
		d->dpos = pos;
		/* The read's last record says the end: no read to learn it. */
		if (pos >= len && d->fs && (d->fs->flags & XS_FS_DENTS_END) &&
		    last->d_off == XS_DENTS_END)
			d->eof = 1;
	}
	d->n = n;
	sort_keys(d, all, any & ~all);
	return 0;
}

/*
 * Would the dispatch (xstat.c, kernel_stat()) send this stream's entries
 * to statx, in this thread, now?  The test xs_statx_call() makes first:
 * statx known to work, and not refused to the entries' shape of call.
 */
static int entries_by_statx(const struct xstat_dir *d)
{
	return xs_statx_works(d->fd, AT_SYMLINK_NOFOLLOW | d->flags);
}

/* The raw fields a request needs and the kernel's answer cannot give. */
static uint64_t raw_wanted(const struct xstat_dir *d, uint64_t request)
{
	uint64_t want = request & (XSTAT_REQUEST_GEN |
				   XSTAT_REQUEST_DATA_VERSION);

	/*
	 * statx gives ext4's creation time itself, fstatat does not: alone
	 * it is worth a raw read unless statx is known to answer.  With the
	 * others it is taken from the raw inode where the answer lacks it.
	 */
	if ((request & XSTAT_REQUEST_BTIME) &&
	    (want || !entries_by_statx(d)))
		want |= XSTAT_REQUEST_BTIME;
	return want;
}
/*
 * One entry's kernel answer into e->st, as xstat.c records it (@request:
 * what the batch asks, more than its caller), and which backend gave it:
 * 1, the entry left BULK_PENDING (collect()) until its raw inode vouches
 * for it, or 0 and BULK_FAILED.
 */
static int stat_entry(struct xstat_dir *d, struct bulk_ent *e,
		      uint64_t request)
{
	int ret;

	d->entry.path = e->name;
	ret = xs_stat_record(&d->entry, request, d->request, e->st);

	if (ret < 0) {
		e->state = BULK_FAILED;
		e->err = -ret;
		return 0;
	}
	e->from_statx = (unsigned char)ret;
	return 1;
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
	/*
	 * What an entry's record must hold to be read raw: what its raw
	 * inode is checked against, and every extra result asked.  One
	 * lacking an extra (the fallback's mount ID, attributes) that the
	 * directory did not give either needs the per-call path's anchored
	 * supplements: no raw read for it.
	 */
	uint64_t need = BULK_CHECK | (d->request & XS_SUPPLEMENTABLE &
				      ~XS_CLASS3);
	/*
	 * The directory's row, resolved once, is the entries' too where
	 * their results read it, or where it brings the mount's extras.
	 */
	int give = d->mnt_facts && ((d->request & XS_DELIVER_READS_ROW) ||
				    d->mnt_extras);
	struct xs_bulk_dev dv;
	struct bulk_ent **order;
	struct xs_stat *st;
	size_t i, m = 0;
	int ret;

	if (d->refused & XS_REFUSED_DEVICE)
		return;
	ret = xs_bulk_ext4_open(d->dev_major, d->dev_minor, d->mnt_key, d->fd,
				bulk_rec(bulk_nth(d, d->next))->d_ino, &dv);
	if (ret == -EPERM || ret == -EACCES)
		d->refused |= XS_REFUSED_DEVICE;
	if (ret)
		return;
	order = d->order;
	for (i = d->next, st = d->sts; i < d->filled; i++, st++) {
		struct bulk_ent *e = bulk_nth(d, i);

		e->st = st;
		if (!stat_entry(d, e, request))
			continue;
		/*
		 * Another mount of the same filesystem (a bind mount in the
		 * directory) may map owners otherwise: per call.
		 */
		if (st->dev_major != d->dev_major ||
		    st->dev_minor != d->dev_minor ||
		    (st->mnt_id_unique && d->mnt_key &&
		     st->mnt_id != d->mnt_key))
			continue;
		/*
		 * Given where the entry's unique mount ID is the directory's
		 * (tested above: the facts come with a key).
		 */
		if (give && st->mnt_id_unique)
			bulk_fs_give(d, st);
		if (need & ~st->mask)
			continue;
		order[m++] = e;
	}
	xs_bulk_ext4_read(&dv, d->order, m, want, d->idmap_mnt, d->run,
			  d->offs);
	xs_bulk_ext4_close(&dv);
}

/*
 * Only on the statx backend: a ring's statx is not seen by a seccomp
 * filter, and the fallback backend may be there because statx is refused.
 * Never on a remote filesystem (bulk_dir_fs()).  That the backend is statx
 * says only that statx worked once in the process: each read-ahead also
 * asks this thread (statx_allowed()).
 */
static int uring_allowed(struct xstat_dir *d)
{
	bulk_dir_fs(d);
	return !d->remote && entries_by_statx(d) && bulk_uring_usable();
}

/*
 * May this thread make the ring's statx calls now?  A seccomp filter
 * belongs to a thread and may arrive at any time (filters only
 * accumulate), and no filter sees a ring's operations: so before each
 * read-ahead, one real statx of the first entry it would read, with the
 * descriptor, flags and mask the ring would use (all a filter can see).
 * Only an answer about that entry allows it: an error (a filter's faked
 * success among them, see xs_raw_statx()) means no ring for this batch.
 * A filter that arrives while the ring runs (another thread's TSYNC)
 * stops it from the next batch on.
 */
static int statx_allowed(const struct xstat_dir *d, size_t i)
{
#ifdef XS_NR_statx
	const struct bulk_ent *e = bulk_nth(d, i);
	struct xs_statx sx;

	return xs_raw_statx(d->fd, e->name, AT_SYMLINK_NOFOLLOW | d->flags,
			    xs_statx_request(d->request), &sx) == 0 &&
	       (sx.stx_mask & XS_STATX_INO) && sx.stx_ino == bulk_rec(e)->d_ino;
#else
	(void)d;
	(void)i;
	return 0;
#endif
}

/* Read ahead the inodes of the batch's entries [from, filled). */
static void read_ahead(struct xstat_dir *d, size_t from)
{
	size_t i;

	if (d->filled - from < 2 || !uring_allowed(d) ||
	    !statx_allowed(d, from))
		return;
	if (!d->ahead)
		d->ahead = malloc(BULK_BATCH * sizeof(*d->ahead));
	if (!d->ahead)
		return;
	for (i = from; i < d->filled; i++)
		d->ahead[i - from] = bulk_nth(d, i)->name;
	if (bulk_uring_prefetch(d->fd, d->ahead, d->filled - from,
				AT_SYMLINK_NOFOLLOW | d->flags,
				xs_statx_request(d->request)) < 0 &&
	    !bulk_uring_usable())
		d->uring = 0;	/* refused: plain calls from now on */
}

/*
 * Add one timed plain call; once URING_SAMPLE of this batch say cold,
 * switch to read-ahead, starting with the rest of this batch.
 */
void bulk_sample(struct xstat_dir *d, uint64_t t0)
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
 * Are this batch's entries, stat'ed one by one, to carry the directory's
 * filesystem row instead of each looking it up (bulk_entry.c)?  When the
 * request needs the row (a promise: the change token) and nothing the
 * per-call pipeline would anchor for (no generation or data version),
 * statx serves the entries, and the directory's mount and row are known:
 * an entry is then checked to be on that mount.  Not on a network or
 * FUSE filesystem, where an entry on another mount would be asked twice.
 */
static int by_name(struct xstat_dir *d)
{
	if (!(d->request & XS_PROMISE_EXTRAS) ||
	    (d->request & (XSTAT_REQUEST_GEN | XSTAT_REQUEST_DATA_VERSION)))
		return 0;
	bulk_dir_fs(d);
	/* the token asked statx for the ctime (cmtime.h) */
	d->drop_cmtime = xs_cmtime_unasked(d->request);
	d->by_name_need = d->request & XS_SUPPLEMENTABLE;
	return d->mnt_facts && d->fs && !d->remote && entries_by_statx(d);
}

/*
 * A window that reads raw inodes shares more the larger it is; one
 * stat'ed entry by entry shares nothing but the order, and a small one
 * stays in the caches.  A window is filled a batch at a time: the next
 * window is read only once this one is handed out.
 */
int bulk_fill_batch(struct xstat_dir *d)
{
	uint64_t want = raw_wanted(d, d->request);
	int ret;

	if (want) {
		bulk_dir_fs(d);
		/* Refused once, the device is for this stream's life. */
		if (!d->raw_inodes || (d->refused & XS_REFUSED_DEVICE))
			want = 0;
	}
	if (d->next >= d->n) {
		ret = collect(d, want ? BULK_WINDOW : BULK_SMALL);
		if (ret || !d->n)
			return ret;
	}
	d->filled = d->next + (d->n - d->next < BULK_BATCH ?
			       d->n - d->next : BULK_BATCH);
	d->sample_ns = 0;
	/*
	 * Entry by entry, each batch decides anew from its own first calls.
	 * A directory's order scatters a batch's inodes over the whole
	 * inode table, so the first batch of a cold scan waits for nearly
	 * every inode-table block, which the ring reads in parallel; later
	 * batches find those blocks cached and only build their inodes,
	 * work the ring adds to instead of sharing out.
	 */
	if (!want && !bulk_uring_forced())
		d->uring = 0;
	/* With the ring on there is nothing to decide: no call to time. */
	d->sampled = d->uring ? URING_SAMPLE : 0;
	d->by_name = !want && by_name(d);
	if (d->uring)
		read_ahead(d, d->next);
	if (want) {
		uint64_t t0 = d->uring ? 0 : bulk_uring_now();

		fill_raw(d, want);
		/* a raw batch stats together: its whole time is the sample */
		if (!d->uring && bulk_uring_cold(bulk_uring_now() - t0,
						 (unsigned)(d->filled -
							    d->next)) &&
		    uring_allowed(d))
			d->uring = 1;
		d->sampled = URING_SAMPLE;
	}
	return 0;
}
