// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a data version and a change token promise, from the facts in the
 * filesystem's row (fs.h), and the change token itself.
 *
 * The token must change on every change made after the call that gave
 * it.  Two sources can promise that:
 *
 *  - A data version that promises every change (ext4's raw i_version
 *    armed by dv_armed() in probe_ext4.c, btrfs's inode sequence checked
 *    against the same stat's ctime; both need root).
 *  - The ctime the call itself read, on a filesystem with multigrain
 *    timestamps (Linux 6.13+, file systems of type FS_MGTIME: ext4, xfs,
 *    btrfs, tmpfs).  A getattr that asks for ctime or mtime sets
 *    I_CTIME_QUERIED on the inode's ctime (fill_mg_cmtime(), fs/stat.c);
 *    the next inode_set_ctime_current() (fs/inode.c) then takes a
 *    fine-grained time if the coarse clock is not past the stored ctime,
 *    so the next change stores a ctime different from the one read.  The
 *    query and the flag are one atomic operation on the ctime word: no
 *    change can slip between the read and the arming.  Every caller may
 *    read a ctime, so this works without privilege.
 *
 * Elsewhere (no multigrain, an "ext2" or "ext3" mount, which the ext4
 * driver serves without FS_MGTIME, a filesystem that keeps only seconds)
 * changes within one timestamp tick of each other can share a ctime, and
 * the token says so (XSTAT_PROMISE_TICK).
 *
 * A ctime can repeat after the clock is stepped back: multigrain's floor
 * is kept in monotonic time and converted to real time, so a change after
 * a backward step takes an earlier time, and might land on exactly the
 * nanosecond an old token was made from.  The token therefore hashes the
 * ctime with mtime, size, inode number, mode, link count and owner, so a
 * repeat needs all of them equal too, and still says XSTAT_PROMISE_CLOCK.
 * With a data version hashed in as well, a repeat also needs the data
 * version unchanged: only a link or rename (which ext4's i_version does
 * not count) could then go unseen after a backward step.  The hash is for
 * equality only: two different states share a token with a probability
 * of about 2^-64.
 */
#include <string.h>
#include <sys/stat.h>
#include "fs.h"
#include "fscache.h"
#include "result.h"

#define P_EVERY		XSTAT_PROMISE_EVERY_CHANGE
#define P_TICK		XSTAT_PROMISE_TICK
#define P_MONO		XSTAT_PROMISE_MONOTONIC
#define P_WRAP32	XSTAT_PROMISE_WRAP32
#define P_CLOCK		XSTAT_PROMISE_CLOCK

/* The file types of struct xs_fs.tick_types. */
static unsigned file_type(uint32_t mode)
{
	if (S_ISREG(mode))
		return XS_FT_REG;
	if (S_ISDIR(mode))
		return XS_FT_DIR;
	if (S_ISLNK(mode))
		return XS_FT_LNK;
	return XS_FT_OTHER;
}

/* murmur3's finaliser: every input bit reaches every output bit. */
static uint64_t fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/*
 * One word into the hash: xor, multiply by an odd constant, xorshift,
 * each a bijection, so two states that differ in one word never collide
 * and others do with a chance of about 2^-64; fmix() ends the hash.  On
 * every token call: a few instructions per word.
 */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

#define TOKEN_ATTRS	(XSTAT_REQUEST_CTIME | XSTAT_REQUEST_MTIME | \
			 XSTAT_REQUEST_SIZE | XSTAT_REQUEST_INO | \
			 XSTAT_REQUEST_MODE | XSTAT_REQUEST_NLINK | \
			 XSTAT_REQUEST_UID | XSTAT_REQUEST_GID)

static uint64_t ctime_token(const struct xs_stat *st)
{
	uint64_t h = XSTAT_TOKEN_FROM_CTIME;

	h = mix(h, (uint64_t)st->ctime.sec);
	h = mix(h, st->ctime.nsec);
	h = mix(h, (uint64_t)st->mtime.sec);
	h = mix(h, st->mtime.nsec);
	h = mix(h, st->size);
	h = mix(h, st->ino);
	h = mix(h, (uint64_t)st->mode << 32 | st->nlink);
	return fmix(mix(h, (uint64_t)st->uid << 32 | st->gid));
}

/*
 * A ctime with no nanoseconds: most likely a filesystem that keeps only
 * seconds (ext4 with 128-byte inodes, ext2/3 made so): take it to be one
 * (at worst a weaker promise than the truth, once in 10^9).
 */
static int ctime_coarse(const struct xs_stat *st)
{
	return st->ctime.nsec == 0;
}

/* With multigrain timestamps: does every change give this file a new ctime? */
static int ctime_every(const struct xs_fs *f, const struct xs_stat *st)
{
	return !ctime_coarse(st) && !(f->tick_types & file_type(st->mode));
}

/* The data version's promise here, 0 if there is none. */
static uint64_t dv_promise(const struct xs_fs *f, int mg,
			   const struct xs_stat *st)
{
	uint64_t p;

	if (!(st->mask & XSTAT_REQUEST_DATA_VERSION) || !f || !f->dv)
		return 0;
	p = f->dv;
	/* ext4's 128-byte inodes hold only the low 32 bits (l_i_version). */
	if ((f->flags & XS_FS_DV_LOW32_COARSE) &&
	    (!(st->mask & XSTAT_REQUEST_CTIME) || ctime_coarse(st)))
		p |= P_WRAP32;
	if (!mg || !(st->mask & XSTAT_REQUEST_CTIME) || ctime_coarse(st))
		p = (p & ~P_EVERY) | P_TICK;
	return p;
}

void xs_promise_fill(const struct xs_target *t, uint64_t request,
		     struct xs_stat *st)
{
	const struct xs_fs *f;
	uint64_t dvp;
	int mg;

	f = xs_fs_row(t, st);
	mg = f && (st->fsflags & XS_FSF_MGTIME);
	dvp = dv_promise(f, mg, st);

	if ((request & XSTAT_REQUEST_DV_PROMISE) && dvp) {
		st->dv_promise = dvp;
		st->mask |= XSTAT_REQUEST_DV_PROMISE;
	}
	if (!(request & XSTAT_REQUEST_CHANGE_TOKEN))
		return;
	if ((st->mask & TOKEN_ATTRS) != TOKEN_ATTRS)
		return;		/* no ctime: no token */
	st->token = ctime_token(st);
	st->token_promise = P_CLOCK | (f ? f->ctime : 0) |
			    (mg && ctime_every(f, st) ? P_EVERY : P_TICK);
	st->token_source = XSTAT_TOKEN_FROM_CTIME;
	/*
	 * A data version that sees every change: hashed in, the changes it
	 * counts cannot be missed after a clock step.  It does not count
	 * link or rename (ext4), which only the ctime records: those keep
	 * the ctime's promise, clock step included.
	 */
	if ((dvp & P_EVERY) && (st->token_promise & P_EVERY)) {
		st->token = fmix(mix(st->token ^ XSTAT_TOKEN_FROM_DATA_VERSION,
				     st->data_version));
		st->token_promise |= dvp & ~(P_MONO | P_WRAP32);
		st->token_source = XSTAT_TOKEN_FROM_DATA_VERSION;
	}
	st->mask |= XSTAT_REQUEST_CHANGE_TOKEN;
}
