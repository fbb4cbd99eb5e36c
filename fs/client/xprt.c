// SPDX-License-Identifier: GPL-2.0
/*
 * The SUNRPC transport class "rdma" (ident XPRT_TRANSPORT_RDMA, netids
 * rdma and rdma6): what `mount -t nfs -o proto=rdma` reaches. The stock
 * rpcrdma module registers the same ident, so exactly one of the two can
 * be loaded; Documentation/nfs.rst shows the modprobe configuration that
 * makes the normal load paths pick this one.
 *
 * Connection management follows the RPC layer's rules: connect runs in
 * a worker while the requesting task holds the transport lock; a lost
 * connection (the engine's ->disconnected) is handed to the RPC layer's
 * autoclose, whose ->close drains it, releases what in-flight RPCs hold
 * and frees it; RPCs still waiting are retransmitted on the next one. A
 * retransmission on the same connection is never sent: it could overrun
 * the server's credits, so it forces a reconnect instead.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/seq_file.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/addr.h>
#include <linux/wait_bit.h>

#include "rsx.h"
#include "trace.h"

unsigned int rsx_credits = 64;
module_param_named(credits, rsx_credits, uint, 0444);
MODULE_PARM_DESC(credits, "credits (outstanding RPCs) to ask each server for (2..256)");

unsigned int rsx_inline = 16384;
module_param_named(inline_size, rsx_inline, uint, 0444);
MODULE_PARM_DESC(inline_size, "inline send and receive size in bytes (1024..65536)");

/*
 * 1 MiB of payload, one more page for an unaligned start, and the RPC
 * header around a Reply chunk's worth of pages.
 */
unsigned int rsx_max_pages = 260;

/*
 * Chunks of at most this many pages (64 KiB) take a small MR and are
 * charged only that by rnic_mgr: random 4 KiB I/O then holds 16 entries
 * per RPC, not 260, and a share runs 16 times as many of them at once.
 */
static unsigned int rsx_small_pages = 16;
module_param_named(small_mr_pages, rsx_small_pages, uint, 0444);
MODULE_PARM_DESC(small_mr_pages, "pages of the small MR size class (0: one size, 260 pages)");
struct workqueue_struct *rsx_wq;

#define RSX_MAX_PAYLOAD		(1024 * 1024)
#define RSX_CONNECT_MS		10000
#define RSX_INIT_REEST_TO	(5U * HZ)
#define RSX_MAX_REEST_TO	(30U * HZ)
#define RSX_IDLE_DISC_TO	(5U * 60 * HZ)

/* 60 seconds, no retries: a lost reply means a lost connection. */
static const struct rpc_timeout rsx_timeout = {
	.to_initval = 60 * HZ,
	.to_maxval = 60 * HZ,
};

static const struct rpc_xprt_ops rsx_ops;
static struct xprt_class rsx_class;

/**
 * rsx_disconnected - the engine's ->disconnected: the connection is down
 * @c: the connection, drained
 * @reason: why (0 orderly, else an errno; -EPROTO for a protocol error)
 *
 * A loss we did not cause is handed to SUNRPC, which closes the
 * transport and reconnects when an RPC needs it.
 * Context: process (the engine's workqueue).
 */
static void rsx_disconnected(struct rst_conn *c, int reason)
{
	struct rsx_xprt *x = rst_conn_priv(c);

	trace_rsx_disconnected(x, reason);
	/* our own close, or a connect that failed: nothing to tell */
	if (READ_ONCE(x->x_closing) || READ_ONCE(x->x_conn) != c)
		return;
	pr_debug("%s: connection lost (%d)\n", x->x_name, reason);
	xprt_force_disconnect(&x->xprt);
}

static const struct rst_conn_ops rsx_conn_ops = {
	.recv = rsx_recv,
	.disconnected = rsx_disconnected,
};

/* Drain, release what in-flight RPCs hold, free. Transport lock held. */
static void rsx_conn_close(struct rsx_xprt *x)
{
	struct rst_conn *c = x->x_conn;

	if (!c)
		return;
	trace_rsx_close(x, 0);
	WRITE_ONCE(x->x_closing, true);
	rst_shutdown(c);
	/* this xprt's reply work that local-invalidates, not every xprt's */
	wait_var_event(&x->x_done_works, !atomic_read(&x->x_done_works));
	mutex_lock(&x->x_conn_mutex);
	rsx_release_armed(x);
	x->x_conn = NULL;
	rst_close(c);
	mutex_unlock(&x->x_conn_mutex);
	WRITE_ONCE(x->x_closing, false);
}

static int rsx_conn_open(struct rsx_xprt *x)
{
	struct rpcrdma_cm_pdata mine = {
		.remote_inv = true,
		.send_size = rsx_inline,
		.recv_size = rsx_inline,
	}, peer;
	struct rst_conn_params p = {
		.name = x->x_name,
		.weight = 1,
		/* room for the backchannel's calls on top of our credits */
		.recv_depth = rsx_credits + RSX_BC_SLOTS,
		.send_depth = rsx_credits + RSX_BC_SLOTS,
		.msg_size = rsx_inline,
		.max_io_pages = rsx_max_pages,
		.small_io_pages = rsx_small_pages,
		/* calls are posted under the transport's send lock */
		.post_irqoff = true,
		.ops = &rsx_conn_ops,
		.priv = x,
	};
	u8 pdata[RPCRDMA_CM_PDATA_LEN];
	const void *pd;
	struct rst_conn *c;
	u8 plen;

	if (rpcrdma_encode_cm_pdata(pdata, sizeof(pdata), &mine) < 0)
		return -EINVAL;
	p.private_data = pdata;
	p.private_len = sizeof(pdata);
	c = rst_connect(x->xprt.xprt_net, (struct sockaddr *)&x->xprt.addr, &p,
			RSX_CONNECT_MS);
	if (IS_ERR(c))
		return PTR_ERR(c);
	pd = rst_conn_peer_pdata(c, &plen);
	if (rpcrdma_decode_cm_pdata(pd, plen, &peer)) {
		/* RFC 8166 defaults */
		peer.send_size = RPCRDMA_CM_MIN_INLINE;
		peer.recv_size = RPCRDMA_CM_MIN_INLINE;
	}
	/*
	 * RFC 8166 3.3.3: a reply comes inline only if it fits both what we
	 * receive and what the server may send; beyond that, a Reply chunk.
	 */
	x->x_inline_send = min(rsx_inline, peer.recv_size);
	x->x_inline_recv = min(rsx_inline, peer.send_size);
	mutex_lock(&x->x_conn_mutex);
	x->x_conn = c;
	mutex_unlock(&x->x_conn_mutex);
	/*
	 * One credit until the server's first reply says more. xprt->cong
	 * is left alone: RPCs waiting to be retransmitted still hold their
	 * congestion slots and give them back when they complete.
	 */
	spin_lock(&x->xprt.transport_lock);
	x->xprt.cwnd = RPC_CWNDSCALE;
	spin_unlock(&x->xprt.transport_lock);
	return 0;
}

static void rsx_connect_worker(struct work_struct *work)
{
	struct rsx_xprt *x = container_of(to_delayed_work(work), struct rsx_xprt,
					  x_connect_work);
	struct rpc_xprt *xprt = &x->xprt;
	int rc;

	rsx_conn_close(x);	/* a stale one, if autoclose did not run */
	rc = rsx_conn_open(x);
	trace_rsx_connect_done(x, rc);
	xprt_clear_connecting(xprt);
	if (!rc) {
		x->x_connect_failed = false;
		xprt->connect_cookie++;
		xprt->stat.connect_count++;
		xprt->stat.connect_time += (long)jiffies - xprt->stat.connect_start;
		xprt_set_connected(xprt);
		rc = -EAGAIN;
	} else {
		x->x_connect_failed = true;
		pr_info_ratelimited("%s: connect failed (%d)\n",
				    x->x_name, rc);
		/* what call_connect_status() retries on */
		if (rc != -ECONNREFUSED && rc != -ETIMEDOUT)
			rc = -ENOTCONN;
	}
	xprt_unlock_connect(xprt, x);
	xprt_wake_pending_tasks(xprt, rc);
}

/**
 * rsx_connect - SUNRPC's ->connect: (re)connect in the background
 * @xprt: the transport, XPRT_LOCKED by @task
 * @task: the RPC that wants the connection
 *
 * The connect worker closes a stale connection, opens a new one and
 * wakes the waiting RPCs. After a failed connect or a protocol error
 * the attempt is delayed, with SUNRPC's exponential backoff.
 */
static void rsx_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct rsx_xprt *x = rsx_of(xprt);
	unsigned long delay = 0;

	WARN_ON_ONCE(!xprt_lock_connect(xprt, task, x));
	/* back off from a server that fails us, by refusing or by garbage */
	if (x->x_connect_failed || READ_ONCE(x->x_proto_error)) {
		delay = xprt_reconnect_delay(xprt);
		xprt_reconnect_backoff(xprt, RSX_INIT_REEST_TO);
	}
	queue_delayed_work(system_long_wq, &x->x_connect_work, delay);
}

/**
 * rsx_close - SUNRPC's ->close: drop the connection, armed reqs released
 * @xprt: the transport
 *
 * Context: process (xprt autoclose or destroy).
 */
void rsx_close(struct rpc_xprt *xprt)
{
	struct rsx_xprt *x = rsx_of(xprt);

	if (x->x_conn) {
		spin_lock(&x->x_lock);
		x->x_stats.reconnects++;
		spin_unlock(&x->x_lock);
	}
	rsx_conn_close(x);
	if (!READ_ONCE(x->x_proto_error))
		xprt->reestablish_timeout = 0;
	++xprt->connect_cookie;
	xprt_disconnect_done(xprt);
}

static void rsx_free_addresses(struct rpc_xprt *xprt)
{
	unsigned int i;

	for (i = 0; i < RPC_DISPLAY_MAX; i++)
		if (i != RPC_DISPLAY_PROTO && i != RPC_DISPLAY_NETID)
			kfree(xprt->address_strings[i]);
}

static void rsx_format_port(struct rpc_xprt *xprt)
{
	u16 port = rpc_get_port((struct sockaddr *)&xprt->addr);
	char buf[8];

	kfree(xprt->address_strings[RPC_DISPLAY_PORT]);
	snprintf(buf, sizeof(buf), "%u", port);
	xprt->address_strings[RPC_DISPLAY_PORT] = kstrdup(buf, GFP_KERNEL);
	kfree(xprt->address_strings[RPC_DISPLAY_HEX_PORT]);
	snprintf(buf, sizeof(buf), "%4hx", port);
	xprt->address_strings[RPC_DISPLAY_HEX_PORT] = kstrdup(buf, GFP_KERNEL);
}

static void rsx_format_addresses(struct rpc_xprt *xprt)
{
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;
	char buf[128];

	if (sap->sa_family == AF_INET6) {
		snprintf(buf, sizeof(buf), "%pi6",
			 &((struct sockaddr_in6 *)sap)->sin6_addr);
		xprt->address_strings[RPC_DISPLAY_NETID] = RPCBIND_NETID_RDMA6;
	} else {
		snprintf(buf, sizeof(buf), "%08x",
			 ntohl(((struct sockaddr_in *)sap)->sin_addr.s_addr));
		xprt->address_strings[RPC_DISPLAY_NETID] = RPCBIND_NETID_RDMA;
	}
	xprt->address_strings[RPC_DISPLAY_HEX_ADDR] = kstrdup(buf, GFP_KERNEL);
	rpc_ntop(sap, buf, sizeof(buf));
	xprt->address_strings[RPC_DISPLAY_ADDR] = kstrdup(buf, GFP_KERNEL);
	xprt->address_strings[RPC_DISPLAY_PROTO] = "rdma";
	rsx_format_port(xprt);
}

/**
 * rsx_set_port - SUNRPC's ->set_port: rpcbind found the server's port
 * @xprt: the transport
 * @port: in host order
 */
static void rsx_set_port(struct rpc_xprt *xprt, u16 port)
{
	rpc_set_port((struct sockaddr *)&xprt->addr, port);
	rsx_format_port(xprt);
}

/**
 * rsx_setup - the transport class's ->setup: a new transport, unconnected
 * @args: the mount's (or a client's) address, network namespace and flags
 *
 * Holds a reference on this module until rsx_destroy().
 *
 * Return: the rpc_xprt, or ERR_PTR (-EBADF, -EAFNOSUPPORT, -ENOMEM, -EIO).
 */
static struct rpc_xprt *rsx_setup(struct xprt_create *args)
{
	struct rpc_xprt *xprt;
	struct rsx_xprt *x;

	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	if (args->dstaddr->sa_family != AF_INET &&
	    args->dstaddr->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);
	xprt = xprt_alloc(args->net, sizeof(*x), RPC_MIN_SLOT_TABLE,
			  RPC_MAX_SLOT_TABLE);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	x = rsx_of(xprt);
	INIT_DELAYED_WORK(&x->x_connect_work, rsx_connect_worker);
	mutex_init(&x->x_conn_mutex);
	spin_lock_init(&x->x_lock);
	INIT_LIST_HEAD(&x->x_armed);
	x->x_inline_send = RPCRDMA_CM_MIN_INLINE;
	x->x_inline_recv = RPCRDMA_CM_MIN_INLINE;

	xprt->timeout = &rsx_timeout;
	xprt->connect_timeout = xprt->timeout->to_initval;
	xprt->max_reconnect_timeout = RSX_MAX_REEST_TO;
	xprt->bind_timeout = 10 * HZ;
	xprt->reestablish_timeout = RSX_INIT_REEST_TO;
	xprt->idle_timeout = RSX_IDLE_DISC_TO;
	xprt->resvport = 0;
	xprt->ops = &rsx_ops;
	/* side protocols that peek at it want a TCP address */
	xprt->prot = IPPROTO_TCP;
	xprt->xprt_class = &rsx_class;
	xprt->addrlen = args->addrlen;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	if (rpc_get_port(args->dstaddr))
		xprt_set_bound(xprt);
	rsx_format_addresses(xprt);
	snprintf(x->x_name, sizeof(x->x_name), "nfs-%s",
		 xprt->address_strings[RPC_DISPLAY_ADDR] ?: "?");
	xprt->max_payload = RSX_MAX_PAYLOAD;
	rsx_stats_add(x);
	return xprt;
}

/**
 * rsx_destroy - SUNRPC's ->destroy: the last user is gone
 * @xprt: the transport
 *
 * Stops connecting, closes the connection (armed RPCs released) and
 * frees the transport.
 */
static void rsx_destroy(struct rpc_xprt *xprt)
{
	struct rsx_xprt *x = rsx_of(xprt);

	rsx_stats_del(x);
	cancel_delayed_work_sync(&x->x_connect_work);
	rsx_conn_close(x);
	rsx_free_addresses(xprt);
	xprt_free(xprt);
	module_put(THIS_MODULE);
}

/**
 * rsx_buf_alloc - SUNRPC's ->buf_alloc: an RPC's call and reply buffers
 * @task: the RPC
 *
 * One allocation holds our per-RPC state (struct rsx_req) and both
 * buffers, so rsx_req_of() finds the state from rq_buffer.
 *
 * Return: 0 or -ENOMEM.
 */
static int rsx_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	struct rsx_req *req;

	/* the RPC layer initializes its buffers: only our header is zeroed */
	req = kmalloc(sizeof(*req) + rqst->rq_callsize + rqst->rq_rcvsize,
		      rpc_task_gfp_mask());
	if (!req)
		return -ENOMEM;
	memset(req, 0, sizeof(*req));
	req->r_x = rsx_of(rqst->rq_xprt);
	req->r_rqst = rqst;
	INIT_LIST_HEAD(&req->r_node);
	INIT_WORK(&req->r_done_work, rsx_done_work);
	rqst->rq_buffer = req->r_buf;
	rqst->rq_rbuffer = req->r_buf + rqst->rq_callsize;
	return 0;
}

/**
 * rsx_buf_free - SUNRPC's ->buf_free: the RPC is done with its buffers
 * @task: the RPC
 *
 * An RPC that ended before its reply (signal, soft timeout) is still
 * armed: its keys are invalidated and its MRs put back first, so that
 * nothing the server may still write to is freed (principle 2).
 * Context: process; may sleep.
 */
static void rsx_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	struct rsx_req *req = rsx_req_of(rqst);
	struct rsx_xprt *x = req->r_x;

	/*
	 * Still armed: the RPC ended (signal, soft timeout) before its
	 * reply. Its keys must be dead before its pages go back.
	 */
	if (READ_ONCE(req->r_armed)) {
		spin_lock(&x->x_lock);
		x->x_stats.abandoned++;
		spin_unlock(&x->x_lock);
		mutex_lock(&x->x_conn_mutex);
		rsx_req_release(req, true);
		mutex_unlock(&x->x_conn_mutex);
	}
	rsx_bounce_free(req->r_reply_bounce);
	rqst->rq_buffer = NULL;
	rqst->rq_rbuffer = NULL;
	kfree(req);
}

/**
 * rsx_send_request - SUNRPC's ->send_request: send a call
 * @rqst: the call (or a backchannel reply, which has no rq_buffer)
 *
 * Takes a congestion slot, marshals the call (registering its chunks)
 * and posts it. A retransmission on the connection the call was already
 * sent on could overrun the server's credits, so it reconnects instead.
 *
 * Return: 0 when posted; -ENOTCONN (reconnect, then retry), -EBADSLT
 * (wait for a congestion slot), -ENOBUFS or -EIO (the call cannot be
 * marshaled: it fails).
 */
static int rsx_send_request(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct rsx_xprt *x = rsx_of(xprt);
	struct rsx_req *req;
	int err;

	if (!rqst->rq_buffer)
		return rsx_bc_send_reply(rqst);
	if (!xprt_connected(xprt) || !x->x_conn)
		return -ENOTCONN;
	if (!xprt_request_get_cong(xprt, rqst))
		return -EBADSLT;
	/* A retransmission on this connection could overrun its credits. */
	if (rqst->rq_connect_cookie == xprt->connect_cookie)
		goto drop;
	req = rsx_req_of(rqst);
	/* left over from a send that failed before its post */
	rsx_req_release(req, false);
	rsx_bounce_free(req->r_reply_bounce);
	req->r_reply_bounce = NULL;
	err = rsx_marshal(x, x->x_conn, req);
	if (err)
		trace_rsx_marshal_error(x, be32_to_cpu(rqst->rq_xid), err);
	if (err == -EMSGSIZE || err == -ENOMEM || err == -EINVAL) {
		pr_warn_ratelimited("%s: cannot marshal xid %08x: %d\n",
				    x->x_name, be32_to_cpu(rqst->rq_xid), err);
		return err == -ENOMEM ? -ENOBUFS : -EIO;
	}
	if (err)
		goto drop;
	rqst->rq_xtime = ktime_get();
	rqst->rq_xmit_bytes_sent += rqst->rq_snd_buf.len;
	/* An RPC without a reply would leave its credit taken. */
	if (!rpc_reply_expected(rqst->rq_task))
		goto drop;
	return 0;

drop:
	rsx_close(xprt);
	return -ENOTCONN;
}

/**
 * rsx_timer - SUNRPC's ->timer: an RPC's reply did not come in time
 * @xprt: the transport
 * @task: the RPC
 *
 * Over RDMA a lost reply means a lost connection (credits and MRs are
 * tied to it): reconnect, and the RPC is retransmitted on the new one.
 */
static void rsx_timer(struct rpc_xprt *xprt, struct rpc_task *task)
{
	xprt_force_disconnect(xprt);
}

/**
 * rsx_set_connect_timeout - SUNRPC's ->set_connect_timeout
 * @xprt: the transport
 * @connect_timeout: how long a connect may take (only ever lowered)
 * @reconnect_timeout: the most a reconnect backoff may reach
 */
static void rsx_set_connect_timeout(struct rpc_xprt *xprt,
				    unsigned long connect_timeout,
				    unsigned long reconnect_timeout)
{
	spin_lock(&xprt->transport_lock);
	if (connect_timeout < xprt->connect_timeout)
		xprt->connect_timeout = max_t(unsigned long, connect_timeout, HZ);
	if (reconnect_timeout < xprt->max_reconnect_timeout)
		xprt->max_reconnect_timeout = max_t(unsigned long,
						    reconnect_timeout, HZ);
	spin_unlock(&xprt->transport_lock);
}

/**
 * rsx_inject_disconnect - SUNRPC's ->inject_disconnect (fault injection)
 * @xprt: the transport
 *
 * Drops the connection as a network fault would (-ECONNABORTED).
 */
static void rsx_inject_disconnect(struct rpc_xprt *xprt)
{
	struct rsx_xprt *x = rsx_of(xprt);

	mutex_lock(&x->x_conn_mutex);
	if (x->x_conn)
		rst_disconnect(x->x_conn, -ECONNABORTED);
	mutex_unlock(&x->x_conn_mutex);
}

static const struct rpc_xprt_ops rsx_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= xprt_alloc_slot,
	.free_slot		= xprt_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.timer			= rsx_timer,
	.rpcbind		= rpcb_getport_async,
	.set_port		= rsx_set_port,
	.connect		= rsx_connect,
	.buf_alloc		= rsx_buf_alloc,
	.buf_free		= rsx_buf_free,
	.send_request		= rsx_send_request,
	.close			= rsx_close,
	.destroy		= rsx_destroy,
	.set_connect_timeout	= rsx_set_connect_timeout,
	.print_stats		= rsx_print_stats,
	.inject_disconnect	= rsx_inject_disconnect,
	.bc_setup		= rsx_bc_setup,
	.bc_maxpayload		= rsx_bc_maxpayload,
	.bc_num_slots		= rsx_bc_num_slots,
	.bc_free_rqst		= rsx_bc_free_rqst,
	.bc_destroy		= rsx_bc_destroy,
};

static struct xprt_class rsx_class = {
	.list	= LIST_HEAD_INIT(rsx_class.list),
	.name	= "rdma",
	.owner	= THIS_MODULE,
	.ident	= XPRT_TRANSPORT_RDMA,
	.setup	= rsx_setup,
	.netid	= { "rdma", "rdma6", "" },
};

static int __init rsx_init(void)
{
	int err;

	if (rsx_credits < 2 || rsx_credits > 256 ||
	    rsx_inline < RPCRDMA_CM_MIN_INLINE || rsx_inline > 65536) {
		pr_err("credits must be 2..256, inline_size 1024..65536\n");
		return -EINVAL;
	}
	rsx_inline = rounddown(rsx_inline, 1024);
	rsx_wq = alloc_workqueue("rdmastor_rpcrdma", WQ_MEM_RECLAIM, 0);
	if (!rsx_wq)
		return -ENOMEM;
	err = rsx_stats_init();
	if (err)
		goto out_wq;
	err = xprt_register_transport(&rsx_class);
	if (err) {
		if (err == -EEXIST)
			pr_err("another RPC-over-RDMA client (the stock rpcrdma?) is loaded\n");
		goto out_stats;
	}
	return 0;

out_stats:
	rsx_stats_exit();
out_wq:
	destroy_workqueue(rsx_wq);
	return err;
}

static void __exit rsx_exit(void)
{
	xprt_unregister_transport(&rsx_class);
	rsx_stats_exit();
	destroy_workqueue(rsx_wq);
}

module_init(rsx_init);
module_exit(rsx_exit);
MODULE_DESCRIPTION("rdmastor: RPC-over-RDMA client transport for the NFS client");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMASTOR_VERSION);
