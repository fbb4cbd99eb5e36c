// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of eval/tlbsim.c, the NIC translation cache simulator:
 * random traces (several contexts, skewed addresses, both sides) run
 * through the simulator and through a brute-force model (per set, a
 * most-recent-first list of line addresses; for cold misses, a plain
 * list of every line ever cached); every access must agree, hit or miss
 * and cold or not, over many geometries. Then the geometry checks, the
 * entry address, and known small cases.
 */
#include <stdio.h>
#include <stdlib.h>

#include "eval/tlbsim.h"
#include "tap.h"

#define MAXSETS 256
#define MAXA 16
#define MAXSEEN 200000

struct model_line {
	u64 line;
	u32 ctx;
};

static struct model_line mset[MAXSETS][MAXA];
static int mlen[MAXSETS];
static struct model_line mseen[MAXSEEN];
static int mseen_nr;

/* 1 hit, 0 cold miss, 2 non-cold miss */
static int model_access(const struct tlbsim_cfg *cfg, u32 ctx, u64 addr)
{
	u32 nsets = cfg->entries / (cfg->line * cfg->assoc);
	u64 line = addr / cfg->line;
	u32 set = tlbsim_set_of(nsets, line);
	struct model_line *l = mset[set];
	int i, j, cold = 1;

	for (i = 0; i < mlen[set]; i++) {
		if (l[i].line == line && l[i].ctx == ctx) {
			struct model_line hit = l[i];

			for (j = i; j > 0; j--)
				l[j] = l[j - 1];
			l[0] = hit;
			return 1;
		}
	}
	for (i = 0; i < mseen_nr; i++)
		if (mseen[i].line == line && mseen[i].ctx == ctx)
			cold = 0;
	if (cold)
		mseen[mseen_nr++] = (struct model_line){ line, ctx };
	if (mlen[set] < (int)cfg->assoc)
		mlen[set]++;
	for (j = mlen[set] - 1; j > 0; j--)
		l[j] = l[j - 1];
	l[0] = (struct model_line){ line, ctx };
	return cold ? 0 : 2;
}

static int run_random(const struct tlbsim_cfg *cfg, unsigned int seed, int n)
{
	static struct tlbsim_seen seen[1 << 16];
	struct tlbsim_line *lines = malloc(tlbsim_lines_bytes(cfg));
	struct tlbsim s;
	int i, bad = 0;

	memset(mlen, 0, sizeof(mlen));
	mseen_nr = 0;
	srandom(seed);
	tlbsim_init(&s, cfg, lines, seen, 1 << 16);
	for (i = 0; i < n && !bad; i++) {
		u32 ctx = random() % 3;
		/* skewed: mostly a hot region, sometimes far */
		u64 page = random() % 4 ? random() % 64 : random() % 4096;
		u32 key = ((random() % 8) << 8) | (random() & 0xff);
		u64 addr = tlbsim_entry_addr(key, page);
		enum tlbsim_side side = random() % 2;
		u64 cold0 = s.stats[side].cold;
		int got = tlbsim_access(&s, ctx, addr, side);
		int want = model_access(cfg, ctx, addr);

		if (got < 0 || (want == 1) != (got == 1) ||
		    (want == 0) != (s.stats[side].cold == cold0 + 1)) {
			printf("# access %d ctx %u addr %llx: sim %d, model %d\n", i, ctx,
			       (unsigned long long)addr, got, want);
			bad = 1;
		}
	}
	for (i = 0; i < TLBSIM_NR_SIDES; i++) {
		const struct tlbsim_stats *st = &s.stats[i];

		if (st->hits + st->cold + st->noncold != st->accesses)	/* T3 */
			bad = 1;
	}
	free(lines);
	return !bad;
}

/*
 * Partitioned, random contexts and quotas: after every access each
 * context's held is its count of valid lines (T4), and a line of a
 * context within its quota was replaced only by a context below its
 * quota in a set with no empty way and no over-quota line (T5).
 */
static int run_partitioned(const struct tlbsim_cfg *cfg, unsigned int seed, int n)
{
	static struct tlbsim_seen seen[1 << 16];
	struct tlbsim_line *lines = malloc(tlbsim_lines_bytes(cfg));
	u64 nlines = cfg->entries / cfg->line;
	struct tlbsim_line before[MAXA];
	u64 held[4], quota[4] = { 0 };
	struct tlbsim s;
	int i, bad = 0;
	u32 c, w;

	srandom(seed);
	tlbsim_init(&s, cfg, lines, seen, 1 << 16);
	for (c = 0; c < 3; c++) {	/* ctx 3 has no partition */
		quota[c] = random() % (nlines / 2 + 1);
		tlbsim_partition(&s, c, quota[c]);
	}
	for (i = 0; i < n && !bad; i++) {
		u32 ctx = random() % 4;
		u64 page = random() % 3 ? random() % 256 : random() % 8192;
		u64 addr = tlbsim_entry_addr((random() % 8) << 8, page);
		u32 set = tlbsim_set_of(s.nsets, addr / cfg->line);
		struct tlbsim_line *way = &lines[(u64)set * cfg->assoc];
		bool empty = false, over = false;

		for (c = 0; c < 4; c++)
			held[c] = tlbsim_held(&s, c);
		memcpy(before, way, cfg->assoc * sizeof(*way));
		for (w = 0; w < cfg->assoc; w++) {
			empty |= !way[w].stamp;
			over |= way[w].stamp && (way[w].ctx == 3 || held[way[w].ctx] > quota[way[w].ctx]);
		}
		if (tlbsim_access(&s, ctx, addr, TLBSIM_SEND) < 0)
			bad = 1;
		for (w = 0; w < cfg->assoc && !bad; w++) {
			u32 x = before[w].ctx;

			if (!before[w].stamp || way[w].stamp == before[w].stamp || x == ctx ||
			    x == 3 || held[x] > quota[x])
				continue;
			if (ctx == 3 || held[ctx] >= quota[ctx] || empty || over) {	/* T5 */
				printf("# access %d: ctx %u (held %llu quota %llu) replaced ctx %u's line within its quota (held %llu quota %llu); empty %d over %d\n",
				       i, ctx, (unsigned long long)held[ctx % 3],
				       (unsigned long long)quota[ctx % 3], x,
				       (unsigned long long)held[x], (unsigned long long)quota[x],
				       empty, over);
				bad = 1;
			}
		}
		for (c = 0; c < 3 && !bad; c++) {	/* T4 */
			u64 k, count = 0;

			for (k = 0; k < nlines; k++)
				count += lines[k].stamp && lines[k].ctx == c;
			if (count != s.parts[c].held) {
				printf("# access %d: ctx %u holds %llu lines, held says %llu\n", i, c,
				       (unsigned long long)count, (unsigned long long)s.parts[c].held);
				bad = 1;
			}
		}
	}
	free(lines);
	return !bad;
}

/*
 * A victim cycling over @vlines lines (ctx 1, send side) and a hoarder
 * scanning @hlines lines (ctx 2, receive side), @ratio hoarder accesses
 * per victim access; with @vquota the victim is given that quota and
 * the hoarder the rest of the cache. Return: the victim's misses.
 */
static u64 victim_misses(const struct tlbsim_cfg *cfg, u64 vlines, u64 hlines, int ratio,
			 u64 vquota, int accesses)
{
	static struct tlbsim_seen seen[1 << 18];
	struct tlbsim_line *lines = malloc(tlbsim_lines_bytes(cfg));
	u64 nlines = cfg->entries / cfg->line, h = 0;
	struct tlbsim s;
	int i, j;

	tlbsim_init(&s, cfg, lines, seen, 1 << 18);
	if (vquota) {
		tlbsim_partition(&s, 1, vquota);
		tlbsim_partition(&s, 2, nlines - vquota);
	}
	for (i = 0; i < accesses; i++) {
		tlbsim_access(&s, 1, tlbsim_entry_addr(1 << 8, (i % vlines) * cfg->line), TLBSIM_SEND);
		for (j = 0; j < ratio && hlines; j++, h++)
			tlbsim_access(&s, 2, tlbsim_entry_addr(2 << 8, (h % hlines) * cfg->line),
				      TLBSIM_RECV);
	}
	free(lines);
	return s.stats[TLBSIM_SEND].cold + s.stats[TLBSIM_SEND].noncold;
}

int main(void)
{
	static const struct tlbsim_cfg geos[] = {
		{ 64, 1, 1 }, { 64, 4, 2 }, { 128, 8, 4 }, { 256, 16, 2 },
		{ 512, 8, 8 }, { 1024, 64, 4 }, { 96, 4, 3 }, { 4096, 128, 8 },
	};
	static struct tlbsim_seen seen[64];
	struct tlbsim_line lines[8];
	struct tlbsim_cfg c;
	struct tlbsim s;
	unsigned int g;
	u64 other;
	int r[6];

	for (g = 0; g < ARRAY_SIZE(geos); g++)
		tap_ok(run_random(&geos[g], 1000 + g, 20000),
		       "C=%u L=%u A=%u: 20000 random accesses agree with the model",
		       geos[g].entries, geos[g].line, geos[g].assoc);

	c = (struct tlbsim_cfg){ 8, 3, 1 };
	tap_ok(tlbsim_check_cfg(&c) == -EINVAL, "a line size not a power of two is refused");
	c = (struct tlbsim_cfg){ 10, 4, 1 };
	tap_ok(tlbsim_check_cfg(&c) == -EINVAL, "entries not a multiple of L * A are refused");
	c = (struct tlbsim_cfg){ 16, 4, 2 };
	tap_ok(!tlbsim_check_cfg(&c), "C=16 L=4 A=2 is a geometry");

	{
		struct tlbsim_nic_mem m = { 32, 12, 16, 4, 4 };
		struct tlbsim_cfg best = { 16384, 64, 4 }, odd = { 96, 4, 3 };
		u64 b1, b2, b3;

		/* 256 lines, 64 sets: tag 20 - 6 - 6 = 8 bits, + 16 + 1 + 2 = one word */
		b1 = tlbsim_nic_bytes(&best, &m);
		/* 24 lines, 8 sets: tag 20 - 2 - 3 = 15, + 16 + 1 + 2 (3 ranks) = two words */
		b2 = tlbsim_nic_bytes(&odd, &m);
		m.ctx_bits = 32;	/* 8 + 32 + 1 + 2: two words a line */
		b3 = tlbsim_nic_bytes(&best, &m);
		tap_ok(b1 == 16384 * 4 + 256 * 4 && b2 == 96 * 4 + 24 * 8 &&
		       b3 == 16384 * 4 + 256 * 8,
		       "NIC memory of a geometry: got %llu %llu %llu, want %u %u %u",
		       (unsigned long long)b1, (unsigned long long)b2, (unsigned long long)b3,
		       16384 * 4 + 256 * 4, 96 * 4 + 24 * 8, 16384 * 4 + 256 * 8);
	}

	tap_ok(tlbsim_entry_addr(0x1234a5, 3) == tlbsim_entry_addr(0x123477, 3) &&
	       tlbsim_entry_addr(0x1234a5, 3) != tlbsim_entry_addr(0x1235a5, 3),
	       "an MR registered again under a rotated key uses the same entries");

	/* known cases: 2 sets of 2 lines of 4 entries; line 0 and another line of its set */
	for (other = 1; tlbsim_set_of(2, other) != tlbsim_set_of(2, 0); other++)
		;
	tlbsim_init(&s, &c, lines, seen, 64);
	r[0] = tlbsim_access(&s, 1, 0, TLBSIM_SEND);	/* cold */
	r[1] = tlbsim_access(&s, 1, 3, TLBSIM_SEND);	/* same line: hit */
	r[2] = tlbsim_access(&s, 2, 3, TLBSIM_RECV);	/* other context: cold */
	/* line 0's set again: evicts the LRU (ctx 1 line 0) */
	r[3] = tlbsim_access(&s, 1, other * 4, TLBSIM_SEND);
	r[4] = tlbsim_access(&s, 1, 1, TLBSIM_SEND);	/* non-cold miss */
	r[5] = tlbsim_access(&s, 2, 2, TLBSIM_RECV);	/* ctx 2 line 0 was evicted by the last */
	tap_ok(r[0] == 0 && r[1] == 1 && r[2] == 0 && r[3] == 0 && r[4] == 0 && r[5] == 0,
	       "line prefetch, context in the tag, LRU eviction (%d %d %d %d %d %d)",
	       r[0], r[1], r[2], r[3], r[4], r[5]);
	tap_ok(s.stats[TLBSIM_SEND].cold == 2 && s.stats[TLBSIM_SEND].noncold == 1 &&
	       s.stats[TLBSIM_SEND].hits == 1 && s.stats[TLBSIM_RECV].cold == 1 &&
	       s.stats[TLBSIM_RECV].noncold == 1,
	       "cold and non-cold misses counted per side");
	tap_ok(tlbsim_access(&s, 1, 0, 7) == -EINVAL, "a bad side is refused");
	tap_ok(tlbsim_misses(&s) == 5 && tlbsim_accesses(&s) == 6, "totals");

	for (g = 2; g < ARRAY_SIZE(geos); g++)
		tap_ok(run_partitioned(&geos[g], 2000 + g, 20000),
		       "partitioned C=%u L=%u A=%u: 20000 random accesses keep held and quotas (T4, T5)",
		       geos[g].entries, geos[g].line, geos[g].assoc);

	/*
	 * A victim of 8 lines beside a hoarder scanning 4096 lines, 16 of
	 * its accesses to each of the victim's, in 64 lines of 4 ways.
	 * Solo the victim misses only cold (and in any set its 8 lines
	 * overfill); shared, the hoarder's scan flushes it; given a quota of
	 * its 8 lines it misses as it does solo, but for a line the hoarder
	 * may take while it is still below its own quota (the warm-up).
	 */
	c = (struct tlbsim_cfg){ 1024, 16, 4 };
	{
		u64 solo = victim_misses(&c, 8, 0, 0, 0, 5000);
		u64 shared = victim_misses(&c, 8, 4096, 16, 0, 5000);
		u64 part = victim_misses(&c, 8, 4096, 16, 8, 5000);

		tap_ok(shared > solo + 2500,
		       "shared LRU: the hoarder's scan costs the victim misses (%llu against %llu solo)",
		       (unsigned long long)shared, (unsigned long long)solo);
		tap_ok(part <= solo + 8,
		       "partitioned: the victim misses as solo but for warm-up (%llu, solo %llu, at most +8)",
		       (unsigned long long)part, (unsigned long long)solo);
	}
	c = (struct tlbsim_cfg){ 16, 4, 2 };
	tlbsim_init(&s, &c, lines, seen, 64);
	for (g = 0; g < TLBSIM_MAX_PARTS; g++)
		tlbsim_partition(&s, g, 1);
	tap_ok(tlbsim_partition(&s, 99, 1) == -ENOSPC && !tlbsim_partition(&s, 3, 5) &&
	       s.parts[3].quota == 5,
	       "partitions: at most TLBSIM_MAX_PARTS; a later call changes a quota");
	return tap_done();
}
