// SPDX-License-Identifier: GPL-2.0
/*
 * Receiving (RFC 8166 sections 3.5 and 4.5): replies to our calls, and
 * backchannel calls from the server (RFC 8167).
 *
 * A reply is checked against what its call offered before anything is
 * believed: chunk lists we did not offer, segments that are not ours or
 * longer than we registered, a Send-with-Invalidate of a key that is
 * not the RPC's, a header that does not decode, credits of zero: each
 * is a protocol error. The connection is then dropped; the RPC stays
 * queued and is retransmitted on the next connection.
 *
 * The RPC completes only after every key it advertised is invalid and
 * its pages are unmapped (principle 2). The server's Send-with-
 * Invalidate usually does that; otherwise we post LOCAL_INVs and wait,
 * which must not happen on the completion queue's own work item, so the
 * rest of the reply is finished in rsx_wq.
 */
#include <linux/sunrpc/sched.h>
#include <linux/wait_bit.h>

#include "rsx.h"
#include "trace.h"

static void rsx_bad_reply(struct rsx_xprt *x, struct rst_conn *c, const char *why)
{
	spin_lock(&x->x_lock);
	x->x_stats.bad_replies++;
	spin_unlock(&x->x_lock);
	trace_rsx_bad_reply(x, x->x_dec.xid, why);
	/* one per connection: it ends here, and reconnects back off */
	pr_warn("%s: bad reply (%s): disconnecting\n", x->x_name, why);
	WRITE_ONCE(x->x_proto_error, true);
	rst_disconnect(c, -EPROTO);
}

/* Does @seg name our MR @i, no longer than we registered? */
static bool rsx_seg_ours(const struct rsx_req *req, int i,
			 const struct rpcrdma_seg *seg)
{
	return i >= 0 && seg->handle == req->r_rkeys[i] &&
	       seg->length <= req->r_lens[i];
}

/*
 * Check the reply's chunk lists against the call's. Return: the bytes
 * the server wrote into the Write chunk (RDMA_MSG) or the Reply chunk
 * (RDMA_NOMSG), or NULL-ish -EPROTO with @why set.
 */
static int rsx_check_chunks(const struct rsx_req *req,
			    const struct rpcrdma_hdr *h, const char **why)
{
	if (h->nr_read) {
		*why = "read list in a reply";
		return -EPROTO;
	}
	if (h->proc == RPCRDMA_MSG) {
		if (h->has_reply) {
			*why = "reply chunk in RDMA_MSG";
			return -EPROTO;
		}
		if (!h->nr_write)
			return 0;
		if (h->nr_write > 1 || h->write[0].nr_segs != 1 ||
		    !rsx_seg_ours(req, req->r_write_mr, &h->write[0].segs[0])) {
			*why = "write list not ours";
			return -EPROTO;
		}
		return h->write[0].segs[0].length;
	}
	/* RDMA_NOMSG: the whole reply is in the Reply chunk. */
	if (h->nr_write || !h->has_reply || h->reply.nr_segs != 1 ||
	    !rsx_seg_ours(req, req->r_reply_mr, &h->reply.segs[0])) {
		*why = "reply chunk not ours";
		return -EPROTO;
	}
	return h->reply.segs[0].length;
}

/*
 * Put an RDMA_MSG reply's inline part where the upper layer expects it.
 * With a Write chunk, the data item sits in the pages already and is not
 * inline (nor its XDR pad): what precedes it goes to the head, what
 * follows to the tail, behind room for the pad, as xdr_read_pages()
 * expects. Return: the reply's length, or -EPROTO if it does not fit.
 */
static int rsx_fill_msg(struct rpc_rqst *rqst, const u8 *p, u32 len, u32 wlen)
{
	struct xdr_buf *buf = &rqst->rq_private_buf;
	unsigned int head, rest, pad;

	if (!wlen)
		return rsx_xdr_scatter(buf, 0, p, len) < len ? -EPROTO : len;
	head = min_t(u32, len, buf->head[0].iov_len);
	memcpy(buf->head[0].iov_base, p, head);
	rest = len - head;
	pad = xdr_align_size(wlen) - wlen;
	if (rest || pad) {
		if (pad + rest > buf->tail[0].iov_len)
			return -EPROTO;
		memset(buf->tail[0].iov_base, 0, pad);
		memcpy((u8 *)buf->tail[0].iov_base + pad, p + head, rest);
	}
	return head + xdr_align_size(wlen) + rest;
}

/* Every key invalid, every page unmapped: now the RPC may complete. */
static void rsx_finish(struct rsx_req *req)
{
	struct rpc_rqst *rqst = req->r_rqst;
	struct rpc_xprt *xprt = rqst->rq_xprt;
	int status = req->r_status;

	rsx_req_release(req, true);
	if (unlikely(READ_ONCE(req->r_x->x_proto_error)) && status >= 0)
		WRITE_ONCE(req->r_x->x_proto_error, false);	/* the server is sane again */
	if (status >= 0 && req->r_reply_len) {
		status = rsx_bounce_to_xdr(&rqst->rq_private_buf,
					   req->r_reply_bounce, req->r_reply_len);
	}
	trace_rsx_complete(req->r_x, be32_to_cpu(rqst->rq_xid), status);
	spin_lock(&xprt->queue_lock);
	if (status < 0) {
		/* RDMA_ERROR: the RPC fails with it; there is no reply to decode */
		rqst->rq_task->tk_status = status;
		status = 0;
	}
	xprt_complete_rqst(rqst->rq_task, status);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
}

/**
 * rsx_done_work - finish a reply whose keys are invalidated locally
 * @work: the req's r_done_work
 *
 * Context: process (rsx_wq): the local invalidation waits.
 */
void rsx_done_work(struct work_struct *work)
{
	struct rsx_req *req = container_of(work, struct rsx_req, r_done_work);
	struct rsx_xprt *x = req->r_x;

	rsx_finish(req);
	/* rsx_conn_close() waits for this xprt's only; the address is hashed */
	if (atomic_dec_and_test(&x->x_done_works))
		wake_up_var(&x->x_done_works);
}

/*
 * Take the reply for @req, once per arming: until rsx_finish() disarms
 * it (possibly later, in rsx_wq), a second reply with the same xid would
 * find the RPC as the first did, pin it a second time, and queue work
 * that is already queued, so the pin would never be dropped.
 */
static bool rsx_claim_reply(struct rsx_xprt *x, struct rsx_req *req,
			    struct rst_conn *c, const char **why)
{
	bool mine;

	spin_lock(&x->x_lock);
	mine = req->r_armed && req->r_conn == c && !req->r_replied;
	if (mine)
		req->r_replied = true;
	else if (req->r_armed && req->r_conn == c)
		*why = "duplicate reply";
	else
		*why = "reply to a call not sent on this connection";
	spin_unlock(&x->x_lock);
	return mine;
}

static void rsx_update_window(struct rsx_xprt *x, struct rst_conn *c, u32 credits)
{
	struct rpc_xprt *xprt = &x->xprt;
	u32 w;

	rst_set_peer_credits(c, credits);
	w = max_t(u32, rst_window(c), 1);
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = w << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);
}

static void rsx_reply(struct rsx_xprt *x, struct rst_conn *c,
		      const struct rpcrdma_hdr *h, const u8 *buf, u32 len,
		      bool invalidated, u32 inv_rkey)
{
	struct rpc_xprt *xprt = &x->xprt;
	const char *why = NULL;
	struct rpc_rqst *rqst;
	struct rsx_req *req;
	bool local = false;
	unsigned int i;
	int n;

	spin_lock(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, cpu_to_be32(h->xid));
	if (!rqst || !rqst->rq_buffer) {
		spin_unlock(&xprt->queue_lock);
		/* e.g. the RPC was killed while we waited; nothing to do */
		trace_rsx_reply_unknown_xid(x, h->xid, 0);
		spin_lock(&x->x_lock);
		x->x_stats.unknown_xids++;
		spin_unlock(&x->x_lock);
		return;
	}
	xprt_pin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	req = rsx_req_of(rqst);
	if (!rsx_claim_reply(x, req, c, &why))
		goto bad;
	req->r_reply_len = 0;
	switch (h->proc) {
	case RPCRDMA_MSG:
		n = rsx_check_chunks(req, h, &why);
		if (n < 0)
			goto bad;
		n = rsx_fill_msg(rqst, buf + h->len, len - h->len, n);
		if (n < 0) {
			why = "reply longer than the RPC's buffer";
			goto bad;
		}
		req->r_status = n;
		break;
	case RPCRDMA_NOMSG:
		n = rsx_check_chunks(req, h, &why);
		if (n < 0)
			goto bad;
		req->r_reply_len = n;
		req->r_status = n;
		break;
	case RPCRDMA_ERROR:
		spin_lock(&x->x_lock);
		x->x_stats.rdma_errors++;
		spin_unlock(&x->x_lock);
		trace_rsx_rdma_error(x, h->xid, h->err);
		pr_warn_ratelimited("%s: RDMA_ERROR %s for xid %08x\n",
				    x->x_name, h->err == RPCRDMA_ERR_VERS ?
				    "ERR_VERS" : "ERR_CHUNK", h->xid);
		req->r_status = -EIO;
		break;
	default:
		why = "unknown procedure";
		goto bad;
	}
	if (invalidated) {
		for (i = 0; i < req->r_nr_mrs; i++)
			if (req->r_rkeys[i] == inv_rkey)
				break;
		if (i == req->r_nr_mrs ||
		    rst_mr_remote_invalidated(req->r_mrs[i], inv_rkey)) {
			why = "invalidated a key that is not the RPC's";
			goto bad;
		}
		req->r_invalidated[i] = true;
	}
	for (i = 0; i < req->r_nr_mrs; i++)
		local |= !req->r_invalidated[i];
	if (local) {
		spin_lock(&x->x_lock);
		x->x_stats.local_inv_replies++;
		spin_unlock(&x->x_lock);
		trace_rsx_reply_local_inv(x, h->xid, 0);
		atomic_inc(&x->x_done_works);
		queue_work(rsx_wq, &req->r_done_work);
		return;
	}
	rsx_finish(req);
	return;

bad:
	spin_lock(&xprt->queue_lock);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	rsx_bad_reply(x, c, why);
}

/**
 * rsx_recv - the engine's ->recv: a reply or a backchannel call arrived
 * @c: the connection
 * @buf: the message (reposted when we return)
 * @len: its length
 * @invalidated: sent with invalidate of @inv_rkey
 * @inv_rkey: see @invalidated
 */
void rsx_recv(struct rst_conn *c, const void *buf, u32 len, bool invalidated,
	      u32 inv_rkey)
{
	struct rsx_xprt *x = rst_conn_priv(c);
	struct rpcrdma_hdr *h = &x->x_dec;
	int err;

	err = rpcrdma_decode_hdr(buf, len, h);
	if (err) {
		h->xid = len >= 4 ? be32_to_cpup(buf) : 0;
		rsx_bad_reply(x, c, "header does not decode");
		return;
	}
	trace_rsx_reply(x, h, len, invalidated, inv_rkey);
	if (!h->credits) {
		rsx_bad_reply(x, c, "zero credits");
		return;
	}
	if (rsx_bc_is_call(h, (const u8 *)buf + h->len, len - h->len)) {
		if (invalidated) {
			rsx_bad_reply(x, c, "backchannel call with invalidate");
			return;
		}
		rsx_bc_receive_call(x, c, h, (const u8 *)buf + h->len, len - h->len);
		return;
	}
	rsx_update_window(x, c, h->credits);
	rsx_reply(x, c, h, buf, len, invalidated, inv_rkey);
}
