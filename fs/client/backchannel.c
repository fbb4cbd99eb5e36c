// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 8167 backchannel: NFSv4.1+ servers send callbacks (CB_RECALL,
 * CB_SEQUENCE...) as RDMA_MSG calls on the client's connection, always
 * inline and without chunks. A call is copied out of the receive buffer
 * into an rpc_rqst of its own and handed to the NFS callback service;
 * its reply comes back through ->send_request with no rq_buffer and is
 * sent inline.
 *
 * The server may have at most RSX_BC_SLOTS calls outstanding (what
 * bc_num_slots advertises in CREATE_SESSION); one more is a protocol
 * error. The receive ring has room for them on top of the credits we
 * ask for, so they never take a forward reply's buffer.
 */
#include <linux/slab.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/bc_xprt.h>
#include <rdmastor/kcompat.h>

#include "rsx.h"
#include "trace.h"

struct rsx_bc {
	struct rpc_rqst rqst;
	u32 size;
	u8 call[PAGE_SIZE];
	u8 reply[PAGE_SIZE];
};

/**
 * rsx_bc_setup - ->bc_setup: nothing to preallocate
 * @xprt: the transport
 * @reqs: backchannel requests the upper layer wants
 *
 * Calls get their rqst when they arrive (rsx_bc_receive_call()).
 *
 * Return: 0.
 */
int rsx_bc_setup(struct rpc_xprt *xprt, unsigned int reqs)
{
	return 0;	/* calls get their rqst when they arrive */
}

/**
 * rsx_bc_maxpayload - ->bc_maxpayload: largest callback message
 * @xprt: the transport
 *
 * Return: what fits inline both ways (and in a page), less the header.
 */
size_t rsx_bc_maxpayload(struct rpc_xprt *xprt)
{
	struct rsx_xprt *x = rsx_of(xprt);
	u32 m = min3(x->x_inline_send, x->x_inline_recv, (u32)PAGE_SIZE);

	return m - RSX_HDR_NOCHUNKS;
}

/**
 * rsx_bc_num_slots - ->bc_num_slots: callbacks the server may have in flight
 * @xprt: the transport
 *
 * Return: RSX_BC_SLOTS.
 */
unsigned int rsx_bc_num_slots(struct rpc_xprt *xprt)
{
	return RSX_BC_SLOTS;
}

/**
 * rsx_bc_free_rqst - ->bc_free_rqst: a callback is done
 * @rqst: its rqst (inside a struct rsx_bc)
 *
 * Frees it and drops the transport reference the call took.
 */
void rsx_bc_free_rqst(struct rpc_rqst *rqst)
{
	struct rsx_bc *bc = container_of(rqst, struct rsx_bc, rqst);
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct rsx_xprt *x = rsx_of(xprt);

	spin_lock(&x->x_lock);
	x->x_bc_count--;
	spin_unlock(&x->x_lock);
	kfree(bc);
	xprt_put(xprt);
}

/**
 * rsx_bc_destroy - ->bc_destroy: nothing preallocated to free
 * @xprt: the transport
 * @reqs: as given to rsx_bc_setup()
 */
void rsx_bc_destroy(struct rpc_xprt *xprt, unsigned int reqs)
{
	/* nothing preallocated */
}

/**
 * rsx_bc_is_call - is a received message a backchannel call?
 * @h: its decoded RPC-over-RDMA header
 * @msg: the RPC message after the header
 * @len: its length
 *
 * Return: true for RDMA_MSG, no chunks, and an RPC message that says CALL.
 */
bool rsx_bc_is_call(const struct rpcrdma_hdr *h, const u8 *msg, u32 len)
{
	__be32 dir;

	if (h->proc != RPCRDMA_MSG || len < 8)
		return false;
	memcpy(&dir, msg + 4, 4);
	return dir == cpu_to_be32(RPC_CALL);
}

/**
 * rsx_bc_receive_call - hand a backchannel call to the callback service
 * @x: the transport
 * @c: the connection it came on
 * @h: its decoded header
 * @msg: the RPC call
 * @len: its length
 *
 * A call with chunks, larger than a page, beyond RSX_BC_SLOTS in flight,
 * or with no callback service is a protocol error: the connection ends.
 * Context: completion (copies the call; never sleeps).
 */
void rsx_bc_receive_call(struct rsx_xprt *x, struct rst_conn *c,
			 const struct rpcrdma_hdr *h, const u8 *msg, u32 len)
{
	struct rpc_xprt *xprt = &x->xprt;
	struct svc_serv *serv = xprt->bc_serv;
	struct rpc_rqst *rqst;
	struct rsx_bc *bc;
	bool full;

	if (h->nr_read || h->nr_write || h->has_reply || len > PAGE_SIZE || !serv) {
		pr_warn_ratelimited("%s: bad backchannel call\n", x->x_name);
		trace_rsx_bc_call(x, h->xid, -EPROTO);
		goto drop;
	}
	spin_lock(&x->x_lock);
	full = x->x_bc_count >= RSX_BC_SLOTS;
	if (!full)
		x->x_bc_count++;
	spin_unlock(&x->x_lock);
	if (full) {
		pr_warn_ratelimited("%s: backchannel overrun\n", x->x_name);
		trace_rsx_bc_call(x, h->xid, -ENOBUFS);
		goto drop;
	}
	bc = kzalloc(sizeof(*bc), GFP_NOWAIT | __GFP_NOWARN);
	if (!bc) {
		trace_rsx_bc_call(x, h->xid, -ENOMEM);
		spin_lock(&x->x_lock);
		x->x_bc_count--;
		spin_unlock(&x->x_lock);
		goto drop;
	}
	memcpy(bc->call, msg, len);
	rqst = &bc->rqst;
	rqst->rq_xprt = xprt;
	memcpy(&rqst->rq_xid, msg, 4);
	__set_bit(RPC_BC_PA_IN_USE, &rqst->rq_bc_pa_state);
	rqst->rq_rcv_buf.head[0].iov_base = bc->call;
	rqst->rq_rcv_buf.head[0].iov_len = len;
	rqst->rq_rcv_buf.len = len;
	rqst->rq_rcv_buf.buflen = len;
	rqst->rq_private_buf = rqst->rq_rcv_buf;
	xdr_buf_init(&rqst->rq_snd_buf, bc->reply, sizeof(bc->reply));
	spin_lock(&x->x_lock);
	x->x_stats.bc_calls++;
	spin_unlock(&x->x_lock);
	trace_rsx_bc_call(x, h->xid, 0);

	xprt_get(xprt);
	atomic_inc(&xprt->bc_slot_count);	/* the callback thread drops it */
	kc_bc_queue(serv, rqst);
	return;

drop:
	spin_lock(&x->x_lock);
	x->x_stats.bc_dropped++;
	spin_unlock(&x->x_lock);
	rst_disconnect(c, -EPROTO);
}

/**
 * rsx_bc_send_reply - ->send_request for a callback's reply
 * @rqst: the reply, built by the callback service
 *
 * Sent inline, no chunks. A send that cannot be made closes the
 * transport.
 *
 * Return: 0, -EBADSLT (no congestion slot yet), -EIO (the reply does
 * not fit inline), -ENOTCONN.
 */
int rsx_bc_send_reply(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct rsx_xprt *x = rsx_of(xprt);
	struct rpcrdma_hdr *h = &x->x_enc;
	struct rst_conn *c = x->x_conn;
	struct rst_tx *tx;
	int hlen, err;
	u8 *dst;

	if (!xprt_connected(xprt) || !c)
		return -ENOTCONN;
	if (!xprt_request_get_cong(xprt, rqst))
		return -EBADSLT;
	rsx_hdr_init(h, rqst->rq_xid, RSX_BC_SLOTS);
	tx = rst_tx_get(c, RSX_SEND_SLOT_MS);
	if (IS_ERR(tx))
		goto drop;
	dst = rst_tx_buf(tx);
	hlen = rpcrdma_encode_hdr(dst, x->x_inline_send, h);
	if (hlen < 0 || hlen + rqst->rq_snd_buf.len > x->x_inline_send ||
	    read_bytes_from_xdr_buf(&rqst->rq_snd_buf, 0, dst + hlen,
				    rqst->rq_snd_buf.len)) {
		rst_tx_put(c, tx);
		return -EIO;
	}
	err = rst_tx_post(c, tx, hlen + rqst->rq_snd_buf.len, NULL, false, 0);
	if (err)
		goto drop;
	return 0;

drop:
	rsx_close(xprt);
	return -ENOTCONN;
}
