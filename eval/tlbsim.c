// SPDX-License-Identifier: GPL-2.0
/*
 * A NIC translation cache, simulated: see tlbsim.h. Tested against a
 * brute-force model on random traces (tests/unit/test_tlbsim.c); driven
 * by captured traces in eval/tlbsim_main.c.
 *
 * Invariants:
 *  T1. A line address is cached in at most one way of its set.
 *  T2. A miss is cold exactly when the line address (with its context)
 *      never missed before: the seen set holds exactly the line
 *      addresses that missed once.
 *  T3. hits + cold + noncold == accesses, per side.
 *  T4. Each partition's held is the number of valid lines of its
 *      context; other_held counts the rest.
 *  T5. (partitioned) A line of a context within its quota is replaced
 *      only by a context below its own quota, in a set with no empty
 *      way and no line of a context over its quota.
 */
#include "tlbsim.h"

/*
 * An entry's address: its MR's translation-table index (the key without
 * its low byte, which drivers rotate on every re-registration of the same
 * MR) and the page within the MR. A re-registration of the same MR, as
 * rdmastor does for every I/O, therefore reuses the same entries.
 */
#define TLBSIM_PAGE_BITS	24	/* pages per MR: up to 64 GiB of 4 KiB */

/**
 * tlbsim_entry_addr - the translation entry an access uses
 * @key: the MR's key (lkey or rkey)
 * @page: the page within the MR
 *
 * Return: the entry's address for tlbsim_access().
 */
u64 tlbsim_entry_addr(u32 key, u64 page)
{
	return ((u64)(key >> 8) << TLBSIM_PAGE_BITS) |
	       (page & ((1ULL << TLBSIM_PAGE_BITS) - 1));
}

/**
 * tlbsim_check_cfg - is this a geometry the cache can have?
 * @cfg: the geometry
 *
 * Return: 0, or -EINVAL (a zero, a line size not a power of two, or
 * entries not a multiple of line * assoc).
 */
int tlbsim_check_cfg(const struct tlbsim_cfg *cfg)
{
	if (!cfg->entries || !cfg->line || !cfg->assoc ||
	    (cfg->line & (cfg->line - 1)) ||
	    cfg->entries % ((u64)cfg->line * cfg->assoc))
		return -EINVAL;
	return 0;
}

/**
 * tlbsim_lines_bytes - memory the cache's lines need
 * @cfg: a checked geometry
 *
 * Return: bytes for tlbsim_init()'s @lines.
 */
size_t tlbsim_lines_bytes(const struct tlbsim_cfg *cfg)
{
	return (size_t)(cfg->entries / cfg->line) * sizeof(struct tlbsim_line);
}

/* bits to tell v things apart: log2, rounded up */
static u32 tlbsim_bits_for(u64 v)
{
	u32 b = 0;

	while (b < 63 && (1ULL << b) < v)
		b++;
	return b;
}

/**
 * tlbsim_nic_bytes - NIC memory the cache itself occupies
 * @cfg: a checked geometry
 * @m: how entries and tags are stored
 *
 * The miNI paper's figures for NIC memory follow from the geometry, not
 * from a trace: C entries of @m->entry_bytes, and per line a tag (the
 * virtual page number's bits above the line offset and the set index),
 * the context id, a valid bit and an LRU rank of log2(A) bits, rounded
 * up to whole words. So the simulator can be checked against them
 * without the paper's application traces.
 *
 * Return: bytes of NIC memory.
 */
u64 tlbsim_nic_bytes(const struct tlbsim_cfg *cfg, const struct tlbsim_nic_mem *m)
{
	u64 lines = cfg->entries / cfg->line;
	u32 vpn_bits = m->va_bits - m->page_shift;
	u32 low = tlbsim_bits_for(cfg->line) + tlbsim_bits_for(lines / cfg->assoc);
	u32 tag = vpn_bits > low ? vpn_bits - low : 0;
	u32 bits = tag + m->ctx_bits + 1 + tlbsim_bits_for(cfg->assoc);
	u32 word_bits = 8 * m->word_bytes;

	return (u64)cfg->entries * m->entry_bytes +
	       lines * ((bits + word_bits - 1) / word_bits) * m->word_bytes;
}

/**
 * tlbsim_init - an empty cache
 * @s: the simulator
 * @cfg: a checked geometry
 * @lines: tlbsim_lines_bytes() of memory
 * @seen: room for the line addresses ever cached (zeroed here)
 * @seen_cap: its slots, a power of two larger than the distinct lines
 *	the trace will touch (tlbsim_access() fails with -ENOSPC otherwise)
 */
void tlbsim_init(struct tlbsim *s, const struct tlbsim_cfg *cfg,
		 struct tlbsim_line *lines, struct tlbsim_seen *seen, u64 seen_cap)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->nsets = cfg->entries / (cfg->line * cfg->assoc);
	s->lines = lines;
	s->seen = seen;
	s->seen_cap = seen_cap;
	memset(lines, 0, tlbsim_lines_bytes(cfg));
	memset(seen, 0, seen_cap * sizeof(*seen));
}

/**
 * tlbsim_set_of - the set a line goes to
 * @nsets: sets in the cache
 * @line: the line address (entry address / L)
 *
 * A hash of the line address, not its low bits: an entry address has
 * the MR's index above the page, so by low bits the first lines of all
 * MRs would share a set. (The paper indexed by virtual address, whose
 * low bits differ between buffers; a NIC's table places MRs at offsets
 * that look random to the cache.)
 *
 * Return: the set, below @nsets.
 */
u32 tlbsim_set_of(u32 nsets, u64 line)
{
	u64 h = line * 0x9e3779b97f4a7c15ULL;

	return (u32)((h ^ (h >> 32)) % nsets);
}

static u64 tlbsim_hash(u32 ctx, u64 addr)
{
	u64 h = addr * 0x9e3779b97f4a7c15ULL ^ ((u64)ctx * 0xc2b2ae3d27d4eb4fULL);

	return h ^ (h >> 29);
}

/*
 * Record that (ctx, line) was cached. Return: 1 if it was new (the miss
 * is cold), 0 if seen before, -ENOSPC when the set is full (T2).
 */
static int tlbsim_seen_add(struct tlbsim *s, u32 ctx, u64 line)
{
	u64 mask = s->seen_cap - 1, i;

	for (i = tlbsim_hash(ctx, line) & mask; ; i = (i + 1) & mask) {
		struct tlbsim_seen *e = &s->seen[i];

		if (!e->used) {
			if (s->seen_nr + 1 >= s->seen_cap)
				return -ENOSPC;
			e->used = 1;
			e->addr = line;
			e->ctx = ctx;
			s->seen_nr++;
			return 1;
		}
		if (e->addr == line && e->ctx == ctx)
			return 0;
	}
}

/* the partition of @ctx, or NULL (quota 0) */
static struct tlbsim_part *tlbsim_part_of(struct tlbsim *s, u32 ctx)
{
	u32 i;

	for (i = 0; i < s->nparts; i++)
		if (s->parts[i].ctx == ctx)
			return &s->parts[i];
	return NULL;
}

static u64 *tlbsim_held_of(struct tlbsim *s, u32 ctx)
{
	struct tlbsim_part *p = tlbsim_part_of(s, ctx);

	return p ? &p->held : &s->other_held;
}

static bool tlbsim_over_quota(struct tlbsim *s, u32 ctx)
{
	struct tlbsim_part *p = tlbsim_part_of(s, ctx);

	return !p || p->held > p->quota;
}

/**
 * tlbsim_partition - give a context a quota of lines
 * @s: the simulator
 * @ctx: the context
 * @quota: lines it may hold while others want them
 *
 * The first call makes the cache partitioned (see tlbsim.h); a later
 * call for the same context changes its quota, as a rebalance changes a
 * share. Lines the context already holds stay until replaced.
 *
 * Return: 0, or -ENOSPC when TLBSIM_MAX_PARTS contexts have one.
 */
int tlbsim_partition(struct tlbsim *s, u32 ctx, u64 quota)
{
	struct tlbsim_part *p = tlbsim_part_of(s, ctx);
	u64 i, n = s->nsets * (u64)s->cfg.assoc;

	if (p) {
		p->quota = quota;
		return 0;
	}
	if (s->nparts == TLBSIM_MAX_PARTS)
		return -ENOSPC;
	p = &s->parts[s->nparts++];
	p->ctx = ctx;
	p->quota = quota;
	p->held = 0;
	for (i = 0; i < n; i++)
		if (s->lines[i].stamp && s->lines[i].ctx == ctx)
			p->held++;
	s->other_held -= p->held;	/* T4 */
	return 0;
}

/**
 * tlbsim_held - lines a context holds
 * @s: the simulator
 * @ctx: the context
 *
 * Return: its valid lines.
 */
u64 tlbsim_held(const struct tlbsim *s, u32 ctx)
{
	u64 i, n = s->nsets * (u64)s->cfg.assoc, held = 0;

	for (i = 0; i < s->nparts; i++)
		if (s->parts[i].ctx == ctx)
			return s->parts[i].held;
	for (i = 0; i < n; i++)
		if (s->lines[i].stamp && s->lines[i].ctx == ctx)
			held++;
	return held;
}

/*
 * The way a miss of @ctx fills in a partitioned cache (tlbsim.h), or
 * NULL: not cached.
 */
static struct tlbsim_line *tlbsim_pick_partitioned(struct tlbsim *s,
						   struct tlbsim_line *way, u32 ctx)
{
	struct tlbsim_line *lru = NULL, *own = NULL, *over = NULL;
	struct tlbsim_part *p = tlbsim_part_of(s, ctx);
	u32 i;

	for (i = 0; i < s->cfg.assoc; i++) {
		struct tlbsim_line *l = &way[i];

		if (!l->stamp)
			return l;
		if (!lru || l->stamp < lru->stamp)
			lru = l;
		if (l->ctx == ctx) {
			if (!own || l->stamp < own->stamp)
				own = l;
		} else if (tlbsim_over_quota(s, l->ctx) && (!over || l->stamp < over->stamp)) {
			over = l;
		}
	}
	if (p && p->held < p->quota)
		return over ? over : lru;
	return own ? own : over;
}

/**
 * tlbsim_access - one lookup
 * @s: the simulator
 * @ctx: the context (process or kernel consumer) making it
 * @addr: the entry (tlbsim_entry_addr())
 * @side: which side of the NIC looks it up
 *
 * Return: 1 hit, 0 miss (the line is now cached, replacing the set's
 * least recently used; partitioned, the way tlbsim.h says, or not
 * cached), -ENOSPC when the seen set is full, -EINVAL for a bad side.
 */
int tlbsim_access(struct tlbsim *s, u32 ctx, u64 addr, enum tlbsim_side side)
{
	u64 line = addr / s->cfg.line;
	u32 set = tlbsim_set_of(s->nsets, line);
	struct tlbsim_line *way = &s->lines[(u64)set * s->cfg.assoc];
	struct tlbsim_stats *st;
	struct tlbsim_line *victim = way;
	u32 i;
	int cold;

	if (side >= TLBSIM_NR_SIDES)
		return -EINVAL;
	st = &s->stats[side];
	s->clock++;
	for (i = 0; i < s->cfg.assoc; i++) {
		if (way[i].stamp && way[i].tag == line && way[i].ctx == ctx) {
			way[i].stamp = s->clock;
			st->accesses++;
			st->hits++;
			return 1;
		}
		/* an empty way first, else the oldest */
		if (!way[i].stamp ? victim->stamp : way[i].stamp < victim->stamp)
			victim = &way[i];
	}
	cold = tlbsim_seen_add(s, ctx, line);
	if (cold < 0)
		return cold;
	st->accesses++;
	if (cold)
		st->cold++;
	else
		st->noncold++;
	if (s->nparts) {
		victim = tlbsim_pick_partitioned(s, way, ctx);
		if (!victim) {
			s->bypassed++;
			return 0;
		}
	}
	if (victim->stamp)
		(*tlbsim_held_of(s, victim->ctx))--;
	(*tlbsim_held_of(s, ctx))++;
	victim->tag = line;
	victim->ctx = ctx;
	victim->stamp = s->clock;
	return 0;
}

/**
 * tlbsim_misses - misses of both sides
 * @s: the simulator
 *
 * Return: cold + non-cold, send and receive.
 */
u64 tlbsim_misses(const struct tlbsim *s)
{
	u64 n = 0;
	int i;

	for (i = 0; i < TLBSIM_NR_SIDES; i++)
		n += s->stats[i].cold + s->stats[i].noncold;
	return n;
}

/**
 * tlbsim_accesses - lookups of both sides
 * @s: the simulator
 *
 * Return: the total.
 */
u64 tlbsim_accesses(const struct tlbsim *s)
{
	return s->stats[TLBSIM_SEND].accesses + s->stats[TLBSIM_RECV].accesses;
}
