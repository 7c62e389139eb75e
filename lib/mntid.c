// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The mount ID when statx cannot give it: from name_to_handle_at(2), else
 * from the mnt_id: line of /proc/self/fdinfo for the anchor (filesystems
 * that cannot encode handles, such as procfs).  The same
 * name_to_handle_at() call serves handle.c when the generation is asked
 * for too: one system call for both.  The two kinds are told apart as
 * statx tells them: AT_HANDLE_MNT_ID_UNIQUE gives the never-reused ID,
 * the call without it and fdinfo the reusable one of mountinfo.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "anchor.h"
#include "backend_statx.h"
#include "decimal.h"
#include "mntid.h"
#include "seqslot.h"

/*
 * The mount ID without a handle: asked with handle_bytes 0, the kernel
 * answers EOVERFLOW but fills in the mount ID - one syscall, no open.
 * Since Linux 6.12 AT_HANDLE_MNT_ID_UNIQUE returns the never-reused 64-bit
 * ID instead; older kernels reject the flag with EINVAL, remembered once.
 */
#define XS_AT_HANDLE_MNT_ID_UNIQUE	0x001

static int unique_unsupported;

int xs_name_to_handle(const struct xs_target *t, struct file_handle *fh,
		      struct xs_mnt_id *mnt)
{
	uint64_t unique = 0;
	int id = 0, ret;

	if (!mnt)
		return xs_handle_take(t, fh);
	if (!__atomic_load_n(&unique_unsupported, __ATOMIC_RELAXED)) {
		ret = xs_handle_call(t, fh, &unique,
				     XS_AT_HANDLE_MNT_ID_UNIQUE);
		if (ret != -EINVAL) {
			if (ret == 0 || ret == -EOVERFLOW) {
				mnt->id = unique;
				mnt->unique = 1;
				mnt->have = 1;
			}
			return ret;
		}
		__atomic_store_n(&unique_unsupported, 1, __ATOMIC_RELAXED);
	}
	ret = xs_handle_call(t, fh, &id, 0);
	if (ret == 0 || ret == -EOVERFLOW) {
		mnt->id = (uint32_t)id;
		mnt->unique = 0;
		mnt->have = 1;
	}
	return ret;
}

/*
 * The unique mount ID alone (Linux 6.12+), for the per-filesystem cache
 * when statx did not give it: the ID, or 0 if none was had (the unique
 * IDs count up from above 0).  Returned, not stored: the caller's only
 * use is the value.
 */
uint64_t xs_unique_mnt_id(const struct xs_target *t)
{
	struct file_handle fh = { .handle_bytes = 0 };
	uint64_t id = 0;
	int ret;

	if (__atomic_load_n(&unique_unsupported, __ATOMIC_RELAXED))
		return 0;
	ret = xs_handle_call(t, &fh, &id, XS_AT_HANDLE_MNT_ID_UNIQUE);
	/* With no room for the handle, success is EOVERFLOW. */
	if (ret == -EOVERFLOW || ret == 0)
		return id;
	if (ret == -EINVAL)
		__atomic_store_n(&unique_unsupported, 1, __ATOMIC_RELAXED);
	return 0;
}

/*
 * When the generation is asked for too, the fallback's cache key and the
 * handle come from one call: the handle is taken before the filesystem
 * type is known (it is decoded once the type is), which costs nothing
 * where it cannot be decoded (the call is the one the key needs anyway).
 */
int xs_handle_unique(const struct xs_target *t, struct xs_handle *h,
		     uint64_t *id)
{
	int ret;

	*id = 0;
	if (__atomic_load_n(&unique_unsupported, __ATOMIC_RELAXED))
		return -EINVAL;
	h->fh.handle_bytes = sizeof(h->bytes);
	ret = xs_handle_call(t, &h->fh, id, XS_AT_HANDLE_MNT_ID_UNIQUE);
	if (ret == -EINVAL)
		__atomic_store_n(&unique_unsupported, 1, __ATOMIC_RELAXED);
	if (ret && ret != -EOVERFLOW)
		*id = 0;
	return ret;
}

/* Asked with handle_bytes 0, the kernel fills in only the mount ID. */
static int by_handle(const struct xs_target *t, struct xs_stat *st)
{
	struct file_handle fh = { .handle_bytes = 0 };
	struct xs_mnt_id m = { 0, 0, 0 };

	xs_name_to_handle(t, &fh, &m);
	xs_mnt_id_store(st, &m);
	return st->mask & XSTAT_REQUEST_MNT_ID ? 0 : -ENOENT;
}

static int read_retry(int fd, char *buf, size_t len)
{
	return (int)XS_EINTR(xs_neg_errno(read(fd, buf, len)));
}

/* From the anchor's fdinfo, in a /proc proven to be procfs: reusable. */
static int by_fdinfo(const struct xs_target *t, uint64_t *id)
{
	char path[48], buf[1024], *p;
	int pd, info, n;

	if (!t->anchored)
		return -EBADF;
	pd = xs_proc_fd_dir();
	if (pd < 0)
		return pd;
	memcpy(path, "../fdinfo/", 10);
	xs_fd_name(path + 10, t->dfd);
	info = xs_open_eintr(pd, path, O_RDONLY | O_CLOEXEC);
	close(pd);
	if (info < 0)
		return info;
	n = read_retry(info, buf, sizeof(buf) - 1);
	close(info);
	if (n < 0)
		return n;
	buf[n] = '\0';
	p = strstr(buf, "\nmnt_id:");
	if (!p || !xs_get_u64(p + 8, id))
		return -ENOENT;
	return 0;
}

int xs_mnt_id_get(const struct xs_target *t, struct xs_stat *st)
{
	uint64_t id;

	if (by_handle(t, st) == 0)
		return 0;
	if (by_fdinfo(t, &id))
		return -ENOENT;
	st->mnt_id = id;
	st->mnt_id_unique = 0;
	return 0;
}

/*
 * The reusable ID of the anchored @t when the call's statx gave the
 * unique one: statx asked for STATX_MNT_ID alone (where statx works in
 * this thread in that shape; no sync: a mount ID is no server's), else
 * name_to_handle_at() without the unique flag, else fdinfo.  On the
 * anchor, so it is the inode the call described.
 */
static int reusable_by_statx(const struct xs_target *t, uint64_t *id)
{
#ifdef XS_NR_statx
	unsigned flags = (t->flags & ~XS_SYNC_FLAGS) | AT_NO_ATTR_SYNC;
	struct xs_statx sx;
	long ret;

	if (!xs_statx_works(t->dfd, flags))
		return -ENOSYS;
	ret = xs_raw_statx(t->dfd, t->path, flags, XS_STATX_MNT_ID, &sx);
	if (ret != 0) {
		/* A filter's refusal of this shape is learned, as a call's. */
		xs_statx_failed(XS_BACKEND_STATX, ret, t->dfd, flags,
				XS_STATX_MNT_ID);
		return -ENOSYS;
	}
	if (!(sx.stx_mask & XS_STATX_MNT_ID))
		return -ENOSYS;
	*id = sx.stx_mnt_id;
	return 0;
#else
	(void)t;
	(void)id;
	return -ENOSYS;
#endif
}

/*
 * The reusable ID is a fact of the mount, fixed when the mount is made,
 * as the unique ID is, which is never reused while the kernel runs: once
 * asked, it is kept keyed by the unique ID (st->fs_key, the mount this
 * call found the file on), in a small table written and read as
 * seqslot.h says.  Without a unique mount ID every call asks again.
 */
#define REUSABLE_BITS	4	/* 16 slots */

static struct xs_seqslot reusable_slots[1 << REUSABLE_BITS];

static int reusable_cached(uint64_t key, uint64_t *id)
{
	struct xs_seqslot *s = xs_seqslot_at(reusable_slots, REUSABLE_BITS,
					      key);

	return xs_seqslot_read(s, key, id, 1) ? 0 : -ENOENT;
}

/* Skipped when another writer holds the slot: the next call stores it. */
static void reusable_store(uint64_t key, uint64_t id)
{
	struct xs_seqslot *s = xs_seqslot_at(reusable_slots, REUSABLE_BITS,
					      key);
	uint64_t seq;

	if (xs_seqslot_claim(s, &seq))
		xs_seqslot_publish(s, seq, key, &id, 1);
}

/*
 * Asked of the kernel on the anchor and kept where the unique ID is
 * known; out of line, as only a mount's first call takes it.
 */
static __attribute__((noinline)) int
reusable_ask(const struct xs_target *t, struct xs_stat *st)
{
	struct file_handle fh = { .handle_bytes = 0 };
	uint64_t id = 0;
	int h = 0, ret;

	ret = reusable_by_statx(t, &id);
	if (ret) {
		ret = xs_handle_call(t, &fh, &h, 0);
		if (ret == 0 || ret == -EOVERFLOW)
			id = (uint32_t)h;
		else if (by_fdinfo(t, &id))
			return -ENOENT;
	}
	if (st->fs_key)
		reusable_store(st->fs_key, id);
	st->mnt_id_reusable = id;
	st->mask |= XSTAT_REQUEST_MNT_ID_REUSABLE;
	return 0;
}

int xs_mnt_id_reusable_get(const struct xs_target *t, struct xs_stat *st)
{
	uint64_t id;

	if (!t->anchored)
		return -EBADF;
	if (!st->fs_key || reusable_cached(st->fs_key, &id))
		return reusable_ask(t, st);
	st->mnt_id_reusable = id;
	st->mask |= XSTAT_REQUEST_MNT_ID_REUSABLE;
	return 0;
}
