// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of librnic/regcache.c (the MRRC paper's registration cache)
 * against a mock registrar that knows what is registered, what each
 * caller holds and what memory changed since it was registered:
 *
 * - fixed cases: hits, partial overlaps, gaps, errors, large regions
 *   evicted before small ones, the older of two equal ones first, a
 *   stale region never returned again, held regions never deregistered,
 *   a capacity of 0 caching nothing, batched deregistration;
 * - random operation sequences (get, put, invalidate, shrink, a new
 *   capacity, registrations that fail) checked after every step against
 *   the invariants of regcache.h, for several seeds.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "librnic/regcache.h"
#include "tap.h"

#define PG 4096UL
#define NPAGES 256
#define BASE 0x10000000UL
#define MAXREG 32768

/* the mock registrar */
struct mreg {
	uintptr_t start, end;
	unsigned int gen[NPAGES];	/* page generations when registered */
	int held;			/* segments of it callers hold */
	bool alive, changed;		/* changed: memory under it changed */
};

static struct mreg regs[MAXREG];
static int nregs, live, reg_calls, dereg_calls, dereg_batches;
static unsigned int page_gen[NPAGES];
static int fail_pct;			/* make this share of reg() fail */
static int fail_next;			/* make the next this many reg() fail */
static int violations;
static char why[256];

static void violation(const char *s)
{
	if (!violations++)
		snprintf(why, sizeof(why), "%s", s);
}

static int pg(uintptr_t a) { return (int)((a - BASE) / PG); }

static int mock_reg(void *ctx, uintptr_t addr, size_t len, void **handle)
{
	struct mreg *m;
	int i, p;

	(void)ctx;
	if (fail_next) {
		fail_next--;
		return -ENOMEM;
	}
	if (fail_pct && rand() % 100 < fail_pct)
		return -ENOMEM;
	if (nregs == MAXREG) {
		violation("mock registrar full");
		return -ENOMEM;
	}
	if (addr % PG || len % PG || !len)
		violation("registration not page aligned");
	/* regions the cache may still return never overlap */
	for (i = 0; i < nregs; i++)
		if (regs[i].alive && !regs[i].changed &&
		    regs[i].start < addr + len && addr < regs[i].end)
			violation("two live registrations overlap");
	m = &regs[nregs++];
	memset(m, 0, sizeof(*m));
	m->start = addr;
	m->end = addr + len;
	m->alive = true;
	for (p = pg(addr); p < pg(addr + len); p++)
		m->gen[p] = page_gen[p];
	*handle = m;
	reg_calls++;
	live++;
	return 0;
}

static void mock_dereg(void *ctx, void *const *handles, size_t n)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < n; i++) {
		struct mreg *m = handles[i];

		if (!m->alive)
			violation("deregistered twice");
		if (m->held > 0)
			violation("deregistered while held");
		if (m->held < 0)
			violation("the test put more than it got");
		m->alive = false;
		live--;
		dereg_calls++;
	}
	dereg_batches++;
}

static const struct rnic_cache_ops ops = { mock_reg, mock_dereg };

static void mock_reset(void)
{
	nregs = live = reg_calls = dereg_calls = dereg_batches = 0;
	violations = 0;
	why[0] = 0;
	fail_pct = 0;
	fail_next = 0;
	memset(page_gen, 0, sizeof(page_gen));
}

/* the memory under [a, a + len) changed (munmap, mmap MAP_FIXED) */
static void mock_change(uintptr_t a, size_t len)
{
	int i, p;

	for (p = pg(a); p < pg(a + len + PG - 1) && p < NPAGES; p++)
		page_gen[p]++;
	for (i = 0; i < nregs; i++)
		if (regs[i].alive && regs[i].start < a + len && a < regs[i].end)
			regs[i].changed = true;
}

/* check what rnic_cache_get returned for [a, a + len) and hold it in the mock */
static void check_segs(uintptr_t a, size_t len, const struct rnic_cache_seg *s, int n)
{
	uintptr_t cur = a;
	int i, p;

	for (i = 0; i < n; i++) {
		struct mreg *m = s[i].handle;

		if (s[i].addr != cur || !s[i].len)
			violation("segments do not cover the request in order");
		if (!m->alive)
			violation("a segment's registration is dead");
		if (s[i].addr < m->start || s[i].addr + s[i].len > m->end)
			violation("a segment lies outside its registration");
		for (p = pg(s[i].addr & ~(PG - 1)); p < pg(s[i].addr + s[i].len + PG - 1); p++)
			if (m->gen[p] != page_gen[p])
				violation("a registration of changed memory was returned");
		m->held++;
		cur += s[i].len;
	}
	if (cur != a + len)
		violation("segments do not add up to the request");
}

static void put_segs(struct rnic_cache *c, struct rnic_cache_seg *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		((struct mreg *)s[i].handle)->held--;
	rnic_cache_put(c, s, n);
}

static uint64_t live_pages(void)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < nregs; i++)
		if (regs[i].alive)
			n += (regs[i].end - regs[i].start) / PG;
	return n;
}

static uintptr_t P(int page) { return BASE + (uintptr_t)page * PG; }

/* rnic_cache_get, checked and held in the mock */
static int get(struct rnic_cache *c, uintptr_t a, size_t len, struct rnic_cache_seg *s)
{
	int n = rnic_cache_get(c, a, len, s, 8);

	if (n > 0)
		check_segs(a, len, s, n);
	return n;
}

static void fixed_cases(void)
{
	struct rnic_cache_seg s[8], t[8];
	struct rnic_cache *c;
	int n, m, r0;

	mock_reset();
	c = rnic_cache_create(&ops, NULL, PG, 64);
	n = get(c, P(10) + 100, 3 * PG, s);
	tap_ok(n == 1 && reg_calls == 1 && ((struct mreg *)s[0].handle)->start == P(10) &&
	       ((struct mreg *)s[0].handle)->end == P(14),
	       "a miss registers the pages the request touches (n %d, regs %d)", n, reg_calls);
	put_segs(c, s, n);
	n = get(c, P(11), PG, s);
	tap_ok(n == 1 && reg_calls == 1 && rnic_cache_get_stats(c)->hits == 1,
	       "a request inside a cached region is a hit (regs %d)", reg_calls);
	put_segs(c, s, n);
	n = get(c, P(8), 8 * PG, s);
	tap_ok(n == 3 && reg_calls == 3 && rnic_cache_get_stats(c)->partial == 1 &&
	       s[1].handle == &regs[0],
	       "a partial overlap reuses the cached part and registers the two gaps (n %d, regs %d)",
	       n, reg_calls);
	tap_ok(rnic_cache_cached_pages(c) == 8 && live_pages() == 8,
	       "cached pages are the registered pages (%llu)",
	       (unsigned long long)rnic_cache_cached_pages(c));
	m = get(c, P(8), 8 * PG, t);
	tap_ok(m == 3 && reg_calls == 3, "the same request again is a hit on three regions");
	put_segs(c, t, m);
	put_segs(c, s, n);
	tap_ok(get(c, P(0), 0, s) == -EINVAL, "a zero length is -EINVAL");
	tap_ok(get(c, UINTPTR_MAX - 10, 100, s) == -EINVAL, "a range that wraps is -EINVAL");
	r0 = reg_calls;
	tap_ok(rnic_cache_get(c, P(4), 14 * PG, s, 2) == -E2BIG && reg_calls == r0,
	       "more segments than room is -E2BIG, nothing registered");
	fail_pct = 100;
	tap_ok(get(c, P(4), 14 * PG, s) == -ENOMEM && live == 3 && !violations,
	       "a registration that fails: its error, nothing held or leaked (live %d)", live);
	fail_pct = 0;
	rnic_cache_destroy(c);
	tap_ok(live == 0 && !violations, "destroy deregisters everything (live %d) %s", live, why);

	/* large regions go before small ones */
	mock_reset();
	c = rnic_cache_create(&ops, NULL, PG, 16);
	n = get(c, P(100), 8 * PG, s);	/* L: 8 pages, oldest */
	put_segs(c, s, n);
	for (m = 0; m < 4; m++) {		/* four 1-page regions */
		n = get(c, P(m * 2), PG, s);
		put_segs(c, s, n);
	}
	n = get(c, P(50), 8 * PG, s);	/* 12 + 8 > 16 */
	tap_ok(!regs[0].alive && regs[1].alive && regs[4].alive && dereg_batches == 1,
	       "making room evicts the large region before four small ones, in one batch");
	put_segs(c, s, n);
	rnic_cache_destroy(c);

	/* of two equal regions, the older goes first */
	mock_reset();
	c = rnic_cache_create(&ops, NULL, PG, 4);
	n = get(c, P(0), 2 * PG, s);
	put_segs(c, s, n);
	n = get(c, P(10), 2 * PG, s);
	put_segs(c, s, n);
	n = get(c, P(20), 2 * PG, s);
	tap_ok(!regs[0].alive && regs[1].alive, "of two equal idle regions the older is evicted");
	put_segs(c, s, n);
	rnic_cache_destroy(c);

	/* a stale region is never returned again; a held one dies at put */
	mock_reset();
	c = rnic_cache_create(&ops, NULL, PG, 64);
	n = get(c, P(30), 4 * PG, s);
	mock_change(P(31), 10);
	tap_ok(rnic_cache_invalidate(c, P(31), 10) == 1 && regs[0].alive,
	       "invalidation drops the region; held, it stays registered");
	m = get(c, P(30), 4 * PG, t);
	tap_ok(m == 1 && t[0].handle != s[0].handle && !violations,
	       "the same range again gets a new registration %s", why);
	put_segs(c, s, n);
	tap_ok(!regs[0].alive, "the stale region is deregistered at its last put");
	put_segs(c, t, m);
	tap_ok(rnic_cache_invalidate(c, P(0), NPAGES * PG) == 1 && live == 0,
	       "invalidating idle regions deregisters them at once");
	rnic_cache_destroy(c);

	/* shrink and capacity */
	mock_reset();
	c = rnic_cache_create(&ops, NULL, PG, 64);
	for (m = 0; m < 8; m++) {
		n = get(c, P(m * 4), 2 * PG, s);
		put_segs(c, s, n);
	}
	n = get(c, P(200), 4 * PG, t);
	tap_ok(rnic_cache_shrink(c, 10) >= 10 && rnic_cache_cached_pages(c) <= 10 && regs[8].alive,
	       "shrink frees idle pages, never a held region (%llu left)",
	       (unsigned long long)rnic_cache_cached_pages(c));
	tap_ok(rnic_cache_shrink(c, 100) == 6 && rnic_cache_cached_pages(c) == 4,
	       "shrink frees what is idle when asked for more");
	put_segs(c, t, n);
	rnic_cache_set_capacity(c, 0);
	tap_ok(rnic_cache_cached_pages(c) == 0 && live == 0, "a capacity of 0 evicts everything idle");
	n = get(c, P(0), PG, s);
	put_segs(c, s, n);
	tap_ok(live == 0 && rnic_cache_get_stats(c)->over == 1,
	       "with capacity 0 a put deregisters at once (no cache)");
	rnic_cache_destroy(c);
	tap_ok(!violations, "fixed cases keep every invariant %s", why);
}

#define HOLDS 16

static void random_run(unsigned int seed, int ops_n)
{
	struct rnic_cache_seg held[HOLDS][8];
	int nheld[HOLDS] = { 0 };
	uint64_t cap = 32 + seed % 64;
	struct rnic_cache *c;
	int i, k, n, errors = 0, accounting = 0, overcap = 0;

	mock_reset();
	srand(seed);
	c = rnic_cache_create(&ops, NULL, PG, cap);
	for (i = 0; i < ops_n && !violations; i++) {
		int op = rand() % 100;
		int h = rand() % HOLDS;

		if (op < 45 && !nheld[h]) {
			uintptr_t a = P(rand() % (NPAGES - 40)) + rand() % PG;
			size_t len = 1 + rand() % (rand() % 4 ? 4 * PG : 36 * PG);

			fail_pct = rand() % 10 == 0 ? 50 : 0;
			n = rnic_cache_get(c, a, len, held[h], 8);
			fail_pct = 0;
			if (n > 0) {
				check_segs(a, len, held[h], n);
				nheld[h] = n;
			} else if (n != -E2BIG && n != -ENOMEM) {
				errors++;
			}
		} else if (op < 85 && nheld[h]) {
			put_segs(c, held[h], nheld[h]);
			nheld[h] = 0;
		} else if (op < 92) {
			uintptr_t a = P(rand() % NPAGES);
			size_t len = 1 + rand() % (8 * PG);

			mock_change(a, len);
			rnic_cache_invalidate(c, a, len);
		} else if (op < 96) {
			rnic_cache_shrink(c, rand() % 16);
		} else {
			cap = rand() % 96;
			rnic_cache_set_capacity(c, cap);
		}
		if (rnic_cache_cached_pages(c) != live_pages())
			accounting++;
		for (k = 0, n = 0; k < HOLDS; k++)
			n += nheld[k];
		if (!n && rnic_cache_cached_pages(c) > cap)
			overcap++;
	}
	for (k = 0; k < HOLDS; k++)
		if (nheld[k])
			put_segs(c, held[k], nheld[k]);
	tap_ok(!violations && !errors && !accounting && !overcap,
	       "seed %u: %d operations keep every invariant (errors %d, accounting %d, over capacity when idle %d) %s",
	       seed, i, errors, accounting, overcap, why);
	tap_ok(rnic_cache_get_stats(c)->hits + rnic_cache_get_stats(c)->partial > 0,
	       "seed %u: the cache served requests (hits %llu, partial %llu, misses %llu, batches %llu)",
	       seed, (unsigned long long)rnic_cache_get_stats(c)->hits,
	       (unsigned long long)rnic_cache_get_stats(c)->partial,
	       (unsigned long long)rnic_cache_get_stats(c)->misses,
	       (unsigned long long)rnic_cache_get_stats(c)->batches);
	rnic_cache_destroy(c);
	tap_ok(live == 0, "seed %u: nothing left registered after destroy (%d)", seed, live);
}

/* rnic_cache_set_sync(): the binding's events, acted on before a lookup */
static struct rnic_cache *sync_cache;
static int sync_calls;

static void sync_stale(void *arg)
{
	sync_calls++;
	/* as a STALE event read by the binding would: the range is dropped */
	rnic_cache_invalidate(sync_cache, *(uintptr_t *)arg, PG);
}

static void sync_case(void)
{
	struct rnic_cache_seg s[8], t[8];
	uintptr_t stale = P(40);
	void *old;
	int n;

	mock_reset();
	sync_cache = rnic_cache_create(&ops, NULL, PG, 64);
	n = get(sync_cache, P(40), 2 * PG, s);
	old = s[0].handle;
	put_segs(sync_cache, s, n);
	mock_change(P(40), PG);
	rnic_cache_set_sync(sync_cache, sync_stale, &stale);
	n = get(sync_cache, P(40), 2 * PG, t);
	tap_ok(sync_calls == 1 && n == 1 && t[0].handle != old && !violations,
	       "the sync runs before the lookup: a range it reports stale is registered anew (calls %d, same %d)",
	       sync_calls, t[0].handle == old);
	put_segs(sync_cache, t, n);
	rnic_cache_set_sync(sync_cache, NULL, NULL);
	n = get(sync_cache, P(40), 2 * PG, t);
	tap_ok(sync_calls == 1 && n == 1, "cleared, it is not called (calls %d)", sync_calls);
	put_segs(sync_cache, t, n);
	rnic_cache_destroy(sync_cache);
}

/*
 * A REVOKE that comes while a registration is refused: the kernel
 * refuses a bound process's registration past a target it has not
 * answered; the sync after the refusal answers it (the capacity drops)
 * and the request is tried once more. A refusal with no REVOKE behind
 * it is not tried again (the process would wait user_wait_ms twice).
 */
static int revoke_at_sync, revoke_to, regrevokes, sync_in_get;

static void sync_revoke(void *arg)
{
	(void)arg;
	if (revoke_at_sync && !--revoke_at_sync)
		rnic_cache_set_capacity(sync_cache, revoke_to);
	/* from the second sync of a request on: one REVOKE read at each */
	if (regrevokes && sync_in_get++) {
		regrevokes--;
		rnic_cache_set_capacity(sync_cache, revoke_to);
	}
}

static void retry_case(void)
{
	struct rnic_cache_seg s[8];
	uint64_t regs0;
	int i, n;

	mock_reset();
	sync_cache = rnic_cache_create(&ops, NULL, PG, 64);
	for (i = 0; i < 8; i++) {
		n = get(sync_cache, P(4 * i), 4 * PG, s);
		put_segs(sync_cache, s, n);
	}
	rnic_cache_set_sync(sync_cache, sync_revoke, NULL);
	/* the REVOKE is read at the second sync: after the refusal */
	revoke_at_sync = 2;
	revoke_to = 16;
	fail_next = 1;
	n = get(sync_cache, P(100), 4 * PG, s);
	tap_ok(n == 1 && rnic_cache_get_stats(sync_cache)->retries == 1 &&
	       rnic_cache_cached_pages(sync_cache) <= 16 && !violations,
	       "refused, then a REVOKE answered: tried again within the new capacity (got %d, retries %llu, cached %llu of 16)",
	       n, (unsigned long long)rnic_cache_get_stats(sync_cache)->retries,
	       (unsigned long long)rnic_cache_cached_pages(sync_cache));
	if (n > 0)
		put_segs(sync_cache, s, n);
	regs0 = rnic_cache_get_stats(sync_cache)->regs;
	fail_next = 1;
	n = get(sync_cache, P(120), 4 * PG, s);
	tap_ok(n == -ENOMEM && rnic_cache_get_stats(sync_cache)->retries == 1 &&
	       rnic_cache_get_stats(sync_cache)->regs == regs0,
	       "refused with no REVOKE behind it: not tried again (got %d, retries %llu)",
	       n, (unsigned long long)rnic_cache_get_stats(sync_cache)->retries);
	/*
	 * Churn: the retry is refused too, after a second REVOKE, which
	 * asks for nothing the cache can see (same capacity): each answered
	 * REVOKE earns one more try (user_shared's verbs tenant gave up here).
	 */
	regrevokes = 2;
	revoke_to = 16;
	fail_next = 2;
	n = get(sync_cache, P(140), 4 * PG, s);
	tap_ok(n == 1 && rnic_cache_get_stats(sync_cache)->retries == 3,
	       "refused twice, a REVOKE answered after each: served on the third try (got %d, retries %llu, want 3)",
	       n, (unsigned long long)rnic_cache_get_stats(sync_cache)->retries);
	if (n > 0)
		put_segs(sync_cache, s, n);
	rnic_cache_set_sync(sync_cache, NULL, NULL);
	rnic_cache_destroy(sync_cache);
	tap_ok(live == 0, "retry: nothing left registered after destroy (%d)", live);
}

int main(void)
{
	unsigned int seed;

	fixed_cases();
	sync_case();
	retry_case();
	for (seed = 1; seed <= 6; seed++)
		random_run(seed, 4000);
	return tap_done();
}
