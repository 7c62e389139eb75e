// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One entry of a directory stream handed out: its result is the one
 * xstat(dirfd, name, AT_SYMLINK_NOFOLLOW | flags, params) gives, from the
 * batch's raw read where that vouched for it, else by that call itself
 * (or, for a request with nothing to supplement, its one statx).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "bulk_dir.h"
#include "bulk_uring.h"
#include "backend_fstatat.h"
#include "backend_statx.h"
#include "pipeline.h"

int bulk_stat_name(const struct xstat_dir *d, const char *name,
		   uint64_t request, struct xs_stat *st)
{
	struct xs_target t = { .dfd = d->fd, .path = name,
			       .flags = AT_SYMLINK_NOFOLLOW | d->flags };
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

/*
 * A request with no class (3) field and no extra result: one statx, as
 * xstat() would make it, without the entry point's checks, which
 * xstat_opendir() made once.
 */
static ssize_t stat_basic(struct xstat_dir *d, struct bulk_ent *e)
{
	struct xs_stat st;
	int ret = bulk_stat_name(d, e->name, d->request, &st);

	if (ret) {
		e->err = -ret;
		e->state = BULK_FAILED;
		return 0;
	}
	return xs_deliver(NULL, d->request, 1, 0, &st, &d->res.x,
			  sizeof(d->res));
}

void bulk_result_of(struct xstat_dir *d, struct bulk_ent *e)
{
	ssize_t len;

	switch (e->state) {
	case BULK_FAILED:
		len = 0;
		break;
	case BULK_READY:
		/*
		 * Class (3) is decided by the raw inode.  An extra result the
		 * backend did not give (the fallback's mount ID, attributes)
		 * needs the per-call path's anchored supplements.  The rest
		 * is what xstat() adds after its supplements: the promises
		 * and the change token (the batch's statx asked for the
		 * ctime, which armed the entry's next change, and the raw
		 * data version was checked against that ctime), and the
		 * reasons for missing fields, all from the statx answer and
		 * the filesystem's facts.  Then the times the caller did not
		 * ask for, which the token needed, are dropped.
		 */
		if (d->request & XSTAT_REQUEST_FS_ID)
			xs_fs_id_cached(e->st);
		if (!(d->request & XS_SUPPLEMENTABLE & ~XS_CLASS3 &
		      ~e->st->mask)) {
			len = xs_deliver(NULL, d->request, 1,
					 d->unasked_cmtime, e->st, &d->res.x,
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
			struct xs_target t = {
				.dfd = d->fd, .path = e->name,
				.flags = AT_SYMLINK_NOFOLLOW | d->flags,
				.refused = &d->refused };

			len = xs_stat_target(&t, &d->params, &d->res.x,
					     sizeof(d->res));
			if (len < 0) {
				e->err = (int)-len;
				e->state = BULK_FAILED;
			}
		}
		if (t0)
			bulk_sample(d, t0);
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
