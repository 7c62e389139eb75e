// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The statx(2) backend: raw syscall, availability decided per call shape.
 *
 * A seccomp filter may look at every argument of statx, most simply at
 * dirfd and flags, so a refusal is a fact about a shape of call, not
 * about statx: a failure with ENOSYS, EPERM, EINVAL or EOPNOTSUPP (or a
 * return that is no error number, or a success that wrote nothing:
 * xs_raw_statx()) is checked with one probe in the same shape - the
 * same dirfd, flags and mask, and a name longer than PATH_MAX - which a
 * real statx answers with ENAMETOOLONG before it touches any file.
 * Anything else: a filter refused that shape; the fallback answers, and
 * the shape is remembered for the calling thread (xs_statx_refused): a
 * filter belongs to a thread, may arrive after the thread's first call
 * (then the next failure probes again), and is never removed.  Other
 * shapes still ask statx.  ENAMETOOLONG: statx is real in this shape, the
 * fallback answers this call only - a file (a FUSE server's ENOSYS) or a
 * filter that looks at what the probe does not repeat (the path)
 * refused it, and the fallback gives the file's own error, if any.  So a
 * refused call never returns the refusal's errno, and an allowed shape
 * keeps statx's answers.
 *
 * A child of vfork() or clone(CLONE_VM | CLONE_VFORK) runs on its
 * parent's thread-local storage with a filter of its own: the task that
 * learns a refusal records it only if it owns this storage
 * (tls_owner_is_me()), checked only then, so no call of the steady state
 * makes a system call for it.  Only a success is remembered process-wide,
 * so that the usual call is one syscall.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include "internal.h"
#include "mask.h"
#include "backend_fstatat.h"
#include "backend_statx.h"
#include "syscall.h"

int xs_backend_state = XS_BACKEND_UNKNOWN;	/* atomic */
__thread uint64_t xs_statx_refused
	__attribute__((tls_model("initial-exec")));

#ifdef XS_NR_statx
/*
 * The probe's path: a name longer than PATH_MAX, which a real statx
 * rejects with ENAMETOOLONG before it looks at dirfd or any file.  Not a
 * bad pointer: since Linux 6.11 a NULL path with AT_EMPTY_PATH means the
 * descriptor itself, whose own error would come back, and valgrind takes
 * a NULL path and buffer for a probe of its own and answers it without
 * the kernel (so without the filter).
 */
static const char probe_name[PATH_MAX + 1] = { [0 ... PATH_MAX - 1] = 'x' };

/*
 * Is statx real in the shape of @dfd, @flags, @smask?  A real one rejects
 * the name; a filter that refuses the shape answers first.
 */
static int statx_is_real(int dfd, unsigned flags, uint32_t smask)
{
	struct xs_statx unused;

	return xs_raw_statx(dfd, probe_name, flags, smask, &unused) ==
	       -ENAMETOOLONG;
}

/*
 * Is the calling task the thread whose thread-local storage this is?  Not
 * in a child of vfork() or clone(CLONE_VM | CLONE_VFORK), which runs on
 * its parent's, with a seccomp filter of its own that must not change the
 * parent's answers.  The C library keeps the owner's thread ID in the
 * thread's descriptor, and pthread_getcpuclockid() computes the thread's
 * CPU-time clock from it with no system call, as the kernel defines
 * that clock (~tid << 3 | CPUCLOCK_PERTHREAD | CPUCLOCK_SCHED); gettid()
 * is the task's own.  Only when a refusal is learned: rare.  A child of a
 * fork() without the C library's fork() (whose descriptor still holds the
 * parent's ID) is told "no", which costs it a probe per refused call.
 */
static int tls_owner_is_me(void)
{
	clockid_t owner;
	long tid;

	if (pthread_getcpuclockid(pthread_self(), &owner))
		return 0;
	tid = xs_raw_syscall(SYS_gettid, 0, 0, 0, 0, 0);
	return (unsigned)owner == ((~(unsigned)tid << 3) | 6U);
}
#endif

/*
 * The opt-out for sandboxes that kill on an unknown syscall (SIGSYS) rather
 * than fail it, and the switch the tests use to force the fallback.
 */
static int statx_disabled(void)
{
#ifdef XS_DISABLE_STATX
	return 1;
#else
	/*
	 * Not getenv(): in a setuid or otherwise privileged program the
	 * environment is the caller's, and must not steer the library.
	 */
	const char *env = secure_getenv("LIBXSTAT_NO_STATX");

	return env && *env && strcmp(env, "0") != 0;
#endif
}

enum xs_backend xs_backend_current(void)
{
	int state = __atomic_load_n(&xs_backend_state, __ATOMIC_RELAXED);

	if (state == XS_BACKEND_UNKNOWN && statx_disabled()) {
		state = XS_BACKEND_FALLBACK;
		__atomic_store_n(&xs_backend_state, state, __ATOMIC_RELAXED);
	}
	return state;
}

static void set_backend(int state)
{
	__atomic_store_n(&xs_backend_state, state, __ATOMIC_RELAXED);
}

void xs_stat_fill_extras(struct xs_stat *st, const struct xs_statx *sx,
			 uint64_t request)
{
	/*
	 * Only the extras' bits: the basic ones are st->mask's, where an
	 * invalid time's bit was cleared (xs_statx_time()).  Their statx
	 * bits are dropped first, so none of them is translated again.
	 */
	uint32_t stx = sx->stx_mask & XS_MASK_STATX_EXTRAS;
	uint64_t mask = st->mask | (xs_mask_from_statx(stx) & XS_EXTRAS);

	/* No mount ID 0: see xs_stat_from_statx(). */
	if ((sx->stx_mask & XS_STATX_MNT_ID_UNIQUE) && !sx->stx_mnt_id)
		mask &= ~XSTAT_REQUEST_MNT_ID;
	/* statx always answers for attributes; the mask says which. */
	mask |= XSTAT_REQUEST_ATTRIBUTES;
	/* Read only with their bits, which only a request for them keeps. */
	if (request & (XS_MASK_DOWN3 | XS_MASK_DOWN2)) {
		st->dio_mem_align = sx->stx_dio_mem_align;
		st->dio_offset_align = sx->stx_dio_offset_align;
		st->subvol = sx->stx_subvol;
		st->awu_min = sx->stx_atomic_write_unit_min;
		st->awu_max = sx->stx_atomic_write_unit_max;
		st->aw_segments_max = sx->stx_atomic_write_segments_max;
		st->awu_max_opt = sx->stx_atomic_write_unit_max_opt;
		st->dio_read_offset_align = sx->stx_dio_read_offset_align;
	}
	/* Not asked for the unique one, statx gives mountinfo's. */
	if ((sx->stx_mask & XS_MASK_STATX_MNT) == XS_STATX_MNT_ID) {
		st->mnt_id_reusable = sx->stx_mnt_id;
		mask |= XSTAT_REQUEST_MNT_ID_REUSABLE;
	}
	/* Class (4): an extra result is returned only when requested. */
	st->mask = mask & (~XS_EXTRAS | request);
}

#ifdef XS_NR_statx
/*
 * statx of @dfd, @flags, @smask failed with @ret: decide whether the
 * fallback must answer.  Rare: cold.  A return that is no error number
 * (a sandbox's fake) counts as ENOSYS.
 */
int xs_statx_failed(int state, long ret, int dfd, unsigned flags,
		    uint32_t smask)
{
	int odd = !XS_RAW_IS_ERR(ret);
	int err = odd ? ENOSYS : (int)-ret;

	if (!odd && err != ENOSYS && err != EPERM && err != EINVAL &&
	    err != EOPNOTSUPP) {
		/* An ordinary error (ENOENT...) came from a real statx. */
		if (state == XS_BACKEND_UNKNOWN)
			set_backend(XS_BACKEND_STATX);
		return -err;
	}
	if (!statx_is_real(dfd, flags, smask)) {
		/* Refused in this shape: for the rest of this thread's life. */
		if (tls_owner_is_me())
			xs_statx_refused |= xs_statx_shape(dfd, flags);
		return -ENOSYS;
	}
	if (state == XS_BACKEND_UNKNOWN)
		set_backend(XS_BACKEND_STATX);
	/*
	 * A real statx in this shape, and still a refusal: the file's (a
	 * FUSE server that says "not implemented") or a filter's that looks
	 * at more than the probe repeats.  fstatat answers, with the file's
	 * own error if it has one; nothing is remembered.
	 */
	return -ENOSYS;
}
#endif

#ifdef XS_NR_statx
/* The first calls, until statx is known to work or not to. */
int xs_statx_first(const struct xs_target *t, uint64_t request,
		   struct xs_statx *sx)
{
	int state = xs_backend_current();
	uint32_t smask = xs_statx_request(request);
	long ret;

	if (state == XS_BACKEND_FALLBACK)
		return -ENOSYS;
	ret = xs_raw_statx(t->dfd, t->path, t->flags, smask, sx);
	if (ret == 0) {
		if (state == XS_BACKEND_UNKNOWN)
			set_backend(XS_BACKEND_STATX);
		return 0;
	}
	return xs_statx_failed(state, ret, t->dfd, t->flags, smask);
}
#endif

int xs_kernel_ident(int dfd, const char *path, unsigned flags,
		    uint32_t smask, struct xs_ident *id)
{
	struct stat sb;
	int ret;
#ifdef XS_NR_statx
	struct xs_statx sx;

	if (xs_statx_works(dfd, flags)) {
		long r = xs_raw_statx(dfd, path, flags, smask | XS_STATX_INO,
				      &sx);

		if (r == 0) {
			if (!(sx.stx_mask & XS_STATX_INO))
				return -ENODATA;
			id->ino = sx.stx_ino;
			id->dev_major = sx.stx_dev_major;
			id->dev_minor = sx.stx_dev_minor;
			return 0;
		}
		ret = xs_statx_failed(XS_BACKEND_STATX, r, dfd, flags,
				      smask | XS_STATX_INO);
		if (ret != -ENOSYS)
			return ret;
	}
#else
	(void)smask;
#endif
	ret = xs_raw_fstatat(dfd, path, &sb, (int)(flags & XS_LOOKUP_FLAGS));
	if (ret)
		return ret;
	id->ino = sb.st_ino;
	id->dev_major = major(sb.st_dev);
	id->dev_minor = minor(sb.st_dev);
	return 0;
}
