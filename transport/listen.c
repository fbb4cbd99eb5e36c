// SPDX-License-Identifier: GPL-2.0
/*
 * Listeners: accept connections, and list the server-side connections
 * they create until those are down. A server connection is set up in
 * the CONNECT_REQUEST handler, once the ULP's admit callback let the
 * request through, and offered to the ULP's accept callback;
 * its down work tells the ULP, takes it off the list and drops the
 * engine's reference (see rst_down_work()). It is freed when the ULP
 * drops its own (rst_conn_put()).
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "rst_int.h"

/*
 * The device a listener is bound to (a specific address) goes away:
 * ib_unregister_device() waits until the listening id is destroyed. Let
 * rdma_cm destroy it (non-zero return), unless rst_listener_destroy()
 * already claimed it; its connections get their own removal events. The
 * listener stays, accepting nothing, until its owner destroys it.
 */
static int rst_listener_device_removal(struct rst_listener *l)
{
	bool gone;

	spin_lock(&l->l_lock);
	gone = !l->l_id_ours;
	l->l_id_gone = gone;
	spin_unlock(&l->l_lock);
	if (gone)
		pr_info("listener: device removed, no longer listening\n");
	return gone ? -ENODEV : 0;
}

/**
 * rst_listener_cm_event - an rdma_cm event on a listener's id
 * @l: the listener
 * @id: the id of the event (a new connection's for a connect request)
 * @ev: the event
 *
 * Return: non-zero to make rdma_cm destroy @id.
 */
int rst_listener_cm_event(struct rst_listener *l, struct rdma_cm_id *id,
			  struct rdma_cm_event *ev)
{
	const struct rdma_conn_param *req = &ev->param.conn;
	struct rdma_conn_param cp = {};
	bool accepted = false;
	struct rst_conn *c;
	int err;

	if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
		return rst_listener_device_removal(l);
	if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST)
		return 0;
	if (READ_ONCE(l->l_closing))
		return -ESHUTDOWN;	/* non-zero: rdma_cm rejects, destroys id */
	/* the ULP's caps first: a refused request costs no QP (N11) */
	if (l->l_admit) {
		err = l->l_admit(id->device,
				 (struct sockaddr *)&id->route.addr.src_addr,
				 (struct sockaddr *)&id->route.addr.dst_addr,
				 l->l_priv);
		if (err)
			return err;
	}

	c = rst_conn_alloc(&l->l_p, l);
	if (IS_ERR(c))
		return PTR_ERR(c);
	/*
	 * Named by its peer (nfsd-rdma-192.0.2.2), so that rnic_mgr's
	 * consumer_weights can weigh one client; the listener's group keeps
	 * the listener's own name (rst_mr_pool_init).
	 */
	snprintf(c->c_name, sizeof(c->c_name), "%s-%pISc", l->l_p.name ?: "rst",
		 (struct sockaddr *)&id->route.addr.dst_addr);
	INIT_WORK(&c->c_down_work, rst_down_work);
	id->context = c;
	/* a ULP module on its way out accepts nothing more */
	if (c->c_p.owner && !try_module_get(c->c_p.owner)) {
		err = -ESHUTDOWN;
		goto fail;
	}
	c->c_owner_held = !!c->c_p.owner;
	err = rst_conn_setup(c, id);
	if (!err)
		err = rst_set_ack_timeout(c, id);
	if (!err)
		err = l->l_accept(c, req->private_data, req->private_data_len,
				  l->l_priv);
	if (err)
		goto fail;
	accepted = true;

	cp.private_data = c->c_p.private_data;
	cp.private_data_len = c->c_p.private_len;
	/*
	 * We issue RDMA READs: as many at once as the peer will answer.
	 * rdma_cm reports the request from our side: its initiator_depth
	 * is the peer's responder resources.
	 */
	cp.initiator_depth = min_t(u32, req->initiator_depth,
				   c->c_dev->attrs.max_qp_init_rd_atom);
	cp.responder_resources = 0;
	cp.retry_count = 7;
	cp.rnr_retry_count = 7;
	spin_lock_irq(&c->c_lock);
	c->c_state = RST_CONNECTING;
	spin_unlock_irq(&c->c_lock);
	spin_lock(&l->l_lock);
	list_add_tail(&c->c_lnode, &l->l_conns);
	spin_unlock(&l->l_lock);
	err = rdma_accept(id, &cp);
	if (!err)
		return 0;
	spin_lock(&l->l_lock);
	list_del_init(&c->c_lnode);
	spin_unlock(&l->l_lock);
fail:
	/* Nothing was posted but receives; rdma_cm destroys the id. */
	spin_lock_irq(&c->c_lock);
	c->c_state = RST_DOWN;
	spin_unlock_irq(&c->c_lock);
	if (c->c_qp)
		ib_drain_qp(c->c_qp);
	if (accepted)
		c->c_p.ops->disconnected(c, err);
	if (c->c_owner_held)
		module_put(c->c_p.owner);
	/* the ULP let go in ->disconnected; rdma_cm destroys the id */
	WARN_ON_ONCE(kref_read(&c->c_ref) != 1);
	rst_conn_free_hw(c);
	rst_conn_free(c);
	return err ? err : -EIO;
}

/**
 * rst_listen - accept connections on an address
 * @net: the caller's network namespace (where @src is)
 * @src: address and port to listen on
 * @p: parameters of every accepted connection (copied; @p->priv is the
 *	initial private pointer of each)
 * @accept: called for each request with its private data; non-zero rejects
 * @admit: if not NULL, called for each request before its connection is
 *	built; non-zero rejects
 * @lpriv: passed to @accept and @admit
 *
 * Return: the listener, or ERR_PTR.
 */
struct rst_listener *rst_listen(struct net *net, struct sockaddr *src,
				const struct rst_conn_params *p,
				rst_accept_fn accept, rst_admit_fn admit,
				void *lpriv)
{
	struct rst_listener *l;
	int err;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return ERR_PTR(-ENOMEM);
	l->l_tag = RST_OBJ_LISTENER;
	l->l_p = *p;
	l->l_accept = accept;
	l->l_admit = admit;
	l->l_priv = lpriv;
	spin_lock_init(&l->l_lock);
	INIT_LIST_HEAD(&l->l_conns);
	init_waitqueue_head(&l->l_wq);
	l->l_id = rdma_create_id(net, rst_cm_handler, l, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(l->l_id)) {
		err = PTR_ERR(l->l_id);
		kfree(l);
		return ERR_PTR(err);
	}
	/*
	 * An IPv6 listener serves IPv6 only, so that an IPv4 one can share
	 * its port (as nfsd opens one of each).
	 */
	err = src->sa_family == AF_INET6 ? rdma_set_afonly(l->l_id, 1) : 0;
	if (!err)
		err = rdma_bind_addr(l->l_id, src);
	if (!err)
		err = rdma_listen(l->l_id, 64);
	if (err) {
		rdma_destroy_id(l->l_id);
		kfree(l);
		return ERR_PTR(err);
	}
	return l;
}
EXPORT_SYMBOL_GPL(rst_listen);

static bool rst_listener_empty(struct rst_listener *l)
{
	bool empty;

	spin_lock(&l->l_lock);
	empty = list_empty(&l->l_conns);
	spin_unlock(&l->l_lock);
	return empty;
}

/**
 * rst_listener_destroy - stop listening and close every connection
 * @l: the listener
 *
 * Returns once every server connection has been through ->disconnected
 * and left the listener; each is freed when its ULP lets go of it.
 */
void rst_listener_destroy(struct rst_listener *l)
{
	struct rst_conn *c;
	bool ours;

	WRITE_ONCE(l->l_closing, true);
	spin_lock(&l->l_lock);
	ours = !l->l_id_gone;
	l->l_id_ours = ours;
	spin_unlock(&l->l_lock);
	/* no CONNECT_REQUEST runs after this (rdma_cm's own destroy waited too) */
	if (ours)
		rdma_destroy_id(l->l_id);
	spin_lock(&l->l_lock);
	list_for_each_entry(c, &l->l_conns, c_lnode)
		rst_conn_down(c, -ESHUTDOWN);
	spin_unlock(&l->l_lock);
	/* the down work wakes l_wq under l_lock: l is ours once empty */
	wait_event(l->l_wq, rst_listener_empty(l));
	kfree(l);
}
EXPORT_SYMBOL_GPL(rst_listener_destroy);
