// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_mgr arbiter: the kernel side of the policy. Consumers register,
 * acquire and release here; the slow path rebalances and revokes; a
 * workqueue item delivers shrink callbacks; a reaper keeps the reserve,
 * watches revocation deadlines and serves waiters.
 *
 * Invariants I1-I7: rnic_int.h.
 */
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>

#include "rnic_int.h"
#include "trace.h"

#define RNIC_WAITING	1

struct rnic_waiter {
	struct list_head w_node;
	u64 w_n[RNP_NR_RES];
	u64 w_since_ms;
	int w_status;
	bool w_bounded;
};

/**
 * rnic_now_ms - the policy's clock: milliseconds since boot
 *
 * Return: the time in ms.
 */
u64 rnic_now_ms(void)
{
	return ktime_to_ms(ktime_get());
}

static struct rnic_consumer *rnic_of(struct rnp_cons *pc)
{
	return container_of(pc, struct rnic_consumer, rc_pol);
}

/**
 * rnic_dev_limit - the most of a resource the device says it can map
 * @rd: the device, its rd_max_mr and rd_max_frpl known
 * @r: RNP_KEYS or RNP_ENTRIES
 *
 * No device reports the size of its translation table, so the entries'
 * bound is what its MRs could map at once: max_mr MRs of
 * max_fast_reg_page_list_len pages each. A limit the device does not
 * report (0) bounds nothing.
 *
 * Return: MRs for RNP_KEYS, pages for RNP_ENTRIES, at most RNP_MAX_BUDGET.
 */
u64 rnic_dev_limit(const struct rnic_dev *rd, enum rnp_res r)
{
	u64 lim;

	if (!rd->rd_max_mr)
		return RNP_MAX_BUDGET;
	lim = rd->rd_max_mr;
	if (r == RNP_ENTRIES)
		lim = rd->rd_max_frpl ? lim * rd->rd_max_frpl : RNP_MAX_BUDGET;
	return min_t(u64, lim, RNP_MAX_BUDGET);
}

/**
 * rnic_dev_init_pool - set up a new device's pool
 * @rd: the device, not yet published; its limits known
 *
 * Each budget is its module parameter's (default_entries, default_keys),
 * or the device's own limit when that is smaller: a budget never
 * promises what the device cannot map.
 */
void rnic_dev_init_pool(struct rnic_dev *rd)
{
	const u64 dflt[RNP_NR_RES] = {
		[RNP_ENTRIES] = rnic_default_entries,
		[RNP_KEYS] = rnic_default_keys,
	};
	struct rnp_params params;
	int r;

	for (r = 0; r < RNP_NR_RES; r++) {
		u64 lim = rnic_dev_limit(rd, r);

		rd->rd_conf_budget[r] = min(dflt[r], lim);
		rd->rd_budget_src[r] = dflt[r] > lim ? RNIC_BUDGET_DEVICE : RNIC_BUDGET_DEFAULT;
	}
	rnp_params_default(&params);
	rnp_pool_init(&rd->rd_pool, rd->rd_conf_budget[RNP_ENTRIES],
		      rd->rd_conf_budget[RNP_KEYS], &params);
	mutex_init(&rd->rd_cons_mutex);
	INIT_LIST_HEAD(&rd->rd_consumers);
	INIT_LIST_HEAD(&rd->rd_peer_groups);
	spin_lock_init(&rd->rd_lock);
	atomic_set(&rd->rd_nr_waiting, 0);
	init_waitqueue_head(&rd->rd_wq);
}

/* A waiter left its queue (I3). Under rd_lock. */
static void rnic_waiter_dequeued(struct rnic_dev *rd)
{
	lockdep_assert_held(&rd->rd_lock);
	WARN_ON_ONCE(atomic_dec_return(&rd->rd_nr_waiting) < 0);
}

/* Take @w off its consumer's queue with @status and wake it (I2). */
static void rnic_waiter_finish(struct rnic_dev *rd, struct rnic_consumer *c,
			       struct rnic_waiter *w, int status)
{
	struct rnic_waiter *first;
	int r;

	lockdep_assert_held(&rd->rd_lock);
	for (r = 0; r < RNP_NR_RES; r++)
		c->rc_pol.r[r].want -= w->w_n[r];
	list_del(&w->w_node);
	WRITE_ONCE(w->w_status, status);
	rnic_waiter_dequeued(rd);
	first = list_first_entry_or_null(&c->rc_waiters, struct rnic_waiter, w_node);
	if (first)
		c->rc_pol.wait_since_ms = first->w_since_ms;
}

/*
 * I6: after @c was told to shrink, refuse its bounded waiters that its
 * target leaves no room for. Returns true if one was woken.
 */
static bool rnic_refuse_over_target(struct rnic_dev *rd, struct rnic_consumer *c)
{
	struct rnic_waiter *w, *tmp;
	bool woke = false;

	lockdep_assert_held(&rd->rd_lock);
	if (WARN_ON_ONCE(!c->rc_shrink_told))
		return false;
	list_for_each_entry_safe(w, tmp, &c->rc_waiters, w_node) {
		if (!w->w_bounded || !rnp_over_target(&c->rc_pol, w->w_n))
			continue;
		trace_rnic_refuse(c, w->w_n, -EBUSY);
		rnic_waiter_finish(rd, c, w, -EBUSY);
		woke = true;
	}
	return woke;
}

/* Trim every other consumer's unused grant back to what it holds. */
static void rnic_trim_others(struct rnic_dev *rd, struct rnp_cons *self)
{
	struct rnp_pool *p = &rd->rd_pool;
	u32 i;

	lockdep_assert_held(&rd->rd_lock);
	for (i = 0; i < p->nr; i++) {
		struct rnic_consumer *o = rnic_of(p->cons[i]);

		if (p->cons[i] == self)
			continue;
		spin_lock(&o->rc_lock);
		rnp_trim(p, &o->rc_pol, false);
		spin_unlock(&o->rc_lock);
	}
}

/*
 * Apply the last rebalance to one consumer: over its share it gets a
 * target (its callback runs from rd_notify_work); a target follows the
 * share up, and goes once the consumer is within its share again, which
 * ends the shrink (I5). Returns true if a callback is due.
 */
static bool rnic_enforce_one(struct rnic_dev *rd, struct rnic_consumer *c, u64 now)
{
	unsigned int flags;

	lockdep_assert_held(&rd->rd_lock);
	spin_lock(&c->rc_lock);
	flags = rnp_enforce(&rd->rd_pool, &c->rc_pol);
	spin_unlock(&c->rc_lock);
	if (flags & RNP_NOTIFY_CLEARED && c->rc_shrink_ms) {
		trace_rnic_shrink_cleared(c);
		c->rc_shrink_ms = 0;
	}
	flags &= ~RNP_NOTIFY_CLEARED;
	if (!flags)
		return false;
	if (flags & RNP_NOTIFY_SHRINK) {
		c->rc_revocations++;
		c->rc_shrink_told = false;	/* until this one is delivered */
		c->rc_cut = true;		/* until told it may grow (I7) */
		if (!c->rc_shrink_ms) {
			c->rc_shrink_ms = now ? now : 1;
			c->rc_late_counted = false;
		}
		trace_rnic_shrink_request(c);
	}
	c->rc_notify |= flags;
	return true;
}

/* Contention: apply the last rebalance to every consumer. */
static void rnic_enforce_all(struct rnic_dev *rd, u64 now)
{
	struct rnp_pool *p = &rd->rd_pool;
	bool notify = false;
	u32 i;

	lockdep_assert_held(&rd->rd_lock);
	for (i = 0; i < p->nr; i++)
		notify |= rnic_enforce_one(rd, rnic_of(p->cons[i]), now);
	if (notify)
		queue_work(system_wq, &rd->rd_notify_work);
}

static void rnic_rebalance(struct rnic_dev *rd, u64 now)
{
	u64 t0 = ktime_get_ns();

	lockdep_assert_held(&rd->rd_lock);
	rnp_rebalance(&rd->rd_pool, now);
	rd->rd_rebalances++;
	trace_rnic_rebalance(rd, ktime_get_ns() - t0);
}

/*
 * A request of @c for @entries is about to wait. Consumers that can say
 * what they keep cached and idle (->reclaim: the user-level caches) and
 * hold more than their minimum are asked to give back idle entries,
 * those with the most to spare first, until what was asked covers
 * @entries (seed 000's alternative victim: capacity on loan goes back
 * before an active registration is refused). Asking the largest first
 * disturbs one cache rather than a little of every one. Requests
 * coalesce in rc_reclaim until rd_notify_work delivers them.
 */
/* What @o holds idle beyond its minimum and what it was asked already. */
static u64 rnic_spare(const struct rnic_consumer *o)
{
	const struct rnp_res_state *e = &o->rc_pol.r[RNP_ENTRIES];

	return e->held > e->min + o->rc_reclaim ? e->held - e->min - o->rc_reclaim : 0;
}

static void rnic_ask_reclaim(struct rnic_consumer *o, u64 ask)
{
	o->rc_reclaim += ask;
	o->rc_reclaims++;
	o->rc_notify |= RNIC_NOTIFY_RECLAIM;
	trace_rnic_reclaim_idle(o, o->rc_reclaim);
}

/*
 * Ask consumers that keep idle MRs to free @entries, largest spare
 * first. One pass gathers the largest spares and their total; if the
 * total does not cover @entries every consumer with a spare is asked
 * for all of it (a second pass), else the largest, up to
 * RNP_RECLAIM_ASK_MAX of them (N7: O(n) under rd_lock, not O(n^2)).
 */
static void rnic_reclaim_idle(struct rnic_dev *rd, struct rnic_consumer *c, u64 entries)
{
	struct rnp_pool *p = &rd->rd_pool;
	struct rnp_reclaim_plan pl = {};
	u32 i;

	lockdep_assert_held(&rd->rd_lock);
	if (!entries)
		return;
	for (i = 0; i < p->nr; i++) {
		struct rnic_consumer *o = rnic_of(p->cons[i]);

		if (o != c && o->rc_ops->reclaim)
			rnp_reclaim_offer(&pl, o, rnic_spare(o));
	}
	if (!pl.n)
		return;
	if (pl.total <= entries) {
		for (i = 0; i < p->nr; i++) {
			struct rnic_consumer *o = rnic_of(p->cons[i]);
			u64 spare = rnic_spare(o);

			if (o != c && o->rc_ops->reclaim && spare)
				rnic_ask_reclaim(o, spare);
		}
	} else {
		for (i = 0; i < pl.n && entries; i++) {
			u64 ask = min(pl.spare[i], entries);

			rnic_ask_reclaim(pl.who[i], ask);
			entries -= ask;
		}
	}
	queue_work(system_wq, &rd->rd_notify_work);
}

/* Is any queued waiter owed its request (within its fair share)? */
static bool rnic_waiter_owed(struct rnic_dev *rd)
{
	struct rnp_pool *p = &rd->rd_pool;
	u32 i;

	for (i = 0; i < p->nr; i++) {
		struct rnic_consumer *c = rnic_of(p->cons[i]);
		struct rnic_waiter *w;

		w = list_first_entry_or_null(&c->rc_waiters, struct rnic_waiter, w_node);
		if (w && rnp_below_share(&c->rc_pol, w->w_n))
			return true;
	}
	return false;
}

static void rnic_update_short(struct rnic_dev *rd)
{
	struct rnp_pool *p = &rd->rd_pool;

	WRITE_ONCE(rd->rd_short,
		   rnp_free(p, RNP_ENTRIES) < p->r[RNP_ENTRIES].reserve ||
		   rnp_free(p, RNP_KEYS) < p->r[RNP_KEYS].reserve);
}

/*
 * Grant queued requests while the pool allows, the most deprived
 * consumer first (or a starving one), FIFO within a consumer. Stops at
 * the first request that cannot be served so that a large request is not
 * overtaken forever by small ones.
 */
static void rnic_serve_waiters(struct rnic_dev *rd)
{
	struct rnp_pool *p = &rd->rd_pool;
	u64 now = rnic_now_ms();
	bool woke = false, trimmed = false;
	struct rnp_cons *pc;

	lockdep_assert_held(&rd->rd_lock);
	while (atomic_read(&rd->rd_nr_waiting) &&
	       (pc = rnp_pick_waiter(p, now))) {
		struct rnic_consumer *c = rnic_of(pc);
		struct rnic_waiter *w;
		bool ok;

		w = list_first_entry(&c->rc_waiters, struct rnic_waiter, w_node);
		spin_lock(&c->rc_lock);
		ok = rnp_try_acquire_starving(p, pc, w->w_n,
					      now >= pc->wait_since_ms + p->params.starve_ms);
		spin_unlock(&c->rc_lock);
		if (!ok && !trimmed) {
			rnic_trim_others(rd, pc);
			trimmed = true;
			continue;
		}
		if (!ok)
			break;
		rnic_waiter_finish(rd, c, w, 0);
		woke = true;
	}
	rnic_update_short(rd);
	if (woke)
		wake_up_all(&rd->rd_wq);
}

static int rnic_acquire_slow(struct rnic_consumer *c, u64 *n, unsigned int flags,
			     long timeout)
{
	struct rnic_dev *rd = c->rc_dev;
	struct rnp_pool *p = &rd->rd_pool;
	struct rnic_waiter w = { .w_status = RNIC_WAITING };
	u64 now = rnic_now_ms();
	u64 t0;
	long left;
	bool owed;
	int r, err = 0;

	spin_lock(&rd->rd_lock);
	if (!c->rc_in_pool) {
		err = -ENODEV;
		goto out_unlock;
	}
	for (r = 0; r < RNP_NR_RES; r++) {
		if (n[r] > p->r[r].budget) {
			err = -EINVAL;
			goto out_unlock;
		}
	}

	/* Own earlier waiters go first (FIFO within a consumer). */
	if (list_empty(&c->rc_waiters)) {
		spin_lock(&c->rc_lock);
		if (rnp_try_acquire(p, &c->rc_pol, n))
			goto granted;
		spin_unlock(&c->rc_lock);
		/* Idle grants are a fast-path cache: lend them out. */
		rnic_trim_others(rd, &c->rc_pol);
		spin_lock(&c->rc_lock);
		if (rnp_try_acquire(p, &c->rc_pol, n))
			goto granted;
		spin_unlock(&c->rc_lock);
	}

	rnp_note_demand(p, &c->rc_pol, n, now);
	rnic_rebalance(rd, now);
	owed = rnp_below_share(&c->rc_pol, n);
	trace_rnic_acquire_slow(c, n, owed);
	if (owed)
		rnic_enforce_all(rd, now);
	/* Fresh shares (and a fresh owed) may let it through now. */
	if (list_empty(&c->rc_waiters)) {
		spin_lock(&c->rc_lock);
		if (rnp_try_acquire(p, &c->rc_pol, n))
			goto granted;
		spin_unlock(&c->rc_lock);
	}
	if (flags & RNIC_NOWAIT) {
		c->rc_eagain++;
		err = -EAGAIN;
		trace_rnic_refuse(c, n, err);
		goto out_unlock;
	}

	/*
	 * I6: a process told to shrink must answer before it grows; if
	 * the request is not delivered yet, rnic_notify_work() refuses the
	 * waiter once it is.
	 */
	w.w_bounded = flags & RNIC_SHRINK_FIRST;
	if (w.w_bounded && c->rc_shrink_told && rnp_over_target(&c->rc_pol, n)) {
		err = -EBUSY;
		trace_rnic_refuse(c, n, err);
		goto out_unlock;
	}

	/* Idle before active: cached idle entries elsewhere go first. */
	rnic_reclaim_idle(rd, c, n[RNP_ENTRIES]);

	/* REGISTER-WAIT: queue and sleep until served. */
	memcpy(w.w_n, n, sizeof(w.w_n));
	w.w_since_ms = now;
	if (list_empty(&c->rc_waiters))
		c->rc_pol.wait_since_ms = now;
	for (r = 0; r < RNP_NR_RES; r++)
		c->rc_pol.r[r].want += n[r];
	list_add_tail(&w.w_node, &c->rc_waiters);
	atomic_inc(&rd->rd_nr_waiting);
	c->rc_waits++;
	spin_unlock(&rd->rd_lock);

	t0 = ktime_get_ns();
	left = wait_event_killable_timeout(rd->rd_wq,
					   READ_ONCE(w.w_status) != RNIC_WAITING,
					   timeout);
	if (left <= 0) {
		spin_lock(&rd->rd_lock);
		if (w.w_status == RNIC_WAITING) {
			list_del(&w.w_node);
			for (r = 0; r < RNP_NR_RES; r++)
				c->rc_pol.r[r].want -= n[r];
			rnic_waiter_dequeued(rd);
			w.w_status = left ? -EINTR : -ETIMEDOUT;
		}
		spin_unlock(&rd->rd_lock);
	}
	spin_lock(&rd->rd_lock);
	c->rc_wait_ns += ktime_get_ns() - t0;
	spin_unlock(&rd->rd_lock);
	trace_rnic_wait_done(c, n, ktime_get_ns() - t0, w.w_status);
	return w.w_status;

granted:
	spin_unlock(&c->rc_lock);
	rnic_update_short(rd);
	trace_rnic_grant(c, n, 0);
out_unlock:
	spin_unlock(&rd->rd_lock);
	return err;
}

/* The fast path within the grant, else the slow path waiting up to @timeout. */
static int rnic_acquire_within(struct rnic_consumer *c, u32 entries, u32 keys,
			       unsigned int flags, long timeout)
{
	u64 n[RNP_NR_RES] = { entries, keys };

	spin_lock(&c->rc_lock);
	if (likely(c->rc_in_pool && rnp_take_granted(&c->rc_pol, n))) {
		spin_unlock(&c->rc_lock);
		return 0;
	}
	spin_unlock(&c->rc_lock);
	return rnic_acquire_slow(c, n, flags, timeout);
}

/**
 * rnic_acquire - charge entries and keys to a consumer
 * @c: the consumer
 * @entries: translation entries (pages) about to be mapped or allocated
 * @keys: MR keys about to be allocated
 * @flags: RNIC_NOWAIT to fail at once rather than wait
 *
 * Within the consumer's grant this takes only the consumer's own lock.
 * Otherwise it may borrow free entries, trigger revocation from
 * consumers over their share, and (unless RNIC_NOWAIT) wait its turn.
 *
 * Return: 0; -EAGAIN (RNIC_NOWAIT and nothing free); -EINTR (fatal
 * signal while waiting); -ENODEV (device removed); -EINVAL (more than
 * the whole budget).
 * Context: process; may sleep unless RNIC_NOWAIT.
 */
int rnic_acquire(struct rnic_consumer *c, u32 entries, u32 keys,
		 unsigned int flags)
{
	return rnic_acquire_within(c, entries, keys, flags, MAX_SCHEDULE_TIMEOUT);
}
EXPORT_SYMBOL_GPL(rnic_acquire);

/**
 * rnic_shrink_read - the consumer's process read its shrink request
 * @c: the consumer
 *
 * It has done what it can to answer (its library evicts as it reads a
 * REVOKE): from now on its registrations past the target may wait again,
 * for the I/O it has in flight to end (I6).
 *
 * Context: process; takes rd_lock.
 */
void rnic_shrink_read(struct rnic_consumer *c)
{
	struct rnic_dev *rd = c->rc_dev;

	spin_lock(&rd->rd_lock);
	c->rc_shrink_told = false;
	spin_unlock(&rd->rd_lock);
}

/**
 * rnic_acquire_timeout - rnic_acquire() whose wait is bounded
 * @c: the consumer
 * @entries: translation entries
 * @keys: MR keys
 *
 * For user registrations (REGISTER-WAIT, user/wrap.c): the program waits
 * while others shrink, but not forever.
 *
 * @flags: RNIC_SHRINK_FIRST for a caller that reads shrink requests
 * @timeout_ms: the longest wait
 *
 * With RNIC_SHRINK_FIRST, a request that would take the consumer past a
 * shrink target it was told of fails at once, and so does one waiting
 * when it is told (I6).
 *
 * Return: as rnic_acquire(); -ETIMEDOUT when @timeout_ms passed; -EBUSY
 * (RNIC_SHRINK_FIRST) when the consumer must shrink first.
 * Context: process; may sleep.
 */
int rnic_acquire_timeout(struct rnic_consumer *c, u32 entries, u32 keys,
			 unsigned int flags, unsigned int timeout_ms)
{
	return rnic_acquire_within(c, entries, keys, flags & RNIC_SHRINK_FIRST,
				   msecs_to_jiffies(timeout_ms));
}

/**
 * rnic_release - give back what rnic_acquire() charged
 * @c: the consumer
 * @entries: translation entries no longer mapped or allocated
 * @keys: MR keys freed
 *
 * Context: any context that may take a spinlock (not hard IRQ).
 */
void rnic_release(struct rnic_consumer *c, u32 entries, u32 keys)
{
	struct rnic_dev *rd = c->rc_dev;
	u64 n[RNP_NR_RES] = { entries, keys };
	unsigned int done;
	u64 now;

	spin_lock(&c->rc_lock);
	/*
	 * After device removal everything the consumer held was forgotten:
	 * its MRs died with the device, so giving them back is a no-op.
	 */
	if (!c->rc_in_pool ||
	    WARN_ON_ONCE(c->rc_pol.r[RNP_ENTRIES].held < entries ||
			 c->rc_pol.r[RNP_KEYS].held < keys) ||
	    (!atomic_read(&rd->rd_nr_waiting) && !READ_ONCE(rd->rd_short) &&
	     rnp_release_fast(&c->rc_pol, n))) {
		spin_unlock(&c->rc_lock);
		return;
	}
	spin_unlock(&c->rc_lock);

	spin_lock(&rd->rd_lock);
	spin_lock(&c->rc_lock);
	if (!c->rc_in_pool) {
		spin_unlock(&c->rc_lock);
		spin_unlock(&rd->rd_lock);
		return;
	}
	done = rnp_release(&rd->rd_pool, &c->rc_pol, n, true);
	spin_unlock(&c->rc_lock);
	if (done & RNP_REL_SHRUNK && c->rc_shrink_ms) {
		now = rnic_now_ms();
		c->rc_last_reclaim_ms = now - c->rc_shrink_ms;
		trace_rnic_shrink_done(c);
		c->rc_shrink_ms = 0;
	}
	rnic_serve_waiters(rd);
	spin_unlock(&rd->rd_lock);
}
EXPORT_SYMBOL_GPL(rnic_release);

/* rnic_entitlement()'s figures, under rd_lock, into @v. */
static void rnic_entitled(struct rnic_dev *rd, struct rnic_consumer *c, u64 *v)
{
	int r;

	lockdep_assert_held(&rd->rd_lock);
	for (r = 0; r < RNP_NR_RES; r++) {
		const struct rnp_res_state *s = &c->rc_pol.r[r];

		v[r] = max(s->share, s->min);
		if (s->target != RNP_NO_TARGET)
			v[r] = min(v[r], s->target);
		/* Free entries may be borrowed beyond the share. */
		if (s->target == RNP_NO_TARGET)
			v[r] = max(v[r], s->held + rnp_free(&rd->rd_pool, r));
	}
}

/**
 * rnic_entitlement - what the consumer may hold now
 * @c: the consumer
 * @entries: its share of entries, or its shrink target if lower
 * @keys: likewise for keys
 *
 * Consumers size their windows from this.
 */
void rnic_entitlement(struct rnic_consumer *c, u64 *entries, u64 *keys)
{
	struct rnic_dev *rd = c->rc_dev;
	u64 v[RNP_NR_RES];

	spin_lock(&rd->rd_lock);
	rnic_entitled(rd, c, v);
	spin_unlock(&rd->rd_lock);
	*entries = v[RNP_ENTRIES];
	*keys = v[RNP_KEYS];
}
EXPORT_SYMBOL_GPL(rnic_entitlement);

/**
 * rnic_may_hold - what a bound process may size its registration cache to
 * @c: the process's consumer
 * @entries: rnp_may_hold() of entries: rnic_entitlement()'s, except
 *	under static, where it is the cap
 * @keys: likewise for keys
 *
 * Kernel consumers keep rnic_entitlement(): their acquisitions beyond a
 * static cap wait without a deadline, a process's fail at user_wait_ms.
 */
void rnic_may_hold(struct rnic_consumer *c, u64 *entries, u64 *keys)
{
	struct rnic_dev *rd = c->rc_dev;

	spin_lock(&rd->rd_lock);
	*entries = rnp_may_hold(&rd->rd_pool, &c->rc_pol, RNP_ENTRIES);
	*keys = rnp_may_hold(&rd->rd_pool, &c->rc_pol, RNP_KEYS);
	spin_unlock(&rd->rd_lock);
}

/**
 * rnic_claim_min - take the minimum a consumer registered with min_later
 * @c: the consumer
 *
 * Call once the consumer deserves a guarantee (a remote peer's
 * connection that called). Until then, and if this fails, it takes
 * entries from its share like any other, without one (I8).
 *
 * Return: 0 (also when there was nothing to claim), -ENOSPC while the
 * budget cannot guarantee it, -ENODEV after a removal.
 * Context: any but hard interrupt; takes rd_lock.
 */
int rnic_claim_min(struct rnic_consumer *c)
{
	struct rnic_dev *rd = c->rc_dev;
	int err = 0;

	if (!READ_ONCE(c->rc_min_pending))
		return 0;
	spin_lock(&rd->rd_lock);
	if (!c->rc_min_pending) {
		spin_unlock(&rd->rd_lock);
		return 0;
	}
	err = c->rc_in_pool ? rnp_set_min(&rd->rd_pool, &c->rc_pol, c->rc_min_later) : -ENODEV;
	if (!err) {
		u64 now = rnic_now_ms();

		WRITE_ONCE(c->rc_min_pending, false);
		rnic_rebalance(rd, now);
		rnic_enforce_all(rd, now);
	}
	spin_unlock(&rd->rd_lock);
	return err;
}
EXPORT_SYMBOL_GPL(rnic_claim_min);

/**
 * rnic_dev_newcomer_share - the entries a newcomer of @weight would get
 * @rd: the device
 * @weight: its weight at the top level, 1..RNP_MAX_WEIGHT
 *
 * rnp_newcomer_share() of the administrator's entry budget (before the
 * kernel ULPs' charge and the reserve) among the consumers in the pool
 * now: the cap kulp/cap.c gives a stock ULP from its share.
 * Context: any but hard interrupt; takes rd_lock.
 *
 * Return: entries.
 */
u64 rnic_dev_newcomer_share(struct rnic_dev *rd, u32 weight)
{
	u64 share;

	spin_lock(&rd->rd_lock);
	share = rnp_newcomer_share(&rd->rd_pool, READ_ONCE(rd->rd_conf_budget[RNP_ENTRIES]),
				   weight);
	spin_unlock(&rd->rd_lock);
	return share;
}

/* Deliver pending shrink and grow callbacks, outside every spinlock. */
static void rnic_notify_work(struct work_struct *work)
{
	struct rnic_dev *rd = container_of(work, struct rnic_dev, rd_notify_work);
	struct rnic_consumer *c;

	mutex_lock(&rd->rd_cons_mutex);
	list_for_each_entry(c, &rd->rd_consumers, rc_node) {
		unsigned int flags;
		u64 te, tk, se, sk, reclaim, may[RNP_NR_RES];

		spin_lock(&rd->rd_lock);
		flags = c->rc_in_pool ? c->rc_notify : 0;
		c->rc_notify = 0;
		reclaim = c->rc_reclaim;
		c->rc_reclaim = 0;
		te = c->rc_pol.r[RNP_ENTRIES].target;
		tk = c->rc_pol.r[RNP_KEYS].target;
		se = max(c->rc_pol.r[RNP_ENTRIES].share, c->rc_pol.r[RNP_ENTRIES].min);
		sk = max(c->rc_pol.r[RNP_KEYS].share, c->rc_pol.r[RNP_KEYS].min);
		/* growth is told as what it may use now, borrowing included */
		rnic_entitled(rd, c, may);
		spin_unlock(&rd->rd_lock);

		if (flags & RNP_NOTIFY_SHRINK && c->rc_ops->shrink)
			c->rc_ops->shrink(c, te == RNP_NO_TARGET ? se : te,
					  tk == RNP_NO_TARGET ? sk : tk, c->rc_priv);
		/*
		 * Told: its waiters past the target go back to it (I6). Not
		 * if a newer shrink was raised meanwhile: that one is not
		 * delivered yet, and the next pass here handles it.
		 */
		if (flags & RNP_NOTIFY_SHRINK) {
			spin_lock(&rd->rd_lock);
			if (!(c->rc_notify & RNP_NOTIFY_SHRINK)) {
				c->rc_shrink_told = true;
				if (rnic_refuse_over_target(rd, c))
					wake_up_all(&rd->rd_wq);
			}
			spin_unlock(&rd->rd_lock);
		}
		/* a process is told its share, as before I7 */
		if (flags & RNP_NOTIFY_GREW && c->rc_ops->grow && rnic_consumer_is_user(c))
			c->rc_ops->grow(c, se, sk, c->rc_priv);
		else if (flags & RNP_NOTIFY_GREW && c->rc_ops->grow)
			c->rc_ops->grow(c, may[RNP_ENTRIES], may[RNP_KEYS], c->rc_priv);
		if (flags & RNIC_NOTIFY_LATE && c->rc_ops->late)
			c->rc_ops->late(c, c->rc_priv);
		if (flags & RNIC_NOTIFY_RECLAIM && c->rc_ops->reclaim && reclaim)
			c->rc_ops->reclaim(c, reclaim, c->rc_priv);
	}
	mutex_unlock(&rd->rd_cons_mutex);
}

/*
 * The reaper: keeps the reserve free, re-examines waiters after shares
 * moved, and counts consumers late to shrink.
 */
static void rnic_reap_work(struct work_struct *work)
{
	struct rnic_dev *rd = container_of(to_delayed_work(work), struct rnic_dev,
					   rd_reap_work);
	struct rnp_pool *p = &rd->rd_pool;
	u64 now = rnic_now_ms();
	bool notify = false, pending;
	u32 i;

	spin_lock(&rd->rd_lock);
	if (rd->rd_dead) {
		spin_unlock(&rd->rd_lock);
		return;
	}
	rnic_update_short(rd);
	for (i = 0; i < p->nr; i++)
		if (rnic_of(p->cons[i])->rc_shrink_ms)
			break;
	pending = i < p->nr;
	if (rd->rd_short || atomic_read(&rd->rd_nr_waiting)) {
		/* Idle grants first: they cost nobody anything. */
		for (i = 0; i < p->nr; i++) {
			struct rnic_consumer *c = rnic_of(p->cons[i]);

			spin_lock(&c->rc_lock);
			rnp_trim(p, &c->rc_pol, false);
			spin_unlock(&c->rc_lock);
		}
		rnic_update_short(rd);
		rnic_rebalance(rd, now);
		if (rd->rd_short || rnic_waiter_owed(rd))
			rnic_enforce_all(rd, now);
		rnic_serve_waiters(rd);
	} else if (pending) {
		/* fresh shares for the targets below */
		rnic_rebalance(rd, now);
	}
	for (i = 0; i < p->nr; i++) {
		struct rnic_consumer *c = rnic_of(p->cons[i]);
		u32 deadline = c->rc_deadline_ms ? c->rc_deadline_ms :
			       READ_ONCE(rnic_revoke_deadline_ms);

		if (!c->rc_shrink_ms)
			continue;
		/*
		 * A target follows the share at every tick (I5): the shares
		 * may have grown since it was set (the consumers that cut
		 * them left), which raises or clears it. So a consumer that
		 * never shrank, a plain verbs program, is not held to a
		 * share that no longer exists, and is late only while above
		 * its current one.
		 */
		if (rnic_enforce_one(rd, c, now))
			notify = true;
		if (!c->rc_shrink_ms || c->rc_late_counted ||
		    now - c->rc_shrink_ms <= deadline)
			continue;
		c->rc_late++;
		c->rc_late_counted = true;
		trace_rnic_shrink_late(c);
		/* Refusals are visible (issue 33): one line per late consumer */
		pr_info_ratelimited("%s: %s.%llu is late: %u ms after a shrink request it holds %llu entries, its target is %lld, the device's budget is %llu\n",
				    rnic_dev_name(rd).s, c->rc_name, c->rc_id, deadline,
				    c->rc_pol.r[RNP_ENTRIES].held,
				    c->rc_pol.r[RNP_ENTRIES].target == RNP_NO_TARGET ? -1LL :
				    (s64)c->rc_pol.r[RNP_ENTRIES].target,
				    rd->rd_pool.r[RNP_ENTRIES].budget);
		if (c->rc_ops->late) {
			c->rc_notify |= RNIC_NOTIFY_LATE;
			notify = true;
		}
	}
	if (notify)
		queue_work(system_wq, &rd->rd_notify_work);
	spin_unlock(&rd->rd_lock);
	queue_delayed_work(system_wq, &rd->rd_reap_work,
			   msecs_to_jiffies(READ_ONCE(rnic_reap_interval_ms)));
}

/**
 * rnic_dev_start - start a device's background work
 * @rd: the device, published
 */
void rnic_dev_start(struct rnic_dev *rd)
{
	INIT_WORK(&rd->rd_notify_work, rnic_notify_work);
	INIT_DELAYED_WORK(&rd->rd_reap_work, rnic_reap_work);
	queue_delayed_work(system_wq, &rd->rd_reap_work,
			   msecs_to_jiffies(READ_ONCE(rnic_reap_interval_ms)));
}

/* Make room in the pool's arrays for one more consumer (cons mutex). */
static int rnic_grow_arrays(struct rnic_dev *rd)
{
	struct rnp_pool *p = &rd->rd_pool;
	struct rnp_cons **cons, **old_cons;
	struct rnp_event *ev, *old_ev;
	u32 cap;

	if (p->nr < rd->rd_cons_cap)
		return 0;
	cap = max(2 * rd->rd_cons_cap, 8U);
	cons = kvmalloc_array(cap, sizeof(*cons), GFP_KERNEL);
	ev = kvmalloc(rnp_scratch_bytes(cap), GFP_KERNEL);
	if (!cons || !ev) {
		kvfree(cons);
		kvfree(ev);
		return -ENOMEM;
	}
	spin_lock(&rd->rd_lock);
	if (p->nr)
		memcpy(cons, p->cons, p->nr * sizeof(*cons));
	old_cons = p->cons;
	old_ev = p->scratch;
	p->cons = cons;
	rnp_scratch_attach(p, ev, cap);
	rd->rd_cons_cap = cap;
	spin_unlock(&rd->rd_lock);
	kvfree(old_cons);
	kvfree(old_ev);
	return 0;
}

/**
 * rnic_pool_join - admit a new consumer to its device's pool
 * @c: the consumer, its name, policy state and group set; c->rc_dev holds
 *	a device reference
 *
 * Return: 0, or -ENODEV (the device is going away), -ENOSPC (the budget
 * cannot guarantee its minimum), -ENOMEM.
 * Context: process, under rd_cons_mutex (so that device removal, which
 * sets rd_dead under it, finds the consumer or refuses it).
 */
int rnic_pool_join(struct rnic_consumer *c)
{
	struct rnic_dev *rd = c->rc_dev;
	int err;

	lockdep_assert_held(&rd->rd_cons_mutex);
	err = rnic_grow_arrays(rd);
	if (err)
		return err;
	spin_lock(&rd->rd_lock);
	err = rd->rd_dead ? -ENODEV : rnp_admit(&rd->rd_pool, &c->rc_pol);
	if (!err) {
		c->rc_id = rd->rd_next_id++;
		rd->rd_pool.cons[rd->rd_pool.nr++] = &c->rc_pol;
		c->rc_in_pool = true;
		list_add_tail(&c->rc_node, &rd->rd_consumers);
		trace_rnic_consumer_register(c);
	}
	spin_unlock(&rd->rd_lock);
	return err;
}

/* Take a consumer out of the pool; everything it had goes back. */
static void rnic_leave_pool(struct rnic_dev *rd, struct rnic_consumer *c, int status)
{
	struct rnp_pool *p = &rd->rd_pool;
	struct rnic_waiter *w, *tmp;
	u32 i;

	lockdep_assert_held(&rd->rd_lock);
	if (!c->rc_in_pool)
		return;
	list_for_each_entry_safe(w, tmp, &c->rc_waiters, w_node) {
		list_del(&w->w_node);
		WRITE_ONCE(w->w_status, status);
		rnic_waiter_dequeued(rd);
	}
	spin_lock(&c->rc_lock);
	rnp_leave(p, &c->rc_pol);
	c->rc_in_pool = false;
	spin_unlock(&c->rc_lock);
	for (i = 0; i < p->nr; i++) {
		if (p->cons[i] == &c->rc_pol) {
			p->cons[i] = p->cons[--p->nr];
			break;
		}
	}
	wake_up_all(&rd->rd_wq);
}

/*
 * A consumer left, or the budget grew: what was taken goes back to the
 * others now (I7). Standing targets follow the shares up, and those
 * told to shrink or whose share grew are told they may grow (->grow),
 * so that a consumer that shrank for the one that left grows back at
 * once, not when it next runs short (issue 35: recovery within 100 ms
 * of relief). A consumer without a target is neither trimmed nor asked
 * to shrink here: without contention it may borrow beyond its share.
 */
static void rnic_relieve(struct rnic_dev *rd)
{
	struct rnp_pool *p = &rd->rd_pool;
	u64 now = rnic_now_ms();
	bool notify = false;
	u32 i;

	lockdep_assert_held(&rd->rd_lock);
	if (!p->nr)
		return;
	rnic_rebalance(rd, now);
	for (i = 0; i < p->nr; i++) {
		struct rnic_consumer *o = rnic_of(p->cons[i]);
		unsigned int flags;

		/* a target follows the share up, or goes (I5) */
		if (o->rc_shrink_ms)
			notify |= rnic_enforce_one(rd, o, now);
		/*
		 * Not a process: its library re-reads the entitlement the
		 * kernel writes on each registration, so it needs no GROW.
		 * Processes were left out when user_shared's verbs tenant
		 * was refused with them in; that refusal was later traced
		 * to librnic's retry rule (fixed in librnic), so whether a
		 * GROW would harm them is untested, not shown.
		 */
		if (o->rc_shrink_ms || rnic_consumer_is_user(o))
			continue;
		spin_lock(&o->rc_lock);
		flags = rnp_announce(p, &o->rc_pol);
		spin_unlock(&o->rc_lock);
		/*
		 * One that shrank is told even if its share, which follows
		 * its decayed demand, hardly moved: what it may now borrow
		 * did (->grow passes rnic_entitlement()'s figure).
		 */
		if (o->rc_cut && p->policy == RNP_POL_ARBITER)
			flags |= RNP_NOTIFY_GREW;
		if (flags) {
			o->rc_cut = false;
			trace_rnic_relieved(o);
			o->rc_notify |= flags;
			notify = true;
		}
	}
	if (notify)
		queue_work(system_wq, &rd->rd_notify_work);
}

/**
 * rnic_cancel_waits - end every queued acquire of a consumer now
 * @c: the consumer
 * @status: what each of those acquires returns
 *
 * For a device's user registrations being unwrapped: a registration in
 * REGISTER-WAIT, or a RESERVE, must not hold the unwrap up for as long
 * as user_wait_ms (I2: finished under rd_lock, as serving does).
 * Context: process.
 */
void rnic_cancel_waits(struct rnic_consumer *c, int status)
{
	struct rnic_dev *rd = c->rc_dev;
	struct rnic_waiter *w, *tmp;
	bool woke = false;

	spin_lock(&rd->rd_lock);
	list_for_each_entry_safe(w, tmp, &c->rc_waiters, w_node) {
		rnic_waiter_finish(rd, c, w, status);
		woke = true;
	}
	spin_unlock(&rd->rd_lock);
	if (woke)
		wake_up_all(&rd->rd_wq);
}

/**
 * rnic_pool_leave - take a consumer out of its device's pool for good
 * @c: the consumer; it should have released everything
 *
 * Whatever is still held goes back (with a warning, unless the device
 * was removed), and the others are relieved at once (I7).
 * Context: process, under rd_cons_mutex.
 */
void rnic_pool_leave(struct rnic_consumer *c)
{
	struct rnic_dev *rd = c->rc_dev;

	lockdep_assert_held(&rd->rd_cons_mutex);
	spin_lock(&rd->rd_lock);
	trace_rnic_consumer_unregister(c);
	if (c->rc_in_pool) {
		WARN_ONCE(c->rc_pol.r[RNP_ENTRIES].held || c->rc_pol.r[RNP_KEYS].held,
			  KBUILD_MODNAME ": %s: consumer %s unregisters holding %llu entries, %llu keys\n",
			  rnic_dev_name(rd).s, c->rc_name, c->rc_pol.r[RNP_ENTRIES].held,
			  c->rc_pol.r[RNP_KEYS].held);
		rnic_leave_pool(rd, c, -ENODEV);
		rnic_relieve(rd);
		rnic_serve_waiters(rd);
	}
	list_del(&c->rc_node);
	spin_unlock(&rd->rd_lock);
}

/*
 * The pool's budget of @r: the administrator's, less what other kernel
 * ULPs are charged, but never below the consumers' guaranteed minimums
 * (those ULPs cannot be refused here: the NIC is then overcommitted by
 * the difference, as without rnic_mgr). Under rd_cons_mutex and rd_lock.
 */
static int rnic_apply_budget(struct rnic_dev *rd, enum rnp_res r)
{
	u64 conf = rd->rd_conf_budget[r], charge = rd->rd_kulp_charge[r];
	u64 budget = conf > charge ? conf - charge : 0;
	u64 before = rd->rd_pool.r[r].budget;
	int err;

	lockdep_assert_held(&rd->rd_cons_mutex);
	lockdep_assert_held(&rd->rd_lock);
	WARN_ON_ONCE(conf > rnic_dev_limit(rd, r));	/* I10 */
	budget = max(budget, rd->rd_pool.r[r].min_total);
	err = rd->rd_dead ? -ENODEV : rnp_set_budget(&rd->rd_pool, r, min(budget, conf));
	if (!err) {
		u64 now = rnic_now_ms();

		rnic_trim_others(rd, NULL);
		rnic_rebalance(rd, now);
		rnic_enforce_all(rd, now);
		/* more to share: those that shrank hear of it now (I7) */
		if (rd->rd_pool.r[r].budget > before)
			rnic_relieve(rd);
		rnic_serve_waiters(rd);
	}
	return err;
}

/**
 * rnic_dev_set_budget - change a device's budget of entries or keys
 * @rd: the device
 * @r: which resource
 * @budget: the new budget
 * @src: who sets it (RNIC_BUDGET_RULE or RNIC_BUDGET_WRITTEN)
 *
 * The administrator's budget: the consumers share it less what other
 * kernel ULPs are charged (kernel_ulps=2; sysfs shared_budget). Lowering
 * it below what is granted revokes: consumers over their new share are
 * asked to shrink.
 *
 * Return: 0, -EINVAL below the consumers' guaranteed minimums or above
 * what the device can map (rnic_dev_limit()), -ENODEV.
 */
int rnic_dev_set_budget(struct rnic_dev *rd, enum rnp_res r, u64 budget,
			enum rnic_budget_src src)
{
	u64 mins, old, lim = rnic_dev_limit(rd, r);
	int err;

	mutex_lock(&rd->rd_cons_mutex);
	spin_lock(&rd->rd_lock);
	mins = rd->rd_pool.r[r].min_total;
	old = rd->rd_conf_budget[r];
	err = rd->rd_dead ? -ENODEV : budget < mins || budget > lim ? -EINVAL : 0;
	if (!err) {
		rd->rd_conf_budget[r] = budget;
		err = rnic_apply_budget(rd, r);
		if (err)
			rd->rd_conf_budget[r] = old;
		else
			rd->rd_budget_src[r] = src;
	}
	spin_unlock(&rd->rd_lock);
	mutex_unlock(&rd->rd_cons_mutex);
	if (err == -EINVAL && budget > lim)
		pr_warn("%s: %s budget %llu refused: above the most %s (%llu)\n",
			rnic_dev_name(rd).s, r == RNP_ENTRIES ? "entry" : "key", budget,
			lim == RNP_MAX_BUDGET ? "the arbiter handles" :
			r == RNP_ENTRIES ?
			"the device can map (max_mr x max_fast_reg_page_list_len)" :
			"the device has (max_mr)", lim);
	else if (err == -EINVAL)
		pr_warn("%s: %s budget %llu refused: below the consumers' guaranteed minimums (%llu)\n",
			rnic_dev_name(rd).s, r == RNP_ENTRIES ? "entry" : "key", budget, mins);
	else if (!err)
		trace_rnic_budget(rd, r, budget);
	return err;
}

/**
 * rnic_dev_kulp_charge - charge other kernel ULPs' MRs off the budgets
 * @rd: the device
 * @entries: the entries their MRs map, all told
 * @keys: their MRs
 *
 * kulp/count.c calls it (kernel_ulps=2) whenever those totals change: the
 * pool's budgets become the administrator's less these, and rdmastor's
 * consumers over their new shares are asked to shrink, as for any
 * newcomer. The ULPs themselves are never refused.
 *
 * Context: process, may sleep.
 */
void rnic_dev_kulp_charge(struct rnic_dev *rd, u64 entries, u64 keys)
{
	mutex_lock(&rd->rd_cons_mutex);
	spin_lock(&rd->rd_lock);
	rd->rd_kulp_charge[RNP_ENTRIES] = entries;
	rd->rd_kulp_charge[RNP_KEYS] = keys;
	if (!rd->rd_dead) {
		rnic_apply_budget(rd, RNP_ENTRIES);
		rnic_apply_budget(rd, RNP_KEYS);
		trace_rnic_kulp_charge(rd, entries, keys, rd->rd_pool.r[RNP_ENTRIES].budget);
	}
	spin_unlock(&rd->rd_lock);
	mutex_unlock(&rd->rd_cons_mutex);
}

/**
 * rnic_set_weight - change a consumer's weight
 * @c: the consumer
 * @weight: 1..RNP_MAX_WEIGHT
 *
 * Shares are recomputed at once: a consumer whose weight went down may be
 * asked to shrink (with its usual deadline), and waiters whose share grew
 * are served.
 *
 * Return: 0, -EINVAL for a weight out of range, -ENODEV.
 */
int rnic_set_weight(struct rnic_consumer *c, u32 weight)
{
	struct rnic_dev *rd = c->rc_dev;
	u64 now = rnic_now_ms();
	int err = 0;

	if (weight < 1 || weight > RNP_MAX_WEIGHT)
		return -EINVAL;
	spin_lock(&rd->rd_lock);
	if (rd->rd_dead) {
		err = -ENODEV;
	} else if (c->rc_pol.weight != weight) {
		rnp_set_weight(&c->rc_pol, weight);
		rnic_rebalance(rd, now);
		rnic_enforce_all(rd, now);
		rnic_serve_waiters(rd);
		trace_rnic_weight(c, weight);
	}
	spin_unlock(&rd->rd_lock);
	return err;
}

/**
 * rnic_group_set_weight - change a tenant's weight
 * @rd: the device its consumers belong to
 * @grp: the tenant's group
 * @weight: 1..RNP_MAX_WEIGHT
 * @name: the tenant's name, for the trace
 *
 * As rnic_set_weight(), for every member at once.
 *
 * Return: 0, -EINVAL for a weight out of range, -ENODEV.
 */
int rnic_group_set_weight(struct rnic_dev *rd, struct rnp_group *grp,
			  u32 weight, const char *name)
{
	u64 now = rnic_now_ms();
	int err = 0;

	if (weight < 1 || weight > RNP_MAX_WEIGHT)
		return -EINVAL;
	spin_lock(&rd->rd_lock);
	if (rd->rd_dead) {
		err = -ENODEV;
	} else if (grp->weight != weight) {
		grp->weight = weight;
		rnic_rebalance(rd, now);
		rnic_enforce_all(rd, now);
		rnic_serve_waiters(rd);
		trace_rnic_tenant_weight(rd, name, weight);
	}
	spin_unlock(&rd->rd_lock);
	return err;
}

/**
 * rnic_dev_set_policy - choose how a device grants entries
 * @rd: the device
 * @policy: enum rnp_policy
 *
 * Pending shrink targets are dropped when leaving the arbiter (the other
 * policies never revoke) and idle grants go back to the pool, so the new
 * policy starts from what is actually held.
 *
 * Return: 0, -EINVAL for an unknown policy, -ENODEV.
 */
int rnic_dev_set_policy(struct rnic_dev *rd, u32 policy)
{
	struct rnic_consumer *c;
	int err = 0;

	if (policy >= RNP_NR_POL)
		return -EINVAL;
	mutex_lock(&rd->rd_cons_mutex);
	spin_lock(&rd->rd_lock);
	if (rd->rd_dead) {
		err = -ENODEV;
		goto out;
	}
	rd->rd_pool.policy = policy;
	list_for_each_entry(c, &rd->rd_consumers, rc_node) {
		int r;

		if (!c->rc_in_pool || policy == RNP_POL_ARBITER)
			continue;
		spin_lock(&c->rc_lock);
		for (r = 0; r < RNP_NR_RES; r++)
			c->rc_pol.r[r].target = RNP_NO_TARGET;
		spin_unlock(&c->rc_lock);
		c->rc_shrink_ms = 0;
	}
	rnic_trim_others(rd, NULL);
	rnic_serve_waiters(rd);
	trace_rnic_policy(rd, policy);
out:
	spin_unlock(&rd->rd_lock);
	mutex_unlock(&rd->rd_cons_mutex);
	return err;
}

/**
 * rnic_dev_removed - the device is going away: tell every consumer
 * @rd: the device
 *
 * Consumers' ->removed callbacks run first; then everything they held is
 * forgotten and their waiters fail with -ENODEV. Their structures live
 * until they unregister.
 * Context: process, may sleep (the ib_client remove callback).
 */
void rnic_dev_removed(struct rnic_dev *rd)
{
	struct rnic_consumer *c;

	mutex_lock(&rd->rd_cons_mutex);
	spin_lock(&rd->rd_lock);
	rd->rd_dead = true;
	spin_unlock(&rd->rd_lock);
	list_for_each_entry(c, &rd->rd_consumers, rc_node)
		if (c->rc_in_pool && c->rc_ops->removed)
			c->rc_ops->removed(c, c->rc_priv);
	spin_lock(&rd->rd_lock);
	list_for_each_entry(c, &rd->rd_consumers, rc_node)
		rnic_leave_pool(rd, c, -ENODEV);
	spin_unlock(&rd->rd_lock);
	mutex_unlock(&rd->rd_cons_mutex);

	cancel_delayed_work_sync(&rd->rd_reap_work);
	flush_work(&rd->rd_notify_work);
}
