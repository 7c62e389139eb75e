/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Directory streams: what the iterator (bulk*.c) and bulk_ext4.c (the
 * batch's raw inode reads) share.  A batch is up to BULK_BATCH entries of
 * a window of the directory sorted by inode number; each entry is stat'ed
 * either when it is handed out (the per-call pipeline, xstat() itself) or,
 * on ext4 when the device can be read, all together when the batch is
 * filled: one statx each, then the inode table read once per run of
 * blocks for all of them, then the device closed before the first entry
 * is handed out.
 */
#ifndef LIBXSTAT_BULK_H
#define LIBXSTAT_BULK_H

#include <stddef.h>
#include <stdint.h>
#include "internal.h"
#include "ext4_disk.h"
#include "ext4dev.h"

/*
 * A window of the directory is up to BULK_WINDOW entries whose names fit
 * in BULK_NAMES bytes, sorted by inode number, and handed out in batches
 * of up to BULK_BATCH of them, each stat'ed and read raw when it is
 * filled.  The window is large because a directory's order (a hash on
 * ext4) scatters its inodes over the inode table: a window of W entries
 * of an N-entry directory shares a table block between 16 W / N entries
 * (256-byte inodes, 4 KiB blocks), and the raw reads copy whole blocks.
 * Its batches are consecutive in inode order, so each reads its own part
 * of the table, and a table block is read about once per window, not
 * once per batch; and only a batch's statx answers are kept, 304 bytes
 * an entry where the window keeps 40 and the name's record 24 to 64.
 */
#define BULK_WINDOW	32768		/* entries per raw-read window */
#define BULK_BATCH	4096		/* of them stat'ed and read at a time */
#define BULK_SMALL	512		/* per window stat'ed one by one */
#define BULK_NAMES	(1024 * 1024)	/* bytes of names per window */
#define BULK_DENTS	(64 * 1024)	/* bytes per getdents64 read */
#define BULK_RUN	(64 * 1024)	/* bytes per inode-table pread */
/* Room for any result: struct xstat and every extra. */
#define BULK_RESULT	XSTAT_RESULT_MAX

enum bulk_state {
	BULK_PENDING,	/* stat it when handed out: xstat() per name */
	BULK_READY,	/* st is complete but for the non-raw supplements */
	BULK_FAILED,	/* err holds the entry's errno */
};

/*
 * An entry of the batch.  Its getdents64 record (inode number, type,
 * name) stays where the kernel wrote it in the batch's name arena
 * while the batch lives: the entry points at its name there
 * (bulk_dir.h, bulk_rec()).
 */
struct bulk_ent {
	const char	*name;		/* in the batch's name arena */
	unsigned char	state;		/* enum bulk_state */
	unsigned char	from_statx;	/* st's: the backend that answered */
	int		err;		/* only where BULK_FAILED */
	struct xs_stat	*st;		/* only in a raw-read batch */
};

/*
 * The request statx gets in a batch that reads raw inodes: what was
 * asked, plus what each raw inode is checked against (inode number,
 * mode, links, owner, group, ctime).  Asking for the ctime is also what
 * arms the data version (multigrain timestamps, 6.13+): a change after
 * this statx gets a new fine-grained ctime and a new i_version, so a raw
 * inode whose ctime equals the answer's to the nanosecond holds the
 * i_version of the file as statx saw it, and any later change moves it.
 */
#define BULK_CHECK	(XSTAT_REQUEST_MODE | XSTAT_REQUEST_NLINK | \
			 XSTAT_REQUEST_UID | XSTAT_REQUEST_GID | \
			 XSTAT_REQUEST_INO | XSTAT_REQUEST_CTIME)

static inline uint64_t xs_bulk_arm_request(uint64_t request)
{
	return request | BULK_CHECK;
}

/*
 * bulk_ext4.c.  xs_bulk_ext4_open(): the ext4 block device @major:@minor
 * that @dirfd's filesystem is mounted from, through the mount whose
 * unique ID is @mnt_key (0: unknown), opened read-only and checked
 * (superblock sane, and the one mounted); 0 or -errno.  @ino: an inode
 * the batch will read, whose group's inode table ext4dev.c may know.
 * Held for one batch fill only, closed by xs_bulk_ext4_close() before
 * any entry is handed out.
 */
struct xs_bulk_dev {
	struct xs_ext4_dev	dev;	/* ext4dev.c's: geometry, driver */
	int			fd;	/* @dev.fd */
	uint64_t		ino;	/* @dev.itable is its group's */
	int			dv_ok;	/* xs_ext4_dev_dv_ok(), at the open */
};

int xs_bulk_ext4_open(uint32_t major, uint32_t minor, uint64_t mnt_key,
		      int dirfd, uint64_t ino, struct xs_bulk_dev *dv);
void xs_bulk_ext4_close(struct xs_bulk_dev *dv);

/*
 * Add @want (of BTIME, GEN, DATA_VERSION) from the raw inodes to the
 * entries @ents[0..n), n <= BULK_BATCH, BULK_PENDING with their statx
 * answers in st, sorted by inode number, all on @dv's filesystem and
 * seen through one mount, idmapped as @idmap_mnt says
 * (xs_ext4_idmap_of(); 0: owners as stored).  Each entry whose raw inode
 * was read and matches its statx answer becomes BULK_READY; every other
 * one stays BULK_PENDING (the per-call path).  @run is BULK_RUN bytes,
 * @offs room for @n offsets.
 */
void xs_bulk_ext4_read(const struct xs_bulk_dev *dv, struct bulk_ent **ents,
		       size_t n, uint64_t want, uint64_t idmap_mnt,
		       uint8_t *run, uint64_t *offs);

/*
 * Entries ever vouched for by a batch's raw read (relaxed atomic, added
 * once per batch): a test hook (TEST_CORE_LIBS), since an entry sent to
 * the per-call path gets the same result, only slower.
 */
extern XS_HIDDEN unsigned long xs_bulk_raw_ready;
/*
 * Entries handed out by the per-call pipeline, the same kind of hook:
 * counted per stream, added when it is closed.
 */
extern XS_HIDDEN unsigned long xs_bulk_per_call;

#endif /* LIBXSTAT_BULK_H */
