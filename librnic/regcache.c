// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * regcache: the MRRC paper's region registration cache (MRRC). The rules are
 * in regcache.h; how they are kept:
 *
 * - The index is an array of the live regions sorted by address. Regions
 *   are disjoint, so their ends are sorted too and one binary search
 *   finds the first region a request overlaps; a hit costs that search
 *   and a walk over the regions it touches.
 * - The LRU stack is kept as a use stamp per region, not as a list: a hit
 *   writes only its own region (a list would touch two neighbours, cache
 *   misses that doubled a hit's cost with thousands of regions). An
 *   eviction sorts the regions by stamp to see the stack: its top
 *   RC_FREQUENT_PCT percent of the capacity (in pages) is the frequent
 *   section, the regions below are the resorting section, from which
 *   eviction takes first. Evictions are batched, so the sort is paid
 *   once per batch.
 * - Eviction factors: 0 for a region used since the last eviction;
 *   otherwise r + 1/pages, fixed the first time an eviction considers the
 *   region (the MRRC paper: "not renewed unless it is zero"). r is the factor
 *   of the last region evicted, so regions that waited through earlier
 *   evictions rank before newly idle ones of the same size, and among
 *   regions considered together the larger go first.
 * - A stale region leaves the index and the LRU list at once; while held
 *   it lives on only through its holders' segments.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "regcache.h"

/* most retries of one request, each after an answered REVOKE */
#define RC_MAX_RETRIES	8

/* what share of the capacity the frequent section and one eviction take */
#define RC_FREQUENT_PCT 50
#define RC_EVICT_PCT 12

struct rnic_cache_region {
	uintptr_t start, end;		/* page aligned, [start, end) */
	void *handle;
	uint32_t refs;
	bool stale;			/* out of the index, dereg at last put */
	bool doomed;			/* chosen by the eviction running now */
	double evf;			/* eviction factor, 0: used lately */
	uint64_t stamp;			/* last use: the LRU stack's order */
};

struct rnic_cache {
	struct rnic_cache_ops ops;
	void *ctx;
	uintptr_t page;
	uint64_t capacity;
	uint64_t cap_gen;		/* bumped by every rnic_cache_set_capacity() */
	uint64_t cached;		/* pages registered, held or not */
	struct rnic_cache_region **idx;		/* live regions by address */
	uintptr_t *ends;		/* idx[i]->end: searched without chasing idx */
	size_t n, idx_cap;
	double r;
	uint64_t clock;
	struct rnic_cache_stats stats;
	void (*sync)(void *arg);	/* before each lookup (rnic_cache_set_sync()) */
	void *sync_arg;
};

static uint64_t rnic_cache_pages(const struct rnic_cache *c, const struct rnic_cache_region *g)
{
	return (g->end - g->start) / c->page;
}

/* index of the first region whose end lies above @addr */
static size_t idx_first(const struct rnic_cache *c, uintptr_t addr)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->ends[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int idx_reserve(struct rnic_cache *c, size_t more)
{
	struct rnic_cache_region **p;
	uintptr_t *e;
	size_t want = c->idx_cap ? c->idx_cap : 64;

	if (c->n + more <= c->idx_cap)
		return 0;
	while (want < c->n + more)
		want *= 2;
	p = realloc(c->idx, want * sizeof(*p));
	if (!p)
		return -ENOMEM;
	c->idx = p;
	e = realloc(c->ends, want * sizeof(*e));
	if (!e)
		return -ENOMEM;
	c->ends = e;
	c->idx_cap = want;
	return 0;
}

static void idx_insert(struct rnic_cache *c, size_t at, struct rnic_cache_region *g)
{
	memmove(&c->idx[at + 1], &c->idx[at], (c->n - at) * sizeof(*c->idx));
	memmove(&c->ends[at + 1], &c->ends[at], (c->n - at) * sizeof(*c->ends));
	c->idx[at] = g;
	c->ends[at] = g->end;
	c->n++;
}

/* drop the regions marked doomed from the index, keeping the order */
static void idx_sweep(struct rnic_cache *c)
{
	size_t i, j = 0;

	for (i = 0; i < c->n; i++)
		if (!c->idx[i]->doomed) {
			c->ends[j] = c->ends[i];
			c->idx[j++] = c->idx[i];
		}
	c->n = j;
}

/* deregister @n regions in one call and free them */
static void dereg_batch(struct rnic_cache *c, struct rnic_cache_region **gs, size_t n)
{
	void **handles;
	size_t i;

	if (!n)
		return;
	handles = malloc(n * sizeof(*handles));
	for (i = 0; i < n; i++) {
		c->cached -= rnic_cache_pages(c, gs[i]);
		if (handles)
			handles[i] = gs[i]->handle;
		else	/* no memory for a batch: one at a time */
			c->ops.dereg(c->ctx, &gs[i]->handle, 1);
	}
	if (handles) {
		c->ops.dereg(c->ctx, handles, n);
		c->stats.batches++;
	} else {
		c->stats.batches += n;
	}
	c->stats.deregs += n;
	for (i = 0; i < n; i++)
		free(gs[i]);
	free(handles);
}

static int evf_cmp(const void *a, const void *b)
{
	const struct rnic_cache_region *x = *(struct rnic_cache_region * const *)a;
	const struct rnic_cache_region *y = *(struct rnic_cache_region * const *)b;

	if (x->evf != y->evf)
		return x->evf < y->evf ? -1 : 1;
	return x->stamp < y->stamp ? -1 : x->stamp > y->stamp;
}

static int stamp_cmp(const void *a, const void *b)
{
	const struct rnic_cache_region *x = *(struct rnic_cache_region * const *)a;
	const struct rnic_cache_region *y = *(struct rnic_cache_region * const *)b;

	return x->stamp < y->stamp ? 1 : x->stamp > y->stamp ? -1 : 0;
}

/*
 * Memory Resorting and Eviction: free at least @need pages (and up to
 * @want, the batch) of idle regions, the resorting section's first, in
 * order of eviction factor. Returns the pages freed.
 */
static uint64_t rnic_cache_evict(struct rnic_cache *c, uint64_t need, uint64_t want)
{
	uint64_t frequent = c->capacity * RC_FREQUENT_PCT / 100;
	uint64_t above, avail, freed = 0;
	struct rnic_cache_region **stack, **cand;
	size_t n, i;
	bool all = false;

	if (!need || !c->n)
		return 0;
	stack = malloc(c->n * sizeof(*stack));
	cand = malloc(c->n * sizeof(*cand));
	if (!stack || !cand)
		goto out;
	memcpy(stack, c->idx, c->n * sizeof(*stack));
	qsort(stack, c->n, sizeof(*stack), stamp_cmp);	/* most recent first */
again:
	n = 0;
	avail = 0;
	above = 0;
	for (i = 0; i < c->n; i++) {
		struct rnic_cache_region *g = stack[i];
		bool resorting = above >= frequent;

		above += rnic_cache_pages(c, g);
		if (g->refs || (!resorting && !all))
			continue;
		if (g->evf == 0)
			g->evf = c->r + 1.0 / (double)rnic_cache_pages(c, g);
		cand[n++] = g;
		avail += rnic_cache_pages(c, g);
	}
	if (avail < need && !all) {
		all = true;	/* the frequent section must give too */
		goto again;
	}
	if (want < need)
		want = need;
	qsort(cand, n, sizeof(*cand), evf_cmp);
	for (i = 0; i < n && freed < want; i++) {
		cand[i]->doomed = true;
		freed += rnic_cache_pages(c, cand[i]);
		c->r = cand[i]->evf;
	}
	idx_sweep(c);
	c->stats.evictions += i;
	dereg_batch(c, cand, i);
out:
	free(stack);
	free(cand);
	return freed;
}

/* make room for @pages new pages, if idle regions allow */
static void rnic_cache_make_room(struct rnic_cache *c, uint64_t pages)
{
	uint64_t need, batch;

	if (c->cached + pages <= c->capacity)
		return;
	need = c->cached + pages - c->capacity;
	batch = c->capacity * RC_EVICT_PCT / 100;
	rnic_cache_evict(c, need, need + batch);
	if (c->cached + pages > c->capacity)
		c->stats.over++;
}

/**
 * rnic_cache_create - a new, empty cache
 * @ops: the registrar
 * @ctx: passed to @ops
 * @page_size: a power of two
 * @capacity: most pages the cache may hold registered (0: none cached
 *	beyond what callers hold)
 *
 * Return: the cache, or NULL without memory.
 */
struct rnic_cache *rnic_cache_create(const struct rnic_cache_ops *ops, void *ctx,
			   size_t page_size, uint64_t capacity)
{
	struct rnic_cache *c;

	if (!page_size || (page_size & (page_size - 1)))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->ops = *ops;
	c->ctx = ctx;
	c->page = page_size;
	c->capacity = capacity;
	return c;
}

/**
 * rnic_cache_destroy - deregister everything and free the cache
 * @c: a cache nobody holds regions of
 */
void rnic_cache_destroy(struct rnic_cache *c)
{
	if (!c)
		return;
	dereg_batch(c, c->idx, c->n);
	free(c->idx);
	free(c->ends);
	free(c);
}

/* a gap of the request: new pages to register before idx[at] */
struct rnic_cache_gap {
	uintptr_t start, end;
	size_t at;
};

static int rnic_cache_get_once(struct rnic_cache *c, uintptr_t addr, size_t len,
				struct rnic_cache_seg *segs, int max_segs);

/**
 * rnic_cache_get - registrations covering [@addr, @addr + @len)
 * @c: the cache
 * @addr: first byte
 * @len: bytes, > 0
 * @segs: filled with the pieces, in address order
 * @max_segs: room in @segs
 *
 * Every returned region is held until rnic_cache_put(). Pages not cached are
 * registered, after evicting idle regions if the capacity requires.
 *
 * Return: the number of segments; -E2BIG if more than @max_segs would
 * be needed, -EINVAL for a zero length or a range that wraps, -ENOMEM,
 * or the registrar's error. Nothing is held on error.
 */
int rnic_cache_get(struct rnic_cache *c, uintptr_t addr, size_t len,
	   struct rnic_cache_seg *segs, int max_segs)
{
	uint64_t gen;
	int n, tries;

	/* the binding's events first: a hit must not outlive a STALE */
	if (c->sync)
		c->sync(c->sync_arg);
	n = rnic_cache_get_once(c, addr, len, segs, max_segs);
	/*
	 * A bound process asked to shrink may not grow past its target
	 * before it answers (the kernel refuses such a registration rather
	 * than keep the process blocked in it, deaf to the REVOKE): answer
	 * now, which sets the capacity (and evicts idle regions), and try
	 * again, within it. Under churn a second REVOKE may come while the
	 * retry waits, so each answered one earns a retry, up to a bound;
	 * a refusal with nothing answered behind it (the wait ran out) is
	 * final: trying again would wait user_wait_ms twice. The capacity
	 * need not drop: a REVOKE asks for what the kernel saw held past
	 * the target, which may be nothing the cache can see.
	 */
	for (tries = 0; n == -ENOMEM && c->sync && tries < RC_MAX_RETRIES; tries++) {
		gen = c->cap_gen;
		c->sync(c->sync_arg);
		if (c->cap_gen == gen)
			break;
		c->stats.retries++;
		n = rnic_cache_get_once(c, addr, len, segs, max_segs);
	}
	return n;
}

static int rnic_cache_get_once(struct rnic_cache *c, uintptr_t addr, size_t len,
			       struct rnic_cache_seg *segs, int max_segs)
{
	uintptr_t s, e, cur, last = addr + len;
	size_t i, first, nold = 0, ngap = 0, k;
	struct rnic_cache_gap *gaps = NULL;
	struct rnic_cache_region **fresh = NULL;
	uint64_t new_pages = 0;
	int nseg = 0, err = 0;

	if (!len || last < addr || last > UINTPTR_MAX - c->page)
		return -EINVAL;
	s = addr & ~(c->page - 1);
	e = (last + c->page - 1) & ~(c->page - 1);

	/* what is cached, and the gaps between */
	first = idx_first(c, s);
	cur = s;
	for (i = first; i < c->n && c->idx[i]->start < e; i++) {
		if (c->idx[i]->start > cur)
			ngap++;
		nold++;
		cur = c->idx[i]->end;
	}
	if (cur < e)
		ngap++;
	if ((size_t)max_segs < nold + ngap)
		return -E2BIG;
	if (ngap) {
		gaps = malloc(ngap * sizeof(*gaps));
		fresh = calloc(ngap, sizeof(*fresh));
		if (!gaps || !fresh || idx_reserve(c, ngap)) {
			err = -ENOMEM;
			goto out;
		}
	}
	k = 0;
	cur = s;
	for (i = first; i < first + nold; i++) {
		if (c->idx[i]->start > cur)
			gaps[k++] = (struct rnic_cache_gap){ cur, c->idx[i]->start, i };
		cur = c->idx[i]->end;
	}
	if (cur < e)
		gaps[k++] = (struct rnic_cache_gap){ cur, e, first + nold };
	for (k = 0; k < ngap; k++)
		new_pages += (gaps[k].end - gaps[k].start) / c->page;

	/* hold the cached part, so making room cannot take it */
	for (i = first; i < first + nold; i++)
		c->idx[i]->refs++;
	if (ngap) {
		rnic_cache_make_room(c, new_pages);
		/* eviction moved the index: find the cached part again */
		first = idx_first(c, s);
		for (k = 0, cur = s, i = first; i < first + nold; i++) {
			if (c->idx[i]->start > cur)
				gaps[k++].at = i;
			cur = c->idx[i]->end;
		}
		if (k < ngap)
			gaps[k].at = first + nold;
	}
	for (k = 0; k < ngap; k++) {
		struct rnic_cache_region *g = calloc(1, sizeof(*g));

		if (!g) {
			err = -ENOMEM;
			break;
		}
		g->start = gaps[k].start;
		g->end = gaps[k].end;
		err = c->ops.reg(c->ctx, g->start, g->end - g->start, &g->handle);
		if (err) {
			free(g);
			break;
		}
		c->cached += rnic_cache_pages(c, g);
		c->stats.regs++;
		c->stats.reg_pages += rnic_cache_pages(c, g);
		fresh[k] = g;
	}
	if (err) {
		size_t made = k;

		for (i = first; i < first + nold; i++)
			c->idx[i]->refs--;
		dereg_batch(c, fresh, made);
		goto out;
	}

	/* the new regions join the index (back to front keeps slots valid) */
	for (k = ngap; k-- > 0;) {
		fresh[k]->refs = 1;
		idx_insert(c, gaps[k].at, fresh[k]);
	}
	if (!ngap)
		c->stats.hits++;
	else if (nold)
		c->stats.partial++;
	else
		c->stats.misses++;

	/* segments in address order; every region goes to the stack's top */
	if (ngap)
		first = idx_first(c, s);
	for (i = first; i < c->n && c->idx[i]->start < e; i++) {
		struct rnic_cache_region *g = c->idx[i];
		uintptr_t from = g->start > addr ? g->start : addr;
		uintptr_t to = g->end < last ? g->end : last;

		g->evf = 0;
		g->stamp = ++c->clock;
		segs[nseg++] = (struct rnic_cache_seg){ g, g->handle, from, to - from };
	}
	err = nseg;
out:
	free(gaps);
	free(fresh);
	return err;
}

/**
 * rnic_cache_put - give back what rnic_cache_get() returned
 * @c: the cache
 * @segs: the segments
 * @n: how many
 */
void rnic_cache_put(struct rnic_cache *c, const struct rnic_cache_seg *segs, int n)
{
	struct rnic_cache_region **gone = NULL;
	size_t ngone = 0;
	int i;

	for (i = 0; i < n; i++) {
		struct rnic_cache_region *g = segs[i].region;

		if (--g->refs || !g->stale)
			continue;
		if (!gone)
			gone = malloc(n * sizeof(*gone));
		if (gone)
			gone[ngone++] = g;
		else
			dereg_batch(c, &g, 1);
	}
	dereg_batch(c, gone, ngone);
	free(gone);
	if (c->cached > c->capacity)
		rnic_cache_evict(c, c->cached - c->capacity, c->cached - c->capacity);
}

/**
 * rnic_cache_invalidate - memory in [@addr, @addr + @len) changed
 * @c: the cache
 * @addr: first byte
 * @len: bytes
 *
 * Every region overlapping the range leaves the cache: idle ones are
 * deregistered now (one batch), held ones when put.
 *
 * Return: the number of regions dropped.
 */
int rnic_cache_invalidate(struct rnic_cache *c, uintptr_t addr, size_t len)
{
	uintptr_t s = addr & ~(c->page - 1), e;
	struct rnic_cache_region **gone;
	size_t i, ngone = 0;
	int dropped = 0;

	if (!len)
		return 0;
	e = addr + len < addr ? UINTPTR_MAX : addr + len;
	i = idx_first(c, s);
	gone = malloc((c->n - i + 1) * sizeof(*gone));
	/* each overlapping region leaves the index before anything else */
	while (i < c->n && c->idx[i]->start < e) {
		struct rnic_cache_region *g = c->idx[i];

		memmove(&c->idx[i], &c->idx[i + 1], (c->n - i - 1) * sizeof(*c->idx));
		memmove(&c->ends[i], &c->ends[i + 1], (c->n - i - 1) * sizeof(*c->ends));
		c->n--;
		dropped++;
		if (g->refs)
			g->stale = true;
		else if (gone)
			gone[ngone++] = g;
		else	/* no memory for a batch: one at a time */
			dereg_batch(c, &g, 1);
	}
	c->stats.stale += dropped;
	dereg_batch(c, gone, ngone);
	free(gone);
	return dropped;
}

/**
 * rnic_cache_shrink - free at least @pages pages of idle regions (REVOKE)
 * @c: the cache
 * @pages: how many
 *
 * Return: the pages freed (less than asked if too much is held).
 */
uint64_t rnic_cache_shrink(struct rnic_cache *c, uint64_t pages)
{
	return rnic_cache_evict(c, pages, pages);
}

/**
 * rnic_cache_set_capacity - a new entitlement; evicts down to it
 * @c: the cache
 * @pages: the new capacity
 */
void rnic_cache_set_capacity(struct rnic_cache *c, uint64_t pages)
{
	c->cap_gen++;
	c->capacity = pages;
	if (c->cached > pages)
		rnic_cache_evict(c, c->cached - pages, c->cached - pages);
}

/**
 * rnic_cache_set_sync - a call to make before each lookup
 * @c: the cache
 * @sync: called with @arg at the start of every rnic_cache_get(), or
 *	NULL for none; it may shrink and invalidate the cache
 * @arg: its argument
 *
 * librnic's binding sets it (rnic_bind_open()): the events the kernel
 * posted are acted on before a lookup, so the cache never serves a
 * region the kernel reported stale.
 */
void rnic_cache_set_sync(struct rnic_cache *c, void (*sync)(void *arg), void *arg)
{
	c->sync = sync;
	c->sync_arg = arg;
}

/**
 * rnic_cache_capacity - the cache's current capacity
 * @c: the cache
 *
 * Return: the pages it may keep registered, cached or held.
 */
uint64_t rnic_cache_capacity(const struct rnic_cache *c)
{
	return c->capacity;
}

/**
 * rnic_cache_ctx - the context the cache was created with
 * @c: the cache
 *
 * Return: the @ctx given to rnic_cache_create().
 */
void *rnic_cache_ctx(const struct rnic_cache *c)
{
	return c->ctx;
}

/**
 * rnic_cache_cached_pages - pages registered now, held or idle
 * @c: the cache
 *
 * Return: pages.
 */
uint64_t rnic_cache_cached_pages(const struct rnic_cache *c)
{
	return c->cached;
}

/**
 * rnic_cache_get_stats - the counters
 * @c: the cache
 *
 * Return: a pointer valid until rnic_cache_destroy().
 */
const struct rnic_cache_stats *rnic_cache_get_stats(const struct rnic_cache *c)
{
	return &c->stats;
}
