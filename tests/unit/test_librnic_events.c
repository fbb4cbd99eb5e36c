// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of librnic/events.c: encoded event streams (the kernel's
 * own encoder) fed to the library, with a registration cache over a
 * mock registrar, and the library's reaction checked: REVOKE evicts idle
 * cached regions at once in one batch and lowers the capacity so held
 * ones go when put; GROW raises the capacity; STALE drops regions over
 * the range and the next use registers anew; lost events (a sequence
 * gap, or events posted that the drained queue never had) drop every
 * cached region, and they and unknown types make it read the shared
 * page again; with no target pending the
 * capacity grows back to the page's entitlement; a malformed stream or a
 * repeated sequence number is -EPROTO; the shared page is read only
 * when consistent.
 */
#include <errno.h>
#include <string.h>

#include <rdmastor/rnic_user_event.h>
#include "librnic/events_int.h"
#include "tap.h"

#define PG 4096UL
#define BASE 0x20000000UL

static int live, regs, batches;
/* the kernel's side of the page: what it charges, as it charges it */
static struct rnic_shared *kpage;

static int mreg(void *ctx, uintptr_t a, size_t len, void **h)
{
	(void)ctx;
	*h = (void *)(a | (len / PG));	/* the pages, in the low bits */
	live++;
	regs++;
	if (kpage)
		kpage->held += len / PG;
	return 0;
}

static void mdereg(void *ctx, void *const *h, size_t n)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < n && kpage; i++)
		kpage->held -= (uintptr_t)h[i] & (PG - 1);
	live -= n;
	batches++;
}

static const struct rnic_cache_ops ops = { mreg, mdereg };
static unsigned char stream[4096];
static size_t slen;
static u32 seq;

static void post(struct rnic_ev ev)
{
	ev.seq = ++seq;
	slen += rnic_ev_encode(stream + slen, sizeof(stream) - slen, &ev);
}

static int feed(struct rnic_lib *l)
{
	int n = rnic_lib_events(l, stream, slen);

	slen = 0;
	return n;
}

/* cache N idle regions of 4 pages, 8 pages apart */
static void fill(struct rnic_cache *c, int n)
{
	struct rnic_cache_seg s[2];
	int i, k;

	for (i = 0; i < n; i++) {
		k = rnic_cache_get(c, BASE + i * 8 * PG, 4 * PG, s, 2);
		rnic_cache_put(c, s, k);
	}
}

int main(void)
{
	struct rnic_shared page;
	struct rnic_shared snap;
	struct rnic_lib l;
	struct rnic_cache *c;
	struct rnic_cache_seg held[2];
	int n, b0, r0;
	uint64_t g0, k0;

	c = rnic_cache_create(&ops, NULL, PG, 64);
	rnic_lib_init(&l, c, NULL);
	fill(c, 10);				/* 40 pages idle */
	b0 = batches;
	post((struct rnic_ev){ .type = RNIC_EV_REVOKE, .revoke = { .entries = 12 } });
	n = feed(&l);
	tap_ok(n == 1 && rnic_cache_cached_pages(c) <= 28 && batches == b0 + 1 &&
	       l.stats.revoke_freed >= 12 && !l.stats.revoke_short,
	       "REVOKE of 12 entries: idle regions freed at once, in one batch (%llu left)",
	       (unsigned long long)rnic_cache_cached_pages(c));
	fill(c, 10);
	tap_ok(rnic_cache_cached_pages(c) <= 28, "and the cache keeps within what it kept (%llu)",
	       (unsigned long long)rnic_cache_cached_pages(c));

	post((struct rnic_ev){ .type = RNIC_EV_GROW, .grow = { .entitlement = 200 } });
	tap_ok(feed(&l) == 1 && l.stats.grows == 1, "GROW handled");
	fill(c, 30);
	tap_ok(rnic_cache_cached_pages(c) == 120, "after GROW to 200 the cache holds 30 regions (%llu)",
	       (unsigned long long)rnic_cache_cached_pages(c));

	/* a REVOKE larger than what is idle: held regions go when put */
	rnic_cache_set_capacity(c, 0);
	rnic_cache_set_capacity(c, 64);
	n = rnic_cache_get(c, BASE + 1000 * PG, 16 * PG, held, 2);
	fill(c, 2);				/* 16 held + 8 idle */
	post((struct rnic_ev){ .type = RNIC_EV_REVOKE, .revoke = { .entries = 20 } });
	feed(&l);
	tap_ok(l.stats.revoke_short == 1 && rnic_cache_cached_pages(c) == 16,
	       "REVOKE beyond the idle regions: those go now, the held one stays (%llu)",
	       (unsigned long long)rnic_cache_cached_pages(c));
	rnic_cache_put(c, held, n);
	tap_ok(rnic_cache_cached_pages(c) <= 4, "and goes when put (%llu left of 24, 20 asked)",
	       (unsigned long long)rnic_cache_cached_pages(c));

	/* STALE */
	rnic_cache_set_capacity(c, 64);
	fill(c, 4);
	r0 = regs;
	post((struct rnic_ev){ .type = RNIC_EV_STALE, .stale = { BASE + 8 * PG + 100, 10, 7 } });
	post((struct rnic_ev){ .type = RNIC_EV_GRANT, .grant = { 1, 10 } });
	post((struct rnic_ev){ .type = RNIC_EV_GRANT, .grant = { 2, 0 } });
	n = feed(&l);
	tap_ok(n == 3 && l.stats.stale_dropped == 1 && l.stats.grants == 2 &&
	       l.stats.granted == 10 && l.stats.grants_refused == 1,
	       "STALE drops the one region over the range; GRANTs counted, a refusal apart");
	fill(c, 4);
	tap_ok(regs == r0 + 1, "the next use registers that region anew, and only it");

	/* RECLAIM: idle regions only, the capacity stands */
	{
		struct rnic_cache_seg held[4];
		uint64_t cap = rnic_cache_capacity(c), before = rnic_cache_cached_pages(c);
		int k = rnic_cache_get(c, BASE, 4 * PG, held, 4);

		post((struct rnic_ev){ .type = RNIC_EV_RECLAIM, .reclaim = { 1000 } });
		n = feed(&l);
		tap_ok(n == 1 && l.stats.reclaims == 1 && l.stats.reclaim_asked == 1000 &&
		       rnic_cache_cached_pages(c) == 4 && rnic_cache_capacity(c) == cap,
		       "RECLAIM evicts every idle region, keeps the one in use and the capacity (%llu of %llu pages left, capacity %llu)",
		       (unsigned long long)rnic_cache_cached_pages(c), (unsigned long long)before,
		       (unsigned long long)rnic_cache_capacity(c));
		tap_ok(l.stats.reclaim_freed == before - 4, "and counts what it freed (%llu)",
		       (unsigned long long)l.stats.reclaim_freed);
		rnic_cache_put(c, held, k);
	}

	/* lost events and unknown types: the shared page decides */
	memset(&page, 0, sizeof(page));
	page.entitlement = 40;
	page.target = 8;
	page.seq = 2;
	rnic_lib_init(&l, c, &page);
	l.expect_seq = seq + 1;
	fill(c, 8);
	seq += 3;				/* three events lost */
	post((struct rnic_ev){ .type = RNIC_EV_GRANT, .grant = { 2, 1 } });
	feed(&l);
	tap_ok(l.stats.lost == 3 && l.stats.resyncs == 1 && rnic_cache_cached_pages(c) <= 8,
	       "a sequence gap: three lost, the shared page read, down to its target (%llu)",
	       (unsigned long long)rnic_cache_cached_pages(c));
	/*
	 * A lost event may have been a STALE (a full queue drops one): no
	 * region cached before the gap may be used again, or a buffer
	 * mapped anew at the same address would go out with the old pages.
	 */
	{
		struct rnic_cache_seg h[2];
		int k, r1;

		page.target = RNIC_NO_TARGET;
		page.entitlement = 64;
		rnic_cache_set_capacity(c, 64);
		fill(c, 2);			/* two idle regions */
		k = rnic_cache_get(c, BASE + 100 * PG, 4 * PG, h, 2);	/* one held */
		seq += 1;			/* a STALE over all three, lost */
		post((struct rnic_ev){ .type = RNIC_EV_GRANT, .grant = { 3, 1 } });
		feed(&l);
		r1 = regs;
		fill(c, 2);
		tap_ok(regs == r1 + 2,
		       "after a gap the idle regions are registered anew: %d of 2", regs - r1);
		rnic_cache_put(c, h, k);
		r1 = regs;
		k = rnic_cache_get(c, BASE + 100 * PG, 4 * PG, h, 2);
		tap_ok(regs == r1 + 1,
		       "and the one held across it is dropped at its put, then registered anew: %d of 1",
		       regs - r1);
		rnic_cache_put(c, h, k);
		/* the last events lost: the queue reads empty, the page says more */
		fill(c, 2);
		r1 = regs;
		k = (int)l.stats.flushes;
		rnic_lib_drained(&l, seq);
		fill(c, 2);
		tap_ok(regs == r1, "drained up to what was posted: nothing lost (%d registered)",
		       regs - r1);
		rnic_lib_drained(&l, seq + 2);
		fill(c, 2);
		tap_ok(l.stats.flushes == (uint64_t)k + 1 && regs == r1 + 2 && l.expect_seq == seq + 3,
		       "two posted and never queued: counted lost, nothing cached used again (%d of 2)",
		       regs - r1);
		seq += 2;
		rnic_lib_drained(&l, seq - 5);
		tap_ok(l.stats.flushes == (uint64_t)k + 1,
		       "a page older than the events read: nothing lost");
	}
	k0 = l.stats.resyncs;
	memset(stream, 0, 24);
	stream[0] = 99;
	stream[2] = 24;
	*(u32 *)(stream + 4) = ++seq;
	slen = 24;
	page.target = RNIC_NO_TARGET;
	page.entitlement = 100;
	tap_ok(feed(&l) == 1 && l.stats.unknown == 1 && l.stats.resyncs == k0 + 1,
	       "an unknown type is skipped and the shared page read again");

	/*
	 * Two REVOKEs posted before the first was acted on, each relative
	 * to the same held (24: targets 16, then 8): the page's target and
	 * held decide, so the cache comes down to 8, not 24 - 8 - 16 = 0.
	 */
	rnic_cache_set_capacity(c, 0);
	rnic_cache_set_capacity(c, 64);
	page.held = 0;
	kpage = &page;
	fill(c, 6);				/* 24 pages idle */
	page.target = 8;
	page.seq = 20;
	post((struct rnic_ev){ .type = RNIC_EV_REVOKE, .revoke = { .entries = 8 } });
	post((struct rnic_ev){ .type = RNIC_EV_REVOKE, .revoke = { .entries = 16 } });
	feed(&l);
	tap_ok(rnic_cache_cached_pages(c) == 8 && rnic_cache_capacity(c) == 8,
	       "two REVOKEs asking 8 and 16 of 24 toward one target: 8 kept (%llu), not 0",
	       (unsigned long long)rnic_cache_cached_pages(c));
	page.target = RNIC_NO_TARGET;
	post((struct rnic_ev){ .type = RNIC_EV_REVOKE, .revoke = { .entries = 8 } });
	feed(&l);
	tap_ok(rnic_cache_cached_pages(c) == 8 && page.held == 8,
	       "a REVOKE whose target the page shows met frees nothing");
	kpage = NULL;

	/* growing back from the page: not with a target, once without */
	rnic_cache_set_capacity(c, 8);
	page.seq = 10;
	page.target = 4;
	page.entitlement = 100;
	tap_ok(!rnic_lib_refresh(&l) && rnic_cache_capacity(c) == 8,
	       "a pending target: the capacity stays (%llu)", (unsigned long long)rnic_cache_capacity(c));
	page.seq = 12;
	page.target = RNIC_NO_TARGET;
	n = rnic_lib_refresh(&l);
	tap_ok(n == 1 && rnic_cache_capacity(c) == 100 && l.stats.regrows == 1,
	       "no target, more entitled: the capacity grows back to it (%llu)",
	       (unsigned long long)rnic_cache_capacity(c));
	rnic_cache_set_capacity(c, 8);
	tap_ok(!rnic_lib_refresh(&l) && rnic_cache_capacity(c) == 8,
	       "an unchanged page is not read again");
	page.seq = 14;
	page.entitlement = 6;
	tap_ok(!rnic_lib_refresh(&l) && rnic_cache_capacity(c) == 8,
	       "less entitled than the capacity: no change (REVOKE does the shrinking)");

	/* malformed, repeated */
	g0 = l.stats.grants;
	post((struct rnic_ev){ .type = RNIC_EV_GRANT, .grant = { 3, 1 } });
	stream[slen++] = 1;			/* 1 stray byte */
	n = rnic_lib_events(&l, stream, slen);
	tap_ok(n == -EPROTO && l.stats.grants == g0 + 1,
	       "a stream with a broken tail: -EPROTO, the event before it handled (%d)", n);
	slen = 0;
	seq--;
	post((struct rnic_ev){ .type = RNIC_EV_GRANT, .grant = { 4, 1 } });
	tap_ok(feed(&l) == -EPROTO, "a repeated sequence number: -EPROTO");

	/* the shared page */
	page.seq = 3;
	tap_ok(rnic_shared_read(&page, &snap) == -EAGAIN, "an odd seq (a write in progress): -EAGAIN");
	page.seq = 4;
	page.held = 77;
	tap_ok(!rnic_shared_read(&page, &snap) && snap.held == 77 && snap.seq == 4,
	       "an even seq: a consistent copy");

	rnic_cache_destroy(c);
	tap_ok(live == 0, "nothing left registered (%d)", live);
	return tap_done();
}
