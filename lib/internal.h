/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The record every backend and supplement fills, and the functions that
 * fill it.  A call flows one way: xstat.c validates, a backend fills the
 * basic fields, supplement.c adds what was asked for and is still missing,
 * copyout.c writes the public layout.  Internal functions return 0 or a
 * negative errno; errno is set only in xstat.c.  The whole flow, file by
 * file: docs/ARCHITECTURE.md.
 */
#ifndef LIBXSTAT_INTERNAL_H
#define LIBXSTAT_INTERNAL_H

#include <errno.h>
#include <fcntl.h>	/* struct file_handle */
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include "xstat.h"

#define XS_EXPORT	__attribute__((visibility("default")))
#define XS_HIDDEN	__attribute__((visibility("hidden")))

#define XS_CLASS3	(XSTAT_REQUEST_BTIME | XSTAT_REQUEST_GEN | \
			 XSTAT_REQUEST_DATA_VERSION)
#define XS_EXTRAS	XSTAT_REQUEST__EXTRA_RESULTS
/* The flags xstat() and xstat_opendir() take (both sync flags: EINVAL). */
#define XS_SYNC_FLAGS	(AT_FORCE_ATTR_SYNC | AT_NO_ATTR_SYNC)
#define XS_CALL_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | \
			 AT_EMPTY_PATH | XS_SYNC_FLAGS)
/* What supplement.c can add when the backend did not. */
#define XS_SUPPLEMENTABLE (XS_CLASS3 | XSTAT_REQUEST_MNT_ID | \
			   XSTAT_REQUEST_ATTRIBUTES | XSTAT_REQUEST_FS_ID)

struct xs_time {
	int64_t		sec;
	uint32_t	nsec;
};

/* One file's status, kernel-kstat-like; @mask holds XSTAT_REQUEST_* bits. */
struct xs_stat {
	uint64_t	mask;
	uint32_t	mode;
	uint32_t	nlink;
	uint32_t	uid;
	uint32_t	gid;
	uint32_t	rdev_major, rdev_minor;
	uint32_t	dev_major, dev_minor;
	struct xs_time	atime, mtime, ctime, btime;
	uint64_t	ino;
	uint64_t	size;
	uint64_t	blksize;
	uint64_t	blocks;
	uint64_t	gen;
	uint64_t	data_version;
	/* extra results (class 4) */
	uint64_t	mnt_id;
	uint32_t	mnt_id_unique;
	uint64_t	fs_key;		/* fscache.c's key, 0: none */
	uint64_t	attributes;
	uint64_t	attributes_mask;
	uint32_t	dio_mem_align;
	uint32_t	dio_offset_align;
	uint64_t	subvol;
	uint32_t	awu_min;
	uint32_t	awu_max;
	uint32_t	aw_segments_max;
	uint32_t	awu_max_opt;
	uint32_t	dio_read_offset_align;
	/* promise.c: the change token and what the values promise */
	uint64_t	token;
	uint64_t	token_promise;
	uint32_t	token_source;
	uint64_t	dv_promise;
	/* fsid.c: the filesystem's lasting name */
	unsigned char	fs_id[16];
	uint32_t	fs_id_source;
	/* why.c: XSTAT_WHY_* of missing class (3) fields, 0: not known */
	uint8_t		why_btime, why_gen, why_dv;
};

/*
 * How to reach the file: the *at() triple.  fxstat() becomes
 * { fd, "", AT_EMPTY_PATH }, so every layer has one path to handle.
 * The supplements get the anchored form (anchor.h): { anchor fd, "",
 * AT_EMPTY_PATH }, which names the inode the kernel resolved, and the
 * caller's name only to find a directory on the same filesystem.
 */
struct xs_target {
	int		dfd;
	const char	*path;
	unsigned	flags;		/* AT_* lookup and sync flags */
	int		name_dfd;	/* anchored: the caller's dfd, name */
	const char	*name;
	int		anchored;	/* dfd is the anchor */
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

/* mask.h: XSTAT_REQUEST_* <-> STATX_* translation, inline. */

/* backend selection: backend_statx.c */
enum xs_backend { XS_BACKEND_UNKNOWN, XS_BACKEND_STATX, XS_BACKEND_FALLBACK };
enum xs_backend xs_backend_current(void);

struct xs_statx;	/* the kernel's struct statx: syscall.h */
struct stat;

/*
 * backend_statx.c (per-call part inline in backend_statx.h): the kernel's
 * answer, and xs_stat_from_statx() to turn it into the record.
 */
void xs_stat_from_statx(struct xs_stat *st, const struct xs_statx *sx,
			uint64_t request);

/*
 * backend_fstatat.c (the fstatat call inline in backend_fstatat.h): the
 * record.
 */
void xs_stat_from_stat(struct xs_stat *st, const struct stat *sb);

/* supplement.c: add class (3) fields that were requested and are missing. */
void xs_supplement(const struct xs_target *t, uint64_t request,
		   struct xs_stat *st);

/*
 * fscache.c: per-filesystem facts keyed by the unique mount ID (@mnt_key,
 * 0: none known, nothing cached).  Flags are per-filesystem verdicts only
 * (see xs_fs_set_flag()).
 */
#define XS_FSF_NO_GETVERSION	0x1	/* FS_IOC_GETVERSION: ENOTTY here */
#define XS_FSF_NO_FSPROBE	0x20	/* no xfs/btrfs probe ioctl here */
#define XS_FSF_MGTIME		0x40	/* multigrain timestamps (promise.c) */
#define XS_FSF_IDMAPPED		0x80	/* an idmapped mount (statmount) */

/*
 * The idmapped mount a raw owner is mapped through (ext4dev.h,
 * struct xs_ext4_ident): the mount's unique ID @mnt_key when fscache.c
 * found it idmapped, else 0.  An idmapped mount whose ID is not known
 * cannot be told from a plain one; its owners are compared directly and
 * most files' raw fields stay cleared.
 */
static inline uint64_t xs_ext4_idmap_of(uint64_t mnt_key, uint32_t fsflags)
{
	return (fsflags & XS_FSF_IDMAPPED) ? mnt_key : 0;
}
uint64_t xs_fs_key(const struct xs_target *t, const struct xs_stat *st);
uint32_t xs_fs_magic(const struct xs_target *t, const struct xs_stat *st,
		     uint32_t *fsflags);
/* Only what is cached (0 if nothing is): no call of its own. */
uint32_t xs_fs_magic_cached(uint64_t mnt_key, uint32_t *fsflags);
void xs_fs_set_flag(const struct xs_stat *st, uint32_t flag);
/* Store @magic for @mnt_key (skipped while another thread writes). */
void xs_fs_remember(uint64_t mnt_key, uint32_t magic);
/* fs.c: network and FUSE filesystems: any call may be a server request. */
int xs_fs_remote(uint32_t magic);

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
 * handle.c: generation from name_to_handle_at(); 0 or negative errno:
 * -EOPNOTSUPP where @fs (fs.h) decodes no handles, -EPROTO when the
 * handle does not have the layout of @fs
 * and -ESTALE when it names another inode (both: the magic may be stale).
 * With @mnt the same call returns the mount ID there (see below), also
 * when the generation is not had.  xs_handle_decode_gen(): the same from
 * a handle already taken.
 */
struct xs_handle {
	struct file_handle	fh;
	unsigned char		bytes[128];	/* MAX_HANDLE_SZ */
};
struct xs_fs;
int xs_handle_gen(const struct xs_target *t, const struct xs_fs *fs,
		  const struct xs_stat *st, struct xs_mnt_id *mnt,
		  uint64_t *gen);
int xs_handle_decode_gen(const struct xs_handle *h, const struct xs_fs *fs,
			 const struct xs_stat *st, uint64_t *gen);

/*
 * mntid.c: mount ID from name_to_handle_at(), else /proc/self/fdinfo.
 * xs_name_to_handle(): name_to_handle_at() with @t's lookup flags, 0 or
 * -errno; with @mnt, the mount ID the kernel returns (the unique one
 * where it can) is returned there, also when the handle did not fit
 * (EOVERFLOW).
 */
struct file_handle;
int xs_mnt_id_get(const struct xs_target *t, struct xs_stat *st);
int xs_name_to_handle(const struct xs_target *t, struct file_handle *fh,
		      struct xs_mnt_id *mnt);
int xs_unique_mnt_id(const struct xs_target *t, uint64_t *id);
/*
 * The handle into @h and the unique mount ID into *@id, one call (Linux
 * 6.12+): 0 or -errno (-EOVERFLOW: *@id only; -EINVAL: the kernel has no
 * unique ID for handles, nothing taken).  *@id is 0 unless it was had.
 */
int xs_handle_unique(const struct xs_target *t, struct xs_handle *h,
		     uint64_t *id);

/* attrs.c: file attributes by file_getattr(2) or FS_IOC_GETFLAGS. */
int xs_attrs_get(const struct xs_target *t, struct xs_stat *st);

/*
 * probe_ioctl.c: FS_IOC_GETVERSION / GETFLAGS on the reopened anchor; 0 or
 * -errno (-ENOTTY: the filesystem has no such ioctl).
 */
int xs_ioctl_getversion(const struct xs_target *t, const struct xs_stat *st,
			uint64_t *gen);
int xs_ioctl_getflags(const struct xs_target *t, const struct xs_stat *st,
		      uint32_t *flags);

/*
 * anchor.c: descriptors opened on a file's behalf, all from an anchored
 * @t (else -EBADF).  xs_reopen(): a real descriptor of the anchored inode
 * itself, only for a regular file or directory (-EOPNOTSUPP otherwise),
 * through a /proc proven to be procfs.  xs_fs_dir_fd(): a directory on
 * the anchored file's st_dev that is not the file (a mount or subvolume
 * root directory: itself).  Both: fd or -errno; close it if *@close_it.
 * xs_proc_fd_dir(): O_PATH fd of /proc/self/fd if it is procfs;
 * xs_fd_on_procfs(): 1 if @fd is on procfs.  xs_open_eintr(): openat() under XS_EINTR(): fd or -errno.
 */
int xs_reopen(const struct xs_target *t, const struct xs_stat *st,
	      int *close_it);
int xs_fs_dir_fd(const struct xs_target *t, const struct xs_stat *st,
		 int *close_it);
int xs_proc_fd_dir(void);
int xs_fd_on_procfs(int fd);
int xs_open_eintr(int dfd, const char *path, int flags);
int xs_same_inode(int fd, const struct xs_stat *st);

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
 * anchor.c: decimal numbers without snprintf() and strtoull(), which
 * POSIX does not list as async-signal-safe (xstat() is, like stat(2)).
 * xs_put_u64(): the digits of @v at @p, no terminator; returns the end
 * (at most 20 characters).  xs_fd_name(): descriptor @fd as a terminated
 * name (at least 12 bytes).  xs_get_u64(): the digits at @p, after
 * blanks; returns the first character after them, or NULL if there are
 * none or the value overflows.
 */
char *xs_put_u64(char *p, uint64_t v);
char *xs_fd_name(char *p, int fd);
const char *xs_get_u64(const char *p, uint64_t *v);

/*
 * probe_ext4.c: read the raw ext4 inode of @st from its block device and
 * add BTIME, GEN and DATA_VERSION to @st where @want asks and the inode
 * can be trusted.  Never fails: what cannot be had stays cleared.  @t is
 * the file again: the data version may need one more stat of it (see
 * dv_armed() in probe_ext4.c).
 */
void xs_ext4_probe(const struct xs_target *t, uint64_t want,
		   uint32_t fsflags, struct xs_stat *st);

/*
 * idmap.c: 1 if @shown_uid/@shown_gid are how the idmapped mount @mnt_id
 * shows raw owner @uid/@gid, 0 if not or if that cannot be told.
 */
int xs_idmap_same_owner(uint64_t mnt_id, uint32_t uid, uint32_t gid,
			uint32_t shown_uid, uint32_t shown_gid);

/*
 * probe_xattr.c: the NT time of a creation-time xattr (-ERANGE if
 * invalid); the probes of each filesystem are in its row (fs.h).
 */
int xs_nt_time_to_unix(uint64_t nt, struct xs_time *t);
/*
 * probe_fsquery.c: @query on a directory of the file's st_dev (anchor.c),
 * its answer: 0 or -errno (-EPERM: not allowed now); nothing recorded.
 * xs_fs_query_allowed(): may this thread run it now (CAP_SYS_ADMIN)?
 */
int xs_fs_query_allowed(void);
int xs_fs_query(const struct xs_target *t, const struct xs_stat *st,
		int (*query)(int fd, uint64_t ino, void *out), void *out);

/*
 * promise.c: the change token and the data version's promise into @st,
 * where @request asks, from the filesystem's row (fs.h); @t is the
 * anchored target or NULL (then only what is cached or needs no
 * descriptor is looked up).  fs.c: xs_fs_type_mgtime(), does a mount of
 * type @type (the mount's name, "ext4") with @magic use multigrain
 * timestamps on this kernel?
 */
#define XS_PROMISE_EXTRAS	(XSTAT_REQUEST_CHANGE_TOKEN | \
				 XSTAT_REQUEST_DV_PROMISE)
int xs_fs_type_mgtime(uint32_t magic, const char *type);

/*
 * fsid.c: XSTAT_REQUEST_FS_ID.  xs_fs_id_cached(): from what is known of
 * @st's mount, without a descriptor (the stream and the unanchored path).
 * xs_fs_id_get(): the same, else probed through the anchored @t.  Both
 * set the field and its bit, or leave them; 0 or -errno.
 */
int xs_fs_id_cached(struct xs_stat *st);
int xs_fs_id_get(const struct xs_target *t, struct xs_stat *st);
void xs_promise_fill(const struct xs_target *t, uint64_t request,
		     struct xs_stat *st);

/*
 * why.c: the XSTAT_WHY_* reasons for the class (3) fields @request asked
 * for and @st lacks, into @st, where the library knows them; @t as for
 * xs_promise_fill(), @from_statx: the kernel's answer came from statx.
 */
void xs_why_fill(const struct xs_target *t, uint64_t request,
		 int from_statx, struct xs_stat *st);

/*
 * Leave the change and modification times out of @st: asked of statx only
 * for the token or the data version's arming, and reported by statx only
 * when asked (multigrain timestamps), they are not the caller's.
 */
static inline void xs_stat_drop_cmtime(struct xs_stat *st)
{
	st->mask &= ~(XSTAT_REQUEST_CTIME | XSTAT_REQUEST_MTIME);
	memset(&st->ctime, 0, sizeof(st->ctime));
	memset(&st->mtime, 0, sizeof(st->mtime));
}

/* copyout.c: the public layout and the buffer-size rule. */
ssize_t xs_copyout(const struct xs_stat *st, uint64_t request,
		   struct xstat *buffer, size_t buflen);

/*
 * The tail every result goes through (xstat.c's calls, bulk_entry.c's
 * entries), once the kernel's answer and the supplements are in @st: the
 * promises, the reasons for what is missing, the times the caller did not
 * ask for dropped (@drop_cmtime), the copy out.  @t: the anchored target,
 * or NULL.  Inline: a plain result pays only for the tests.
 */
static inline ssize_t xs_deliver(const struct xs_target *t, uint64_t request,
				 int from_statx, int drop_cmtime,
				 struct xs_stat *st, struct xstat *buffer,
				 size_t buflen)
{
	if (request & XS_PROMISE_EXTRAS)
		xs_promise_fill(t, request, st);
	if (request & XSTAT_REQUEST_WHY_MISSING)
		xs_why_fill(t, request, from_statx, st);
	if (drop_cmtime)
		xs_stat_drop_cmtime(st);
	return xs_copyout(st, request, buffer, buflen);
}

/*
 * xstat.c: xstat()'s work for @t once its arguments are checked: the
 * result's size, or -errno (errno untouched).
 */
ssize_t xs_stat_target(const struct xs_target *t,
		       const struct xstat_parameters *params,
		       struct xstat *buffer, size_t buflen);

#endif /* LIBXSTAT_INTERNAL_H */
