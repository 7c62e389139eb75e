// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The only code that knows the public layout: struct xstat and the extra
 * results after it.  Writes the result piece by piece, each piece as far
 * as buflen reaches: a short buffer gets a partial result, and the return
 * value says how much room the whole needs.  The one writer of every
 * result: the caller's buffer is written with memcpy only, so it needs no
 * alignment.
 */
#include <stddef.h>
#include <string.h>
#include "internal.h"
#include "fields.h"
#include "result.h"

/*
 * Extra results in ascending bit order, each with its payload size: the
 * map xstat_extra() reads, and the order put_extras() writes (both made
 * from fields.h).  Each payload is a multiple of 8 bytes, so each starts
 * on an 8-byte boundary of the buffer (struct xstat is 152 bytes, itself
 * a multiple of 8).
 */
static const struct {
	uint64_t	bit;
	size_t		size;
} extras[] = {
#define XS_EXTRA_ROW(NAME, name, bit, size, ...)	{ bit, size },
	XS_EXTRA_RESULTS(XS_EXTRA_ROW)
#undef XS_EXTRA_ROW
};

#define NR_EXTRAS	(sizeof(extras) / sizeof(extras[0]))

/*
 * The public header is written by hand (one self-contained installed
 * file); here it is held to the table: every bit, every size, the sums.
 */
#define XS_EXTRA_CHECK(NAME, name, bit, size, ...)			\
	_Static_assert(XSTAT_REQUEST_##NAME == (bit), #NAME "'s bit");	\
	_Static_assert(((bit) & ((bit) - 1)) == 0, #NAME ": one bit");	\
	_Static_assert(sizeof(struct xstat_##name) == (size),		\
		       #NAME "'s payload size");				\
	_Static_assert((size) % 8 == 0,					\
		       #NAME ": the next payload stays 8-byte aligned");
XS_EXTRA_RESULTS(XS_EXTRA_CHECK)
#undef XS_EXTRA_CHECK
/* Ascending bits: 0 < first < second < ... < last < ~0. */
#define XS_EXTRA_ASCENDING(NAME, name, bit, ...)	< (bit) && (bit)
_Static_assert(0ULL XS_EXTRA_RESULTS(XS_EXTRA_ASCENDING) < ~0ULL,
	       "the rows of fields.h in ascending bit order");
#undef XS_EXTRA_ASCENDING
_Static_assert(XSTAT_REQUEST__EXTRA_RESULTS == XS_EXTRA_BITS,
	       "XSTAT_REQUEST__EXTRA_RESULTS: the table's bits");
_Static_assert(XSTAT_REQUEST__ALL_STATS ==
	       (XSTAT_REQUEST__EXTENDED_STATS | XS_EXTRA_BITS),
	       "XSTAT_REQUEST__ALL_STATS: struct xstat's and the table's");
_Static_assert((XSTAT_REQUEST__EXTENDED_STATS & XS_EXTRA_BITS) == 0,
	       "no extra result in struct xstat's bits");
_Static_assert(XSTAT_RESULT_MAX == sizeof(struct xstat) + XS_EXTRA_BYTES,
	       "XSTAT_RESULT_MAX: struct xstat and every payload");
_Static_assert(sizeof(struct xstat) % 8 == 0,
	       "the first payload starts 8-byte aligned");

static void put_time(struct xstat_time *out, const struct xs_time *in)
{
	out->tv_sec = in->sec;
	out->tv_nsec = in->nsec;
}

/* Every byte of struct xstat is written below: it must have no padding. */
_Static_assert(sizeof(struct xstat) == 4 * 4 + 2 * 8 + 4 * 16 + 7 * 8,
	       "struct xstat has no holes");

/* Write all of *x; fields not obtained are zero.  @mask: the result's. */
static void put_fixed(struct xstat *x, const struct xs_stat *st,
		      uint64_t mask)
{
	static const struct xs_time zero_time;
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

/*
 * Why a class (3) field is missing: what the result itself says, else
 * what why.c recorded (@known, 0 if nothing), else XSTAT_WHY_UNKNOWN.
 */
static unsigned char why(const struct xs_stat *st, uint64_t request,
			 uint64_t bit, uint8_t known)
{
	if (st->mask & bit)
		return XSTAT_WHY_PRESENT;
	if (!(request & bit))
		return XSTAT_WHY_NOT_REQUESTED;
	return known ? known : XSTAT_WHY_UNKNOWN;
}

/* XSTAT_REQUEST_FS_ID's payload: an array, which no initializer copies. */
static inline struct xstat_fs_id fs_id_payload(const struct xs_stat *st)
{
	struct xstat_fs_id v;

	memcpy(v.id, st->fs_id, sizeof(v.id));
	v.source = st->fs_id_source;
	v.reserved = 0;
	return v;
}

/*
 * Copy the @len bytes at @piece to offset @off of the result: all of them
 * when they fit in @buflen, else what does.  @len is a constant at every
 * call, so the whole copy is a few moves.  Returns the offset after it.
 */
static inline size_t put(struct xstat *buffer, size_t buflen, size_t off,
			 const void *piece, size_t len)
{
	if (off + len <= buflen)
		memcpy((unsigned char *)buffer + off, piece, len);
	else if (off < buflen)
		memcpy((unsigned char *)buffer + off, piece, buflen - off);
	return off + len;
}

#define PUT(v)	(off = put(buffer, buflen, off, &(v), sizeof(v)))

/*
 * The extra results in @present, in the order of extras[] (ascending
 * bits), after the struct at @off.  Returns the size of the result.
 */
static size_t put_extras(struct xstat *buffer, size_t buflen, size_t off,
			 const struct xs_stat *st, uint64_t request,
			 uint64_t present)
{
#define XS_EXTRA_PUT(NAME, name, bit, size, stx, json, layout, ...)	\
	if (present & (bit)) {						\
		struct xstat_##name v = __VA_ARGS__;			\
									\
		PUT(v);							\
	}
	XS_EXTRA_RESULTS(XS_EXTRA_PUT)
#undef XS_EXTRA_PUT
	(void)request;
	return off;
}

/*
 * Write the result, piece by piece, as far as @buflen allows: the size
 * rule.  st->mask holds only requested extras; the reasons are the one
 * extra result every request that asks for it gets.  The only write to
 * the caller's buffer, made after every read of the caller's name (which
 * may lie in the buffer: xstat()).
 */
ssize_t xs_copyout(const struct xs_stat *st, uint64_t request,
		   struct xstat *buffer, size_t buflen)
{
	uint64_t present = st->mask;
	struct xstat x;
	size_t off = 0;

	if (request & XSTAT_REQUEST_WHY_MISSING)
		present |= XSTAT_REQUEST_WHY_MISSING;
	put_fixed(&x, st, present);
	PUT(x);
	if (present & XS_EXTRAS)
		off = put_extras(buffer, buflen, off, st, request, present);
	return (ssize_t)off;
}

XS_EXPORT const void *xstat_extra(const struct xstat *buffer, size_t buflen,
				  unsigned long long bit)
{
	size_t off = sizeof(struct xstat), i;
	uint64_t rm;

	if (!buffer || buflen < sizeof(struct xstat) ||
	    !(bit & XS_EXTRAS) || (bit & (bit - 1)))
		return NULL;
	/* The buffer need not be aligned (xstat_extra(3)). */
	memcpy(&rm, (const unsigned char *)buffer +
	       offsetof(struct xstat, st_result_mask), sizeof(rm));
	if (!(rm & bit))
		return NULL;
	for (i = 0; i < NR_EXTRAS; i++) {
		if (!(rm & extras[i].bit))
			continue;
		if (extras[i].bit == bit)
			return off + extras[i].size <= buflen ?
			       (const unsigned char *)buffer + off : NULL;
		off += extras[i].size;
	}
	return NULL;
}
