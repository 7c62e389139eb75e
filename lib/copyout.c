// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The only code that knows the public layout: struct xstat and the extra
 * results after it.  Builds the whole result, then copies min(buflen, size)
 * bytes: a short buffer gets a partial result, and the return value says
 * how much room the whole needs.
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

static void put_fixed(struct xstat *x, const struct xs_stat *st)
{
	x->st_mode = st->mode;
	x->st_nlink = st->nlink;
	x->st_uid = st->uid;
	x->st_gid = st->gid;
	if (st->mask & XSTAT_REQUEST_RDEV) {
		x->st_rdev.major = st->rdev_major;
		x->st_rdev.minor = st->rdev_minor;
	}
	x->st_dev.major = st->dev_major;
	x->st_dev.minor = st->dev_minor;
	put_time(&x->st_atim, &st->atime);
	put_time(&x->st_mtim, &st->mtime);
	put_time(&x->st_ctim, &st->ctime);
	if (st->mask & XSTAT_REQUEST_BTIME)
		put_time(&x->st_btim, &st->btime);
	x->st_ino = st->ino;
	x->st_size = st->size;
	x->st_blksize = st->blksize;
	x->st_blocks = st->blocks;
	if (st->mask & XSTAT_REQUEST_GEN)
		x->st_gen = st->gen;
	if (st->mask & XSTAT_REQUEST_DATA_VERSION)
		x->st_data_version = st->data_version;
	x->st_result_mask = st->mask;
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

ssize_t xs_copyout(const struct xs_stat *st, uint64_t request,
		   struct xstat *buffer, size_t buflen)
{
	union {
		struct xstat	x;
		unsigned char	bytes[MAX_RESULT];
	} out;
	size_t size = sizeof(struct xstat), i;

	(void)request;	/* st->mask already holds only requested extras */
	memset(&out.x, 0, sizeof(out.x));
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
