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
 * write in progress, or a count moved while they copied, treat it as a
 * miss.  The read side, xs_ext4_facts_get(), is inline in ext4dev_int.h.
 */
#include <stdint.h>
#include <string.h>
#include "ext4dev_int.h"

struct dev_slot xs_ext4_dev_slots[DEV_SLOTS];

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
			   const struct xs_ext4_facts *f)
{
	unsigned int i;

	if (!slot_claim(s, seq, &seq))
		return SEQ_NONE;
	memcpy(&s->f, f, sizeof(*f));
	for (i = 0; i < ITABLE_SLOTS; i++)
		__atomic_store_n(&s->itable[i], 0, __ATOMIC_RELAXED);
	return slot_release(s, seq);
}

void xs_ext4_facts_drop(struct dev_slot *s, uint32_t seq)
{
	if (!slot_claim(s, seq, &seq))
		return;
	s->f.key = 0;
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
