/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The per-call part of the statx backend, inlined into the entry points:
 * once statx is known to work, a call is one mask translation and one
 * syscall, with no function call of the library's own.  Deciding whether
 * statx works, and what a failure means, stays in backend_statx.c.
 */
#ifndef LIBXSTAT_BACKEND_STATX_H
#define LIBXSTAT_BACKEND_STATX_H

#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include "internal.h"
#include "mask.h"
#include "rawsys.h"
#include "syscall.h"

/* backend selection: backend_statx.c */
enum xs_backend { XS_BACKEND_UNKNOWN, XS_BACKEND_STATX, XS_BACKEND_FALLBACK };
enum xs_backend xs_backend_current(void);

struct xs_statx;	/* the kernel's struct statx: syscall.h */
struct stat;

/*
 * The extra results a statx answer holds (the rest are the library's
 * own: the promises, the reasons, the filesystem's ID).
 */
#define XS_STATX_EXTRAS	(XSTAT_REQUEST_MNT_ID | XSTAT_REQUEST_ATTRIBUTES | \
			 XS_MASK_DOWN3 | XS_MASK_DOWN2 | \
			 XSTAT_REQUEST_MNT_ID_REUSABLE)

/*
 * backend_statx.c: the extra results of @sx into @st, whose mask has
 * the rest, as @request asks (the extras' part of the mask translated:
 * only a request for one of XS_STATX_EXTRAS comes here).
 */
void xs_stat_fill_extras(struct xs_stat *st, const struct xs_statx *sx,
			 uint64_t request);

/*
 * mask.h's nanosecond rule: an invalid time is not reported (0, and @bit
 * returned for the caller to clear).
 */
static inline uint64_t xs_statx_time(struct xs_time *t,
				     const struct xs_statx_timestamp *s,
				     uint64_t bit)
{
	if (__builtin_expect(!XS_NSEC_VALID(s->tv_nsec), 0)) {
		t->sec = 0;
		t->nsec = 0;
		return bit;
	}
	t->sec = s->tv_sec;
	t->nsec = s->tv_nsec;
	return 0;
}

/*
 * The kernel's answer into the record: every member of the kernel's part
 * of @st (internal.h), the rest left as xstat.c's record() cleared it;
 * the extra results only when @request asks for one.  Inline: every call
 * and every stream entry comes through here.
 */
static inline __attribute__((always_inline)) void
xs_stat_from_statx(struct xs_stat *st, const struct xs_statx *sx,
		   uint64_t request)
{
	uint64_t mask = xs_mask_from_statx_basic(sx->stx_mask);

	st->mode = sx->stx_mode;
	st->nlink = sx->stx_nlink;
	st->uid = sx->stx_uid;
	st->gid = sx->stx_gid;
	/* Class (2): rdev only for device nodes, whose type must be known. */
	st->rdev_major = sx->stx_rdev_major;
	st->rdev_minor = sx->stx_rdev_minor;
	if ((mask & XSTAT_REQUEST_MODE) &&
	    (S_ISBLK(sx->stx_mode) || S_ISCHR(sx->stx_mode)))
		mask |= XSTAT_REQUEST_RDEV;
	st->dev_major = sx->stx_dev_major;
	st->dev_minor = sx->stx_dev_minor;
	mask &= ~(xs_statx_time(&st->atime, &sx->stx_atime,
				XSTAT_REQUEST_ATIME) |
		  xs_statx_time(&st->mtime, &sx->stx_mtime,
				XSTAT_REQUEST_MTIME) |
		  xs_statx_time(&st->ctime, &sx->stx_ctime,
				XSTAT_REQUEST_CTIME) |
		  xs_statx_time(&st->btime, &sx->stx_btime,
				XSTAT_REQUEST_BTIME));
	st->ino = sx->stx_ino;
	st->size = sx->stx_size;
	st->blksize = sx->stx_blksize;
	st->blocks = sx->stx_blocks;
	/*
	 * statx reports the unique mount ID at no cost when asked: the key
	 * of the per-filesystem cache (fscache.c).  The unique IDs count up
	 * from above 0: a statx that sets the bit but leaves the field zero
	 * (qemu-user's copies no stx_mnt_id) gave none - honest values, and
	 * no cache key 0 taken for a mount's.
	 */
	st->mnt_id = sx->stx_mnt_id;
	st->mnt_id_unique = !!(sx->stx_mask & XS_STATX_MNT_ID_UNIQUE) &
			    !!sx->stx_mnt_id;
	/* Kept even unrequested: anchor.c never reopens an automount point. */
	st->attributes = sx->stx_attributes;
	st->attributes_mask = sx->stx_attributes_mask;
	st->mask = mask;
	/*
	 * Class (4): an extra result is returned only when requested, and
	 * statx has nothing for the library's own (a change token alone).
	 */
	if (request & XS_STATX_EXTRAS)
		xs_stat_fill_extras(st, sx, request);
}

/* enum xs_backend, set once by backend_statx.c. */
extern XS_HIDDEN int xs_backend_state;	/* atomic */

/*
 * The shapes of call in which a seccomp filter refused statx to this
 * thread, as the probe proved (backend_statx.c): one bit per shape, the
 * arguments a filter can tell apart without reading memory - whether
 * dirfd is AT_FDCWD, and the flags (xs_statx_shape()).  A call of a shape
 * refused before goes straight to the fallback; any other shape still
 * asks statx, so a filter that refuses only some shapes takes from the
 * calls it allows nothing.  Filters only accumulate, so a bit is never
 * cleared; it is set only by the thread that owns this storage, never by
 * a vfork() child running on it with a filter of its own.  Initial-exec
 * TLS: a copy of the library loaded by dlopen() still has it in static
 * TLS, never allocated on first use, so a call stays async-signal-safe.
 */
extern XS_HIDDEN __thread uint64_t xs_statx_refused
	__attribute__((tls_model("initial-exec")));

/*
 * A call's shape, 0..63: dirfd AT_FDCWD or another, and the five flags a
 * call may pass (XS_CALL_FLAGS: 0x100, 0x800, 0x1000, 0x2000, 0x4000).
 * The empty path of an fxstat() is AT_EMPTY_PATH on a descriptor.
 */
static inline uint64_t xs_statx_shape(int dfd, unsigned flags)
{
	unsigned s = (flags & AT_SYMLINK_NOFOLLOW) >> 8 |
		     (flags & (AT_NO_AUTOMOUNT | AT_EMPTY_PATH |
			       XS_SYNC_FLAGS)) >> 10 |
		     (unsigned)(dfd == AT_FDCWD) << 5;

	return 1ULL << s;
}

/* Was statx refused to this thread in the shape of @dfd, @flags? */
static inline int xs_statx_shape_refused(int dfd, unsigned flags)
{
	return xs_statx_refused && (xs_statx_refused &
				    xs_statx_shape(dfd, flags));
}

/* Is statx known to work, and not refused to this thread in this shape? */
static inline int xs_statx_works(int dfd, unsigned flags)
{
	return !xs_statx_shape_refused(dfd, flags) &&
	       __atomic_load_n(&xs_backend_state, __ATOMIC_RELAXED) ==
	       XS_BACKEND_STATX;
}

int xs_statx_first(const struct xs_target *t, uint64_t request,
		   struct xs_statx *sx);
/*
 * @ret: the kernel's return (rawsys.h), not 0, to the statx of @dfd,
 * @flags, @smask (the probe is sent in the same shape).
 */
int xs_statx_failed(int state, long ret, int dfd, unsigned flags,
		    uint32_t smask);

/* A file's identity as the kernel says it now. */
struct xs_ident {
	uint64_t	ino;
	uint32_t	dev_major, dev_minor;
};

/*
 * Which inode @dfd/@path names now: statx asking for @smask where statx
 * works in this thread, else fstatat (whose answer has the ctime, so it
 * arms the next change as a statx asking for ctime does).  @flags: AT_*
 * lookup and sync flags.  0 or -errno.
 */
int xs_kernel_ident(int dfd, const char *path, unsigned flags,
		    uint32_t smask, struct xs_ident *id);

/*
 * Asked for mountinfo's mount ID, statx is not asked for the unique one
 * unless that is asked for too, or what keys fscache.c by it (a class (3)
 * field, the filesystem's name): statx gives one kind a call.
 */
#define XS_UNIQUE_BESIDE_REUSABLE	(XS_CLASS3 | XSTAT_REQUEST_MNT_ID | \
					 XSTAT_REQUEST_FS_ID)

/*
 * What to ask statx for.  The unique mount ID costs the kernel nothing and
 * is never reused: the supplements' device cache uses it to notice a dev_t
 * handed to a new mount.  Without a supplement it is not needed.
 */
static inline uint32_t xs_statx_request(uint64_t request)
{
	uint32_t smask = xs_mask_to_statx_basic(request);

	/* Classes (0) to (2) alone: the rules below all pass. */
	if (!(request & (XS_SUPPLEMENTABLE | XS_EXTRAS)))
		return smask;
	if (request & XS_EXTRAS)
		smask |= xs_mask_to_statx_extras(request);
	if ((request & XS_SUPPLEMENTABLE) &&
	    (!(request & XSTAT_REQUEST_MNT_ID_REUSABLE) ||
	     (request & XS_UNIQUE_BESIDE_REUSABLE)))
		smask |= XS_STATX_MNT_ID_UNIQUE;
	/*
	 * The data version needs ctime: asking for it arms the inode's next
	 * change (multigrain timestamps), and the raw inode's ctime is
	 * checked against it (probe_ext4.c, dv_armed()).
	 */
	if (request & XSTAT_REQUEST_DATA_VERSION)
		smask |= XS_STATX_CTIME;
	/*
	 * The change token is made of these (promise.c); asking for ctime
	 * arms the next change, and the unique mount ID finds the
	 * filesystem's facts without a descriptor.
	 */
	if (request & XS_PROMISE_EXTRAS)
		smask |= XS_STATX_TYPE | XS_STATX_MODE | XS_STATX_NLINK |
			 XS_STATX_UID | XS_STATX_GID | XS_STATX_MTIME |
			 XS_STATX_CTIME | XS_STATX_INO | XS_STATX_SIZE |
			 XS_STATX_MNT_ID_UNIQUE;
	return smask;
}

/*
 * The kernel's answer in @sx: 0, a negative errno for the caller, or
 * -ENOSYS when statx cannot serve this call and the fallback must.
 */
static inline __attribute__((always_inline)) int
xs_statx_call(const struct xs_target *t, uint64_t request, struct xs_statx *sx)
{
#ifdef XS_NR_statx
	int state = __atomic_load_n(&xs_backend_state, __ATOMIC_RELAXED);
	uint32_t smask;
	long ret;

	if (xs_statx_shape_refused(t->dfd, t->flags))
		return -ENOSYS;
	if (state != XS_BACKEND_STATX)
		return state == XS_BACKEND_FALLBACK ? -ENOSYS :
		       xs_statx_first(t, request, sx);
	smask = xs_statx_request(request);
	ret = xs_raw_statx(t->dfd, t->path, t->flags, smask, sx);
	return ret == 0 ? 0 : xs_statx_failed(XS_BACKEND_STATX, ret, t->dfd,
					      t->flags, smask);
#else
	(void)t;
	(void)request;
	(void)sx;
	return -ENOSYS;
#endif
}

#endif /* LIBXSTAT_BACKEND_STATX_H */
