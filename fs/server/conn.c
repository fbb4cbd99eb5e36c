// SPDX-License-Identifier: GPL-2.0
/*
 * The SUNRPC server transport class "rdma" for nfsd on the rdmastor
 * engine: listeners, the connections they accept, and the module.
 *
 * nfsd reaches it the normal ways: `rpc.nfsd` with rdma=y in nfs.conf,
 * or `echo "rdma 20049" > /proc/fs/nfsd/portlist`, both of which ask
 * svc_xprt_create() for the class "rdma"; on a miss SUNRPC loads
 * "svcrdma", which etc/modprobe.d routes to this module. The stock
 * svcrdma (inside rpcrdma.ko) registers the same class name, so only
 * one of the two serves a host. Our ident is private (RSV_XPRT_IDENT):
 * nfsd asks for ident|XPRT_TRANSPORT_BC to build its NFSv4.1
 * backchannel, and that must find ours (backchannel.c), never stock's.
 *
 * A connection's life: the engine's accept callback (rsv_accept())
 * creates its rsv_xprt and queues it on the listener; nfsd's
 * ->xpo_accept takes it; the engine's ->disconnected, or nfsd's
 * ->xpo_detach, ends it; it is freed at the last of svc's ->xpo_free and
 * the engine's ->disconnected (invariant S4 in rsv.h).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/addr.h>
#include <linux/wait_bit.h>
#include <rdmastor/kcompat.h>

#include "rsv.h"
#include "trace.h"

unsigned int rsv_credits = 64;
module_param_named(credits, rsv_credits, uint, 0444);
MODULE_PARM_DESC(credits, "credits (calls in flight) granted to each client (8..256)");

unsigned int rsv_inline = 16384;
module_param_named(inline_size, rsv_inline, uint, 0444);
MODULE_PARM_DESC(inline_size, "inline send and receive size in bytes (1024..65536)");

bool rsv_force_mr;
module_param_named(force_mr, rsv_force_mr, bool, 0644);
MODULE_PARM_DESC(force_mr, "register every RDMA READ sink with a per-READ MR, as iWARP needs (new connections)");

bool rsv_cq_softirq;
module_param_named(cq_softirq, rsv_cq_softirq, bool, 0444);
MODULE_PARM_DESC(cq_softirq, "handle completions in softirq rather than in a workqueue (slower on soft-RoCE)");

struct workqueue_struct *rsv_wq;
static u8 rsv_accept_pdata[RPCRDMA_CM_PDATA_LEN];

static const struct svc_xprt_ops rsv_ops;

static void rsv_xprt_release(struct kref *kref)
{
	struct rsv_xprt *x = container_of(kref, struct rsv_xprt, x_ref);

	if (x->x_conn) {
		trace_rsv_xprt_free(x);
		rsv_stats_del(x);
		rsv_calls_free(x);
		rst_conn_put(x->x_conn);
	}
	kfree(x);
}

/**
 * rsv_xprt_put - drop a reference of an rsv_xprt (S4)
 * @x: the transport
 */
void rsv_xprt_put(struct rsv_xprt *x)
{
	kref_put(&x->x_ref, rsv_xprt_release);
}

/**
 * rsv_close - have nfsd close a connection
 * @x: the connection
 *
 * Context: any; never waits. Nothing happens if svc does not have the
 * transport (yet, or any more).
 */
void rsv_close(struct rsv_xprt *x)
{
	bool live;

	spin_lock_bh(&x->x_lock);
	live = x->x_svc_live && !x->x_svc_gone &&
	       kref_get_unless_zero(&x->xprt.xpt_ref);
	spin_unlock_bh(&x->x_lock);
	if (!live)
		return;
	svc_xprt_deferred_close(&x->xprt);
	svc_xprt_put(&x->xprt);
}

/**
 * rsv_disconnected - the engine's ->disconnected: a connection is down
 * @rc: the connection, drained: no ->recv, no READ or send completion
 *	runs for it any more
 * @reason: why (0 orderly, else an errno)
 *
 * Not yet taken by nfsd: it leaves the listener and is freed. Taken:
 * nfsd is told to close it. Either way the engine's reference goes.
 * Context: process (the engine's workqueue); never waits for nfsd.
 */
static void rsv_disconnected(struct rst_conn *rc, int reason)
{
	struct rsv_xprt *x = rst_conn_priv(rc);
	unsigned long start = jiffies;
	struct rsv_xprt *l;

	trace_rsv_disconnected(x, reason);
	spin_lock_bh(&x->x_lock);
	x->x_down = true;
	spin_unlock_bh(&x->x_lock);
	rsv_stats_unpublish(x);
	/*
	 * Calls waiting for the pull budget are dropped; READ work queued
	 * before the drain finds x_down and drops its call. Only this
	 * connection's: flushing rsv_wq would make one teardown wait for
	 * every other connection's pulls.
	 */
	rsv_pull_forget(x);
	wait_var_event(&x->x_pulls, !atomic_read(&x->x_pulls));
	trace_rsv_pulls_done(x, jiffies_to_msecs(jiffies - start));
	rsv_drop_ready(x);
	rsv_bc_flush(x);
	rsv_bc_drop(x);

	l = x->x_parent;
	if (l) {
		bool was_pending;

		spin_lock_bh(&l->x_pend_lock);
		was_pending = x->x_on_pending;
		if (was_pending) {
			list_del_init(&x->x_pend_node);
			x->x_on_pending = false;
			l->x_nr_pending--;
		}
		spin_unlock_bh(&l->x_pend_lock);
	}
	rsv_close(x);
	rsv_xprt_put(x);
}

static const struct rst_conn_ops rsv_conn_ops = {
	.recv = rsv_recv,
	.disconnected = rsv_disconnected,
};

/* A connect refused: RSV_MAX_PENDING connections wait for nfsd */
static int rsv_refuse(struct rsv_xprt *l, struct ib_device *dev,
		      const struct sockaddr *local, const struct sockaddr *peer)
{
	trace_rsv_refuse(l, "too many connections waiting for nfsd");
	pr_warn_ratelimited("%s: connect from %pISpc to %pISpc refused: %u connections already wait for nfsd to take them (the limit)\n",
			    dev_name(&dev->dev), peer, local, RSV_MAX_PENDING);
	return -EBUSY;
}

/*
 * The listener's admit callback: refused while RSV_MAX_PENDING
 * connections wait for nfsd, before the engine builds this one.
 */
static int rsv_admit(struct ib_device *dev, const struct sockaddr *local,
		     const struct sockaddr *peer, void *lpriv)
{
	struct rsv_xprt *l = lpriv;
	bool full;

	spin_lock_bh(&l->x_pend_lock);
	full = l->x_nr_pending >= RSV_MAX_PENDING;
	spin_unlock_bh(&l->x_pend_lock);
	return full ? rsv_refuse(l, dev, local, peer) : 0;
}

/*
 * The engine's accept callback, for a connection request on listener
 * @lpriv: its rsv_xprt, queued until nfsd takes it. Refused when too
 * many wait already (rsv_admit() refused most such before the engine
 * built them; this one decides, under the lock).
 */
static int rsv_accept(struct rst_conn *rc, const void *pdata, u8 plen, void *lpriv)
{
	struct rsv_xprt *l = lpriv, *x;
	struct rpcrdma_cm_pdata peer;
	int err;

	x = kzalloc(sizeof(*x), GFP_KERNEL);
	if (!x)
		return -ENOMEM;
	kref_init(&x->x_ref);		/* the engine's, until ->disconnected */
	spin_lock_init(&x->x_lock);
	INIT_LIST_HEAD(&x->x_ready);
	INIT_LIST_HEAD(&x->x_pull_wait);
	INIT_LIST_HEAD(&x->x_pull_node);
	INIT_LIST_HEAD(&x->x_calls_free);
	INIT_LIST_HEAD(&x->x_pend_node);
	INIT_WORK(&x->x_put_work, rsv_put_work);
	rsv_bc_init_conn(x);
	x->x_conn = rc;
	x->x_nr = rst_conn_id(rc);
	x->x_serv = l->x_serv;
	x->x_net = l->x_net;
	snprintf(x->x_name, sizeof(x->x_name), "nfsd-rdma-%u", x->x_nr);

	/* RFC 8797; without it (or in a version we do not know) 1 KiB, no invalidation */
	if (rpcrdma_decode_cm_pdata(pdata, plen, &peer)) {
		peer.remote_inv = false;
		peer.send_size = RPCRDMA_CM_MIN_INLINE;
		peer.recv_size = RPCRDMA_CM_MIN_INLINE;
	}
	x->x_snd_w_inv = peer.remote_inv;
	/* iWARP READ sinks need an MR: the pool's, per READ (iwarp_io_pages) */
	x->x_use_mr = READ_ONCE(rsv_force_mr) || rst_conn_iwarp(rc);
	x->x_inline_send = min(rsv_inline, peer.recv_size);
	x->x_inline_recv = rsv_inline;

	err = rsv_calls_alloc(x, rsv_credits);
	if (err)
		goto fail;
	spin_lock_bh(&l->x_pend_lock);
	if (l->x_nr_pending >= RSV_MAX_PENDING) {
		struct sockaddr_storage local, addr;

		spin_unlock_bh(&l->x_pend_lock);
		rst_conn_addrs(rc, &local, &addr);
		err = rsv_refuse(l, rst_conn_device(rc), (struct sockaddr *)&local,
				 (struct sockaddr *)&addr);
		goto fail;
	}
	rst_conn_get(rc);		/* the rsv_xprt's, dropped when it is freed */
	rst_conn_set_priv(rc, x);
	rst_conn_set_accept_pdata(rc, rsv_accept_pdata, sizeof(rsv_accept_pdata));
	x->x_parent = l;
	x->x_on_pending = true;
	list_add_tail(&x->x_pend_node, &l->x_pending);
	l->x_nr_pending++;
	spin_unlock_bh(&l->x_pend_lock);
	rsv_stats_add(x);
	trace_rsv_accept(x, &peer);
	set_bit(XPT_CONN, &l->xprt.xpt_flags);
	svc_xprt_enqueue(&l->xprt);
	return 0;
fail:
	rsv_calls_free(x);
	kfree(x);
	return err;
}

static struct rst_conn_params rsv_conn_params(void)
{
	return (struct rst_conn_params) {
		.name = "nfsd-rdma",
		.weight = 1,
		/*
		 * A call holds its receive buffer until nfsd copied it, and
		 * so does a reply to a callback until x_bc_work completed
		 * it; at most half the ring may be held: twice both.
		 */
		.recv_depth = 2 * (rsv_credits + RSV_BC_SLOTS),
		/* replies, RDMA_ERRORs and backchannel calls */
		.send_depth = rsv_credits + RSV_BC_SLOTS + 4,
		.msg_size = rsv_inline,
		/* forced-MR READ sinks come from an rnic_mgr-charged pool */
		.max_io_pages = rsv_force_mr ? RSV_MAX_CHUNK_PAGES : 0,
		.iwarp_io_pages = RSV_MAX_CHUNK_PAGES,
		/* a reply's WRITEs: up to 1 MiB in up to 33 segments */
		.rw_pages = RSV_MAX_CHUNK_PAGES + 32 * 33,
		.cq_softirq = READ_ONCE(rsv_cq_softirq),
		.ops = &rsv_conn_ops,
		.owner = THIS_MODULE,
	};
}

/**
 * rsv_create - svc's ->xpo_create: a listener
 * @serv: the service (nfsd)
 * @net: its network namespace
 * @sa: address to listen on
 * @salen: its length
 * @flags: unused
 *
 * Return: the listener's svc_xprt, or ERR_PTR.
 */
static struct svc_xprt *rsv_create(struct svc_serv *serv, struct net *net,
				   struct sockaddr *sa, int salen, int flags)
{
	struct rst_conn_params p = rsv_conn_params();
	struct rsv_xprt *l;

	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return ERR_PTR(-ENOMEM);
	kref_init(&l->x_ref);		/* svc's */
	l->x_listener = true;
	spin_lock_init(&l->x_lock);
	spin_lock_init(&l->x_pend_lock);
	INIT_LIST_HEAD(&l->x_pending);
	l->x_serv = serv;
	l->x_net = net;
	svc_xprt_init(net, &rsv_class, &l->xprt, serv);
	set_bit(XPT_LISTENER, &l->xprt.xpt_flags);
	strcpy(l->xprt.xpt_remotebuf, "listener");
	snprintf(l->x_name, sizeof(l->x_name), "nfsd-rdma-listen");
	l->x_lst = rst_listen(net, sa, &p, rsv_accept, rsv_admit, l);
	if (IS_ERR(l->x_lst)) {
		int err = PTR_ERR(l->x_lst);

		trace_rsv_listen(l, sa, err);
		l->x_lst = NULL;
		/*
		 * svc_xprt_create() puts the module reference it took when we
		 * fail, and svc_xprt_free() puts one more: take one for it.
		 */
		__module_get(THIS_MODULE);
		svc_xprt_put(&l->xprt);
		return ERR_PTR(err);
	}
	trace_rsv_listen(l, sa, 0);
	svc_xprt_set_local(&l->xprt, sa, salen);
	return &l->xprt;
}

/**
 * rsv_xpo_accept - svc's ->xpo_accept: take a connection off a listener
 * @xprt: the listener
 *
 * Return: the connection's svc_xprt, or NULL if none is waiting.
 */
static struct svc_xprt *rsv_xpo_accept(struct svc_xprt *xprt)
{
	struct rsv_xprt *l = rsv_of(xprt), *x;
	struct sockaddr_storage local, peer;
	bool ready;

	spin_lock_bh(&l->x_pend_lock);
	x = list_first_entry_or_null(&l->x_pending, struct rsv_xprt, x_pend_node);
	if (x) {
		list_del_init(&x->x_pend_node);
		x->x_on_pending = false;
		l->x_nr_pending--;
		kref_get(&x->x_ref);	/* svc's, until ->xpo_free */
	}
	if (!list_empty(&l->x_pending))
		set_bit(XPT_CONN, &xprt->xpt_flags);
	else
		clear_bit(XPT_CONN, &xprt->xpt_flags);
	spin_unlock_bh(&l->x_pend_lock);
	if (!x)
		return NULL;

	svc_xprt_init(l->x_net, &rsv_class, &x->xprt, l->x_serv);
	rst_conn_addrs(x->x_conn, &local, &peer);
	svc_xprt_set_local(&x->xprt, (struct sockaddr *)&local, sizeof(local));
	svc_xprt_set_remote(&x->xprt, (struct sockaddr *)&peer, sizeof(peer));
	/* RPC-over-RDMA grants credits: svc need not hold replies back */
	set_bit(XPT_CONG_CTRL, &x->xprt.xpt_flags);
	spin_lock_bh(&x->x_lock);
	x->x_svc_live = true;
	ready = !list_empty(&x->x_ready);
	if (x->x_down)
		set_bit(XPT_CLOSE, &x->xprt.xpt_flags);
	spin_unlock_bh(&x->x_lock);
	if (ready)
		set_bit(XPT_DATA, &x->xprt.xpt_flags);
	trace_rsv_svc_accept(x);
	return &x->xprt;
}

/**
 * rsv_detach - svc's ->xpo_detach: stop serving this transport
 * @xprt: a listener or a connection
 *
 * A listener stops listening, and every connection it accepted goes
 * down (nfsd closes them all together); a connection is disconnected.
 */
static void rsv_detach(struct svc_xprt *xprt)
{
	struct rsv_xprt *x = rsv_of(xprt);

	if (x->x_listener) {
		if (x->x_lst)
			rst_listener_destroy(x->x_lst);
		x->x_lst = NULL;
		return;
	}
	rst_disconnect(x->x_conn, 0);
}

/**
 * rsv_free - svc's ->xpo_free: svc's last reference is gone
 * @xprt: a listener or a connection
 */
static void rsv_free(struct svc_xprt *xprt)
{
	struct rsv_xprt *x = rsv_of(xprt);

	if (x->x_listener) {
		/* a listener that was never detached (svc_xprt_create() failed) */
		if (x->x_lst)
			rst_listener_destroy(x->x_lst);
		rsv_xprt_put(x);
		return;
	}
	spin_lock_bh(&x->x_lock);
	x->x_svc_gone = true;
	spin_unlock_bh(&x->x_lock);
	rst_disconnect(x->x_conn, 0);
	rsv_xprt_put(x);
}

/**
 * rsv_has_wspace - svc's ->xpo_has_wspace
 * @xprt: a connection
 *
 * Return: 1: replies never wait for room (the client's credits bound
 * them, and a send slot is there for each).
 */
static int rsv_has_wspace(struct svc_xprt *xprt)
{
	return 1;
}

/**
 * rsv_kill_temp_xprt - svc's ->xpo_kill_temp_xprt: nothing to do
 * @xprt: a connection
 */
static void rsv_kill_temp_xprt(struct svc_xprt *xprt)
{
}

static const struct svc_xprt_ops rsv_ops = {
	.xpo_create = rsv_create,
	.xpo_recvfrom = rsv_recvfrom,
	.xpo_sendto = rsv_sendto,
	.xpo_result_payload = rsv_result_payload,
	.xpo_release_ctxt = rsv_release_ctxt,
	.xpo_detach = rsv_detach,
	.xpo_free = rsv_free,
	.xpo_has_wspace = rsv_has_wspace,
	.xpo_accept = rsv_xpo_accept,
	KC_SVC_XPRT_OPS_SECURE_PORT
	.xpo_kill_temp_xprt = rsv_kill_temp_xprt,
};

struct svc_xprt_class rsv_class = {
	.xcl_name = "rdma",
	.xcl_owner = THIS_MODULE,
	.xcl_ops = &rsv_ops,
	.xcl_max_payload = RPCSVC_MAXPAYLOAD,
	.xcl_ident = RSV_XPRT_IDENT,
};

static int __init rsv_init(void)
{
	struct rpcrdma_cm_pdata mine = {
		.remote_inv = false,	/* we never take the client's invalidation */
		.send_size = rsv_inline,
		.recv_size = rsv_inline,
	};
	int err;

	if (rsv_credits < 8 || rsv_credits > 256 || rsv_inline < 1024 ||
	    rsv_inline > 65536 || rsv_inline % 1024) {
		pr_err("credits must be 8..256 and inline_size a multiple of 1024 in 1024..65536\n");
		return -EINVAL;
	}
	if (rpcrdma_encode_cm_pdata(rsv_accept_pdata, sizeof(rsv_accept_pdata),
				    &mine) < 0)
		return -EINVAL;
	/*
	 * The pull work is the receive path's next step, queued from the
	 * completion work (ib_comp_wq, high priority) on the same CPU. At
	 * normal priority it starved behind that work and nfsd whenever
	 * the CPUs were busy: 19 ms from a call's arrival to its READs
	 * being posted at 64 KiB depth 16 (make bench B=nfs-stages).
	 */
	rsv_wq = alloc_workqueue("rdmastor_svc", WQ_MEM_RECLAIM | WQ_HIGHPRI, 0);
	if (!rsv_wq)
		return -ENOMEM;
	rsv_pull_init();
	rsv_fault_init();
	err = rsv_bc_init();
	if (err)
		goto out_wq;
	err = rsv_stats_init();
	if (err)
		goto out_bc;
	err = svc_reg_xprt_class(&rsv_class);
	if (err) {
		pr_err("cannot register the server transport \"rdma\" (%d): is the stock svcrdma (rpcrdma) loaded?\n",
		       err);
		goto out_stats;
	}
	return 0;
out_stats:
	rsv_stats_exit();
out_bc:
	rsv_bc_exit();
out_wq:
	rsv_fault_exit();
	destroy_workqueue(rsv_wq);
	return err;
}

static void __exit rsv_exit(void)
{
	/* svc holds this module while any transport of ours exists */
	svc_unreg_xprt_class(&rsv_class);
	rsv_stats_exit();
	rsv_bc_exit();
	rsv_fault_exit();
	destroy_workqueue(rsv_wq);
}

module_init(rsv_init);
module_exit(rsv_exit);

MODULE_DESCRIPTION("rdmastor: RPC-over-RDMA server transport for nfsd");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMASTOR_VERSION);
/*
 * No MODULE_ALIAS("svcrdma"): modprobe loads every module an alias
 * names, so ours would come along with the stock one on a host that went
 * back to stock. etc/modprobe.d/rdmastor-nfs.conf routes the name.
 */
