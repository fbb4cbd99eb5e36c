// SPDX-License-Identifier: GPL-2.0
/*
 * A NIC translation cache, simulated: see tlbsim.h. Tested against a
 * brute-force model on random traces (tests/unit/test_tlbsim.c); driven
 * by captured traces in eval/tlbsim_main.c.
 *
 * Invariants:
 *  T1. A line address is cached in at most one way of its set.
 *  T2. A miss is cold exactly when the line address (with its context)
 *      was never cached before; every miss caches the line, so the seen
 *      set holds exactly the line addresses that missed once.
 *  T3. hits + cold + noncold == accesses, per side.
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

/**
 * tlbsim_access - one lookup
 * @s: the simulator
 * @ctx: the context (process or kernel consumer) making it
 * @addr: the entry (tlbsim_entry_addr())
 * @side: which side of the NIC looks it up
 *
 * Return: 1 hit, 0 miss (the line is now cached, replacing the set's
 * least recently used), -ENOSPC when the seen set is full, -EINVAL for a
 * bad side.
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
