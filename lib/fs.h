/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What each filesystem gives libxstat beyond what statx (or fstat) says
 * of every file: one row per filesystem, each row in the file named after
 * it (fs_ext4.c, fs_xfs.c, ...), every row listed once in fs_rows.h.
 * Code above the table asks only the table: no other file under lib/
 * names the statfs magic number of a filesystem that has a row (procfs
 * and sysfs, which have none, are checked by anchor.c and ext4dev_read.c;
 * ext4_disk.h names the magic of an on-disk ext4 superblock).  Adding a filesystem is one fs_*.c
 * file, its line in fs_rows.h and its line in lib/fs.am
 * (docs/ARCHITECTURE.md, "Filesystems: one row each").
 *
 * A row states facts that were measured on that filesystem (libxstat(7),
 * "What a data version promises"; tests/test-token.c and
 * tests/check-promises.sh check them per file type); a filesystem without
 * a row promises nothing beyond the default (fs.c).
 */
#ifndef LIBXSTAT_FS_H
#define LIBXSTAT_FS_H

#include <stdint.h>
#include <string.h>
#include "internal.h"

/* struct xs_fs.flags */
#define XS_FS_REMOTE		0x01	/* any call may be a server request */
#define XS_FS_STATX_BTIME	0x02	/* statx gives btime where the inode has one */
#define XS_FS_FSID_UUID		0x04	/* f_fsid is made from the fs UUID */
#define XS_FS_RAW_INODES	0x08	/* batches read raw inodes (bulk_ext4.c) */
#define XS_FS_DV_LOW32_COARSE	0x10	/* dv: 32 bits where ctime has seconds */
#define XS_FS_DENTS_END		0x20	/* getdents64 marks the end: XS_DENTS_END */

/*
 * The position ext4 gives after a directory's last entry, which
 * getdents64 writes into the last record's d_off when a read reaches the
 * end: its hash of the end of the directory for this process's width of
 * hash (32 bits for a 32-bit process), a value it keeps every entry's
 * hash from taking.  A stream that sees it needs no read to learn the end.
 */
#define XS_DENTS_END	(sizeof(long) == 8 ? (int64_t)0x7fffffffffffffff : \
			 (int64_t)0x7fffffff)

/* struct xs_fs.btime_needs and .dv_needs: what reading the value takes. */
#define XS_NEEDS_ROOT		0x1	/* euid 0: the block device is root's */
#define XS_NEEDS_FS_QUERY	0x2	/* CAP_SYS_ADMIN now (probe_fsquery.c) */

/* Filesystem-wide file types, for xs_fs.tick_types. */
#define XS_FT_REG		0x1
#define XS_FT_DIR		0x2
#define XS_FT_LNK		0x4
#define XS_FT_OTHER		0x8

struct xs_fs {
	uint32_t	magic;		/* statfs(2) f_type */
	const char	*name;
	unsigned	flags;		/* XS_FS_* */
	/*
	 * The mount type that has multigrain timestamps (FS_MGTIME) since
	 * Linux 6.13; NULL: none (the ext4 driver's "ext2" and "ext3"
	 * mount types share ext4's magic, not its FS_MGTIME).
	 */
	const char	*mgtime_type;
	/*
	 * Promises (promise.c): @dv, of the data version libxstat reads
	 * there once armed (0: it reads none); @ctime, of the ctime token
	 * besides EVERY_CHANGE or TICK; @tick_types, the file types (XS_FT_*)
	 * whose ctime promises only TICK even with multigrain timestamps.
	 */
	uint64_t	dv;
	uint64_t	ctime;
	unsigned	tick_types;
	/* What the fallback's creation time and the data version need. */
	unsigned char	btime_needs;
	unsigned char	dv_needs;
	/* The creation-time xattr (probe_xattr.c), or NULL. */
	const char	*btime_xattr;
	/*
	 * The inode number and generation inside a file handle of this
	 * filesystem (name_to_handle_at(2)): 0, or -EPROTO for a layout it
	 * does not know.  NULL: its handles are not decoded.
	 */
	int		(*handle)(const struct file_handle *fh, uint64_t *ino,
				  uint64_t *gen);
	/*
	 * Class (3) fields statx and the handle did not give: add what
	 * @want asks and can be trusted for the anchored @t, else leave it
	 * cleared.  Returns the filesystem's own answer for supplement.c to
	 * judge the filesystem by (-ENOTTY: it has no such ioctl), 0 when
	 * there was none.  NULL: no such source.
	 */
	int		(*probe)(const struct xs_fs *fs, const struct xs_target *t,
				 uint64_t want, uint32_t fsflags,
				 struct xs_stat *st);
};

/* fs.c: the row of a known (non-zero) @magic, or the default row. */
const struct xs_fs *xs_fs_of_known(uint32_t magic);

/*
 * The row of @magic; the default row (fs.c) for a filesystem without
 * one; NULL when @magic is 0 (the type is not known: nothing is assumed).
 * Asked only where a call resolves its row (xs_fs_row(), fscache.c) and
 * where a stream resolves its directory's (bulk_fs.c): a result carries
 * its row from there on.  Inline: a type not learnt (statmount refused,
 * no anchor to ask) costs no search.
 */
static inline const struct xs_fs *xs_fs_of(uint32_t magic)
{
	return magic ? xs_fs_of_known(magic) : NULL;
}

/* The rows, each defined in its fs_*.c and listed once in fs_rows.h. */
#define XS_FS_ROW(name)	extern const struct xs_fs xs_fs_##name;
#include "fs_rows.h"
#undef XS_FS_ROW

/* Handles are in host byte order. */
static inline uint32_t xs_handle32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t xs_handle64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * The generation in the handle @fh of @st's inode, taken on the
 * filesystem of @fs, whose row decodes handles (fs->handle): 0, -EPROTO
 * (not the row's layout) or -ESTALE (another inode: the path may have
 * been replaced in between).
 */
static inline int xs_fs_handle_gen(const struct xs_fs *fs,
				   const struct file_handle *fh,
				   const struct xs_stat *st, uint64_t *gen)
{
	uint64_t ino;

	if (fs->handle(fh, &ino, gen))
		return -EPROTO;
	return ino == st->ino ? 0 : -ESTALE;
}

/* The FILEID_INO32_GEN layouts (1, and 2 with the parent): ext4, XFS. */
int xs_handle_ino32_gen(const struct file_handle *fh, uint64_t *ino,
			uint64_t *gen);

/* The xattr source of a creation time (probe_xattr.c): fs->btime_xattr. */
int xs_xattr_probe(const struct xs_fs *fs, const struct xs_target *t,
		   uint64_t want, uint32_t fsflags, struct xs_stat *st);

/*
 * fs.c: does a mount of type @type (the mount's name, "ext4") of the
 * filesystem of row @fs use multigrain timestamps on this kernel?
 */
int xs_fs_type_mgtime(const struct xs_fs *fs, const char *type);

/*
 * probe_ext4.c, ext4's row's probe: read the raw ext4 inode of @st from
 * its block device and add BTIME, GEN and DATA_VERSION to @st where @want
 * asks and the inode can be trusted.  Never fails (0): what cannot be had
 * stays cleared, with its reason noted.  @t is the file again: the data
 * version may need one more stat of it (see dv_armed() in probe_ext4.c).
 */
int xs_ext4_probe(const struct xs_fs *fs, const struct xs_target *t,
		  uint64_t want, uint32_t fsflags, struct xs_stat *st);


/*
 * probe_xattr.c: the NT time of a creation-time xattr (-ERANGE if
 * invalid); the probes of each filesystem are in its row (fs.h).
 */
int xs_nt_time_to_unix(uint64_t nt, struct xs_time *t);

#endif
