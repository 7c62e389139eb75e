// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The facts the ext4 prober keeps about each device between calls
 * (ext4dev.c says which, and why nothing else): DEV_SLOTS slots,
 * direct-mapped by device and mount, each with the inode table blocks of
 * recently probed groups.
 *
 * Async-signal-safe: xstat() may be called from a signal handler that
 * interrupted xstat().  The cache takes no lock.  Each slot is a seqlock
 * whose writers claim it with one compare-and-swap and simply skip the
 * write when it is busy (a writer may be the code the handler
 * interrupted: waiting for it would never end), and readers that see a
 * write in progress treat it as a miss.
 */
#include <stdint.h>
#include "ext4dev_int.h"

#define DEV_SLOTS	16	/* direct-mapped by dev_t; a power of two */
#define ITABLE_SLOTS	32	/* per device, direct-mapped by group */

/* Inode table cache entry: group / ITABLE_SLOTS, then a 37-bit block. */
#define IT_BLOCK_BITS	37
#define IT_BLOCK_MASK	((1ULL << IT_BLOCK_BITS) - 1)

/*
 * @seq is even while the slot is stable and odd while one writer (the
 * one whose compare-and-swap made it odd) changes it; every access to
 * the rest is atomic, so a torn read is detected and never undefined.
 */
struct dev_slot {
	uint32_t		seq;
	union fact_words	u;
	uint64_t		itable[ITABLE_SLOTS];	/* 0 = empty */
};

static struct dev_slot dev_slots[DEV_SLOTS];

struct dev_slot *xs_ext4_slot_of(uint64_t key, uint64_t fs_key)
{
	return &dev_slots[((key ^ fs_key) * 0x9E3779B97F4A7C15ULL) >> 60 &
			  (DEV_SLOTS - 1)];
}

/* Is @s still as it was at @seq (even)?  After relaxed loads. */
static int seq_unchanged(struct dev_slot *s, uint32_t seq)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq;
}

int xs_ext4_facts_get(struct dev_slot *s, uint64_t key, uint64_t fs_key,
		      uint64_t ino, union fact_words *u, uint64_t *itable,
		      uint32_t *seqp)
{
	uint32_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), group;
	unsigned int i;
	uint64_t e;

	if (seq & 1)
		return 0;
	for (i = 0; i < FACT_WORDS; i++)
		u->w[i] = __atomic_load_n(&s->u.w[i], __ATOMIC_RELAXED);
	if (!seq_unchanged(s, seq) || u->f.key != key ||
	    u->f.fs_key != fs_key)
		return 0;
	*seqp = seq;
	*itable = 0;
	/* Only a consistent geometry may be divided by. */
	if (!(u->f.flags & F_GEOM) || ino < 1 || ino > u->f.geom.inodes_count)
		return 1;
	group = xs_ext4_group_of(&u->f.geom, ino);
	e = __atomic_load_n(&s->itable[group % ITABLE_SLOTS],
			    __ATOMIC_RELAXED);
	if (seq_unchanged(s, seq) && e >> IT_BLOCK_BITS == group / ITABLE_SLOTS)
		*itable = e & IT_BLOCK_MASK;
	return 1;
}

/*
 * Claim @s for writing if it is still at @seq (SEQ_NONE: whatever stable
 * state it is in): 1, and *@seqp is the state it was claimed from.  0: it
 * is busy or changed; the write is skipped, never waited for.
 */
static int slot_claim(struct dev_slot *s, uint32_t seq, uint32_t *seqp)
{
	uint32_t v = seq == SEQ_NONE ? __atomic_load_n(&s->seq,
						       __ATOMIC_RELAXED) : seq;

	if (v & 1 || !__atomic_compare_exchange_n(&s->seq, &v, v + 1, 0,
						  __ATOMIC_RELAXED,
						  __ATOMIC_RELAXED))
		return 0;
	/* The odd count is seen before any of the stores below. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	*seqp = v;
	return 1;
}

static uint32_t slot_release(struct dev_slot *s, uint32_t seq)
{
	__atomic_store_n(&s->seq, seq + 2, __ATOMIC_RELEASE);
	return seq + 2;
}

uint32_t xs_ext4_facts_put(struct dev_slot *s, uint32_t seq,
			   const union fact_words *u)
{
	unsigned int i;

	if (!slot_claim(s, seq, &seq))
		return SEQ_NONE;
	for (i = 0; i < FACT_WORDS; i++)
		__atomic_store_n(&s->u.w[i], u->w[i], __ATOMIC_RELAXED);
	for (i = 0; i < ITABLE_SLOTS; i++)
		__atomic_store_n(&s->itable[i], 0, __ATOMIC_RELAXED);
	return slot_release(s, seq);
}

void xs_ext4_facts_drop(struct dev_slot *s, uint32_t seq)
{
	if (!slot_claim(s, seq, &seq))
		return;
	__atomic_store_n(&s->u.w[0], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->u.w[1], 0, __ATOMIC_RELAXED);
	slot_release(s, seq);
}

void xs_ext4_dev_set_itable(const struct xs_ext4_dev *d, uint32_t group,
			    uint64_t itable)
{
	struct dev_slot *s = d->slot;
	uint32_t seq;

	/*
	 * Only into the facts this probe read (the slot may hold another
	 * device by now); blocks past 2^37 (512 TiB of 4 KiB blocks) are
	 * not cached.
	 */
	if (d->seq == SEQ_NONE || !itable || (itable & ~IT_BLOCK_MASK) ||
	    !slot_claim(s, d->seq, &seq))
		return;
	__atomic_store_n(&s->itable[group % ITABLE_SLOTS],
			 (uint64_t)(group / ITABLE_SLOTS) << IT_BLOCK_BITS |
			 itable, __ATOMIC_RELAXED);
	slot_release(s, seq);
}
