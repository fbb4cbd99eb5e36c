// SPDX-License-Identifier: GPL-2.0
/*
 * Forced-MR RDMA READs that found no MR wait here, off the completion
 * path, until one comes back.
 *
 * A READ sink is registered for that READ only (rw.c), from the
 * connection's rnic_mgr-charged MR pool. When every MR the share covers
 * is lent out (a budget cut, another consumer's demand, commands granted
 * before the window shrank), the READ must neither sleep where it was
 * asked for (the completion worker: the completions that would return
 * MRs queue behind it) nor go back to the ULP with -EAGAIN: LIO ignores
 * that answer for a WRITE with immediate data, and its queue-full retry
 * spins. So the engine keeps such READs in c_reads_parked and posts
 * them from c_read_work, in order, as MRs come back.
 *
 * Invariants:
 *  1. A parked READ is in c_reads_parked exactly once, counted in
 *     c_reads_waiting; both change only under c_lock.
 *  2. Only c_read_work (and rst_reads_flush(), after cancelling it)
 *     takes READs off the list, so the head it looks at stays put.
 *  3. While READs wait, a new READ waits behind them (first come, first
 *     served): MRs that come back go to the oldest.
 *  4. Nothing parks on a connection that is down; rst_reads_flush() ends
 *     the ones parked before it went down, with -ENOTCONN, before the QP
 *     is drained (so a READ c_read_work posted completes in the drain)
 *     and the ULP hears of the disconnect. c_read_work posts nothing
 *     once the connection is down.
 *  5. Every event that may give a waiting READ an MR (an MR put back,
 *     a share that moved) kicks c_read_work; a READ the arbiter refused
 *     while we hold no MR to wait for is retried after RST_READ_RETRY_MS
 *     (rnic_mgr has noted the demand and is reclaiming for it).
 */
#include <linux/module.h>

#include "rst_int.h"
#include "trace.h"

#define RST_READ_RETRY_MS	20

/**
 * rst_reads_init - set up a connection's waiting READs
 * @c: a new connection
 */
void rst_reads_init(struct rst_conn *c)
{
	INIT_LIST_HEAD(&c->c_reads_parked);
	INIT_DELAYED_WORK(&c->c_read_work, rst_read_work);
}

/**
 * rst_reads_waiting - are READs waiting for an MR?
 * @c: the connection
 *
 * Return: true if a new READ must wait behind them (invariant 3).
 */
bool rst_reads_waiting(struct rst_conn *c)
{
	return READ_ONCE(c->c_reads_waiting) != 0;
}

/**
 * rst_read_park - make a READ wait for an MR
 * @c: the connection
 * @op: set up by rst_rw_read_async(), with op_sg, op_nents, op_sg_off,
 *	op_raddr and op_rkey saying what to read where
 *
 * Return: 0 (@op->done will run), or -ENOTCONN.
 * Context: any; does not sleep.
 */
int rst_read_park(struct rst_conn *c, struct rst_read_op *op)
{
	unsigned long flags;

	spin_lock_irqsave(&c->c_lock, flags);
	if (c->c_state == RST_DOWN) {
		spin_unlock_irqrestore(&c->c_lock, flags);
		return -ENOTCONN;
	}
	list_add_tail(&op->op_node, &c->c_reads_parked);
	c->c_reads_waiting++;
	c->c_stats.reads_parked++;
	trace_rst_read_park(c, op);
	spin_unlock_irqrestore(&c->c_lock, flags);
	/* an MR may have come back before we were on the list */
	rst_reads_kick(c);
	return 0;
}

/**
 * rst_reads_kick - an MR may be there for a waiting READ: look now
 * @c: the connection
 *
 * Context: any.
 */
void rst_reads_kick(struct rst_conn *c)
{
	if (rst_reads_waiting(c))
		mod_delayed_work(rst_wq, &c->c_read_work, 0);
}

/**
 * rst_read_work - post waiting READs, oldest first, while MRs are there
 * @work: c_read_work
 */
void rst_read_work(struct work_struct *work)
{
	struct rst_conn *c = container_of(to_delayed_work(work), struct rst_conn,
					  c_read_work);
	struct rst_read_op *op;
	struct rst_mr *m;
	bool down;
	int err;

	for (;;) {
		spin_lock_irq(&c->c_lock);
		op = list_first_entry_or_null(&c->c_reads_parked,
					      struct rst_read_op, op_node);
		down = c->c_state == RST_DOWN;
		spin_unlock_irq(&c->c_lock);
		if (!op || down)
			return;		/* down: rst_reads_flush() ends them */
		m = rst_mr_tryget(c);
		if (m == ERR_PTR(-EAGAIN)) {
			queue_delayed_work(rst_wq, &c->c_read_work,
					   msecs_to_jiffies(RST_READ_RETRY_MS));
			return;
		}
		spin_lock_irq(&c->c_lock);
		list_del(&op->op_node);
		c->c_reads_waiting--;
		trace_rst_read_unpark(c, op);
		spin_unlock_irq(&c->c_lock);
		if (IS_ERR(m)) {
			/* no memory for an MR, or going down: the READ cannot be */
			rst_post_error(c, "MR for READ sink", PTR_ERR(m));
			op->done(op, PTR_ERR(m));
			continue;
		}
		err = rst_read_post_mr(c, op, m);
		if (err)
			op->done(op, err);	/* the connection is going down */
	}
}

/**
 * rst_reads_flush - end the READs still waiting on a connection that is down
 * @c: the connection, down
 *
 * Each waiting READ's ->done runs with -ENOTCONN, as a flushed READ's
 * would. Called from the down work before the QP is drained: once
 * c_read_work is cancelled, every READ it posted is on the QP.
 * Context: process; sleeps (waits for c_read_work).
 */
void rst_reads_flush(struct rst_conn *c)
{
	struct rst_read_op *op, *tmp;
	LIST_HEAD(parked);

	cancel_delayed_work_sync(&c->c_read_work);
	spin_lock_irq(&c->c_lock);
	list_splice_init(&c->c_reads_parked, &parked);
	c->c_reads_waiting = 0;
	spin_unlock_irq(&c->c_lock);
	list_for_each_entry_safe(op, tmp, &parked, op_node) {
		list_del(&op->op_node);
		op->done(op, -ENOTCONN);
	}
}
