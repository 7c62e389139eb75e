/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBXSTAT_SEQSLOT_H
#define LIBXSTAT_SEQSLOT_H

#include <stdint.h>

/* The most data words a slot has (each table asserts its count). */
#define XS_SEQSLOT_WORDS	4

/*
 * The one protocol of libxstat's per-mount tables (fscache.c, fsid.c,
 * mntid.c): a small direct-mapped array of slots, each a sequence count,
 * a key and a few data words, which its user lays out and interprets.
 *
 * The key is the unique mount ID (STATX_MNT_ID_UNIQUE or
 * AT_HANDLE_MNT_ID_UNIQUE), which the kernel never hands out twice while
 * it runs: a filesystem unmounted and re-made on the same device gets a
 * new key, where a dev_t key would have kept the old facts.  0 is no key
 * (an empty slot; without a unique ID nothing is cached).  So a slot holds
 * only facts of the mount or of its filesystem, never an answer about one
 * file (fscache.c's xs_fs_set_flag() says which verdicts qualify).
 *
 * Readers take no lock: a reader accepts what it read only if the count
 * was even and unchanged across the read.  A writer claims a slot with
 * one compare-and-swap of its count from even to odd, which also
 * serialises writers of that slot, writes, and publishes with the count
 * two above the one it claimed (or releases it unchanged, having written
 * nothing).  Nothing waits: a mutex (even taken with trylock) is not
 * async-signal-safe, and xstat() must be (a handler may run it while
 * this thread is mid-write).  A slot being written means the fact is not
 * cached this time; the next call stores it.
 *
 * Every access is a sequentially consistent atomic, as simple to argue as
 * it gets.  Inline always, with constant word counts: each table's reads
 * are on its users' hot paths (bench/instr-bounds).  A slot is a cache
 * line: its index scales by a shift, and a writer's stores never move a
 * line that readers of another slot hold.
 */
struct xs_seqslot {
	uint64_t	seq;	/* odd while being written */
	uint64_t	key;	/* unique mount ID, 0 = empty */
	uint64_t	word[XS_SEQSLOT_WORDS];	/* the table's to lay out */
} __attribute__((aligned(64)));

/* @key's slot in @table of 1 << @bits slots (Fibonacci hashing). */
static inline __attribute__((always_inline)) struct xs_seqslot *
xs_seqslot_at(struct xs_seqslot *table, unsigned bits, uint64_t key)
{
	return &table[(key * 0x9E3779B97F4A7C15ULL) >> (64 - bits)];
}

static inline __attribute__((always_inline)) uint64_t
xs_seqslot_load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) void
xs_seqslot_store(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

/*
 * @n words of a slot, from @word into @out and from @in into @word.
 * Spelled out, not a loop: @n is a table's constant, so that a slot's
 * read is its loads and nothing else whatever the compiler unrolls.
 */
static inline __attribute__((always_inline)) void
xs_seqslot_load_words(const uint64_t *word, uint64_t *out, unsigned n)
{
	if (n > 0)
		out[0] = xs_seqslot_load(&word[0]);
	if (n > 1)
		out[1] = xs_seqslot_load(&word[1]);
	if (n > 2)
		out[2] = xs_seqslot_load(&word[2]);
	if (n > 3)
		out[3] = xs_seqslot_load(&word[3]);
}

static inline __attribute__((always_inline)) void
xs_seqslot_store_words(uint64_t *word, const uint64_t *in, unsigned n)
{
	if (n > 0)
		xs_seqslot_store(&word[0], in[0]);
	if (n > 1)
		xs_seqslot_store(&word[1], in[1]);
	if (n > 2)
		xs_seqslot_store(&word[2], in[2]);
	if (n > 3)
		xs_seqslot_store(&word[3], in[3]);
}

/*
 * A reader: the first @n words of @s into @out and 1 when the slot holds
 * @key and was not written meanwhile, else 0 (@out then means nothing).
 */
static inline __attribute__((always_inline)) int
xs_seqslot_read(const struct xs_seqslot *s, uint64_t key, uint64_t *out,
		unsigned n)
{
	uint64_t seq = xs_seqslot_load(&s->seq);

	if ((seq & 1) || xs_seqslot_load(&s->key) != key)
		return 0;
	xs_seqslot_load_words(s->word, out, n);
	return xs_seqslot_load(&s->seq) == seq;
}

/*
 * A writer's claim of @s: 1 and the count claimed in *@seq, the slot
 * ours alone until xs_seqslot_publish() or xs_seqslot_abandon(); or 0
 * when another writer holds it (another thread, or the code this
 * thread's signal handler interrupted): skip, never wait.
 */
static inline __attribute__((always_inline)) int
xs_seqslot_claim(struct xs_seqslot *s, uint64_t *seq)
{
	*seq = xs_seqslot_load(&s->seq);
	return !(*seq & 1) &&
	       __atomic_compare_exchange_n(&s->seq, seq, *seq + 1, 0,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/*
 * Under the claim: the first @n words @s holds for @key into @out (1),
 * or 0 when it holds another key or none (a writer that merges).
 */
static inline __attribute__((always_inline)) int
xs_seqslot_held(const struct xs_seqslot *s, uint64_t key, uint64_t *out,
		unsigned n)
{
	if (xs_seqslot_load(&s->key) != key)
		return 0;
	xs_seqslot_load_words(s->word, out, n);
	return 1;
}

/* Under the claim @seq: @key and @n words @in written, and released. */
static inline __attribute__((always_inline)) void
xs_seqslot_publish(struct xs_seqslot *s, uint64_t seq, uint64_t key,
		   const uint64_t *in, unsigned n)
{
	xs_seqslot_store(&s->key, key);
	xs_seqslot_store_words(s->word, in, n);
	xs_seqslot_store(&s->seq, seq + 2);
}

/* Under the claim @seq, nothing written: readers' snapshots stay valid. */
static inline __attribute__((always_inline)) void
xs_seqslot_abandon(struct xs_seqslot *s, uint64_t seq)
{
	xs_seqslot_store(&s->seq, seq);
}

#endif /* LIBXSTAT_SEQSLOT_H */
