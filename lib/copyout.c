// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The only code that knows the public layout: struct xstat and the extra
 * results after it.  Writes the result piece by piece, each piece as far
 * as buflen reaches (a buffer shorter than struct xstat: the whole made
 * aside and cut): a short buffer gets a partial result, and the return
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

/* Every byte of struct xstat is written below: it must have no padding. */
_Static_assert(sizeof(struct xstat) == 4 * 4 + 2 * 8 + 4 * 16 + 7 * 8,
	       "struct xstat has no holes");

/*
 * Member @m of the struct xstat at @out, which need not be aligned:
 * a memcpy of a constant size, which the compiler makes one store.
 */
#define PUT_MEMBER(out, m, v) do {					\
	__typeof__(((struct xstat *)0)->m) v_ = (v);			\
									\
	memcpy((unsigned char *)(out) + offsetof(struct xstat, m), &v_,	\
	       sizeof(v_));						\
} while (0)

/*
 * The record keeps three runs of members in struct xstat's order and
 * widths (internal.h): each is copied as one block, a few wide moves.
 * RUN(x, s): member x of struct xstat is where member s of the record
 * is, counted from the first of their run (@x0, @s0), and as wide.
 */
#define RUN(x0, s0, x, s)						\
	_Static_assert(offsetof(struct xstat, x) -			\
		       offsetof(struct xstat, x0) ==			\
		       offsetof(struct xs_stat, s) -			\
		       offsetof(struct xs_stat, s0) &&			\
		       sizeof(((struct xstat *)0)->x) ==			\
		       sizeof(((struct xs_stat *)0)->s), #x " and " #s)
RUN(st_mode, mode, st_nlink, nlink);
RUN(st_mode, mode, st_uid, uid);
RUN(st_mode, mode, st_gid, gid);
RUN(st_rdev.major, rdev_major, st_rdev.minor, rdev_minor);
RUN(st_dev.major, dev_major, st_dev.minor, dev_minor);
RUN(st_btim, btime, st_btim.tv_sec, btime.sec);
RUN(st_btim, btime, st_btim.tv_nsec, btime.nsec);
RUN(st_atim, atime, st_atim.tv_sec, atime.sec);
RUN(st_atim, atime, st_atim.tv_nsec, atime.nsec);
RUN(st_atim, atime, st_mtim, mtime);
RUN(st_atim, atime, st_ctim, ctime);
RUN(st_ino, ino, st_size, size);
RUN(st_ino, ino, st_blksize, blksize);
RUN(st_ino, ino, st_blocks, blocks);
#undef RUN

/* Members @x0 to @x1 of struct xstat from the record's run at @s0. */
#define PUT_RUN(out, x0, x1, s0)					\
	memcpy((unsigned char *)(out) + offsetof(struct xstat, x0), &(s0), \
	       offsetof(struct xstat, x1) - offsetof(struct xstat, x0) +	\
	       sizeof(((struct xstat *)0)->x1))

/*
 * Member @m of struct xstat from the record's run at @s0 where @mask has
 * @bit, else zero: one block either way.
 */
#define PUT_IF(out, m, s0, mask, bit) do {				\
	__typeof__(((struct xstat *)0)->m) w_ = { 0 };			\
									\
	if ((mask) & (bit))						\
		memcpy(&w_, &(s0), sizeof(w_));				\
	PUT_MEMBER(out, m, w_);						\
} while (0)

/*
 * Write all of the struct xstat at @out; fields not obtained are zero
 * (those behind a result bit are read only where it is set: internal.h).
 * @mask: the result's.
 */
static inline void put_fixed(void *out, const struct xs_stat *st,
			     uint64_t mask)
{
	PUT_RUN(out, st_mode, st_gid, st->mode);
	PUT_IF(out, st_rdev, st->rdev_major, mask, XSTAT_REQUEST_RDEV);
	PUT_RUN(out, st_dev.major, st_dev.minor, st->dev_major);
	PUT_RUN(out, st_atim, st_ctim, st->atime);
	PUT_IF(out, st_btim, st->btime, mask, XSTAT_REQUEST_BTIME);
	PUT_RUN(out, st_ino, st_blocks, st->ino);
	PUT_IF(out, st_gen, st->gen, mask, XSTAT_REQUEST_GEN);
	PUT_IF(out, st_data_version, st->data_version, mask,
	       XSTAT_REQUEST_DATA_VERSION);
	PUT_MEMBER(out, st_result_mask, mask);
}

/*
 * Why a class (3) field is missing: what the result itself says, else
 * what why.c recorded (@known, 0 if nothing), else XSTAT_WHY_UNKNOWN.
 */
static unsigned char why(const struct xs_stat *st, uint64_t request,
			 uint64_t bit, uint8_t known)
{
	if (!(st->mask & bit))
		return !(request & bit) ? XSTAT_WHY_NOT_REQUESTED :
		       known ? known : XSTAT_WHY_UNKNOWN;
	return XSTAT_WHY_PRESENT;
}

/*
 * XSTAT_REQUEST_CHANGE_TOKEN's payload: the record keeps its members in
 * its order and widths, the reserved word zero (xs_stat_clear_rest()),
 * so it is copied as one block, not built member by member.
 */
#define TOKEN_AT(x, s)							\
	_Static_assert(offsetof(struct xstat_change_token, x) ==	\
		       offsetof(struct xs_stat, s) -			\
		       offsetof(struct xs_stat, token) &&		\
		       sizeof(((struct xstat_change_token *)0)->x) ==	\
		       sizeof(((struct xs_stat *)0)->s), #x " and " #s)
TOKEN_AT(token, token);
TOKEN_AT(promise, token_promise);
TOKEN_AT(source, token_source);
TOKEN_AT(reserved, token_reserved);
#undef TOKEN_AT

static inline struct xstat_change_token token_payload(const struct xs_stat *st)
{
	struct xstat_change_token v;

	memcpy(&v, &st->token, sizeof(v));
	return v;
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
 * bits), after the struct at @off: each row's payload where its bit is
 * set.  Returns the size of the result.  statx's rows (bits below 32)
 * are passed over together when none of them is present: most requests
 * with extra results ask only for libxstat's own (a change token, the
 * reasons).
 */
#define XS_EXTRAS_STATX	(XS_EXTRAS & 0xffffffffULL)
#define XS_EXTRAS_OWN	(XS_EXTRAS & ~0xffffffffULL)

static inline __attribute__((always_inline)) size_t
put_extras(struct xstat *buffer, size_t buflen, size_t off,
	   const struct xs_stat *st, uint64_t request, uint64_t present)
{
#define XS_EXTRA_PUT(NAME, name, bit, size, stx, json, layout, ...)	\
	if (((bit) & rows) && (present & (bit))) {			\
		struct xstat_##name v = __VA_ARGS__;			\
									\
		PUT(v);							\
	}
	if (present & XS_EXTRAS_STATX) {
		const uint64_t rows = XS_EXTRAS_STATX;

		XS_EXTRA_RESULTS(XS_EXTRA_PUT)
	}
	{
		const uint64_t rows = XS_EXTRAS_OWN;

		XS_EXTRA_RESULTS(XS_EXTRA_PUT)
	}
#undef XS_EXTRA_PUT
	(void)request;
	return off;
}

static ssize_t copyout(const struct xs_stat *st, uint64_t request,
		       struct xstat *buffer, size_t buflen);

/*
 * A buffer shorter than struct xstat: the whole result made in one that
 * holds it, and as much of it as fits copied.  Rare.
 */
static __attribute__((noinline, cold)) ssize_t
copyout_short(const struct xs_stat *st, uint64_t request,
	      struct xstat *buffer, size_t buflen)
{
	union {
		struct xstat	x;
		unsigned char	bytes[XSTAT_RESULT_MAX];
	} whole;
	ssize_t len = copyout(st, request, &whole.x, sizeof(whole));

	if (buflen)
		memcpy(buffer, whole.bytes, buflen);
	return len;
}

/*
 * Write the result into a buffer that holds struct xstat, each extra
 * result as far as @buflen allows: the size rule.  st->mask holds only
 * requested extras; the reasons are the one extra result every request
 * that asks for it gets.  The only write to the caller's buffer, made
 * after every read of the caller's name (which may lie in the buffer:
 * xstat()).  No test for a result without extras: put_extras()' own
 * tests pass over them, and xs_copyout() sends most such results to
 * xs_copyout_plain().
 */
static inline __attribute__((always_inline)) ssize_t
copyout(const struct xs_stat *st, uint64_t request, struct xstat *buffer,
	size_t buflen)
{
	uint64_t present = st->mask | (request & XSTAT_REQUEST_WHY_MISSING);
	size_t off = sizeof(struct xstat);

	put_fixed(buffer, st, present);
	return (ssize_t)put_extras(buffer, buflen, off, st, request, present);
}

/* A result with extra results in a buffer that cuts some: rare. */
static __attribute__((noinline)) ssize_t
copyout_cut(const struct xs_stat *st, uint64_t request, struct xstat *buffer,
	    size_t buflen)
{
	if (buflen < sizeof(struct xstat))
		return copyout_short(st, request, buffer, buflen);
	return copyout(st, request, buffer, buflen);
}

/*
 * A result with extra results (result.h's xs_copyout() chooses): the
 * struct and the extras in one function, whose registers a result
 * without any does not pay for.  In a buffer with room for every extra
 * result (XSTAT_RESULT_MAX, the usual one) no piece is cut, and with
 * that size known the compiler drops every piece's test.
 */
ssize_t xs_copyout_extras(const struct xs_stat *st, uint64_t request,
			  struct xstat *buffer, size_t buflen)
{
	if (__builtin_expect(buflen < XSTAT_RESULT_MAX, 0))
		return copyout_cut(st, request, buffer, buflen);
	return copyout(st, request, buffer, XSTAT_RESULT_MAX);
}

/* A result of struct xstat alone. */
ssize_t xs_copyout_plain(const struct xs_stat *st, uint64_t request,
			 struct xstat *buffer, size_t buflen)
{
	if (__builtin_expect(buflen < sizeof(struct xstat), 0))
		return copyout_short(st, request, buffer, buflen);
	put_fixed(buffer, st, st->mask);
	return sizeof(struct xstat);
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
