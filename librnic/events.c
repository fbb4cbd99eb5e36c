// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librnic: acting on rnic_mgr's events (events.h). The events are
 * decoded with the kernel's own codec (common/rnic_user_event.c); what the
 * library does with each is here, so that it is tested without a device.
 */
#include <errno.h>
#include <string.h>

#include <rdmastor/rnic_user_event.h>
#include <stdlib.h>

#include "events_int.h"

/**
 * rnic_lib_init - start a binding's state
 * @l: the state
 * @cache: its cache
 * @shared: the mapped shared page, or NULL
 */
void rnic_lib_init(struct rnic_lib *l, struct rnic_cache *cache,
		   const struct rnic_shared *shared)
{
	memset(l, 0, sizeof(*l));
	l->cache = cache;
	l->shared = shared;
	l->expect_seq = 1;
}

/**
 * rnic_lib_create - event handling for one cache
 * @cache: the cache the events act on
 * @shared: the mapped shared page, or NULL (tests without one)
 *
 * Return: the handle, or NULL (out of memory).
 */
struct rnic_lib *rnic_lib_create(struct rnic_cache *cache,
				 const struct rnic_shared *shared)
{
	struct rnic_lib *l = malloc(sizeof(*l));

	if (l)
		rnic_lib_init(l, cache, shared);
	return l;
}

/**
 * rnic_lib_destroy - free what rnic_lib_create() made (not the cache)
 * @l: the handle, or NULL
 */
void rnic_lib_destroy(struct rnic_lib *l)
{
	free(l);
}

/**
 * rnic_lib_get_stats - what the event handling did
 * @l: the handle
 *
 * Return: its counters, valid as long as the handle.
 */
const struct rnic_lib_stats *rnic_lib_get_stats(const struct rnic_lib *l)
{
	return &l->stats;
}

#define RD(field) __atomic_load_n(&sh->field, __ATOMIC_RELAXED)

/**
 * rnic_shared_read - a consistent copy of the shared page
 * @sh: the mapped page
 * @out: the copy
 *
 * Return: 0, or -EAGAIN if the kernel kept it changing over many tries.
 */
int rnic_shared_read(const struct rnic_shared *sh, struct rnic_shared *out)
{
	int tries;

	for (tries = 0; tries < 1000; tries++) {
		uint64_t s1 = __atomic_load_n(&sh->seq, __ATOMIC_ACQUIRE);

		if (s1 & 1)
			continue;	/* the kernel is writing */
		/* the kernel writes these while we read: atomic loads */
		out->abi_version = RD(abi_version);
		out->grace_ms = RD(grace_ms);
		out->entitlement = RD(entitlement);
		out->held = RD(held);
		out->target = RD(target);
		out->key_entitlement = RD(key_entitlement);
		out->key_held = RD(key_held);
		out->deadline_ns = RD(deadline_ns);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&sh->seq, __ATOMIC_RELAXED) == s1) {
			out->seq = s1;
			return 0;
		}
	}
	return -EAGAIN;
}

/* events were lost, or one we do not know came: take the page's word */
static void rnic_lib_resync(struct rnic_lib *l)
{
	struct rnic_shared sh;
	uint64_t cap;

	if (!l->shared || rnic_shared_read(l->shared, &sh))
		return;
	l->stats.resyncs++;
	/* a pending target bounds the cache below the entitlement */
	cap = sh.entitlement;
	if (sh.target != RNIC_NO_TARGET && sh.target < cap)
		cap = sh.target;
	rnic_cache_set_capacity(l->cache, cap);	/* evicts down to it */
}

/*
 * Events were lost (the kernel drops one its queue has no room for, and
 * an munmap over some 400 cached regions posts that many STALEs). Any
 * of them may have been a STALE, and a region it covered must never be
 * used again: a buffer mapped anew at the same address would go out
 * with the old pages, and what is received would land in them. So no
 * cached region is trusted: idle ones go now, held ones when put.
 */
static void rnic_lib_lost(struct rnic_lib *l, uint32_t lost)
{
	l->stats.lost += lost;
	l->stats.flushes++;
	l->stats.stale_dropped += rnic_cache_invalidate(l->cache, 0, SIZE_MAX);
	rnic_lib_resync(l);
}

/**
 * rnic_lib_drained - the queue was read empty: were events lost at its end?
 * @l: the binding
 * @posted: the page's events_posted, loaded (acquire) before the reads
 *	that emptied the queue
 *
 * The kernel announces each event after it queued or dropped it, so one
 * up to @posted that was not read was dropped; with no event after it,
 * no sequence gap would ever show it.
 */
void rnic_lib_drained(struct rnic_lib *l, uint64_t posted)
{
	uint32_t lost = (uint32_t)posted - (l->expect_seq - 1);

	/* none, or the reads went past @posted (events posted since) */
	if (!lost || lost > INT32_MAX)
		return;
	l->expect_seq = (uint32_t)posted + 1;
	rnic_lib_lost(l, lost);
}

/**
 * rnic_lib_refresh - let the cache grow back to what the page allows
 * @l: the binding
 *
 * The kernel rewrites the page whenever this process's registrations
 * are charged or refunded, with an entitlement that counts the free
 * entries it may borrow. With no target pending, a capacity below that
 * entitlement is a leftover of an earlier REVOKE: raise it. Reads the
 * page only when it changed.
 *
 * Return: 1 if the capacity grew, else 0.
 */
int rnic_lib_refresh(struct rnic_lib *l)
{
	struct rnic_shared sh;

	if (!l->shared || rnic_shared_read(l->shared, &sh) || sh.seq == l->page_seq)
		return 0;
	l->page_seq = sh.seq;
	if (sh.target != RNIC_NO_TARGET || sh.entitlement <= rnic_cache_capacity(l->cache))
		return 0;
	rnic_cache_set_capacity(l->cache, sh.entitlement);
	l->stats.regrows++;
	return 1;
}

static void rnic_lib_revoke(struct rnic_lib *l, const struct rnic_ev *ev)
{
	uint64_t asked = ev->revoke.entries, before = rnic_cache_cached_pages(l->cache);
	struct rnic_shared sh;
	uint64_t freed;

	/*
	 * Each REVOKE asks relative to what the kernel saw held when it
	 * posted it, so two posted before this process acted on the first
	 * ask too much together (seen: 3072 asked of a cache of 2400, which
	 * emptied it while its share was 775). The page has the latest
	 * target and what is held now: ask for the difference, nothing if
	 * no target is pending any more.
	 */
	if (l->shared && !rnic_shared_read(l->shared, &sh))
		asked = sh.target == RNIC_NO_TARGET ? 0 :
			sh.held > sh.target ? sh.held - sh.target : 0;

	l->stats.revokes++;
	l->stats.revoke_asked += asked;
	/* idle cached regions first, all in one batch, now */
	freed = rnic_cache_shrink(l->cache, asked);
	l->stats.revoke_freed += freed;
	/* what is held goes as it is put: the cache may keep no more */
	rnic_cache_set_capacity(l->cache, before > asked ? before - asked : 0);
	if (freed < asked)
		l->stats.revoke_short++;
}

/**
 * rnic_lib_events - act on what read() returned
 * @l: the binding
 * @buf: the bytes
 * @len: how many (whole events: the device never splits one)
 *
 * Return: events handled, or -EPROTO if the stream is malformed (the
 * events before the bad one were handled; the caller should drop the
 * binding: nothing after it can be trusted).
 */
int rnic_lib_events(struct rnic_lib *l, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t off = 0;
	struct rnic_ev ev;
	int n, handled = 0;
	int64_t lost;

	while (off < len) {
		n = rnic_ev_decode(p + off, len - off, &ev);
		if (n < 0)	/* the device never splits an event */
			return -EPROTO;
		off += n;
		lost = rnic_ev_seq_next(&l->expect_seq, ev.seq);
		if (lost < 0)
			return -EPROTO;
		l->stats.events++;
		handled++;
		if (lost)
			rnic_lib_lost(l, (uint32_t)lost);
		switch (ev.type) {
		case RNIC_EV_REVOKE:
			rnic_lib_revoke(l, &ev);
			break;
		case RNIC_EV_GROW:
			l->stats.grows++;
			rnic_cache_set_capacity(l->cache, ev.grow.entitlement);
			break;
		case RNIC_EV_STALE:
			l->stats.stale++;
			l->stats.stale_dropped += rnic_cache_invalidate(l->cache, ev.stale.addr,
								ev.stale.len);
			break;
		case RNIC_EV_RECLAIM:
			/*
			 * Capacity on loan: idle regions only, and the
			 * capacity stands (the entitlement did not change);
			 * a region this process uses again is registered
			 * again, competing by its share like any other.
			 */
			l->stats.reclaims++;
			l->stats.reclaim_asked += ev.reclaim.entries;
			l->stats.reclaim_freed += rnic_cache_shrink(l->cache, ev.reclaim.entries);
			break;
		case RNIC_EV_GRANT:
			l->stats.grants++;
			l->stats.granted += ev.grant.entries;
			if (!ev.grant.entries)
				l->stats.grants_refused++;
			break;
		default:
			l->stats.unknown++;
			rnic_lib_resync(l);
			break;
		}
	}
	return handled;
}
