// SPDX-License-Identifier: GPL-2.0
/*
 * The doorbell watchdog, for soft-RoCE only.
 *
 * Debian 6.1's rxe throttles a QP's requester once 64 of its packets are
 * in the network stack (rxe_req.c): the requester reads skb_out above
 * the limit, then sets need_req_skb, and the skb destructor reschedules
 * it once skb_out falls below 16 with need_req_skb set. If every packet
 * is freed between that read and that store (a vCPU preempted there, as
 * under emulation on a busy host), no destructor is left to wake it: the
 * requester sleeps with work queued until the next post, and its
 * completer, with every packet sent acknowledged, has nothing to retry.
 * A peer that waits for that work posts nothing more, so both sides wait
 * for a timeout (transport_pair under host load: four 1 MiB RDMA WRITEs
 * and their replies stood still for the client's 30 s).
 *
 * A post with no work request is rxe's doorbell: rxe_post_send()
 * schedules the requester whatever the list holds. So on rxe, when a
 * connection has sends posted and neither posted nor retired one for a
 * whole rxe_kick_ms period, it rings once, and watches again when
 * something moves. A ring on a connection that was merely idle with its
 * last sends unsignaled costs one empty requester run. Other devices are
 * never touched: their post_send need not accept an empty list.
 *
 * 6.12's rxe cannot park that way, and schedules the requester only
 * when a post holds a work request, so there the watchdog is not armed
 * at all (kc_rxe_requester_may_park()).
 *
 * The defect is rxe's, and its fix belongs upstream, in 6.1's stable
 * series: a requester that sets need_req_skb must read skb_out again
 * after the store. This file only works around it, for soft-RoCE on
 * 6.1, and goes when 6.1 is no longer supported.
 */
#include <linux/module.h>
#include <rdmastor/kcompat.h>

#include "rst_int.h"
#include "trace.h"

static void rst_kick_work(struct work_struct *work);

/**
 * rst_kick_init - set up a connection's watchdog, off until its device is known
 * @c: the connection, being created
 */
void rst_kick_init(struct rst_conn *c)
{
	INIT_DELAYED_WORK(&c->c_kick_work, rst_kick_work);
}

/**
 * rst_kick_wanted - does this device need the watchdog?
 * @dev: the connection's device
 *
 * Return: true for soft-RoCE on a kernel whose rxe requester may park.
 */
bool rst_kick_wanted(const struct ib_device *dev)
{
	return dev->ops.driver_id == RDMA_DRIVER_RXE && kc_rxe_requester_may_park();
}

/**
 * rst_kick_watch - a soft-RoCE send queue moved: watch it (rst_kick_arm())
 * @c: the connection, under c_post_lock, c_kick_on set
 */
void rst_kick_watch(struct rst_conn *c)
{
	unsigned int ms = READ_ONCE(rst_rxe_kick_ms);

	if (ms && !c->c_posts_closed &&
	    !delayed_work_pending(&c->c_kick_work))
		queue_delayed_work(rst_wq, &c->c_kick_work, msecs_to_jiffies(ms));
}

/* c_kick_work: ring rxe's doorbell if the send queue stood still. */
static void rst_kick_work(struct work_struct *work)
{
	struct rst_conn *c = container_of(to_delayed_work(work), struct rst_conn,
					  c_kick_work);
	unsigned int ms = READ_ONCE(rst_rxe_kick_ms);
	unsigned long pflags;
	bool busy, still;

	pflags = rst_post_lock(c);
	busy = !c->c_posts_closed && !list_empty(&c->c_tx_posted);
	still = busy && c->c_tx_progress == c->c_kick_seen;
	c->c_kick_seen = c->c_tx_progress;
	if (still) {
		/* an empty list: rxe only schedules its requester */
		ib_post_send(c->c_qp, NULL, NULL);
		c->c_kicks++;
	}
	rst_post_unlock(c, pflags);
	if (still)
		trace_rst_kick(c);
	else if (busy && ms)
		queue_delayed_work(rst_wq, &c->c_kick_work, msecs_to_jiffies(ms));
}

/**
 * rst_kick_stop - no watchdog runs on @c after this
 * @c: the connection, its posts closed (c_posts_closed): nothing re-arms
 */
void rst_kick_stop(struct rst_conn *c)
{
	cancel_delayed_work_sync(&c->c_kick_work);
}
