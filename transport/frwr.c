// SPDX-License-Identifier: GPL-2.0
/*
 * Per-I/O fast registration (principle 2) and the MR pool behind it.
 *
 * MRs are allocated lazily, each charged to the connection's rnic_mgr
 * consumer for its capacity (entries, and one key) until it is freed,
 * and never beyond what the share covers. A shrink lowers the limits at
 * once and frees idle MRs; a busy MR over them is freed when its I/O
 * puts it back.
 *
 * Size classes: a connection with small_io_pages has two pools, MRs of
 * small_io_pages and of max_io_pages. An I/O that fits takes a small
 * one, so a share of E entries lets E / small_io_pages small I/Os run
 * at once, not E / max_io_pages: what a 4 KiB I/O holds of the NIC's
 * translation table is not what a 1 MiB one needs. A small I/O may use
 * an idle large MR; a large I/O that finds no room frees idle small MRs
 * to make some. c_mr_limit (the window's bound) counts small MRs; the
 * entries held never exceed the share's (c_ent_limit), except that one
 * MR of any size is always allowed: rnic_mgr guarantees max_io_pages.
 *
 * An MR lent to an I/O goes IDLE -> MAPPED (rst_mr_map: DMA-mapped,
 * key rotated, REG_MR prepared) -> VALID (posted in front of the
 * request) -> IDLE again once invalidated, by the peer's
 * Send-with-Invalidate of exactly its key or by a LOCAL_INV. An MR put
 * back while VALID, or whose REG_MR or LOCAL_INV failed or was flushed,
 * is in an unknown state and is freed (deregistration invalidates it).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "rst_window.h"

#include "rst_int.h"
#include "trace.h"

/* Pages of the MRs of size class @cls. */
static u32 rst_cls_pages(const struct rst_conn *c, int cls)
{
	return cls == RST_MR_SMALL ? c->c_p.small_io_pages : c->c_p.max_io_pages;
}

static void rst_mr_dereg(struct rst_conn *c, struct rst_mr *m)
{
	trace_rst_mr_free(m);
	ib_dereg_mr(m->mr_ib);
	m->mr_ib = NULL;
	rnic_release(c->c_rc, rst_cls_pages(c, m->mr_cls), 1);
}

/* Entries the window counts per MR: the smallest class there is. */
static u32 rst_unit_pages(const struct rst_conn *c)
{
	return c->c_p.small_io_pages ?: c->c_p.max_io_pages;
}

/* What the share of @entries and @keys covers. Under c_lock. */
static void rst_set_limits(struct rst_conn *c, u64 entries, u64 keys)
{
	lockdep_assert_held(&c->c_lock);
	c->c_mr_limit = rst_mr_limit_calc(entries, keys, rst_unit_pages(c),
					  c->c_p.send_depth);
	c->c_ent_limit = min_t(u64, entries, U32_MAX);
	trace_rst_share(c, entries, keys);
}

/* Under c_lock. */
static bool rst_over_limits(const struct rst_conn *c)
{
	lockdep_assert_held(&c->c_lock);
	return rst_mr_over_calc(c->c_mr_total, c->c_mr_limit, c->c_mr_entries,
				c->c_ent_limit);
}

/*
 * Is there room for one more MR of @pages? Exact under c_lock; also read
 * without it by waiters, who then take the lock to act on it.
 */
static bool rst_mr_room(const struct rst_conn *c, u32 pages)
{
	return rst_mr_room_calc(READ_ONCE(c->c_mr_total), READ_ONCE(c->c_mr_limit),
				READ_ONCE(c->c_mr_entries),
				READ_ONCE(c->c_ent_limit), pages);
}

/* Take @m off its idle list. Under c_lock. */
static void rst_mr_unidle(struct rst_conn *c, struct rst_mr *m)
{
	lockdep_assert_held(&c->c_lock);
	list_del(&m->mr_node);
	c->c_mr_idle--;
}

/* Count @m as freed (the caller frees it outside the lock). Under c_lock. */
static void rst_mr_uncount(struct rst_conn *c, struct rst_mr *m)
{
	lockdep_assert_held(&c->c_lock);
	c->c_mr_total--;
	c->c_mr_entries -= rst_cls_pages(c, m->mr_cls);
}

/* An MR, or room for one, may be there: wake whoever waits for it. */
static void rst_mr_wake(struct rst_conn *c)
{
	wake_up_all(&c->c_wq);
	rst_reads_kick(c);
}

static void rst_mr_free(struct rst_conn *c, struct rst_mr *m)
{
	rst_mr_dereg(c, m);
	kfree(m);
}

/*
 * An MR in an unknown state: deregister it now (its key dies with it),
 * but keep the structure until the QP is drained: a REG_MR or LOCAL_INV
 * of it may still be queued, and its flush completion points here.
 */
static void rst_mr_bury(struct rst_conn *c, struct rst_mr *m)
{
	rst_mr_dereg(c, m);
	spin_lock_irq(&c->c_lock);
	list_add(&m->mr_node, &c->c_mr_dead);
	spin_unlock_irq(&c->c_lock);
}

/* rnic_mgr wants us down to @entries and @keys. */
static void rst_shrink(struct rnic_consumer *rc, u64 entries, u64 keys, void *priv)
{
	struct rst_conn *c = priv;
	struct rst_mr *m, *tmp;
	LIST_HEAD(victims);
	u32 freed = 0;
	int cls;

	spin_lock_irq(&c->c_lock);
	c->c_stats.shrinks++;
	rst_set_limits(c, entries, keys);
	/* large ones first: they give back the most */
	for (cls = RST_MR_LARGE; cls >= RST_MR_SMALL; cls--) {
		list_for_each_entry_safe(m, tmp, &c->c_mr_free[cls], mr_node) {
			if (!rst_over_limits(c))
				break;
			rst_mr_unidle(c, m);
			rst_mr_uncount(c, m);
			list_add(&m->mr_node, &victims);
			freed++;
		}
	}
	trace_rst_shrink(c, entries, freed);
	spin_unlock_irq(&c->c_lock);
	list_for_each_entry_safe(m, tmp, &victims, mr_node)
		rst_mr_free(c, m);
	rst_mr_wake(c);
}

static void rst_grow(struct rnic_consumer *rc, u64 entries, u64 keys, void *priv)
{
	rst_mr_refresh_limit(priv);
}

/*
 * rnic_mgr asks for idle entries back: another consumer waits while this
 * connection keeps MRs idle (mr_keep_idle, or within an idle period).
 * Not a shrink: the share and the window stand; idle MRs go, large
 * first, until @entries are covered. None in use is touched.
 */
static void rst_reclaim(struct rnic_consumer *rc, u64 entries, void *priv)
{
	struct rst_conn *c = priv;
	struct rst_mr *m, *tmp;
	LIST_HEAD(victims);
	u64 covered = 0;
	u32 freed = 0;
	int cls;

	spin_lock_irq(&c->c_lock);
	for (cls = RST_MR_LARGE; cls >= RST_MR_SMALL; cls--) {
		list_for_each_entry_safe(m, tmp, &c->c_mr_free[cls], mr_node) {
			if (covered >= entries)
				break;
			rst_mr_unidle(c, m);
			rst_mr_uncount(c, m);
			list_add(&m->mr_node, &victims);
			covered += rst_cls_pages(c, cls);
			freed++;
		}
	}
	c->c_stats.reclaims++;
	trace_rst_reclaim(c, entries, freed);
	spin_unlock_irq(&c->c_lock);
	list_for_each_entry_safe(m, tmp, &victims, mr_node)
		rst_mr_free(c, m);
	rst_mr_wake(c);
}

/* The device is going away; the connection goes down with it. */
static void rst_removed(struct rnic_consumer *rc, void *priv)
{
	rst_conn_down(priv, -ENODEV);
}

static const struct rnic_consumer_ops rst_rnic_ops = {
	.shrink = rst_shrink,
	.grow = rst_grow,
	.removed = rst_removed,
	.reclaim = rst_reclaim,
};

/**
 * rst_refresh_share - re-read what the rnic_mgr share covers
 * @c: the connection
 *
 * For a ULP whose window binds at its MR limit without waiting in the
 * engine (target side): entries may have come free since the last look.
 */
void rst_refresh_share(struct rst_conn *c)
{
	rst_mr_refresh_limit(c);
}
EXPORT_SYMBOL_GPL(rst_refresh_share);

/**
 * rst_mr_refresh_limit - re-read what the share covers
 * @c: the connection
 *
 * Takes the share (and borrowable free entries) from rnic_mgr again and
 * wakes whoever waits for an MR.
 */
void rst_mr_refresh_limit(struct rst_conn *c)
{
	u64 entries, keys;

	if (!c->c_rc)
		return;
	rnic_entitlement(c->c_rc, &entries, &keys);
	spin_lock_irq(&c->c_lock);
	rst_set_limits(c, entries, keys);
	spin_unlock_irq(&c->c_lock);
	rst_mr_wake(c);
}

/* Move the idle MRs of class @cls to @list, counted as freed. Under c_lock. */
static void rst_mr_take_idle(struct rst_conn *c, int cls, struct list_head *list)
{
	struct rst_mr *m, *tmp;

	lockdep_assert_held(&c->c_lock);
	list_for_each_entry_safe(m, tmp, &c->c_mr_free[cls], mr_node) {
		rst_mr_unidle(c, m);
		rst_mr_uncount(c, m);
		list_add(&m->mr_node, list);
	}
}

/*
 * Nobody hoards: a connection that asked for no MR of a size class for a
 * whole period gives back that class's idle MRs, so an idle mount or
 * session holds none, and one that moved from small I/O to large (or
 * back) does not keep the MRs of the old size. With mr_keep_idle they
 * stay until rnic_mgr asks for them (rst_shrink(), rst_reclaim()): the
 * next burst after a pause finds its MRs, and whoever waits for entries
 * gets idle ones back before anything in use is touched.
 */
static void rst_mr_idle_work(struct work_struct *work)
{
	struct rst_conn *c = container_of(to_delayed_work(work), struct rst_conn,
					  c_idle_work);
	struct rst_mr *m, *tmp;
	LIST_HEAD(idle);
	int cls;

	spin_lock_irq(&c->c_lock);
	for (cls = RST_MR_SMALL; cls <= RST_MR_LARGE; cls++) {
		if (c->c_mr_gets[cls] == c->c_mr_gets_seen[cls] &&
		    !READ_ONCE(rst_mr_keep_idle))
			rst_mr_take_idle(c, cls, &idle);
		c->c_mr_gets_seen[cls] = c->c_mr_gets[cls];
	}
	spin_unlock_irq(&c->c_lock);
	list_for_each_entry_safe(m, tmp, &idle, mr_node)
		rst_mr_free(c, m);
	/* a share lowered without a shrink (we held less) shows here */
	rst_mr_refresh_limit(c);
	if (READ_ONCE(c->c_state) != RST_DOWN)
		queue_delayed_work(rst_wq, &c->c_idle_work,
				   msecs_to_jiffies(max(rst_mr_idle_ms, 10U)));
}

/**
 * rst_mr_pool_init - make the connection an rnic_mgr consumer
 * @c: the connection, its device known
 *
 * Nothing to do when rst_conn_params.max_io_pages is 0 (the connection
 * registers no memory).
 *
 * Return: 0, -EINVAL (an MR larger than the device allows), or what
 * rnic_register() returned.
 */
int rst_mr_pool_init(struct rst_conn *c)
{
	struct rnic_consumer_desc desc = {
		.name = c->c_p.name,
		.weight = c->c_p.weight ? c->c_p.weight : 1,
		.min_entries = c->c_p.max_io_pages,
		.min_keys = 1,
		.ops = &rst_rnic_ops,
		.priv = c,
		/*
		 * A remote peer's connection: one listener's connections
		 * weigh as one at the top level, and each is guaranteed its
		 * minimum only from its first registration (a call that
		 * needs one), so idle connections cannot fill the
		 * minimums (rnic_mgr's I8).
		 */
		.peer_group = c->c_listener,
		.group_name = c->c_listener ? c->c_listener->l_p.name : c->c_p.name,
		.min_later = !!c->c_listener,
	};

	if (!c->c_p.max_io_pages)
		return 0;	/* this side registers nothing */
	if (c->c_p.small_io_pages >= c->c_p.max_io_pages)
		c->c_p.small_io_pages = 0;	/* one class */
	if (c->c_p.max_io_pages > c->c_dev->attrs.max_fast_reg_page_list_len)
		return -EINVAL;
	c->c_rc = rnic_register(c->c_dev, &desc);
	if (IS_ERR(c->c_rc)) {
		int err = PTR_ERR(c->c_rc);

		c->c_rc = NULL;
		return err;
	}
	rst_mr_refresh_limit(c);
	INIT_DELAYED_WORK(&c->c_idle_work, rst_mr_idle_work);
	queue_delayed_work(rst_wq, &c->c_idle_work, msecs_to_jiffies(max(rst_mr_idle_ms, 10U)));
	return 0;
}

/**
 * rst_mr_pool_destroy - free every MR and leave rnic_mgr
 * @c: the connection; its QP drained, so nothing is in flight
 */
void rst_mr_pool_destroy(struct rst_conn *c)
{
	struct rst_mr *m, *tmp;
	LIST_HEAD(idle);
	u32 busy;

	if (!c->c_rc)
		return;
	cancel_delayed_work_sync(&c->c_idle_work);
	/* what rst_mr_put_nosleep() left: deregistered before we leave */
	flush_work(&c->c_mr_defer_work);
	/* rst_reads_flush() ended the waiting READs; nothing kicks since */
	cancel_delayed_work_sync(&c->c_read_work);
	/* rst_shrink() may run concurrently until rnic_unregister(). */
	spin_lock_irq(&c->c_lock);
	rst_mr_take_idle(c, RST_MR_SMALL, &idle);
	rst_mr_take_idle(c, RST_MR_LARGE, &idle);
	busy = c->c_mr_total;
	spin_unlock_irq(&c->c_lock);
	list_for_each_entry_safe(m, tmp, &idle, mr_node)
		rst_mr_free(c, m);
	/* the QP is drained: no completion can reach these any more */
	list_for_each_entry_safe(m, tmp, &c->c_mr_dead, mr_node)
		kfree(m);
	INIT_LIST_HEAD(&c->c_mr_dead);
	WARN(busy, KBUILD_MODNAME ": %s: %u MRs still lent out at teardown\n",
	     c->c_p.name, busy);
	rnic_unregister(c->c_rc);
	c->c_rc = NULL;
}

static void rst_mr_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rst_mr *m = container_of(wc->wr_cqe, struct rst_mr, mr_reg_cqe);

	/* REG_MR is unsignaled: this runs only when it failed */
	trace_rst_wc_reg(wc, &m->mr_cid);
	rst_cqe_check(m->mr_conn);
	m->mr_status = -EIO;
	rst_wc_error(m->mr_conn, wc, "REG_MR");
}

static void rst_mr_count_local_inv(struct rst_mr *m)
{
	struct rst_conn *c = m->mr_conn;
	unsigned long flags;

	trace_rst_mr_local_inv(m);
	spin_lock_irqsave(&c->c_lock, flags);
	c->c_stats.local_inv++;
	spin_unlock_irqrestore(&c->c_lock, flags);
}

static void rst_mr_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rst_mr *m = container_of(wc->wr_cqe, struct rst_mr, mr_inv_cqe);

	trace_rst_wc_li(wc, &m->mr_cid);
	rst_cqe_check(m->mr_conn);
	if (wc->status != IB_WC_SUCCESS) {
		m->mr_status = -EIO;
		rst_wc_error(m->mr_conn, wc, "LOCAL_INV");
	} else {
		m->mr_state = RST_MR_IDLE;
	}
	if (m->mr_inv_fn) {
		rst_mr_inv_fn fn = m->mr_inv_fn;

		m->mr_inv_fn = NULL;
		if (!m->mr_status)
			rst_mr_count_local_inv(m);
		fn(m->mr_inv_arg, m->mr_status);
		return;
	}
	complete(&m->mr_inv_done);
}

/* Free every idle MR now (their entries are wanted). */
static void rst_mr_free_idle(struct rst_conn *c)
{
	struct rst_mr *m, *tmp;
	LIST_HEAD(idle);

	spin_lock_irq(&c->c_lock);
	rst_mr_take_idle(c, RST_MR_SMALL, &idle);
	rst_mr_take_idle(c, RST_MR_LARGE, &idle);
	spin_unlock_irq(&c->c_lock);
	list_for_each_entry_safe(m, tmp, &idle, mr_node)
		rst_mr_free(c, m);
}

/*
 * Charge and allocate an MR of class @cls (already counted in c_mr_total
 * and c_mr_entries). rnic_mgr only calls ->shrink on a consumer holding
 * more than its share, so a share that fell below our limits without
 * that is first noticed here: re-read it, give back our idle MRs (whose
 * entries we may be waiting for), then wait our turn, or with !@wait
 * try once more and fail with -EAGAIN (rnic_mgr has noted the demand).
 */
static struct rst_mr *rst_mr_alloc(struct rst_conn *c, int cls, bool wait)
{
	u32 pages = rst_cls_pages(c, cls);
	struct rst_mr *m;
	int err;

	/* the peer called: it deserves its minimum, if the budget has room */
	if (rnic_claim_min(c->c_rc) == -ENOSPC)
		trace_rst_mr_no_min(c, pages);
	err = rnic_acquire(c->c_rc, pages, 1, RNIC_NOWAIT);
	if (err == -EAGAIN) {
		rst_mr_refresh_limit(c);
		rst_mr_free_idle(c);
		err = rnic_acquire(c->c_rc, pages, 1, wait ? 0 : RNIC_NOWAIT);
	}
	if (err)
		return ERR_PTR(err);
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		err = -ENOMEM;
		goto release;
	}
	m->mr_ib = ib_alloc_mr(c->c_pd, IB_MR_TYPE_MEM_REG, pages);
	if (IS_ERR(m->mr_ib)) {
		err = PTR_ERR(m->mr_ib);
		kfree(m);
		goto release;
	}
	m->mr_conn = c;
	m->mr_cls = cls;
	m->mr_reg_cqe.done = rst_mr_reg_done;
	m->mr_inv_cqe.done = rst_mr_inv_done;
	init_completion(&m->mr_inv_done);
	rst_cid_init(c, &m->mr_cid);
	trace_rst_mr_alloc(m);
	return m;
release:
	rnic_release(c->c_rc, pages, 1);
	return ERR_PTR(err);
}

/* How rst_mr_take() may get an MR */
enum rst_take {
	RST_TAKE_WAIT,		/* allocate, free victims, wait for the share */
	RST_TAKE_NOWAIT,	/* allocate and free victims, never wait */
	RST_TAKE_IDLE,		/* an idle MR or nothing: never sleeps */
};

/*
 * Under c_lock: an idle MR for an I/O of class @cls, room to allocate
 * one (*@alloc set, counted already), or an idle small MR to free to
 * make room for a large one (*@victim set, uncounted). NULL otherwise.
 * With @idle_only, only the first.
 */
static struct rst_mr *rst_mr_pick(struct rst_conn *c, int cls, bool idle_only,
				  bool *alloc, struct rst_mr **victim)
{
	u32 pages = rst_cls_pages(c, cls);
	struct rst_mr *m;

	lockdep_assert_held(&c->c_lock);
	m = list_first_entry_or_null(&c->c_mr_free[cls], struct rst_mr, mr_node);
	if (!m && cls == RST_MR_SMALL)	/* a large MR serves a small I/O */
		m = list_first_entry_or_null(&c->c_mr_free[RST_MR_LARGE],
					     struct rst_mr, mr_node);
	if (m) {
		rst_mr_unidle(c, m);
		return m;
	}
	if (idle_only)
		return NULL;
	if (rst_mr_room(c, pages)) {
		c->c_mr_total++;
		c->c_mr_entries += pages;
		c->c_stats.mrs_peak = max(c->c_stats.mrs_peak, c->c_mr_total);
		*alloc = true;
		return NULL;
	}
	m = list_first_entry_or_null(&c->c_mr_free[RST_MR_SMALL], struct rst_mr,
				     mr_node);
	if (cls == RST_MR_LARGE && m) {
		rst_mr_unidle(c, m);
		rst_mr_uncount(c, m);
		*victim = m;
	}
	return NULL;
}

/*
 * Would rst_mr_pick() make progress for class @cls now? Exactly its
 * conditions, so that a waiter never spins: an idle MR of either class
 * (a large one to use, or a small one to use or free), or room.
 */
static bool rst_mr_may_pick(struct rst_conn *c, int cls)
{
	return !list_empty(&c->c_mr_free[RST_MR_LARGE]) ||
	       !list_empty(&c->c_mr_free[RST_MR_SMALL]) ||
	       rst_mr_room(c, rst_cls_pages(c, cls)) ||
	       READ_ONCE(c->c_state) == RST_DOWN;
}

static struct rst_mr *rst_mr_take(struct rst_conn *c, u32 pages,
				  enum rst_take how)
{
	int cls = rst_mr_small_calc(c->c_p.small_io_pages, pages) ?
		  RST_MR_SMALL : RST_MR_LARGE;
	struct rst_mr *m = NULL, *victim;
	unsigned long flags;
	bool alloc = false;
	int err;

	if (!c->c_rc)
		return ERR_PTR(-EINVAL);
	if (pages > c->c_p.max_io_pages)
		return ERR_PTR(-EINVAL);
	for (;;) {
		victim = NULL;
		spin_lock_irqsave(&c->c_lock, flags);
		if (c->c_state == RST_DOWN) {
			spin_unlock_irqrestore(&c->c_lock, flags);
			return ERR_PTR(-ENOTCONN);
		}
		c->c_mr_gets[cls]++;
		m = rst_mr_pick(c, cls, how == RST_TAKE_IDLE, &alloc, &victim);
		spin_unlock_irqrestore(&c->c_lock, flags);
		if (m || alloc)
			break;
		if (victim) {
			rst_mr_free(c, victim);
			continue;	/* its entries are free: try again */
		}
		if (how != RST_TAKE_WAIT)
			return ERR_PTR(-EAGAIN);
		err = wait_event_killable(c->c_wq, rst_mr_may_pick(c, cls));
		if (err)
			return ERR_PTR(err);
	}
	if (alloc) {
		m = rst_mr_alloc(c, cls, how == RST_TAKE_WAIT);
		if (IS_ERR(m)) {
			spin_lock_irq(&c->c_lock);
			c->c_mr_total--;
			c->c_mr_entries -= rst_cls_pages(c, cls);
			spin_unlock_irq(&c->c_lock);
			rst_mr_wake(c);
			return m;
		}
	}
	m->mr_status = 0;
	m->mr_state = RST_MR_IDLE;
	trace_rst_mr_get(m);
	return m;
}

/**
 * rst_mr_get - borrow an MR for one I/O
 * @c: the connection
 *
 * Takes an idle MR or allocates one within the share, waiting while the
 * connection is at its MR limit. Call within rst_io_begin()/rst_io_end().
 *
 * Return: the MR or ERR_PTR (-ENOTCONN, -EINTR, -ENOMEM, -EINVAL).
 */
struct rst_mr *rst_mr_get(struct rst_conn *c)
{
	return rst_mr_take(c, c->c_p.max_io_pages, RST_TAKE_WAIT);
}
EXPORT_SYMBOL_GPL(rst_mr_get);

/**
 * rst_sg_pages - the pages an MR needs to map a scatterlist
 * @sg: the list
 * @nents: its entries
 *
 * What rst_mr_get_sg() charges, and what a ULP asks rst_mr_prealloc()
 * for: each entry's page span, not its bytes.
 *
 * Return: the pages.
 */
u32 rst_sg_pages(struct scatterlist *sg, int nents)
{
	struct scatterlist *s;
	u32 pages = 0;
	int i;

	for_each_sg(sg, s, nents, i)
		pages += DIV_ROUND_UP(s->offset + s->length, PAGE_SIZE);
	return pages;
}
EXPORT_SYMBOL_GPL(rst_sg_pages);

/**
 * rst_mr_get_sg - rst_mr_get() for an I/O of these pages
 * @c: the connection
 * @sg: what will be mapped
 * @nents: entries in @sg
 *
 * With size classes (small_io_pages), an I/O that fits a small MR gets
 * one and is charged only that.
 */
struct rst_mr *rst_mr_get_sg(struct rst_conn *c, struct scatterlist *sg,
			     int nents)
{
	return rst_mr_take(c, rst_sg_pages(sg, nents), RST_TAKE_WAIT);
}
EXPORT_SYMBOL_GPL(rst_mr_get_sg);

/**
 * rst_mr_tryget_sg - rst_mr_get_sg() from an idle MR only
 * @c: the connection
 * @sg: what will be mapped
 * @nents: entries in @sg
 *
 * Takes an idle MR of the I/O's size class (or a larger one) and never
 * allocates, frees or waits. A ULP that gets -EAGAIN while its window
 * has room calls rst_mr_prealloc() from process context and retries.
 *
 * Return: the MR or ERR_PTR (-EAGAIN, -ENOTCONN, -EINVAL).
 * Context: any; never sleeps.
 */
struct rst_mr *rst_mr_tryget_sg(struct rst_conn *c, struct scatterlist *sg,
				int nents)
{
	return rst_mr_take(c, rst_sg_pages(sg, nents), RST_TAKE_IDLE);
}
EXPORT_SYMBOL_GPL(rst_mr_tryget_sg);

/**
 * rst_mr_prealloc - allocate idle MRs ahead of I/Os that need them
 * @c: the connection
 * @pages: the pages of the I/Os (chooses the size class)
 * @nr: how many
 *
 * Each MR is charged to the share as rst_mr_get() would; the ones the
 * share does not cover now are not allocated. The idle reaper frees
 * them again if no I/O asks for MRs of their class for a period.
 *
 * Return: how many were allocated (0 when the share is used up), or an
 * errno if the connection is down or @pages too large.
 * Context: process, sleeps.
 */
int rst_mr_prealloc(struct rst_conn *c, u32 pages, u32 nr)
{
	struct rst_mr *m;
	u32 done;

	for (done = 0; done < nr; done++) {
		m = rst_mr_take(c, pages, RST_TAKE_NOWAIT);
		if (IS_ERR(m))
			return PTR_ERR(m) == -EAGAIN ? done : PTR_ERR(m);
		rst_mr_put(m);
	}
	return done;
}
EXPORT_SYMBOL_GPL(rst_mr_prealloc);

/**
 * rst_mr_tryget - rst_mr_get() that does not wait for the share
 * @c: the connection
 *
 * Never waits for rnic_mgr (it may still allocate memory and an MR).
 * For the engine's own READ sinks (rw.c, read_wait.c).
 *
 * Return: the MR or ERR_PTR: -EAGAIN when every MR the share covers is
 * lent out or rnic_mgr cannot grant one now, else as rst_mr_get().
 */
struct rst_mr *rst_mr_tryget(struct rst_conn *c)
{
	return rst_mr_take(c, c->c_p.max_io_pages, RST_TAKE_NOWAIT);
}

/**
 * rst_mr_limit - MRs the connection's rnic_mgr share covers now
 * @c: the connection
 *
 * For a ULP whose window is bound by its MRs without waiting in the
 * engine (the target side in forced-MR mode). One lockless read.
 *
 * Return: the limit (0 for a connection that registers no memory).
 */
u32 rst_mr_limit(struct rst_conn *c)
{
	return c->c_rc ? READ_ONCE(c->c_mr_limit) : 0;
}
EXPORT_SYMBOL_GPL(rst_mr_limit);

/**
 * rst_mr_map - map an I/O's pages into an MR, with a fresh key
 * @m: from rst_mr_get()
 * @sg: the pages (DMA-mapped here until rst_mr_put())
 * @nents: entries in @sg
 * @dir: DMA_FROM_DEVICE if the peer writes them, DMA_TO_DEVICE if it reads
 * @addr: out: the address to advertise
 * @len: out: the length to advertise
 * @rkey: out: the key to advertise
 *
 * The registration is posted by rst_tx_post() in front of the request.
 */
int rst_mr_map(struct rst_mr *m, struct scatterlist *sg, int nents,
	       enum dma_data_direction dir, u64 *addr, u32 *len, u32 *rkey)
{
	return rst_mr_map_off(m, sg, nents, 0, dir, addr, len, rkey);
}
EXPORT_SYMBOL_GPL(rst_mr_map);

/**
 * rst_mr_map_off - rst_mr_map() from a byte offset into the first entry
 * @m: from rst_mr_get()
 * @sg: the pages
 * @nents: entries in @sg
 * @sg_off: where in @sg's first entry the mapping starts
 * @dir: as for rst_mr_map()
 * @addr: out: the address to advertise
 * @len: out: the length
 * @rkey: out: the key
 *
 * Return: as rst_mr_map().
 */
int rst_mr_map_off(struct rst_mr *m, struct scatterlist *sg, int nents,
		   unsigned int sg_off, enum dma_data_direction dir, u64 *addr,
		   u32 *len, u32 *rkey)
{
	struct rst_conn *c = m->mr_conn;
	struct ib_mr *mr = m->mr_ib;
	int mapped, n;

	/* an MR is lent IDLE and mapped once per I/O */
	if (WARN_ON_ONCE(m->mr_state != RST_MR_IDLE) || !nents)
		return -EINVAL;
	mapped = ib_dma_map_sg(c->c_dev, sg, nents, dir);
	if (!mapped)
		return -EIO;
	n = ib_map_mr_sg(mr, sg, mapped, sg_off ? &sg_off : NULL, PAGE_SIZE);
	if (n != mapped) {
		/* too many pages, or a gap an FRWR cannot express */
		ib_dma_unmap_sg(c->c_dev, sg, nents, dir);
		return n < 0 ? n : -EINVAL;
	}
	m->mr_sg = sg;
	m->mr_nents = nents;
	m->mr_dir = dir;
	/* A new key for every use: the previous I/O's key stays dead. */
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey));
	m->mr_reg_wr.wr.next = NULL;
	m->mr_reg_wr.wr.opcode = IB_WR_REG_MR;
	m->mr_reg_wr.wr.wr_cqe = &m->mr_reg_cqe;
	m->mr_reg_wr.wr.num_sge = 0;
	m->mr_reg_wr.wr.send_flags = 0;
	m->mr_reg_wr.mr = mr;
	m->mr_reg_wr.key = mr->rkey;
	m->mr_reg_wr.access = dir == DMA_FROM_DEVICE ?
		IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE :
		IB_ACCESS_REMOTE_READ;
	m->mr_state = RST_MR_MAPPED;
	trace_rst_mr_map(m, mr->length, nents);
	*addr = mr->iova;
	*len = mr->length;
	*rkey = mr->rkey;
	return 0;
}

/**
 * rst_mr_remote_invalidated - the peer's Send-with-Invalidate named a key
 * @m: the I/O's MR
 * @inv_rkey: the key the reply invalidated
 *
 * Return: 0 if it is this MR's key; -EPROTO otherwise (the caller treats
 * it as a protocol error; the MR is freed when put back).
 */
int rst_mr_remote_invalidated(struct rst_mr *m, u32 inv_rkey)
{
	struct rst_conn *c = m->mr_conn;

	if (m->mr_state != RST_MR_VALID || inv_rkey != m->mr_ib->rkey) {
		trace_rst_mr_wrong_inv(m, inv_rkey);
		return -EPROTO;
	}
	m->mr_state = RST_MR_IDLE;
	trace_rst_mr_remote_inv(m);
	spin_lock_irq(&c->c_lock);
	c->c_stats.remote_inv++;
	spin_unlock_irq(&c->c_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(rst_mr_remote_invalidated);

/* Post a signaled LOCAL_INV of @m's key. */
static int rst_mr_post_inv(struct rst_mr *m)
{
	struct rst_conn *c = m->mr_conn;
	int err;

	m->mr_inv_wr.next = NULL;
	m->mr_inv_wr.opcode = IB_WR_LOCAL_INV;
	m->mr_inv_wr.send_flags = IB_SEND_SIGNALED;
	m->mr_inv_wr.ex.invalidate_rkey = m->mr_ib->rkey;
	m->mr_inv_wr.wr_cqe = &m->mr_inv_cqe;
	m->mr_inv_wr.num_sge = 0;
	reinit_completion(&m->mr_inv_done);
	err = rst_post_send(c, &m->mr_inv_wr);
	if (err) {
		m->mr_inv_fn = NULL;
		m->mr_status = err;
		rst_post_error(c, "LOCAL_INV", err);
	}
	return err;
}

/**
 * rst_mr_local_invalidate - invalidate the MR's key and wait for it
 * @m: the I/O's MR
 *
 * Return: 0 once the key is invalid; an errno if the connection failed
 * first (the key is then unusable anyway: the QP is in error, and the MR
 * is freed when put back).
 * Context: process, sleeps.
 */
int rst_mr_local_invalidate(struct rst_mr *m)
{
	int err;

	if (m->mr_state != RST_MR_VALID)
		return m->mr_state == RST_MR_IDLE ? 0 : -EINVAL;
	m->mr_inv_fn = NULL;
	err = rst_mr_post_inv(m);
	if (err)
		return err;
	wait_for_completion(&m->mr_inv_done);
	if (m->mr_status)
		return m->mr_status;
	rst_mr_count_local_inv(m);
	return 0;
}
EXPORT_SYMBOL_GPL(rst_mr_local_invalidate);

/**
 * rst_mr_local_invalidate_async - invalidate the MR's key, tell @fn
 * @m: the I/O's MR, VALID
 * @fn: runs once from the completion context when the key is invalid
 *	(0) or the connection failed first (an errno; the QP is in error
 *	and the MR is freed when put back)
 * @arg: for @fn
 *
 * Return: 0 if posted (@fn will run); -EINVAL if @m is not VALID, or the
 * verbs error (the connection is going down): @fn is not called then.
 * Context: any; never sleeps.
 */
int rst_mr_local_invalidate_async(struct rst_mr *m, rst_mr_inv_fn fn,
				  void *arg)
{
	if (m->mr_state != RST_MR_VALID)
		return -EINVAL;
	m->mr_inv_fn = fn;
	m->mr_inv_arg = arg;
	return rst_mr_post_inv(m);
}
EXPORT_SYMBOL_GPL(rst_mr_local_invalidate_async);

/* rst_mr_put(), freeing from a work item unless @may_sleep. */
static void rst_mr_put_common(struct rst_mr *m, bool may_sleep)
{
	struct rst_conn *c = m->mr_conn;
	bool unknown = m->mr_status || m->mr_state != RST_MR_IDLE;
	unsigned long flags;
	bool drop;

	trace_rst_mr_put(m);
	if (m->mr_sg) {
		ib_dma_unmap_sg(c->c_dev, m->mr_sg, m->mr_nents, m->mr_dir);
		m->mr_sg = NULL;
	}
	spin_lock_irqsave(&c->c_lock, flags);
	drop = unknown || rst_over_limits(c);
	if (drop) {
		rst_mr_uncount(c, m);
		if (unknown)
			c->c_stats.mr_freed_unknown++;
		if (!may_sleep) {
			m->mr_defer_unknown = unknown;
			list_add_tail(&m->mr_node, &c->c_mr_defer);
		}
	} else {
		list_add(&m->mr_node, &c->c_mr_free[m->mr_cls]);
		c->c_mr_idle++;
	}
	spin_unlock_irqrestore(&c->c_lock, flags);
	if (drop && !may_sleep)
		queue_work(rst_wq, &c->c_mr_defer_work);
	else if (drop && unknown)
		rst_mr_bury(c, m);
	else if (drop)
		rst_mr_free(c, m);
	rst_mr_wake(c);
}

/**
 * rst_mr_put - end an I/O's use of an MR
 * @m: the MR, invalidated (else it is freed as unknown)
 */
void rst_mr_put(struct rst_mr *m)
{
	rst_mr_put_common(m, true);
}
EXPORT_SYMBOL_GPL(rst_mr_put);

/**
 * rst_mr_put_nosleep - rst_mr_put() from atomic context
 * @m: the MR, invalidated (else it is freed as unknown)
 *
 * An MR that has to be freed is deregistered from a work item: its
 * entries return to rnic_mgr a little later than with rst_mr_put().
 * Context: any; never sleeps.
 */
void rst_mr_put_nosleep(struct rst_mr *m)
{
	rst_mr_put_common(m, false);
}
EXPORT_SYMBOL_GPL(rst_mr_put_nosleep);

/**
 * rst_mr_defer_work - deregister what rst_mr_put_nosleep() dropped
 * @work: the connection's c_mr_defer_work
 */
void rst_mr_defer_work(struct work_struct *work)
{
	struct rst_conn *c = container_of(work, struct rst_conn, c_mr_defer_work);
	struct rst_mr *m, *tmp;
	LIST_HEAD(list);

	spin_lock_irq(&c->c_lock);
	list_splice_init(&c->c_mr_defer, &list);
	spin_unlock_irq(&c->c_lock);
	list_for_each_entry_safe(m, tmp, &list, mr_node) {
		list_del(&m->mr_node);
		if (m->mr_defer_unknown)
			rst_mr_bury(c, m);
		else
			rst_mr_free(c, m);
	}
	rst_mr_wake(c);
}
