// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The only code that knows the public layout: struct xstat and the extra
 * results after it.  Builds the whole result, then copies min(buflen, size)
 * bytes: a short buffer gets a partial result, and the return value says
 * how much room the whole needs.  This runs on every call: a buffer with
 * room for a result without extras is written directly.
 */
#include <string.h>
#include "internal.h"

/*
 * Extra results in ascending bit order, each with its payload size.  Each
 * starts on an 8-byte boundary of the buffer (struct xstat is 152 bytes,
 * itself a multiple of 8).
 */
static const struct {
	uint64_t	bit;
	size_t		size;
} extras[] = {
	{ XSTAT_REQUEST_MNT_ID,		sizeof(struct xstat_mnt_id) },
	{ XSTAT_REQUEST_ATTRIBUTES,	sizeof(struct xstat_attributes) },
	{ XSTAT_REQUEST_DIOALIGN,	sizeof(struct xstat_dioalign) },
	{ XSTAT_REQUEST_SUBVOL,		sizeof(struct xstat_subvol) },
	{ XSTAT_REQUEST_WRITE_ATOMIC,	sizeof(struct xstat_write_atomic) },
	{ XSTAT_REQUEST_DIO_READ_ALIGN,	sizeof(struct xstat_dio_read_align) },
};

#define NR_EXTRAS	(sizeof(extras) / sizeof(extras[0]))
#define ROUND8(n)	(((n) + 7) & ~(size_t)7)
/* The largest result: the struct and every extra. */
#define MAX_RESULT	(sizeof(struct xstat) + 16 + 16 + 8 + 8 + 16 + 8)

_Static_assert(XS_EXTRAS == (XSTAT_REQUEST_MNT_ID | XSTAT_REQUEST_ATTRIBUTES |
			     XSTAT_REQUEST_DIOALIGN | XSTAT_REQUEST_SUBVOL |
			     XSTAT_REQUEST_WRITE_ATOMIC |
			     XSTAT_REQUEST_DIO_READ_ALIGN),
	       "every extra result has a size in the table");

static void put_time(struct xstat_time *out, const struct xs_time *in)
{
	out->tv_sec = in->sec;
	out->tv_nsec = in->nsec;
}

/* Every byte of struct xstat is written below: it must have no padding. */
_Static_assert(sizeof(struct xstat) == 4 * 4 + 2 * 8 + 4 * 16 + 7 * 8,
	       "struct xstat has no holes");

/* Write all of *x; fields not obtained are zero. */
XS_HOT
static void put_fixed(struct xstat *x, const struct xs_stat *st)
{
	static const struct xs_time zero_time;
	uint64_t mask = st->mask;
	int rdev = !!(mask & XSTAT_REQUEST_RDEV);

	x->st_mode = st->mode;
	x->st_nlink = st->nlink;
	x->st_uid = st->uid;
	x->st_gid = st->gid;
	x->st_rdev.major = rdev ? st->rdev_major : 0;
	x->st_rdev.minor = rdev ? st->rdev_minor : 0;
	x->st_dev.major = st->dev_major;
	x->st_dev.minor = st->dev_minor;
	put_time(&x->st_atim, &st->atime);
	put_time(&x->st_mtim, &st->mtime);
	put_time(&x->st_ctim, &st->ctime);
	put_time(&x->st_btim, (mask & XSTAT_REQUEST_BTIME) ? &st->btime
							    : &zero_time);
	x->st_ino = st->ino;
	x->st_size = st->size;
	x->st_blksize = st->blksize;
	x->st_blocks = st->blocks;
	x->st_gen = (mask & XSTAT_REQUEST_GEN) ? st->gen : 0;
	x->st_data_version = (mask & XSTAT_REQUEST_DATA_VERSION) ?
			     st->data_version : 0;
	x->st_result_mask = mask;
}

/* Write the payload of extra result @bit at @p (zeroed, large enough). */
static void put_extra(unsigned char *p, uint64_t bit, const struct xs_stat *st)
{
	switch (bit) {
	case XSTAT_REQUEST_MNT_ID: {
		struct xstat_mnt_id v = { st->mnt_id, st->mnt_id_unique, 0 };

		memcpy(p, &v, sizeof(v));
		break;
	}
	case XSTAT_REQUEST_ATTRIBUTES: {
		struct xstat_attributes v = { st->attributes,
					      st->attributes_mask };

		memcpy(p, &v, sizeof(v));
		break;
	}
	case XSTAT_REQUEST_DIOALIGN: {
		struct xstat_dioalign v = { st->dio_mem_align,
					    st->dio_offset_align };

		memcpy(p, &v, sizeof(v));
		break;
	}
	case XSTAT_REQUEST_SUBVOL: {
		struct xstat_subvol v = { st->subvol };

		memcpy(p, &v, sizeof(v));
		break;
	}
	case XSTAT_REQUEST_WRITE_ATOMIC: {
		struct xstat_write_atomic v = { st->awu_min, st->awu_max,
						st->aw_segments_max,
						st->awu_max_opt };

		memcpy(p, &v, sizeof(v));
		break;
	}
	case XSTAT_REQUEST_DIO_READ_ALIGN: {
		struct xstat_dio_read_align v = { st->dio_read_offset_align,
						  0 };

		memcpy(p, &v, sizeof(v));
		break;
	}
	}
}

/* Build the whole result in a staging buffer and copy what fits. */
static __attribute__((noinline))
ssize_t copyout_staged(const struct xs_stat *st, struct xstat *buffer,
		       size_t buflen)
{
	union {
		struct xstat	x;
		unsigned char	bytes[MAX_RESULT];
	} out;
	size_t size = sizeof(struct xstat), i;

	put_fixed(&out.x, st);
	if (st->mask & XS_EXTRAS) {
		for (i = 0; i < NR_EXTRAS; i++) {
			if (!(st->mask & extras[i].bit))
				continue;
			memset(out.bytes + size, 0, ROUND8(extras[i].size));
			put_extra(out.bytes + size, extras[i].bit, st);
			size += ROUND8(extras[i].size);
		}
	}

	if (buflen)
		memcpy(buffer, out.bytes, buflen < size ? buflen : size);
	return (ssize_t)size;
}

XS_HOT
ssize_t xs_copyout(const struct xs_stat *st, uint64_t request,
		   struct xstat *buffer, size_t buflen)
{
	(void)request;	/* st->mask already holds only requested extras */
	/*
	 * The usual case, no extra results and room for the whole: write
	 * the caller's buffer directly, with no staging copy (and none of
	 * the staging path's stack frame).
	 */
	if (!(st->mask & XS_EXTRAS) && buflen >= sizeof(struct xstat)) {
		put_fixed(buffer, st);
		return (ssize_t)sizeof(struct xstat);
	}
	return copyout_staged(st, buffer, buflen);
}

XS_EXPORT const void *xstat_extra(const struct xstat *buffer, size_t buflen,
				  unsigned long long bit)
{
	size_t off = sizeof(struct xstat), i;
	uint64_t rm;

	if (!buffer || buflen < sizeof(struct xstat) ||
	    !(bit & XS_EXTRAS) || (bit & (bit - 1)))
		return NULL;
	rm = buffer->st_result_mask;
	if (!(rm & bit))
		return NULL;
	for (i = 0; i < NR_EXTRAS; i++) {
		if (!(rm & extras[i].bit))
			continue;
		if (extras[i].bit == bit)
			return off + extras[i].size <= buflen ?
			       (const unsigned char *)buffer + off : NULL;
		off += ROUND8(extras[i].size);
	}
	return NULL;
}
