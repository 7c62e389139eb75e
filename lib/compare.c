// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xstat_compare(): what changed between two results for one name, as one
 * verdict and the fields behind it (xstat_compare(3)).  A pure function
 * of its arguments: no system call, no state, so the tool, the Python
 * binding and any program get the same answer from the same results.
 *
 * The order of the questions is the order of what a caller must do:
 * another file (identity) before data before metadata before "unchanged",
 * and "unchanged" is proven only by change tokens whose promise covers
 * every change and survives a remount, read outside the window in which
 * a write could still have been copying data (its timestamps are set
 * before the copy: file_modified() comes first in the kernel's write
 * paths, so a result taken mid-write shows the write's ctime and not its
 * data, and no later token moves for it).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "internal.h"
#include "ret.h"

#define VERDICT_BITS	(XSTAT_REQUEST_INO | XSTAT_REQUEST_MODE)
/* Fields whose absence from one result leaves the verdict unproven. */
#define COMPARED	(XSTAT_REQUEST_SIZE | XSTAT_REQUEST_MTIME | \
			 XSTAT_REQUEST_CTIME | XSTAT_REQUEST_NLINK | \
			 XSTAT_REQUEST_UID | XSTAT_REQUEST_GID)
/* A write whose timestamps are this close to the first call may be
   copying data still. */
#define RACY_NS		1000000000LL

#define DIFF_IDENTITY	(XSTAT_DIFF_FS | XSTAT_DIFF_INO | XSTAT_DIFF_TYPE | \
			 XSTAT_DIFF_GEN | XSTAT_DIFF_BTIME)
#define DIFF_DATA	(XSTAT_DIFF_SIZE | XSTAT_DIFF_MTIME | \
			 XSTAT_DIFF_DATA_VERSION)
#define DIFF_METADATA	(XSTAT_DIFF_CTIME | XSTAT_DIFF_MODE | \
			 XSTAT_DIFF_OWNER | XSTAT_DIFF_NLINK | \
			 XSTAT_DIFF_META_VERSION)
#define DIFF_UNPROVEN	(XSTAT_DIFF_NO_TOKEN | XSTAT_DIFF_WEAK | \
			 XSTAT_DIFF_RACY | XSTAT_DIFF_MISSING)

/* The promise that proves "unchanged" (xstat_compare(3)). */
#define PROVES		(XSTAT_PROMISE_EVERY_CHANGE | XSTAT_PROMISE_PERSISTENT)

static int time_ne(const struct xstat_time *a, const struct xstat_time *b)
{
	return a->tv_sec != b->tv_sec || a->tv_nsec != b->tv_nsec;
}

/* Bits set in both results' masks. */
static uint64_t both(const struct xstat *a, const struct xstat *b,
		     uint64_t bits)
{
	return a->st_result_mask & b->st_result_mask & bits;
}

static uint64_t identity(const struct xstat *b, size_t blen,
			 const struct xstat *a, size_t alen)
{
	const struct xstat_fs_id *fb = xstat_extra_fs_id(b, blen);
	const struct xstat_fs_id *fa = xstat_extra_fs_id(a, alen);
	uint64_t why = 0;

	if (fb && fa && fb->source == fa->source) {
		if (memcmp(fb->id, fa->id, sizeof(fb->id)))
			why |= XSTAT_DIFF_FS;
	} else if (b->st_dev.major != a->st_dev.major ||
		   b->st_dev.minor != a->st_dev.minor) {
		why |= XSTAT_DIFF_FS;
	}
	if (b->st_ino != a->st_ino)
		why |= XSTAT_DIFF_INO;
	if ((b->st_mode & S_IFMT) != (a->st_mode & S_IFMT))
		why |= XSTAT_DIFF_TYPE;
	if (both(b, a, XSTAT_REQUEST_GEN) && b->st_gen != a->st_gen)
		why |= XSTAT_DIFF_GEN;
	if (both(b, a, XSTAT_REQUEST_BTIME) && time_ne(&b->st_btim, &a->st_btim))
		why |= XSTAT_DIFF_BTIME;
	return why;
}

/* Does the data version count metadata changes too (or say nothing)? */
static int dv_counts_metadata(const struct xstat *x, size_t len)
{
	const struct xstat_dv_promise *p = xstat_extra_dv_promise(x, len);

	return !p || (p->promise & XSTAT_PROMISE_METADATA);
}

static uint64_t fields(const struct xstat *b, size_t blen,
		       const struct xstat *a, size_t alen)
{
	uint64_t why = 0;

	if (both(b, a, XSTAT_REQUEST_SIZE) && b->st_size != a->st_size)
		why |= XSTAT_DIFF_SIZE;
	if (both(b, a, XSTAT_REQUEST_MTIME) && time_ne(&b->st_mtim, &a->st_mtim))
		why |= XSTAT_DIFF_MTIME;
	if (both(b, a, XSTAT_REQUEST_DATA_VERSION) &&
	    b->st_data_version != a->st_data_version)
		why |= dv_counts_metadata(b, blen) || dv_counts_metadata(a, alen) ?
		       XSTAT_DIFF_META_VERSION : XSTAT_DIFF_DATA_VERSION;
	if (both(b, a, XSTAT_REQUEST_CTIME) && time_ne(&b->st_ctim, &a->st_ctim))
		why |= XSTAT_DIFF_CTIME;
	if ((b->st_mode & ~(unsigned)S_IFMT) != (a->st_mode & ~(unsigned)S_IFMT))
		why |= XSTAT_DIFF_MODE;
	if ((both(b, a, XSTAT_REQUEST_UID) && b->st_uid != a->st_uid) ||
	    (both(b, a, XSTAT_REQUEST_GID) && b->st_gid != a->st_gid))
		why |= XSTAT_DIFF_OWNER;
	if (both(b, a, XSTAT_REQUEST_NLINK) && b->st_nlink != a->st_nlink)
		why |= XSTAT_DIFF_NLINK;
	if ((b->st_result_mask ^ a->st_result_mask) & COMPARED)
		why |= XSTAT_DIFF_MISSING;
	return why;
}

/*
 * Was @x's last change within RACY_NS of @taken (the time read before
 * the call that gave @x), or after it?  Unknown counts as yes.
 */
static int racy(const struct xstat *x, const struct xstat_time *taken)
{
	const struct xstat_time *t;
	long long sec;

	if (!taken)
		return 1;
	if (x->st_result_mask & XSTAT_REQUEST_CTIME)
		t = &x->st_ctim;	/* every write moves it too */
	else if (x->st_result_mask & XSTAT_REQUEST_MTIME)
		t = &x->st_mtim;
	else
		return 1;
	sec = taken->tv_sec - RACY_NS / 1000000000LL;
	return t->tv_sec > sec ||
	       (t->tv_sec == sec && t->tv_nsec >= taken->tv_nsec);
}

static uint64_t tokens(const struct xstat *b, size_t blen,
		       const struct xstat *a, size_t alen)
{
	const struct xstat_change_token *tb = xstat_extra_change_token(b, blen);
	const struct xstat_change_token *ta = xstat_extra_change_token(a, alen);
	uint64_t why = 0;

	/* Tokens made from different sources are not comparable. */
	if (!tb || !ta || tb->source != ta->source)
		return XSTAT_DIFF_NO_TOKEN;
	if (tb->token != ta->token)
		why |= XSTAT_DIFF_TOKEN;
	if ((tb->promise & PROVES) != PROVES ||
	    (ta->promise & PROVES) != PROVES ||
	    ((tb->promise | ta->promise) & XSTAT_PROMISE_TICK))
		why |= XSTAT_DIFF_WEAK;
	return why;
}

static int verdict(uint64_t why)
{
	if (why & DIFF_IDENTITY)
		return XSTAT_OTHER_FILE;
	if (why & DIFF_DATA)
		return XSTAT_CHANGED_DATA;
	if (why & DIFF_METADATA & ~XSTAT_DIFF_META_VERSION)
		return XSTAT_CHANGED_METADATA;
	/*
	 * A token or a data version moved with no field to show what: the
	 * data, as far as anyone can tell.
	 */
	if (why & (XSTAT_DIFF_TOKEN | XSTAT_DIFF_META_VERSION))
		return XSTAT_CHANGED_DATA;
	if (why & DIFF_UNPROVEN)
		return XSTAT_SAME_UNPROVEN;
	return XSTAT_SAME;
}

/* 0, or the errno for a result that cannot be compared. */
static int check(const struct xstat *x, size_t len)
{
	if (!x)
		return EFAULT;
	if (len < sizeof(struct xstat) ||
	    (x->st_result_mask & VERDICT_BITS) != VERDICT_BITS)
		return EINVAL;
	return 0;
}

XS_EXPORT int xstat_compare(const struct xstat *before, size_t before_len,
			    const struct xstat *after, size_t after_len,
			    const struct xstat_time *before_taken,
			    unsigned long long *why)
{
	uint64_t w;
	int err = check(before, before_len);

	if (!err)
		err = check(after, after_len);
	if (err)
		return (int)xs_ret(-err, errno);
	w = identity(before, before_len, after, after_len);
	if (!(w & DIFF_IDENTITY)) {
		w |= fields(before, before_len, after, after_len);
		w |= tokens(before, before_len, after, after_len);
		if (racy(before, before_taken))
			w |= XSTAT_DIFF_RACY;
	}
	if (why)
		*why = w;
	return verdict(w);
}
