// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One entry of a directory stream handed out: its result is the one
 * xstat(dirfd, name, AT_SYMLINK_NOFOLLOW | flags, params) gives, from the
 * batch's raw read where that vouched for it, else by the same pipeline
 * as that call (xs_stat_target()).
 */
#include <errno.h>
#include <string.h>
#include "bulk_dir.h"
#include "bulk_uring.h"
#include "pipeline.h"

/*
 * An entry of a batch that carries the directory's row (d->by_name): the
 * per-call pipeline's own steps for a request with a promise and nothing
 * to anchor for - statx by name, the record, the promise, the copy out -
 * with the row handed on instead of looked up per entry.  0 where the
 * answer is not one for these steps (an error, fstatat, another mount, a
 * field statx left out that the anchor would add): then the per-call
 * pipeline decides, asking again.  Inline: as a call of its own it
 * spills the record's frame into every entry's path.
 */
static inline __attribute__((always_inline)) int
by_name(struct xstat_dir *d, struct bulk_ent *e, ssize_t *len)
{
	struct xs_stat st;

	d->entry.path = e->name;
	if (xs_stat_record_by_name(&d->entry, d->request, &st) != 1 ||
	    !st.mnt_id_unique || st.mnt_id != d->mnt_key ||
	    (d->by_name_need & ~st.mask))
		return 0;
	bulk_fs_give(d, &st);
	*len = xs_deliver(NULL, d->request, 1, d->drop_cmtime, &st, &d->res.x,
			  sizeof(d->res));
	return 1;
}

/*
 * The per-call pipeline by name, xstat() itself: the result's size, or
 * -errno.  Its first calls of a batch are timed for the read-ahead
 * decision (bulk_window.c) until that is made.
 */
static inline ssize_t per_call(struct xstat_dir *d, struct bulk_ent *e)
{
	uint64_t t0 = 0;
	ssize_t len;

	if (d->sampled < URING_SAMPLE)
		t0 = bulk_uring_now();
	d->entry.path = e->name;
	len = xs_stat_target(&d->entry, d->request, &d->res.x,
			     sizeof(d->res));
	d->per_call++;
	if (t0)
		bulk_sample(d, t0);
	return len;
}

void bulk_result_of(struct xstat_dir *d, struct bulk_ent *e)
{
	ssize_t len;

	/*
	 * A raw batch's entry: class (3) is decided by the raw inode, and
	 * every extra result asked is there (bulk_window.c, fill_raw()).
	 * The rest is what xstat() adds after its supplements: the promises
	 * and the change token (the batch's statx asked for the ctime, which
	 * armed the entry's next change, and the raw data version was
	 * checked against that ctime), and the reasons for missing fields,
	 * all from the statx answer and the filesystem's facts.  Then the
	 * times the caller did not ask for, which the token needed, are
	 * dropped.
	 */
	if (e->state == BULK_READY)
		len = xs_deliver(NULL, d->request, e->from_statx,
				 d->unasked_cmtime && e->from_statx, e->st,
				 &d->res.x, sizeof(d->res));
	else if (e->state == BULK_FAILED)
		len = -e->err;
	else if (!(d->by_name && by_name(d, e, &len)))
		len = per_call(d, e);

	d->out.d_name = e->name;
	d->out.d_ino = bulk_rec(e)->d_ino;
	d->out.d_type = bulk_rec(e)->d_type;
	if (len < 0) {
		memset(&d->res, 0, sizeof(struct xstat));
		d->out.d_xstat_len = 0;
		d->out.d_error = (int)-len;
	} else {
		d->out.d_xstat_len = (size_t)len;
		d->out.d_error = 0;
	}
}
