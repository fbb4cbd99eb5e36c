// SPDX-License-Identifier: GPL-2.0
/*
 * The pull budget: how many bytes of Read chunks the server holds for
 * calls nfsd has not taken yet (review 3, M2).
 *
 * A Read chunk is pulled before nfsd sees its call, so before anything
 * about the client has been checked: its credentials, the export, even
 * whether the procedure takes data. Without a bound, every credit of
 * every connection could pin a chunk of up to 1 MiB (64 MiB per
 * connection, and connections are bounded only by nfsd's limit). The
 * stock server pulls in the nfsd thread, so its threads bound it; we
 * pull ahead, so we bound it here:
 *
 *   per connection  RSV_PULL_CONN_BYTES (16 MiB);
 *   in total        rsv_pull_budget: the module parameter pull_budget_mb,
 *                   or by default RAM / 16, at most 256 MiB.
 *
 * Bytes are charged when a call's pull starts (its pages, rounded up to
 * whole pages) and released when nfsd takes the call (the pages are its
 * request's then, bounded by its threads) or the call is dropped. A call
 * that does not fit waits on its connection's x_pull_wait, holding only
 * its receive buffer (bounded by the credits); connections with waiting
 * calls are served round-robin as bytes come back, one call each turn,
 * so a flooding connection delays a well-behaved one by at most one
 * call of its own. Nothing here ever waits: rsv_recv() queues, and the
 * pull work runs on rsv_wq; no nfsd thread is involved.
 *
 * Invariant S6: rsv_pull_used is the sum of the connections'
 * x_pull_bytes, each the sum of c_budget of its calls being pulled or
 * waiting for nfsd, and neither exceeds its bound unless it was zero
 * before the call that crossed it. Asserted: rsv_pull_uncharge() warns
 * when a release would take a count below zero.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <rdmastor/sysfs_page.h>

#include "rsv.h"
#include "trace.h"

#define RSV_PULL_CONN_BYTES	(16ULL << 20)
#define RSV_PULL_MAX_DEFAULT	(256ULL << 20)

static unsigned int rsv_pull_budget_mb;
module_param_named(pull_budget_mb, rsv_pull_budget_mb, uint, 0444);
MODULE_PARM_DESC(pull_budget_mb,
		 "MiB of Read chunks held for calls nfsd has not taken, all connections (0: RAM/16, at most 256)");

static DEFINE_SPINLOCK(rsv_pull_lock);
static LIST_HEAD(rsv_pull_conns);	/* connections with calls waiting */
static u64 rsv_pull_used;		/* bytes charged (S6) */
static u64 rsv_pull_budget;		/* the total bound */
static u64 rsv_pull_peak;		/* most bytes charged at once */

/* Bytes a call's pull charges: its pages. */
static u64 rsv_pull_cost(const struct rsv_call *call)
{
	return (u64)DIV_ROUND_UP(round_up(call->c_plan.chunk_len, 4), PAGE_SIZE) *
	       PAGE_SIZE;
}

/* Does @bytes fit for @x? Under rsv_pull_lock. */
static bool rsv_pull_fits(const struct rsv_xprt *x, u64 bytes)
{
	lockdep_assert_held(&rsv_pull_lock);
	/* a lone call always fits: a chunk is at most RSV_MAX_CHUNK */
	return (!x->x_pull_bytes || x->x_pull_bytes + bytes <= RSV_PULL_CONN_BYTES) &&
	       (!rsv_pull_used || rsv_pull_used + bytes <= rsv_pull_budget);
}

/* Charge @call's bytes to @x and the total. Under rsv_pull_lock. */
static void rsv_pull_charge(struct rsv_xprt *x, struct rsv_call *call, u64 bytes)
{
	lockdep_assert_held(&rsv_pull_lock);
	call->c_budget = bytes;
	x->x_pull_bytes += bytes;
	rsv_pull_used += bytes;
	rsv_pull_peak = max(rsv_pull_peak, rsv_pull_used);
	/* counted before rsv_pull_forget() can look: rsv_disconnected() waits */
	atomic_inc(&x->x_pulls);
}

/*
 * Calls that fit now, one per waiting connection per turn, moved to
 * @start (charged). Under rsv_pull_lock.
 */
static void rsv_pull_take_waiters(struct list_head *start)
{
	unsigned int turns = 0, conns = 0;
	struct rsv_xprt *x;

	lockdep_assert_held(&rsv_pull_lock);
	list_for_each_entry(x, &rsv_pull_conns, x_pull_node)
		conns++;
	/* each connection is looked at once per round; stop at a round that took none */
	while (!list_empty(&rsv_pull_conns) && turns < conns) {
		struct rsv_call *call;
		u64 bytes;

		x = list_first_entry(&rsv_pull_conns, struct rsv_xprt, x_pull_node);
		call = list_first_entry(&x->x_pull_wait, struct rsv_call, c_node);
		bytes = rsv_pull_cost(call);
		if (rsv_pull_used && rsv_pull_used + bytes > rsv_pull_budget)
			return;		/* the total is spent: nobody else fits either */
		list_move_tail(&x->x_pull_node, &rsv_pull_conns);
		if (!rsv_pull_fits(x, bytes)) {
			turns++;	/* this one waits for its own bytes */
			continue;
		}
		turns = 0;
		list_del_init(&call->c_node);
		rsv_pull_charge(x, call, bytes);
		list_add_tail(&call->c_node, start);
		if (list_empty(&x->x_pull_wait)) {
			list_del_init(&x->x_pull_node);
			conns--;
		}
	}
}

static void rsv_pull_queue(struct rsv_call *call)
{
	INIT_WORK(&call->c_pull_work, rsv_pull_work);
	queue_work(rsv_wq, &call->c_pull_work);
}

static void rsv_pull_start_list(struct list_head *start)
{
	struct rsv_call *call, *next;

	list_for_each_entry_safe(call, next, start, c_node) {
		list_del_init(&call->c_node);
		trace_rsv_pull_resume(call->c_x, call);
		rsv_pull_queue(call);
	}
}

/**
 * rsv_pull_submit - pull a call's Read chunk, now or when the budget allows
 * @call: the call, held by its connection (not on any list)
 *
 * Context: ->recv (the engine's completion work); never waits.
 */
void rsv_pull_submit(struct rsv_call *call)
{
	struct rsv_xprt *x = call->c_x;
	u64 bytes = rsv_pull_cost(call);
	bool now;

	spin_lock_bh(&rsv_pull_lock);
	/* behind calls of its own that wait: in order */
	now = list_empty(&x->x_pull_wait) && rsv_pull_fits(x, bytes);
	if (now) {
		rsv_pull_charge(x, call, bytes);
	} else {
		list_add_tail(&call->c_node, &x->x_pull_wait);
		if (list_empty(&x->x_pull_node))
			list_add_tail(&x->x_pull_node, &rsv_pull_conns);
	}
	spin_unlock_bh(&rsv_pull_lock);
	if (now) {
		rsv_pull_queue(call);
		return;
	}
	trace_rsv_pull_wait(x, call);
	spin_lock_bh(&x->x_lock);
	x->x_stats.pull_waits++;
	spin_unlock_bh(&x->x_lock);
}

/**
 * rsv_pull_uncharge - a call no longer holds its chunk's bytes
 * @call: the call: nfsd took its pages, or it is being dropped
 *
 * Starts the waiting calls that fit now.
 * Context: any but hard IRQ.
 */
void rsv_pull_uncharge(struct rsv_call *call)
{
	struct rsv_xprt *x = call->c_x;
	LIST_HEAD(start);

	if (!call->c_budget)
		return;
	spin_lock_bh(&rsv_pull_lock);
	/* S6 */
	if (!WARN_ON_ONCE(x->x_pull_bytes < call->c_budget ||
			  rsv_pull_used < call->c_budget)) {
		x->x_pull_bytes -= call->c_budget;
		rsv_pull_used -= call->c_budget;
	}
	call->c_budget = 0;
	rsv_pull_take_waiters(&start);
	spin_unlock_bh(&rsv_pull_lock);
	rsv_pull_start_list(&start);
}

/**
 * rsv_pull_forget - a connection is down: drop its waiting calls
 * @x: the connection, after ->recv's last run
 *
 * Calls already started are counted in x_pulls; the caller waits for
 * those.
 * Context: process.
 */
void rsv_pull_forget(struct rsv_xprt *x)
{
	struct rsv_call *call, *next;
	LIST_HEAD(drop);

	spin_lock_bh(&rsv_pull_lock);
	list_splice_init(&x->x_pull_wait, &drop);
	list_del_init(&x->x_pull_node);
	spin_unlock_bh(&rsv_pull_lock);
	list_for_each_entry_safe(call, next, &drop, c_node) {
		list_del_init(&call->c_node);
		rsv_call_put(call);
	}
}

/**
 * rsv_pull_show - the budget, for the totals file
 * @p: the page being filled
 */
void rsv_pull_show(struct rds_page *p)
{
	u64 used, peak;

	spin_lock_bh(&rsv_pull_lock);
	used = rsv_pull_used;
	peak = rsv_pull_peak;
	spin_unlock_bh(&rsv_pull_lock);
	rds_page_emit(p, " pull_budget %llu pull_used %llu pull_peak %llu pull_conn_budget %llu",
		      rsv_pull_budget, used, peak, RSV_PULL_CONN_BYTES);
}

/**
 * rsv_pull_init - set the total budget
 */
void rsv_pull_init(void)
{
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;

	rsv_pull_budget = rsv_pull_budget_mb ? (u64)rsv_pull_budget_mb << 20 :
			  min(ram / 16, RSV_PULL_MAX_DEFAULT);
	/* never below one connection's worth: one chunk must always fit */
	rsv_pull_budget = max_t(u64, rsv_pull_budget, RSV_MAX_CHUNK_PAGES * PAGE_SIZE);
}
