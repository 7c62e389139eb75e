/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The record every layer fills and reads (struct xs_stat), how a file is
 * reached (struct xs_target), and the rules every layer shares (EINTR,
 * -errno).  The bottom of the library's own headers: each module has its
 * header above this one, and tests/test-layers.sh checks that a file
 * includes only headers of its own layer and below (docs/ARCHITECTURE.md).
 * Internal functions return 0 or a negative errno; errno is set only in
 * ret.h's xs_ret(), by the entry points.
 */
#ifndef LIBXSTAT_INTERNAL_H
#define LIBXSTAT_INTERNAL_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>	/* struct file_handle */
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include "xstat.h"
#include "cmtime.h"

#define XS_EXPORT	__attribute__((visibility("default")))
#define XS_HIDDEN	__attribute__((visibility("hidden")))

#define XS_CLASS3	(XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN | \
			 XSTAT_REQUEST_DATA_VERSION)
#define XS_EXTRAS	XSTAT_REQUEST__EXTRA_RESULTS
/* The flags xstat() and xstat_opendir() take (both sync flags: EINVAL). */
#define XS_SYNC_FLAGS	(AT_FORCE_ATTR_SYNC | AT_NO_ATTR_SYNC)
#define XS_CALL_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | \
			 AT_EMPTY_PATH | XS_SYNC_FLAGS)
/* The results promise.c makes. */
#define XS_PROMISE_EXTRAS	(XSTAT_REQUEST_CHANGE_TOKEN | \
				 XSTAT_REQUEST_DV_PROMISE)
/* What supplement.c can add when the backend did not. */
#define XS_SUPPLEMENTABLE (XS_CLASS3 | XSTAT_REQUEST_MNT_ID | \
			   XSTAT_REQUEST_ATTRIBUTES | XSTAT_REQUEST_FS_ID | \
			   XSTAT_REQUEST_MNT_ID_REUSABLE)

struct xs_time {
	int64_t		sec;
	uint64_t	nsec;	/* < 1e9: the width of struct xstat_time's */
};

/* One file's status, kernel-kstat-like; @mask holds XSTAT_REQUEST_* bits. */
struct xs_fs;

struct xs_stat {
	/*
	 * The kernel's answer: every member before @gen is written by the
	 * backend (xs_stat_from_statx(), xs_stat_from_stat()) on every
	 * call, what it did not obtain as 0, but rdev, which fstatat's
	 * gives only with its bit; those behind a result bit (rdev, btime,
	 * attributes) are read only where the bit is set.
	 * Nothing of the record but its last part is cleared before (the
	 * library's own work per call: bench/instr-bounds).
	 */
	uint64_t	mask;
	uint32_t	mode;
	uint32_t	nlink;
	uint32_t	uid;
	uint32_t	gid;
	uint32_t	rdev_major, rdev_minor;
	uint32_t	dev_major, dev_minor;
	uint32_t	mnt_id_unique;
	struct xs_time	atime, mtime, ctime;
	uint64_t	ino;
	uint64_t	size;
	uint64_t	blksize;
	uint64_t	blocks;
	/*
	 * Side by side: what fstatat's answer has none of, zeroed as one
	 * block (backend_fstatat.h).
	 */
	struct xs_time	btime;
	uint64_t	mnt_id;
	uint64_t	attributes;
	uint64_t	attributes_mask;
	/*
	 * Written only with their result bit (which copyout.c and every
	 * other reader test first), by the backend or a supplement.
	 */
	uint64_t	gen;
	uint64_t	data_version;
	uint64_t	mnt_id_reusable;	/* mountinfo's */
	uint32_t	dio_mem_align;
	uint32_t	dio_offset_align;
	uint64_t	subvol;
	uint32_t	awu_min;
	uint32_t	awu_max;
	uint32_t	aw_segments_max;
	uint32_t	awu_max_opt;
	uint32_t	dio_read_offset_align;
	/* From here on zero until a later step fills it: XS_STAT_ZEROED. */
	uint32_t	fsflags;	/* with @fs below: fscache.c's verdicts */
	uint64_t	fs_key;		/* fscache.c's key, 0: none */
	/*
	 * The filesystem's row (fs.h) and fscache.c's verdicts on it
	 * (@fsflags), resolved once per call by xs_fs_row() (then
	 * @fs_resolved), or handed over by the stream that resolved them
	 * for its directory.
	 */
	const struct xs_fs *fs;
	/* promise.c: the change token and what the values promise */
	uint64_t	token;
	uint64_t	token_promise;
	uint32_t	token_source;
	uint32_t	token_reserved;	/* 0: the payload's, copied whole */
	uint64_t	dv_promise;
	/* fsid.c: the filesystem's lasting name */
	unsigned char	fs_id[16];
	uint32_t	fs_id_source;
	/* why.c: XSTAT_WHY_* of missing class (3) fields, 0: not known */
	uint8_t		why_btime, why_gen, why_dv;
	uint8_t		fs_resolved;	/* see @fs */
};

/*
 * The record's part after the kernel's answer, zeroed by xstat.c's
 * record() before the backend writes the rest.
 */
#define XS_STAT_ZEROED	offsetof(struct xs_stat, fsflags)

static inline void xs_stat_clear_rest(struct xs_stat *st)
{
	memset((unsigned char *)st + XS_STAT_ZEROED, 0,
	       sizeof(*st) - XS_STAT_ZEROED);
}

/*
 * How to reach the file: the *at() triple.  fxstat() becomes
 * { fd, "", AT_EMPTY_PATH }, so every layer has one path to handle.
 * The supplements get the anchored form (anchor.h): { anchor fd, "",
 * AT_EMPTY_PATH }, which names the inode the kernel resolved, and the
 * caller's name only to find a directory on the same filesystem.
 */
struct xs_target {
	int		dfd;
	unsigned	flags;		/* AT_* lookup and sync flags */
	const char	*path;
	int		name_dfd;	/* anchored: the caller's dfd, name */
	int		anchored;	/* dfd is the anchor */
	const char	*name;
	int		own_fd;		/* ...and the caller's open file */
	int		is_fd;		/* path is "": dfd itself (fxstat) */
	unsigned	*refused;	/* XS_REFUSED_*: the call's or stream's */
};

/*
 * What was refused to a call, or to a directory stream, which acts with
 * the credentials it had when opened (as an open file does): asked again
 * within it, the answer would be the same.  Never kept beyond it.
 */
#define XS_REFUSED_DEVICE	0x1	/* the ext4 device: EPERM or EACCES */


/*
 * A mount ID as name_to_handle_at() returns it: @have is 0 if it did not.
 * xs_mnt_id_store(): into the record, by the one who asked for it.
 */
struct xs_mnt_id {
	uint64_t	id;
	uint32_t	unique;
	int		have;
};

static inline void xs_mnt_id_store(struct xs_stat *st,
				   const struct xs_mnt_id *m)
{
	if (!m->have)
		return;
	st->mnt_id = m->id;
	st->mnt_id_unique = m->unique;
	st->mask |= XSTAT_REQUEST_MNT_ID;
}


/*
 * The one EINTR rule: a signal caught by a handler installed without
 * SA_RESTART must not make a call of the library fail, so an interrupted
 * system call is made again.  XS_EINTR(@call): @call in the -errno
 * convention (rawsys.h's, or libc's through xs_neg_errno()), repeated
 * while it returns -EINTR; its last value.
 */
#define XS_EINTR(call) ({						\
	long xs_eintr_r_;						\
									\
	do								\
		xs_eintr_r_ = (long)(call);				\
	while (xs_eintr_r_ == -EINTR);					\
	xs_eintr_r_;							\
})

/* A libc call's result in the -errno convention. */
static inline long xs_neg_errno(long ret)
{
	return ret < 0 ? -errno : ret;
}


/*
 * Leave the change and modification times out of @st: asked of statx only
 * for the token or the data version's arming, and reported by statx only
 * when asked (multigrain timestamps), they are not the caller's.
 */
static inline void xs_stat_drop_cmtime(struct xs_stat *st)
{
	st->mask &= ~XS_CMTIME;
	memset(&st->ctime, 0, sizeof(st->ctime));
	memset(&st->mtime, 0, sizeof(st->mtime));
}


#endif /* LIBXSTAT_INTERNAL_H */
