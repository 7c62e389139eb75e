// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-filesystem facts: the filesystem type (statfs magic) of each mount
 * seen, and what libxstat learned the filesystem cannot do.
 *
 * Keyed by the unique mount ID, in a table written and read as
 * seqslot.h says (which is also why nothing waits in here): without a
 * unique ID nothing is cached and every call looks again.
 *
 * Only facts about the filesystem are recorded, never an answer about one
 * file; see xs_fs_set_flag().
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include "internal.h"
#include "syscall.h"
#include "fs.h"
#include "fscache.h"
#include "mntid.h"
#include "rawsys.h"
#include "seqslot.h"

#define FSCACHE_BITS	6	/* 64 slots */

/* A slot's words: magic | flags << 32, and xs_fs_of(magic). */
enum { FS_VALUE, FS_ROW, FS_WORDS };

_Static_assert(FS_WORDS <= XS_SEQSLOT_WORDS, "a slot holds that many");

static struct xs_seqslot fs_slots[1 << FSCACHE_BITS];

/* 1 and the slot's facts for @key and their row, or 0. */
static inline __attribute__((always_inline)) int
slot_read(uint64_t key, uint64_t *value, const struct xs_fs **row)
{
	struct xs_seqslot *s = xs_seqslot_at(fs_slots, FSCACHE_BITS, key);
	uint64_t w[FS_WORDS];

	if (!xs_seqslot_read(s, key, w, FS_WORDS))
		return 0;
	*value = w[FS_VALUE];
	*row = (const struct xs_fs *)(uintptr_t)w[FS_ROW];
	return 1;
}

/*
 * Store, or merge into what is stored for @key: @flags are added, and
 * a @magic of 0 keeps the magic and row stored (with none stored,
 * nothing is).  The row is looked up before the claim: no call is made
 * while the slot is held.
 */
static void store(uint64_t key, uint32_t magic, uint32_t flags)
{
	struct xs_seqslot *s = xs_seqslot_at(fs_slots, FSCACHE_BITS, key);
	uint64_t seq, w[FS_WORDS];
	const struct xs_fs *row;

	if (!key)
		return;
	row = magic ? xs_fs_of(magic) : NULL;
	if (!xs_seqslot_claim(s, &seq))
		return;
	if (xs_seqslot_held(s, key, w, FS_WORDS)) {
		if (!magic) {
			magic = (uint32_t)w[FS_VALUE];
			row = (const struct xs_fs *)(uintptr_t)w[FS_ROW];
		}
		flags |= (uint32_t)(w[FS_VALUE] >> 32);
	}
	if (!magic) {
		xs_seqslot_abandon(s, seq);
		return;
	}
	w[FS_VALUE] = magic | (uint64_t)flags << 32;
	w[FS_ROW] = (uintptr_t)row;
	xs_seqslot_publish(s, seq, key, w, FS_WORDS);
}

void xs_fs_remember(uint64_t mnt_key, uint32_t magic)
{
	store(mnt_key, magic, 0);
}

/* Only what is cached (0 if nothing is): no call of its own. */
static uint32_t magic_cached(uint64_t mnt_key, uint32_t *fsflags)
{
	const struct xs_fs *row;
	uint64_t value;

	if (mnt_key && slot_read(mnt_key, &value, &row)) {
		*fsflags = (uint32_t)(value >> 32);
		return (uint32_t)value;
	}
	return 0;
}

uint32_t xs_fs_magic_cached(uint64_t mnt_key, uint32_t *fsflags)
{
	return magic_cached(mnt_key, fsflags);
}

/*
 * statmount(2) (Linux 6.8+), no filesystem call: the superblock's magic,
 * the mount's type name (which tells an "ext4" mount from the ext4
 * driver's "ext3" one), and whether the mount is idmapped
 * (MOUNT_ATTR_IDMAP: a fact of the mount, never changed once it is
 * attached, and the key is this mount's).
 */
#define XS_STATMOUNT_FS_TYPE	0x20U

/* The magic; in *@flags XS_FSF_MGTIME and XS_FSF_IDMAPPED where they hold. */
static uint32_t magic_by_statmount(uint64_t mnt_id, uint32_t *flags)
{
	struct xs_mnt_id_req req = { sizeof(req), 0, mnt_id,
				     XS_STATMOUNT_SB_BASIC |
				     XS_STATMOUNT_MNT_BASIC |
				     XS_STATMOUNT_FS_TYPE };
	struct {
		struct xs_statmount	h;
		char			str[64];
	} buf;

	/*
	 * The kernel writes the head and sets in @mask what it filled; only
	 * what says so is cleared first (a filter's fake success writes
	 * nothing, and leaves no bit set).
	 */
	buf.h.size = 0;
	buf.h.mask = 0;
	if (xs_raw_syscall(XS_NR_statmount, (long)&req, (long)&buf,
			   sizeof(buf), 0, 0) ||
	    !(buf.h.mask & XS_STATMOUNT_SB_BASIC))
		return 0;
	buf.str[sizeof(buf.str) - 1] = '\0';
	if ((buf.h.mask & XS_STATMOUNT_FS_TYPE) &&
	    buf.h.fs_type < sizeof(buf.str) &&
	    xs_fs_type_mgtime(xs_fs_of((uint32_t)buf.h.sb_magic),
			      buf.str + buf.h.fs_type))
		*flags |= XS_FSF_MGTIME;
	if ((buf.h.mask & XS_STATMOUNT_MNT_BASIC) &&
	    (buf.h.mnt_attr & XS_MOUNT_ATTR_IDMAP))
		*flags |= XS_FSF_IDMAPPED;
	return (uint32_t)buf.h.sb_magic;
}

/*
 * The filesystem type of the anchored file (@t names it), looked up and
 * stored for its mount.  With a unique mount ID statmount(2) answers from
 * the VFS; else fstatfs(2) on the anchor, which on FUSE and network
 * filesystems is a request to the server (FUSE_STATFS): never made with
 * AT_NO_ATTR_SYNC, which then leaves the type unknown (0).
 */
static uint32_t lookup(const struct xs_target *t, uint64_t mnt_key,
		       uint32_t *fsflags)
{
	struct statfs sfs;
	uint32_t magic = 0;

	*fsflags = 0;
	if (mnt_key)
		magic = magic_by_statmount(mnt_key, fsflags);
	/* Without statmount: before 6.8, so no multigrain either. */
	if (!magic && t && !(t->flags & AT_NO_ATTR_SYNC) &&
	    fstatfs(t->dfd, &sfs) == 0)
		magic = (uint32_t)sfs.f_type;
	if (magic)
		store(mnt_key, magic, *fsflags);
	return magic;
}

/* The row of @st's filesystem for the rest of the call (fscache.h). */
static inline const struct xs_fs *resolved(struct xs_stat *st,
					   const struct xs_fs *row)
{
	st->fs = row;
	st->fs_resolved = 1;
	return row;
}

/*
 * The row of a type not cached for @st's key, looked up (and stored).  Out
 * of line, and ending the resolution itself: a call whose type is cached
 * pays for none of its registers, one whose type is not for no frame of
 * xs_fs_row_resolve()'s.
 */
static __attribute__((noinline)) const struct xs_fs *
row_looked_up(const struct xs_target *t, struct xs_stat *st)
{
	return resolved(st, xs_fs_of(lookup(t, st->fs_key, &st->fsflags)));
}

const struct xs_fs *xs_fs_row_resolve(const struct xs_target *t,
				      struct xs_stat *st)
{
	uint64_t value;

	if (!st->fs_key)
		st->fs_key = xs_fs_key(NULL, st);
	/* A slot is stored only with a magic, and its row with it. */
	if (!st->fs_key || !slot_read(st->fs_key, &value, &st->fs))
		return row_looked_up(t, st);
	st->fsflags = (uint32_t)(value >> 32);
	return resolved(st, st->fs);
}

/*
 * Record a fact about @st's filesystem (and in the row @st carries).  The
 * rule for every caller: only an answer that holds for every file of the
 * filesystem becomes a flag here (the filesystem has no such ioctl:
 * ENOTTY).  A refusal (EPERM) is not one: it belongs to the calling
 * thread's credentials of the moment, which another thread or the next
 * call need not share.  An answer about one file - this inode has no
 * creation time, no such xattr, is a symlink that cannot be opened -
 * never does: it would clear the field for every other file.
 */
void xs_fs_set_flag(struct xs_stat *st, uint32_t flag)
{
	st->fsflags |= flag;
	store(st->fs_key, 0, flag);
}
