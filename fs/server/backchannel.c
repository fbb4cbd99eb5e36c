// SPDX-License-Identifier: GPL-2.0
/*
 * The NFSv4.1+ backchannel, server side (RFC 8167): nfsd's callback
 * client sends its calls (CB_RECALL, CB_SEQUENCE, ...) as RDMA_MSG on
 * the client's own connection, and the client's replies come back among
 * its calls (rpcrdma_is_bc_reply()).
 *
 * nfsd builds that client with rpc_create() for the ident
 * RSV_XPRT_IDENT | XPRT_TRANSPORT_BC, which finds the class below: an
 * rpc_xprt that sends on an rsv_xprt's engine connection. References:
 *   - svc's xpt_bc_xprt (put in svc_xprt_free()),
 *   - ours, x_bc, so that ->recv can complete replies; dropped by
 *     ->disconnected, after which no reply can come,
 *   - the rpc_xprt holds the rsv_xprt (x_ref) until it is destroyed.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/addr.h>

#include "rsv.h"
#include "trace.h"

/* Transport header of a backchannel call: no chunks, 7 words. */
#define RSV_BC_HDR_LEN		28

struct rsv_bc {
	struct rpc_xprt xprt;		/* first: xprt_alloc() */
	struct rsv_xprt *b_x;
};

static struct rsv_xprt *rsv_bc_x(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct rsv_bc, xprt)->b_x;
}

/* Callbacks wait at most 60 s for an answer; the client cannot retransmit. */
static const struct rpc_timeout rsv_bc_timeout = {
	.to_initval = 60 * HZ,
	.to_maxval = 60 * HZ,
};

/**
 * rsv_bc_send_request - the bc rpc_xprt's ->send_request: send a callback
 * @rqst: the call, marshalled in rq_snd_buf
 *
 * Return: 0 if posted; -ENOTCONN if the connection is gone; -EMSGSIZE if
 * the call does not fit what the client receives inline.
 */
static int rsv_bc_send_request(struct rpc_rqst *rqst)
{
	struct rsv_xprt *x = rsv_bc_x(rqst->rq_xprt);
	struct rpcrdma_hdr *h;
	struct rst_tx *tx;
	int hlen, err;
	u32 len = rqst->rq_snd_buf.len;
	u8 *buf;

	if (READ_ONCE(x->x_down))
		return -ENOTCONN;
	h = kzalloc(sizeof(*h), GFP_NOFS);
	if (!h)
		return -ENOMEM;
	h->xid = be32_to_cpu(rqst->rq_xid);
	h->vers = RPCRDMA_WIRE_VERSION;
	h->credits = RSV_BC_SLOTS;
	h->proc = RPCRDMA_MSG;
	tx = rst_tx_get(x->x_conn, 0);
	if (IS_ERR(tx)) {
		kfree(h);
		return -ENOTCONN;
	}
	buf = rst_tx_buf(tx);
	hlen = rpcrdma_encode_hdr(buf, x->x_inline_send, h);
	kfree(h);
	if (hlen < 0 || hlen + len > x->x_inline_send) {
		rst_tx_put(x->x_conn, tx);
		return -EMSGSIZE;
	}
	read_bytes_from_xdr_buf(&rqst->rq_snd_buf, 0, buf + hlen, len);
	rqst->rq_xtime = ktime_get();
	trace_rsv_bc_call(x, be32_to_cpu(rqst->rq_xid), len);
	err = rst_tx_post(x->x_conn, tx, hlen + len, NULL, false, 0);
	if (err)
		return -ENOTCONN;
	spin_lock_bh(&x->x_lock);
	x->x_stats.bc_calls++;
	spin_unlock_bh(&x->x_lock);
	return 0;
}

/*
 * Complete the callback a reply answers: @r's copy, its message still in
 * the held receive buffer. A reply to no callback of ours (or with no
 * backchannel) is a protocol error. Context: x_bc_work (process).
 */
static void rsv_bc_reply(struct rsv_xprt *x, const struct rsv_bc_reply *r)
{
	struct rpc_xprt *xprt = READ_ONCE(x->x_bc);
	const u8 *msg = r->b_msg;
	u32 len = r->b_len;
	struct xdr_buf *dst;
	struct rpc_rqst *req;
	u32 credits;

	WARN_ON_ONCE(in_interrupt());	/* S7: SUNRPC's locks, not from a CQ */
	trace_rsv_bc_reply(x, r->b_xid, len);
	if (!xprt)
		goto bad;
	spin_lock(&xprt->queue_lock);
	req = xprt_lookup_rqst(xprt, cpu_to_be32(r->b_xid));
	if (!req || len > req->rq_rcv_buf.head[0].iov_len) {
		spin_unlock(&xprt->queue_lock);
		goto bad;
	}
	dst = &req->rq_private_buf;
	memcpy(dst, &req->rq_rcv_buf, sizeof(*dst));
	memcpy(dst->head[0].iov_base, msg, len);
	xprt_pin_rqst(req);
	spin_unlock(&xprt->queue_lock);

	credits = clamp_t(u32, r->b_credits, 1, RSV_BC_SLOTS);
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = credits << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);

	spin_lock(&xprt->queue_lock);
	xprt_complete_rqst(req->rq_task, len);
	xprt_unpin_rqst(req);
	spin_unlock(&xprt->queue_lock);
	spin_lock_bh(&x->x_lock);
	x->x_stats.bc_replies++;
	spin_unlock_bh(&x->x_lock);
	return;
bad:
	rsv_protocol_error(x, "a reply to no callback of ours");
}

static void rsv_bc_work(struct work_struct *work)
{
	struct rsv_xprt *x = container_of(work, struct rsv_xprt, x_bc_work);
	struct rsv_bc_reply *r, copy;

	rsv_fault_bc_work_delay();
	for (;;) {
		spin_lock_bh(&x->x_lock);
		r = list_first_entry_or_null(&x->x_bc_wait, struct rsv_bc_reply,
					     b_node);
		/*
		 * Free again before the callback completes: a new callback
		 * cannot go out, and be answered, before its slot is back.
		 */
		if (r) {
			copy = *r;
			list_move(&r->b_node, &x->x_bc_free);
		}
		spin_unlock_bh(&x->x_lock);
		if (!r)
			return;
		rsv_bc_reply(x, &copy);
		rst_rx_release(x->x_conn, copy.b_rx);
	}
}

/**
 * rsv_bc_init_conn - set up a connection's backchannel reply queue
 * @x: the connection, new
 */
void rsv_bc_init_conn(struct rsv_xprt *x)
{
	unsigned int i;

	INIT_WORK(&x->x_bc_work, rsv_bc_work);
	INIT_LIST_HEAD(&x->x_bc_wait);
	INIT_LIST_HEAD(&x->x_bc_free);
	for (i = 0; i < RSV_BC_SLOTS; i++)
		list_add_tail(&x->x_bc_replies[i].b_node, &x->x_bc_free);
}

/**
 * rsv_bc_queue - a reply to one of our callbacks arrived
 * @x: the connection
 * @h: its transport header
 * @msg: its RPC message, in the receive buffer
 * @len: bytes of @msg
 *
 * SUNRPC takes the backchannel's queue_lock and transport_lock with
 * bottom halves on, so ->recv, which may run in softirq, must not (S7):
 * the reply keeps its receive buffer and x_bc_work completes its
 * callback. At most RSV_BC_SLOTS callbacks are out, so a reply beyond
 * that many waiting answers nothing: a protocol error. The receive ring
 * has room to hold that many besides a full window of calls, so a reply
 * that finds it held to its limit is one too (the client sent more than
 * its credits).
 * Context: ->recv; never sleeps.
 */
void rsv_bc_queue(struct rsv_xprt *x, const struct rpcrdma_hdr *h,
		  const u8 *msg, u32 len)
{
	struct rsv_bc_reply *r;
	struct rst_rx *rx = NULL;

	/* rst_rx_hold() takes no lock: one x_lock section does it all */
	spin_lock_bh(&x->x_lock);
	r = list_first_entry_or_null(&x->x_bc_free, struct rsv_bc_reply, b_node);
	if (r && !rsv_fault_rx_hold())
		rx = rst_rx_hold(x->x_conn);
	if (rx) {
		list_del(&r->b_node);	/* before the fill overwrites the links */
		*r = (struct rsv_bc_reply) {
			.b_rx = rx, .b_msg = msg, .b_len = len,
			.b_xid = h->xid, .b_credits = h->credits,
		};
		list_add_tail(&r->b_node, &x->x_bc_wait);
	}
	spin_unlock_bh(&x->x_lock);
	if (!rx) {
		rsv_protocol_error(x, r ? "more replies than the receive ring holds" :
				   "more replies than callbacks");
		return;
	}
	queue_work(rsv_wq, &x->x_bc_work);
}

/**
 * rsv_bc_flush - finish the replies ->recv queued
 * @x: the connection, down: ->recv runs no more
 *
 * Context: process, before rsv_bc_drop().
 */
void rsv_bc_flush(struct rsv_xprt *x)
{
	flush_work(&x->x_bc_work);
}

/**
 * rsv_bc_drop - the connection is down: no reply can come any more
 * @x: the connection
 */
void rsv_bc_drop(struct rsv_xprt *x)
{
	struct rpc_xprt *xprt;

	spin_lock_bh(&x->x_lock);
	xprt = x->x_bc;
	x->x_bc = NULL;
	spin_unlock_bh(&x->x_lock);
	if (xprt)
		xprt_put(xprt);
}

/**
 * rsv_bc_buf_alloc - ->buf_alloc: a callback's send and receive buffers
 * @task: the RPC
 *
 * Return: 0 or -ENOMEM.
 */
static int rsv_bc_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	size_t size = rqst->rq_callsize + rqst->rq_rcvsize;
	void *buf;

	buf = kmalloc(size, rpc_task_gfp_mask());
	if (!buf)
		return -ENOMEM;
	rqst->rq_buffer = buf;
	rqst->rq_rbuffer = (u8 *)buf + rqst->rq_callsize;
	return 0;
}

/**
 * rsv_bc_buf_free - ->buf_free
 * @task: the RPC
 */
static void rsv_bc_buf_free(struct rpc_task *task)
{
	kfree(task->tk_rqstp->rq_buffer);
	task->tk_rqstp->rq_buffer = NULL;
}

/**
 * rsv_bc_close - ->close: nothing to tear down, the connection is nfsd's
 * @xprt: the backchannel transport
 */
static void rsv_bc_close(struct rpc_xprt *xprt)
{
	xprt_disconnect_done(xprt);
	xprt->cwnd = RPC_CWNDSHIFT;
}

/**
 * rsv_bc_destroy - ->destroy: the last reference is gone
 * @xprt: the backchannel transport
 */
static void rsv_bc_destroy(struct rpc_xprt *xprt)
{
	struct rsv_xprt *x = rsv_bc_x(xprt);

	kfree(xprt->address_strings[RPC_DISPLAY_ADDR]);
	xprt_free(xprt);
	rsv_xprt_put(x);
}

/**
 * rsv_bc_print_stats - ->print_stats
 * @xprt: the backchannel transport
 * @seq: where
 */
static void rsv_bc_print_stats(struct rpc_xprt *xprt, struct seq_file *seq)
{
	struct rsv_xprt *x = rsv_bc_x(xprt);

	seq_printf(seq, "\txprt:\trdmastor-bc %llu %llu\n",
		   x->x_stats.bc_calls, x->x_stats.bc_replies);
}

static const struct rpc_xprt_ops rsv_bc_ops = {
	.reserve_xprt = xprt_reserve_xprt_cong,
	.release_xprt = xprt_release_xprt_cong,
	.alloc_slot = xprt_alloc_slot,
	.free_slot = xprt_free_slot,
	.release_request = xprt_release_rqst_cong,
	.buf_alloc = rsv_bc_buf_alloc,
	.buf_free = rsv_bc_buf_free,
	.send_request = rsv_bc_send_request,
	.wait_for_reply_request = xprt_wait_for_reply_request_def,
	.close = rsv_bc_close,
	.destroy = rsv_bc_destroy,
	.print_stats = rsv_bc_print_stats,
};

/**
 * rsv_bc_setup - the class's ->setup: nfsd's backchannel on a connection
 * @args: args->bc_xprt is the connection's svc_xprt
 *
 * Return: the rpc_xprt, or ERR_PTR.
 */
static struct rpc_xprt *rsv_bc_setup(struct xprt_create *args)
{
	struct svc_xprt *sx = args->bc_xprt;
	struct rpc_xprt *xprt;
	struct rsv_xprt *x;
	char buf[INET6_ADDRSTRLEN + 8];
	bool keep;

	if (!sx || sx->xpt_class != &rsv_class || args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EINVAL);
	x = rsv_of(sx);
	xprt = xprt_alloc(args->net, sizeof(struct rsv_bc), RSV_BC_SLOTS,
			  RSV_BC_SLOTS);
	if (!xprt)
		return ERR_PTR(-ENOMEM);
	container_of(xprt, struct rsv_bc, xprt)->b_x = x;
	kref_get(&x->x_ref);
	xprt->timeout = &rsv_bc_timeout;
	xprt_set_bound(xprt);
	xprt_set_connected(xprt);
	xprt->bind_timeout = 0;
	xprt->reestablish_timeout = 0;
	xprt->idle_timeout = 0;
	xprt->prot = RSV_XPRT_IDENT | XPRT_TRANSPORT_BC;
	xprt->ops = &rsv_bc_ops;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	xprt->addrlen = args->addrlen;
	rpc_ntop((struct sockaddr *)&xprt->addr, buf, sizeof(buf));
	xprt->address_strings[RPC_DISPLAY_ADDR] = kstrdup(buf, GFP_KERNEL);
	xprt->address_strings[RPC_DISPLAY_PROTO] = "rdma";
	xprt->address_strings[RPC_DISPLAY_NETID] =
		xprt->addr.ss_family == AF_INET6 ? RPCBIND_NETID_RDMA6 : RPCBIND_NETID_RDMA;
	xprt->resvport = 0;
	xprt->max_payload = x->x_inline_send - RSV_BC_HDR_LEN;

	/* ours, for replies, unless the connection is down already */
	spin_lock_bh(&x->x_lock);
	keep = !x->x_down && !x->x_bc;
	if (keep)
		x->x_bc = xprt_get(xprt);
	spin_unlock_bh(&x->x_lock);
	/* svc's, put by svc_xprt_free() */
	sx->xpt_bc_xprt = xprt_get(xprt);
	xprt->bc_xprt = sx;
	trace_rsv_bc_setup(x, keep);
	return xprt;
}

static struct xprt_class rsv_bc_class = {
	.list = LIST_HEAD_INIT(rsv_bc_class.list),
	.name = "rdmastor backchannel",
	.owner = THIS_MODULE,
	.ident = RSV_XPRT_IDENT | XPRT_TRANSPORT_BC,
	.setup = rsv_bc_setup,
	.netid = { "" },
};

/**
 * rsv_bc_init - register the backchannel transport class
 *
 * Return: 0 or an errno.
 */
int rsv_bc_init(void)
{
	return xprt_register_transport(&rsv_bc_class);
}

/**
 * rsv_bc_exit - unregister it
 */
void rsv_bc_exit(void)
{
	xprt_unregister_transport(&rsv_bc_class);
}
