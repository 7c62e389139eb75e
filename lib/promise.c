// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a data version and a change token promise, from one table of
 * per-filesystem facts, and the change token itself.
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
#include <sys/utsname.h>
#include "internal.h"
#include "syscall.h"

#define P_EVERY		XSTAT_PROMISE_EVERY_CHANGE
#define P_TICK		XSTAT_PROMISE_TICK
#define P_MONO		XSTAT_PROMISE_MONOTONIC
#define P_PERSIST	XSTAT_PROMISE_PERSISTENT
#define P_META		XSTAT_PROMISE_METADATA
#define P_ATIME		XSTAT_PROMISE_ATIME
#define P_WRAP32	XSTAT_PROMISE_WRAP32
#define P_CLOCK		XSTAT_PROMISE_CLOCK
#define P_LAGS		XSTAT_PROMISE_LAGS
#define P_NAMES		XSTAT_PROMISE_NAMES

/*
 * The facts, measured (libxstat(7), "What a data version promises", and
 * tests/test-token.c).  @mgtime: the mount type that has FS_MGTIME since
 * 6.13 (for ext4 only "ext4": the driver's "ext2" and "ext3" types have
 * not).  @dv: the promise of the data version libxstat reads there when
 * it is armed, EVERY_CHANGE standing for "every change once armed" (made
 * TICK below where nothing arms); 0: libxstat reads none.  @ctime: what
 * the ctime token promises besides EVERY_CHANGE or TICK.  @tick_types:
 * the file types (FT_*) whose ctime promises only TICK even there.
 *
 * tmpfs directories: creating, linking or removing an entry copies the
 * entry's new ctime into the directory (shmem_mknod(), shmem_link(),
 * shmem_unlink()), so the directory never takes a fine-grained time of
 * its own, and two entry changes within one tick leave its ctime alone
 * (tests/test-token.c: 19,960 of 20,000 rounds on 6.18).  The counter
 * tmpfs keeps for them is not exposed by any system call.
 */
#define FT_REG		0x1
#define FT_DIR		0x2
#define FT_LNK		0x4
#define FT_OTHER	0x8

static const struct fs_facts {
	uint32_t	magic;
	const char	*mgtime;
	uint64_t	dv;
	uint64_t	ctime;
	unsigned	tick_types;
} facts[] = {
	{ XS_EXT4_SUPER_MAGIC,	"ext4",
	  P_EVERY | P_MONO | P_PERSIST | P_META,
	  P_PERSIST | P_META | P_NAMES, 0 },
	{ XS_BTRFS_SUPER_MAGIC,	"btrfs",
	  P_EVERY | P_MONO | P_PERSIST | P_META | P_NAMES | P_LAGS,
	  P_PERSIST | P_META | P_NAMES, 0 },
	{ XS_XFS_SUPER_MAGIC,	"xfs",	0, P_PERSIST | P_META | P_NAMES, 0 },
	{ XS_TMPFS_MAGIC,	"tmpfs", 0, P_META | P_NAMES, FT_DIR },
};

static unsigned file_type(uint32_t mode)
{
	if (S_ISREG(mode))
		return FT_REG;
	if (S_ISDIR(mode))
		return FT_DIR;
	if (S_ISLNK(mode))
		return FT_LNK;
	return FT_OTHER;
}


static const struct fs_facts *facts_of(uint32_t magic)
{
	size_t i;

	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)
		if (facts[i].magic == magic)
			return &facts[i];
	return NULL;
}

/* Linux 6.13 or later (where FS_MGTIME exists): asked once. */
static int kernel_mgtime(void)
{
	static int known;	/* atomic: 0 unknown, 1 no, 2 yes */
	int v = __atomic_load_n(&known, __ATOMIC_RELAXED);
	struct utsname u;
	unsigned long major = 0, minor = 0;
	const char *p;

	if (v)
		return v == 2;
	if (uname(&u) == 0) {
		for (p = u.release; *p >= '0' && *p <= '9'; p++)
			major = major * 10 + (unsigned long)(*p - '0');
		if (*p == '.')
			for (p++; *p >= '0' && *p <= '9'; p++)
				minor = minor * 10 + (unsigned long)(*p - '0');
	}
	v = major > 6 || (major == 6 && minor >= 13) ? 2 : 1;
	__atomic_store_n(&known, v, __ATOMIC_RELAXED);
	return v == 2;
}

int xs_fs_type_mgtime(uint32_t magic, const char *type)
{
	const struct fs_facts *f = facts_of(magic);

	return f && type && strcmp(type, f->mgtime) == 0 && kernel_mgtime();
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
static int ctime_every(const struct fs_facts *f, const struct xs_stat *st)
{
	return !ctime_coarse(st) && !(f->tick_types & file_type(st->mode));
}

/* The data version's promise here, 0 if there is none. */
static uint64_t dv_promise(const struct fs_facts *f, int mg,
			   const struct xs_stat *st)
{
	uint64_t p;

	if (!(st->mask & XSTAT_REQUEST_DATA_VERSION) || !f || !f->dv)
		return 0;
	p = f->dv;
	/* ext4's 128-byte inodes hold only the low 32 bits (l_i_version). */
	if (f->magic == XS_EXT4_SUPER_MAGIC &&
	    (!(st->mask & XSTAT_REQUEST_CTIME) || ctime_coarse(st)))
		p |= P_WRAP32;
	if (!mg || !(st->mask & XSTAT_REQUEST_CTIME) || ctime_coarse(st))
		p = (p & ~P_EVERY) | P_TICK;
	return p;
}

void xs_promise_fill(const struct xs_target *t, uint64_t request,
		     struct xs_stat *st)
{
	const struct fs_facts *f;
	uint32_t fsflags = 0, magic;
	uint64_t dvp;
	int mg;

	if (!(request & XS_PROMISE_EXTRAS))
		return;
	if (!st->fs_key)
		st->fs_key = xs_fs_key(NULL, st);
	magic = xs_fs_magic(t, st, &fsflags);
	f = facts_of(magic);
	mg = f && (fsflags & XS_FSF_MGTIME);
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
