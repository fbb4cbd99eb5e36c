/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A NIC translation cache, simulated (the miNI paper: "dynamic handle
 * lookup"): the NIC keeps a set-associative cache of translation entries
 * in its own memory in front of tables in host memory. Each RDMA access
 * to a registered page looks its entry up; a miss fetches the whole line
 * (L entries, aligned) from the host.
 *
 * Geometry: C entries in lines of L entries, A lines a set, so C / (L *
 * A) sets. An entry's address is its MR's table index and the page in
 * the MR (tlbsim_entry_addr()); the set is chosen by a hash of the line
 * address (tlbsim_set_of()), the tag is the line address and the context
 * (the process or kernel consumer), so contexts share the cache without
 * partitioning it.
 * LRU within a set.
 *
 * Misses are counted per side (send, receive) and kind: cold (the line
 * never missed before) and non-cold (capacity and conflict).
 *
 * Partitioned (tlbsim_partition()): each context may hold a quota of
 * lines, as rnic_mgr's arbiter gives each consumer a share of the
 * entries. A miss takes an empty way if the set has one; otherwise a
 * context below its quota takes the least recently used line of a
 * context over its quota (else the set's LRU: a conflict), and one at
 * or over its quota replaces its own LRU line in the set, else an
 * over-quota context's, else is not cached at all (the NIC serves it
 * from the host table without filling a line: a bypass). So a context
 * that keeps within its quota loses lines to no context over its own.
 * Contexts without a partition have quota 0.
 *
 * Plain C: builds in the kernel and in user space (compat.h); the caller
 * provides the memory (tlbsim_bytes()).
 */
#ifndef RDMASTOR_TLBSIM_H
#define RDMASTOR_TLBSIM_H

#include <rdmastor/compat.h>

enum tlbsim_side { TLBSIM_SEND, TLBSIM_RECV, TLBSIM_NR_SIDES };

/**
 * struct tlbsim_cfg - a cache geometry
 * @entries: C, total translation entries (a multiple of @line * @assoc)
 * @line: L, entries per line (a power of two)
 * @assoc: A, lines per set
 */
struct tlbsim_cfg {
	u32 entries;
	u32 line;
	u32 assoc;
};

/**
 * struct tlbsim_stats - what one side saw
 * @accesses: lookups
 * @hits: found in the cache
 * @cold: misses on a line never cached before
 * @noncold: other misses (capacity, conflict)
 */
struct tlbsim_stats {
	u64 accesses;
	u64 hits;
	u64 cold;
	u64 noncold;
};

/* most partitioned contexts (the rest have quota 0) */
#define TLBSIM_MAX_PARTS	8

/**
 * struct tlbsim_part - one context's quota
 * @ctx: the context
 * @quota: lines it may hold when others want them
 * @held: lines it holds
 */
struct tlbsim_part {
	u32 ctx;
	u64 quota;
	u64 held;
};

/**
 * struct tlbsim_nic_mem - how the NIC stores the cache (for its size)
 * @va_bits: bits of a virtual address (32 on the miNI paper's hosts)
 * @page_shift: bits of a page offset (12: 4 KiB pages)
 * @ctx_bits: bits of the context id kept in each tag
 * @entry_bytes: bytes of one translation entry (the paper: one 32-bit
 *	word for the physical page address)
 * @word_bytes: a line's tag, valid bit and LRU rank are stored in
 *	whole words of this size
 */
struct tlbsim_nic_mem {
	u32 va_bits;
	u32 page_shift;
	u32 ctx_bits;
	u32 entry_bytes;
	u32 word_bytes;
};

/* one cached line; valid when @stamp is non-zero */
struct tlbsim_line {
	u64 tag;
	u32 ctx;
	u64 stamp;
};

/**
 * struct tlbsim - the cache and its counters
 * @cfg: geometry
 * @nsets: sets
 * @clock: access counter, the LRU stamp
 * @lines: @nsets * @cfg.assoc lines
 * @seen: open-addressed set of line addresses ever cached (for cold
 *	misses)
 * @seen_cap: its slots
 * @seen_nr: slots used
 * @stats: per side
 * @nparts: partitioned contexts (0: one shared LRU cache)
 * @parts: their quotas and holdings
 * @other_held: lines held by contexts without a partition
 * @bypassed: misses not cached (partitioned only)
 */
struct tlbsim {
	struct tlbsim_cfg cfg;
	u32 nsets;
	u64 clock;
	struct tlbsim_line *lines;
	struct tlbsim_seen {
		u64 addr;
		u32 ctx;
		u32 used;
	} *seen;
	u64 seen_cap;
	u64 seen_nr;
	struct tlbsim_stats stats[TLBSIM_NR_SIDES];
	u32 nparts;
	struct tlbsim_part parts[TLBSIM_MAX_PARTS];
	u64 other_held;
	u64 bypassed;
};

/* the functions: kernel-doc at their definitions in tlbsim.c */
int tlbsim_check_cfg(const struct tlbsim_cfg *cfg);
size_t tlbsim_lines_bytes(const struct tlbsim_cfg *cfg);
u64 tlbsim_nic_bytes(const struct tlbsim_cfg *cfg, const struct tlbsim_nic_mem *m);
void tlbsim_init(struct tlbsim *s, const struct tlbsim_cfg *cfg,
		 struct tlbsim_line *lines, struct tlbsim_seen *seen, u64 seen_cap);
u64 tlbsim_entry_addr(u32 key, u64 page);
u32 tlbsim_set_of(u32 nsets, u64 line);
int tlbsim_access(struct tlbsim *s, u32 ctx, u64 addr, enum tlbsim_side side);
int tlbsim_partition(struct tlbsim *s, u32 ctx, u64 quota);
u64 tlbsim_held(const struct tlbsim *s, u32 ctx);
u64 tlbsim_misses(const struct tlbsim *s);
u64 tlbsim_accesses(const struct tlbsim *s);

#endif /* RDMASTOR_TLBSIM_H */
