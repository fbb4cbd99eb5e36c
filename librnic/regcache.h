/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * regcache: a region-level memory-registration cache after the MRRC paper
 * (MRRC), the core of librnic's user-space side.
 *
 * A cache keeps registrations after their user is done with them, so a
 * later request for the same memory needs no new registration. It is
 * built around four rules:
 *
 *  1. Regions are page ranges, disjoint from each other. A request is
 *     served by the cached regions that overlap it plus new regions for
 *     the gaps between them (the MRRC paper's partial overlap: the cached part
 *     is reused, the remainder registered), returned as segments in
 *     address order that cover the request exactly.
 *  2. A region a caller holds (between rnic_cache_get() and rnic_cache_put()) is never
 *     deregistered; everything else may be.
 *  3. A region whose memory was unmapped or changed (rnic_cache_invalidate(),
 *     driven by the kernel's STALE events) is never returned again: it
 *     leaves the index at once and is deregistered when its last holder
 *     puts it.
 *  4. The cache holds at most @capacity pages (the process's entitlement
 *     from rnic_mgr) once its callers have put what they hold: held
 *     regions may take it over (the kernel's budget is the hard limit),
 *     and the excess is evicted as they are put. Room is made by the
 *     MRRC paper's Memory Resorting and Eviction: the idle regions of the lower
 *     part of the LRU stack are ordered by the eviction factor
 *     r + 1/size (large and old regions first), and those of the
 *     eviction segment are deregistered in one batch.
 *
 * Not thread safe: the caller serializes (librnic holds one lock).
 * Pure C with no dependency but libc, so unit tests and fuzzers build it
 * as is.
 */
#ifndef RDMASTOR_REGCACHE_H
#define RDMASTOR_REGCACHE_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct rnic_cache_ops - how the cache registers and deregisters memory
 * @reg: register [@addr, @addr + @len) (page aligned); store the
 *	registration in *@handle; 0 or a negative errno
 * @dereg: deregister @n registrations at once (a batch)
 */
struct rnic_cache_ops {
	int (*reg)(void *ctx, uintptr_t addr, size_t len, void **handle);
	void (*dereg)(void *ctx, void *const *handles, size_t n);
};

struct rnic_cache_region;

/**
 * struct rnic_cache_seg - one piece of a request, served by one registration
 * @region: the cached region (pass back to rnic_cache_put())
 * @handle: its registration (an ibv_mr, say)
 * @addr: first byte of the piece
 * @len: bytes of the piece
 */
struct rnic_cache_seg {
	struct rnic_cache_region *region;
	void *handle;
	uintptr_t addr;
	size_t len;
};

/**
 * struct rnic_cache_stats - counters since rnic_cache_create()
 * @hits: requests served by cached regions only
 * @partial: requests served partly from the cache
 * @misses: requests with nothing cached
 * @regs: registrations made
 * @reg_pages: pages they covered
 * @deregs: deregistrations
 * @batches: dereg calls they took
 * @evictions: regions evicted to make room or on rnic_cache_shrink()
 * @stale: regions dropped by rnic_cache_invalidate()
 * @over: requests that took the cache over its capacity (held regions
 *	left nothing to evict)
 * @retries: requests tried again after a refused registration, once a
 *	REVOKE that came meanwhile was answered (appended: the struct is
 *	only ever read through rnic_cache_get_stats()'s pointer)
 */
struct rnic_cache_stats {
	uint64_t hits, partial, misses;
	uint64_t regs, reg_pages, deregs, batches;
	uint64_t evictions, stale, over;
	uint64_t retries;
};

struct rnic_cache;

/* the functions: kernel-doc at their definitions in regcache.c */
struct rnic_cache *rnic_cache_create(const struct rnic_cache_ops *ops, void *ctx,
			   size_t page_size, uint64_t capacity);

void rnic_cache_destroy(struct rnic_cache *c);

int rnic_cache_get(struct rnic_cache *c, uintptr_t addr, size_t len,
	   struct rnic_cache_seg *segs, int max_segs);

void rnic_cache_put(struct rnic_cache *c, const struct rnic_cache_seg *segs, int n);

int rnic_cache_invalidate(struct rnic_cache *c, uintptr_t addr, size_t len);

uint64_t rnic_cache_shrink(struct rnic_cache *c, uint64_t pages);

void rnic_cache_set_capacity(struct rnic_cache *c, uint64_t pages);

uint64_t rnic_cache_cached_pages(const struct rnic_cache *c);

uint64_t rnic_cache_capacity(const struct rnic_cache *c);

void rnic_cache_set_sync(struct rnic_cache *c, void (*sync)(void *arg), void *arg);

void *rnic_cache_ctx(const struct rnic_cache *c);

const struct rnic_cache_stats *rnic_cache_get_stats(const struct rnic_cache *c);

#endif /* RDMASTOR_REGCACHE_H */
