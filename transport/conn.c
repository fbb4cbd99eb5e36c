// SPDX-License-Identifier: GPL-2.0
/*
 * Connections: rdma_cm events, queue pair and completion queue set-up,
 * going down, and teardown.
 *
 * One handler serves every rdma_cm id of the engine; the id's context
 * says whether it is a listener or a connection (both start with a tag).
 * The handler only changes state and wakes waiters; anything that may
 * sleep long runs from rst_wq. Going down is one idempotent path,
 * rst_conn_down(): it records why and queues c_down_work, which drains
 * the queue pair (every posted work request completes, flushed) and only
 * then tells the ULP.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "rst_int.h"
#include "trace.h"

struct workqueue_struct *rst_wq;

static void rst_conn_free_work(struct work_struct *work);

/* numbers connections for traces */
static atomic_t rst_conn_nr = ATOMIC_INIT(0);

/**
 * rst_conn_alloc - a new connection, not yet bound to an rdma_cm id
 * @p: its parameters (copied)
 * @l: the listener of a server-side connection, else NULL
 *
 * Return: the connection in state RST_NEW, or ERR_PTR(-EINVAL) for
 * parameters it cannot work with, ERR_PTR(-ENOMEM).
 */
struct rst_conn *rst_conn_alloc(const struct rst_conn_params *p,
				struct rst_listener *l)
{
	struct rst_conn *c;

	if (!p->recv_depth || !p->send_depth || p->msg_size < 16 || !p->ops)
		return ERR_PTR(-EINVAL);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->c_tag = RST_OBJ_CONN;
	c->c_p = *p;
	strscpy(c->c_name, p->name ?: "rst", sizeof(c->c_name));
	c->c_p.name = c->c_name;
	c->c_priv = p->priv;
	c->c_listener = l;
	c->c_server = !!l;
	kref_init(&c->c_ref);
	INIT_WORK(&c->c_free_work, rst_conn_free_work);
	spin_lock_init(&c->c_lock);
	c->c_state = RST_NEW;
	init_completion(&c->c_cm_done);
	init_waitqueue_head(&c->c_wq);
	init_completion(&c->c_down_done);
	INIT_LIST_HEAD(&c->c_tx_free);
	spin_lock_init(&c->c_post_lock);
	INIT_LIST_HEAD(&c->c_tx_posted);
	INIT_LIST_HEAD(&c->c_mr_free[RST_MR_SMALL]);
	INIT_LIST_HEAD(&c->c_mr_free[RST_MR_LARGE]);
	INIT_LIST_HEAD(&c->c_mr_dead);
	INIT_LIST_HEAD(&c->c_mr_defer);
	INIT_WORK(&c->c_mr_defer_work, rst_mr_defer_work);
	INIT_LIST_HEAD(&c->c_lnode);
	rst_reads_init(c);
	rst_kick_init(c);
	/* One credit until the ULP learns the peer's (private data, replies). */
	c->c_peer_credits = 1;
	c->c_nr = atomic_inc_return(&rst_conn_nr);
	trace_rst_conn_create(c);
	return c;
}

/* The last reference to a server connection is gone (c_free_work). */
static void rst_conn_free_work(struct work_struct *work)
{
	rst_conn_destroy(container_of(work, struct rst_conn, c_free_work));
}

static void rst_conn_release(struct kref *ref)
{
	struct rst_conn *c = container_of(ref, struct rst_conn, c_ref);

	queue_work(rst_wq, &c->c_free_work);
}

/**
 * rst_conn_get - hold a server connection past its ->disconnected
 * @c: a server connection (from the listener's accept callback on)
 *
 * The engine frees a server connection once it is down and every
 * holder has called rst_conn_put(): its rings, MRs and QP stay until
 * then (the ULP may still give back send slots and MRs), its
 * callbacks run no more after ->disconnected.
 */
void rst_conn_get(struct rst_conn *c)
{
	kref_get(&c->c_ref);
}
EXPORT_SYMBOL_GPL(rst_conn_get);

/**
 * rst_conn_put - drop a reference taken with rst_conn_get()
 * @c: the connection
 *
 * Context: any; the last put frees the connection from the engine's
 * workqueue.
 */
void rst_conn_put(struct rst_conn *c)
{
	kref_put(&c->c_ref, rst_conn_release);
}
EXPORT_SYMBOL_GPL(rst_conn_put);

/**
 * rst_conn_free - free the memory of a connection from rst_conn_alloc()
 * @c: the connection, its hardware resources and rdma_cm id gone
 */
void rst_conn_free(struct rst_conn *c)
{
	trace_rst_conn_destroy(c);
	kfree(c);
}

/**
 * rst_wc_error - a work request failed or was flushed: go down
 * @c: the connection
 * @wc: the completion (already traced by its handler)
 * @what: the kind of work request, for the log
 *
 * A flush is what every posted work request gets once the QP is in the
 * error state, so only the first real error is worth a log line; a
 * flush while the connection is up still means the QP failed under us.
 */
void rst_wc_error(struct rst_conn *c, const struct ib_wc *wc, const char *what)
{
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		pr_info_ratelimited("%s: %s failed: %s (vendor error 0x%x)\n",
				    c->c_p.name, what, ib_wc_status_msg(wc->status),
				    wc->vendor_err);
	rst_conn_down(c, -EIO);
}

/**
 * rst_post_error - posting (or setting up) a work request failed: go down
 * @c: the connection
 * @what: what could not be posted, for the trace
 * @err: the errno, recorded as the reason
 */
void rst_post_error(struct rst_conn *c, const char *what, int err)
{
	trace_rst_post_error(c, what, err);
	rst_conn_down(c, err);
}

/*
 * Every post to the QP passes here (rst_int.h, M4): under c_post_lock,
 * and refused with -ENOTCONN once the down work began its drain.
 */

/**
 * rst_post_send - post send-queue work requests, unless the drain began
 * @c: the connection
 * @wr: the chain
 *
 * Return: 0, -ENOTCONN (draining: nothing posted), or the verbs error.
 * Context: any but hard IRQ.
 */
int rst_post_send(struct rst_conn *c, const struct ib_send_wr *wr)
{
	unsigned long pflags;
	int err;

	pflags = rst_post_lock(c);
	err = c->c_posts_closed ? -ENOTCONN : ib_post_send(c->c_qp, wr, NULL);
	rst_post_unlock(c, pflags);
	return err;
}

/**
 * rst_post_rw - post an initialised rdma_rw context, unless the drain began
 * @c: the connection
 * @ctx: from rdma_rw_ctx_init()
 * @cqe: completes its last work request
 *
 * Return: 0, -ENOTCONN (draining: nothing posted), or the verbs error.
 * Context: any but hard IRQ.
 */
int rst_post_rw(struct rst_conn *c, struct rdma_rw_ctx *ctx, struct ib_cqe *cqe)
{
	unsigned long pflags;
	int err;

	pflags = rst_post_lock(c);
	err = c->c_posts_closed ? -ENOTCONN :
	      rdma_rw_ctx_post(ctx, c->c_qp, c->c_port, cqe, NULL);
	rst_post_unlock(c, pflags);
	return err;
}

/**
 * rst_post_recv - post a receive, unless the drain began
 * @c: the connection
 * @wr: the receive
 *
 * Return: 0, -ENOTCONN (draining: nothing posted), or the verbs error.
 * Context: any but hard IRQ.
 */
int rst_post_recv(struct rst_conn *c, const struct ib_recv_wr *wr)
{
	unsigned long pflags;
	int err;

	pflags = rst_post_lock(c);
	err = c->c_posts_closed ? -ENOTCONN : ib_post_recv(c->c_qp, wr, NULL);
	rst_post_unlock(c, pflags);
	return err;
}

static void rst_qp_event(struct ib_event *ev, void *ctx)
{
	struct rst_conn *c = ctx;

	trace_rst_conn_qp_event(c, ev);
	switch (ev->event) {
	case IB_EVENT_COMM_EST:
		/* a receive beat ESTABLISHED: rdma_cm handles it */
		rdma_notify(c->c_id, ev->event);
		break;
	case IB_EVENT_QP_LAST_WQE_REACHED:
	case IB_EVENT_SQ_DRAINED:
		break;
	default:
		pr_warn("%s: QP event %s\n", c->c_p.name,
			ib_event_msg(ev->event));
		rst_conn_down(c, -EIO);
	}
}

/**
 * rst_conn_setup - set up the hardware resources of a connection
 * @c: from rst_conn_alloc()
 * @id: its rdma_cm id, address and route resolved (or a connect request)
 *
 * Queue sizes. Send queue, per outstanding I/O: the initiator posts a
 * REG_MR, the send and a LOCAL_INV; the target posts the send and one
 * RDMA READ or WRITE per max_send_sge pages. Plus one for ib_drain_qp.
 * Receive queue: the ring, plus one for the drain. Allocates the PD, CQ,
 * QP, both rings and the MR pool, and posts every receive.
 *
 * Return: 0, or an errno (what was set up stays for rst_conn_free_hw()).
 */
int rst_conn_setup(struct rst_conn *c, struct rdma_cm_id *id)
{
	struct ib_qp_init_attr qa = {};
	struct ib_device *dev = id->device;
	u32 sge = min_t(u32, dev->attrs.max_send_sge, 32);
	u32 send_wr, recv_wr;
	int err;

	c->c_id = id;
	c->c_dev = dev;
	c->c_kick_on = rst_kick_wanted(dev);
	c->c_port = id->port_num;
	if (!c->c_p.max_io_pages && c->c_p.iwarp_io_pages &&
	    rdma_protocol_iwarp(dev, c->c_port))
		c->c_p.max_io_pages = c->c_p.iwarp_io_pages;
	if (c->c_p.max_io_pages &&
	    !(dev->attrs.device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS)) {
		pr_warn("%s: %s has no fast registration\n",
			c->c_p.name, dev_name(&dev->dev));
		return -EOPNOTSUPP;
	}
	c->c_pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(c->c_pd)) {
		err = PTR_ERR(c->c_pd);
		c->c_pd = NULL;
		return err;
	}
	send_wr = c->c_p.send_depth * (3 + DIV_ROUND_UP(c->c_p.rw_pages, sge)) + 1;
	send_wr = min_t(u32, send_wr, dev->attrs.max_qp_wr);
	recv_wr = min_t(u32, c->c_p.recv_depth + 1, dev->attrs.max_qp_wr);
	c->c_cq = ib_alloc_cq(dev, c, send_wr + recv_wr, 0,
			      c->c_p.cq_softirq ? IB_POLL_SOFTIRQ : IB_POLL_WORKQUEUE);
	if (IS_ERR(c->c_cq)) {
		err = PTR_ERR(c->c_cq);
		c->c_cq = NULL;
		return err;
	}
	qa.event_handler = rst_qp_event;
	qa.qp_context = c;
	qa.send_cq = c->c_cq;
	qa.recv_cq = c->c_cq;
	qa.qp_type = IB_QPT_RC;
	qa.sq_sig_type = IB_SIGNAL_REQ_WR;
	qa.cap.max_send_wr = send_wr;
	qa.cap.max_recv_wr = recv_wr;
	qa.cap.max_send_sge = sge;
	qa.cap.max_recv_sge = 1;
	qa.port_num = id->port_num;
	err = rdma_create_qp(id, c->c_pd, &qa);
	if (err)
		return err;
	c->c_qp = id->qp;
	err = rst_rings_create(c);
	if (err)
		return err;
	err = rst_mr_pool_init(c);
	if (err)
		return err;
	return rst_rx_post_all(c);
}

/**
 * rst_conn_free_hw - undo rst_conn_setup()
 * @c: the connection; its QP drained or never used
 */
void rst_conn_free_hw(struct rst_conn *c)
{
	rst_mr_pool_destroy(c);
	rst_kick_stop(c);
	if (c->c_qp) {
		rdma_destroy_qp(c->c_id);
		c->c_qp = NULL;
	}
	rst_rings_destroy(c);
	if (c->c_cq) {
		ib_free_cq(c->c_cq);
		c->c_cq = NULL;
	}
	if (c->c_pd) {
		ib_dealloc_pd(c->c_pd);
		c->c_pd = NULL;
	}
}

/**
 * rst_conn_destroy - free a connection that is down and drained
 * @c: the connection
 *
 * The rdma_cm handler may still run until the id is destroyed, but it
 * finds the state DOWN and touches nothing else.
 */
void rst_conn_destroy(struct rst_conn *c)
{
	rst_conn_free_hw(c);
	if (c->c_id)
		rdma_destroy_id(c->c_id);
	rst_conn_free(c);
}

/**
 * rst_conn_down - take a connection down (idempotent)
 * @c: the connection
 * @reason: 0 for an orderly disconnect, else an errno
 *
 * Context: any; the work happens in rst_wq.
 */
void rst_conn_down(struct rst_conn *c, int reason)
{
	unsigned long flags;
	bool first = false;

	spin_lock_irqsave(&c->c_lock, flags);
	if (c->c_state != RST_DOWN) {
		trace_rst_conn_down(c, reason);
		first = c->c_state == RST_UP || c->c_state == RST_CONNECTING;
		c->c_state = RST_DOWN;
		c->c_reason = reason;
	}
	spin_unlock_irqrestore(&c->c_lock, flags);
	wake_up_all(&c->c_wq);
	if (first)
		queue_work(rst_wq, &c->c_down_work);
}

/**
 * rst_down_work - take a connection down (c_down_work)
 * @work: the connection's c_down_work
 *
 * Disconnects, ends the READs still waiting for an MR, drains the QP
 * (every posted work request completes, flushed), then tells the ULP.
 * A server-side connection then leaves its listener, and the engine
 * drops its reference: it is freed once the ULP has dropped its own.
 */
void rst_down_work(struct work_struct *work)
{
	struct rst_conn *c = container_of(work, struct rst_conn, c_down_work);
	struct rst_listener *l = c->c_listener;
	unsigned long pflags;

	rdma_disconnect(c->c_id);
	/* before the drain: a READ the read work posted completes in it */
	rst_reads_flush(c);
	/*
	 * A WR posted after the drain's marker is accepted by a QP in error
	 * and flushes after the drain returned, after ->disconnected: close
	 * the gate every post passes first (M4).
	 */
	pflags = rst_post_lock(c);
	c->c_posts_closed = true;
	rst_post_unlock(c, pflags);
	rst_kick_stop(c);
	ib_drain_qp(c->c_qp);
	WRITE_ONCE(c->c_drained, true);
	wake_up_all(&c->c_wq);
	c->c_p.ops->disconnected(c, c->c_reason);
	/* the ULP's code has run for the last time on this connection */
	if (c->c_owner_held)
		module_put(c->c_p.owner);
	complete_all(&c->c_down_done);
	if (!l)
		return;
	/*
	 * Server side: leave the listener, waking rst_listener_destroy()
	 * under l_lock (it frees l once it sees the list empty, which it
	 * can only after we unlock), then drop the engine's reference.
	 */
	spin_lock(&l->l_lock);
	list_del_init(&c->c_lnode);
	c->c_listener = NULL;
	wake_up_all(&l->l_wq);
	spin_unlock(&l->l_lock);
	rst_conn_put(c);
}

static void rst_cm_step_done(struct rst_conn *c, int status)
{
	c->c_cm_status = status;
	complete(&c->c_cm_done);
}

static void rst_save_pdata(struct rst_conn *c, const struct rdma_cm_event *ev)
{
	u8 len = min_t(u8, ev->param.conn.private_data_len, sizeof(c->c_peer_pdata));

	if (ev->param.conn.private_data && len)
		memcpy(c->c_peer_pdata, ev->param.conn.private_data, len);
	c->c_peer_plen = ev->param.conn.private_data ? len : 0;
}

static int rst_conn_cm_event(struct rst_conn *c, struct rdma_cm_event *ev)
{
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		rst_cm_step_done(c, 0);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
		rst_cm_step_done(c, -EHOSTUNREACH);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		rst_save_pdata(c, ev);
		spin_lock_irq(&c->c_lock);
		if (c->c_state == RST_CONNECTING) {
			c->c_state = RST_UP;
			trace_rst_conn_up(c);
		}
		spin_unlock_irq(&c->c_lock);
		rst_cm_step_done(c, 0);
		break;
	case RDMA_CM_EVENT_REJECTED:
		rst_conn_down(c, -ECONNREFUSED);
		rst_cm_step_done(c, -ECONNREFUSED);
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		rst_conn_down(c, -ENETUNREACH);
		rst_cm_step_done(c, -ENETUNREACH);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		rst_conn_down(c, 0);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/*
		 * Not yet handled: the ULP is told, but resources are freed
		 * only at rst_close(); device removal waits for that.
		 */
		rst_conn_down(c, -ENODEV);
		break;
	default:
		break;
	}
	return 0;
}

/**
 * rst_cm_handler - the rdma_cm event handler of every id of the engine
 * @id: a listener's or a connection's id (its context says which)
 * @ev: the event
 *
 * Return: 0, or non-zero to make rdma_cm destroy @id (a connect request
 * refused, a listener's device removed).
 */
int rst_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	enum rst_obj *tag = id->context;

	if (*tag == RST_OBJ_LISTENER)
		return rst_listener_cm_event(id->context, id, ev);
	return rst_conn_cm_event(id->context, ev);
}

static int rst_cm_wait(struct rst_conn *c, unsigned int timeout_ms)
{
	if (!wait_for_completion_timeout(&c->c_cm_done, msecs_to_jiffies(timeout_ms)))
		return -ETIMEDOUT;
	reinit_completion(&c->c_cm_done);
	return c->c_cm_status;
}

/* Soft-RoCE's ACK timeout when ack_timeout is -1: 4.096 us << 20 = 4.3 s */
#define RST_RXE_ACK_TIMEOUT	20

/**
 * rst_set_ack_timeout - choose the ACK timeout of a connection's QP
 * @c: the connection, set up (rst_conn_setup)
 * @id: its rdma_cm id, before rdma_connect() or rdma_accept()
 *
 * Soft-RoCE (6.1) re-executes, after a retransmission, every REG_MR
 * posted behind the unacknowledged Send: rxe_requester() runs local
 * operations without looking at their state, so the repeated REG_MR
 * finds its MR valid and fails the QP ("rxe_reg_fast_mr: ... not free").
 * A retransmission is then fatal, and rdma_cm's RoCE timeout (0.5 s) is
 * shorter than the stalls of an emulated host: a connection that lost
 * nothing would fail. A real NIC keeps rdma_cm's value unless the
 * ack_timeout parameter says otherwise.
 *
 * Return: 0 or rdma_set_ack_timeout()'s errno.
 */
int rst_set_ack_timeout(struct rst_conn *c, struct rdma_cm_id *id)
{
	int t = READ_ONCE(rst_ack_timeout);

	if (t < 0 && c->c_dev->ops.driver_id == RDMA_DRIVER_RXE)
		t = RST_RXE_ACK_TIMEOUT;
	if (t < 0)
		return 0;
	trace_rst_ack_timeout(c, t);
	return rdma_set_ack_timeout(id, t);
}

/**
 * rst_connect - connect to a listening peer
 * @net: the caller's network namespace (where @dst is reached)
 * @dst: its address
 * @p: parameters (copied)
 * @timeout_ms: for each of address resolution, route resolution, connect
 *
 * Return: a connection that is up, or ERR_PTR.
 * Context: process, sleeps.
 */
struct rst_conn *rst_connect(struct net *net, struct sockaddr *dst,
			     const struct rst_conn_params *p,
			     unsigned int timeout_ms)
{
	struct rdma_conn_param cp = {};
	struct rdma_cm_id *id;
	struct rst_conn *c;
	int err;

	c = rst_conn_alloc(p, NULL);
	if (IS_ERR(c))
		return c;
	INIT_WORK(&c->c_down_work, rst_down_work);
	id = rdma_create_id(net, rst_cm_handler, c, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id)) {
		rst_conn_free(c);
		return ERR_CAST(id);
	}
	c->c_id = id;
	err = rdma_resolve_addr(id, NULL, dst, timeout_ms);
	if (!err)
		err = rst_cm_wait(c, timeout_ms);
	if (!err)
		err = rdma_resolve_route(id, timeout_ms);
	if (!err)
		err = rst_cm_wait(c, timeout_ms);
	if (!err)
		err = rst_conn_setup(c, id);
	if (err)
		goto fail;

	err = rst_set_ack_timeout(c, id);
	if (err)
		goto fail;
	cp.private_data = p->private_data;
	cp.private_data_len = p->private_len;
	/* the peer may RDMA READ from us; we never read from it */
	cp.responder_resources = c->c_dev->attrs.max_qp_rd_atom;
	cp.initiator_depth = 0;
	cp.retry_count = 7;
	cp.rnr_retry_count = 7;
	spin_lock_irq(&c->c_lock);
	c->c_state = RST_CONNECTING;
	spin_unlock_irq(&c->c_lock);
	err = rdma_connect(id, &cp);
	if (!err)
		err = rst_cm_wait(c, timeout_ms);
	if (!err && !rst_conn_up(c))
		err = -ECONNRESET;
	if (err)
		goto fail;
	return c;

fail:
	rst_close(c);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(rst_connect);

/**
 * rst_disconnect - start taking a connection down
 * @c: the connection
 * @reason: errno recorded as the reason (-EPROTO for a protocol error)
 *
 * ->disconnected follows once everything is flushed.
 */
void rst_disconnect(struct rst_conn *c, int reason)
{
	rst_conn_down(c, reason);
}
EXPORT_SYMBOL_GPL(rst_disconnect);

/**
 * rst_shutdown - disconnect a client connection and wait for the drain
 * @c: from rst_connect()
 *
 * When this returns every work request is flushed, ->recv runs no more
 * and ->disconnected has returned, but the connection's MRs are still
 * there to be put back before rst_close(). Idempotent.
 * Context: process; not from the connection's own callbacks.
 */
void rst_shutdown(struct rst_conn *c)
{
	if (WARN_ON_ONCE(c->c_server))
		return;
	rst_conn_down(c, 0);
	flush_work(&c->c_down_work);
	/*
	 * If the connection never came up, down_work never ran: drain
	 * anyway, every WR must be flushed before MRs and rings go.
	 */
	if (!completion_done(&c->c_down_done) && c->c_qp) {
		ib_drain_qp(c->c_qp);
		complete_all(&c->c_down_done);
	}
}
EXPORT_SYMBOL_GPL(rst_shutdown);

/**
 * rst_close - disconnect and free a client connection
 * @c: from rst_connect()
 *
 * Context: process; not from the connection's own callbacks.
 */
void rst_close(struct rst_conn *c)
{
	if (WARN_ON_ONCE(c->c_server))
		return;
	rst_shutdown(c);
	/* The handler may run until the id is destroyed; it finds DOWN. */
	rst_conn_destroy(c);
}
EXPORT_SYMBOL_GPL(rst_close);

/**
 * rst_conn_set_accept_pdata - private data for this connection's accept
 * @c: a server connection, from the listener's accept callback only
 * @pdata: kept by reference until the accept is sent (static data)
 * @len: its length
 */
void rst_conn_set_accept_pdata(struct rst_conn *c, const void *pdata, u8 len)
{
	c->c_p.private_data = pdata;
	c->c_p.private_len = len;
}
EXPORT_SYMBOL_GPL(rst_conn_set_accept_pdata);

/**
 * rst_conn_iwarp - is the connection on an iWARP device?
 * @c: the connection, set up (from the accept callback on)
 *
 * There every RDMA READ sink needs an MR: a target side that set
 * rst_conn_params.iwarp_io_pages then has an MR pool and passes
 * @use_mr to rst_rw_read_async().
 *
 * Return: true on iWARP.
 */
bool rst_conn_iwarp(struct rst_conn *c)
{
	return rdma_protocol_iwarp(c->c_dev, c->c_port);
}
EXPORT_SYMBOL_GPL(rst_conn_iwarp);

/**
 * rst_conn_addrs - the connection's local and peer addresses
 * @c: the connection
 * @local: out
 * @peer: out
 */
void rst_conn_addrs(struct rst_conn *c, struct sockaddr_storage *local,
		    struct sockaddr_storage *peer)
{
	*local = c->c_id->route.addr.src_addr;
	*peer = c->c_id->route.addr.dst_addr;
}
EXPORT_SYMBOL_GPL(rst_conn_addrs);

/**
 * rst_conn_peer_show - the peer's address and port, as a sysfs value
 * @c: the connection
 * @buf: sysfs's page
 *
 * The ULPs' connections/ID/peer (or target) files: "ADDR:PORT\n",
 * IPv6 compressed and in brackets.
 *
 * Return: the bytes written.
 */
ssize_t rst_conn_peer_show(struct rst_conn *c, char *buf)
{
	struct sockaddr_storage local, peer;

	rst_conn_addrs(c, &local, &peer);
	return sysfs_emit(buf, "%pISpc\n", (struct sockaddr *)&peer);
}
EXPORT_SYMBOL_GPL(rst_conn_peer_show);

/**
 * rst_conn_priv - the ULP's pointer of a connection
 * @c: the connection
 *
 * Return: what rst_conn_params.priv or rst_conn_set_priv() set.
 */
void *rst_conn_priv(struct rst_conn *c)
{
	return c->c_priv;
}
EXPORT_SYMBOL_GPL(rst_conn_priv);

/**
 * rst_conn_set_priv - set the ULP's pointer of a connection
 * @c: the connection
 * @priv: passed back by rst_conn_priv()
 */
void rst_conn_set_priv(struct rst_conn *c, void *priv)
{
	c->c_priv = priv;
}
EXPORT_SYMBOL_GPL(rst_conn_set_priv);

/**
 * rst_conn_peer_pdata - what the peer sent with its connect or accept
 * @c: the connection, up
 * @len: out: its length (0 if none)
 *
 * Return: the private data, at most 64 bytes of it.
 */
const void *rst_conn_peer_pdata(struct rst_conn *c, u8 *len)
{
	*len = c->c_peer_plen;
	return c->c_peer_pdata;
}
EXPORT_SYMBOL_GPL(rst_conn_peer_pdata);

/**
 * rst_conn_id - the number that names a connection in traces
 * @c: the connection
 *
 * Return: its conn=N of the "rst" trace events (never reused while the
 * engine is loaded), for a ULP's own events to refer to.
 */
u32 rst_conn_id(const struct rst_conn *c)
{
	return c->c_nr;
}
EXPORT_SYMBOL_GPL(rst_conn_id);

/**
 * rst_conn_device - the RDMA device of a connection
 * @c: the connection
 *
 * Return: its ib_device (valid while the connection exists).
 */
struct ib_device *rst_conn_device(struct rst_conn *c)
{
	return c->c_dev;
}
EXPORT_SYMBOL_GPL(rst_conn_device);

/**
 * rst_conn_up - is the connection up?
 * @c: the connection
 *
 * Return: true while established and not yet going down.
 */
bool rst_conn_up(struct rst_conn *c)
{
	return READ_ONCE(c->c_state) == RST_UP;
}
EXPORT_SYMBOL_GPL(rst_conn_up);

/**
 * rst_conn_closed - did the connection go down by an orderly disconnect?
 * @c: the connection
 *
 * The peer's disconnect, or (client side) rst_shutdown(); not an error.
 * Known before the drain (rst_conn_down() keeps the first reason), so a
 * send that drain flushes already sees it: a server can tell a reply
 * the peer may well have had (its ACK not yet processed when the peer
 * left) from a failure of its own.
 *
 * Return: true once down by an orderly disconnect.
 */
bool rst_conn_closed(struct rst_conn *c)
{
	unsigned long flags;
	bool closed;

	spin_lock_irqsave(&c->c_lock, flags);
	closed = c->c_state == RST_DOWN && !c->c_reason;
	spin_unlock_irqrestore(&c->c_lock, flags);
	return closed;
}
EXPORT_SYMBOL_GPL(rst_conn_closed);

/**
 * rst_conn_stats - a snapshot of a connection's counters
 * @c: the connection
 * @s: out: the counters, MR pool and window state
 */
void rst_conn_stats(struct rst_conn *c, struct rst_stats *s)
{
	unsigned long pflags;

	spin_lock_irq(&c->c_lock);
	*s = c->c_stats;
	s->mrs = c->c_mr_total;
	s->mr_entries = c->c_mr_entries;
	s->mr_limit = c->c_mr_limit;
	s->outstanding = c->c_outstanding;
	spin_unlock_irq(&c->c_lock);
	pflags = rst_post_lock(c);
	s->sends = c->c_sends;
	s->sends_signaled = c->c_sends_signaled;
	s->kicks = c->c_kicks;
	rst_post_unlock(c, pflags);
	s->window = rst_window(c);
	s->rx_held = atomic_read(&c->c_rx_held_nr);
	s->reads_waiting = READ_ONCE(c->c_reads_waiting);
}
EXPORT_SYMBOL_GPL(rst_conn_stats);
