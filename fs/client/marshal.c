// SPDX-License-Identifier: GPL-2.0
/*
 * Building a call (RFC 8166 section 3.5): pick how the call and its
 * reply travel, register the memory the server will touch for this RPC
 * only, and write the transport header and the inline part.
 *
 * Call:   inline (RDMA_MSG) if header and message fit the server's
 *         inline size; else, if the upper layer marked its page list as
 *         bulk data (XDRBUF_WRITE: NFS WRITE), a Read chunk for the pages
 *         at their XDR position with the rest inline; else a long call:
 *         RDMA_NOMSG with a position-zero Read chunk of the whole message.
 * Reply:  inline if the largest reply fits our inline size; else a Write
 *         chunk straight into the page list if it is bulk data
 *         (XDRBUF_READ: NFS READ, into page cache or O_DIRECT pages);
 *         else a Reply chunk for the whole reply.
 */
#include <linux/slab.h>
#include <linux/sunrpc/sched.h>

#include "rsx.h"
#include "trace.h"

static gfp_t rsx_gfp(void)
{
	return rpc_task_gfp_mask();
}

/* Register @sg (ours from here on) as the req's next MR. */
static int rsx_register(struct rsx_req *req, struct rst_conn *c,
			struct scatterlist *sg, int nents,
			enum dma_data_direction dir, struct rpcrdma_seg *seg)
{
	unsigned int i = req->r_nr_mrs;
	struct rst_mr *m;
	u64 addr;
	u32 len, rkey;
	int err;

	if (!sg)
		return -ENOMEM;
	if (WARN_ON_ONCE(i >= RSX_MAX_MRS)) {
		kfree(sg);
		return -EINVAL;
	}
	m = rst_mr_get_sg(c, sg, nents);
	if (IS_ERR(m)) {
		kfree(sg);
		return PTR_ERR(m);
	}
	err = rst_mr_map(m, sg, nents, dir, &addr, &len, &rkey);
	if (err) {
		rst_mr_put(m);
		kfree(sg);
		return err;
	}
	req->r_mrs[i] = m;
	req->r_sgs[i] = sg;
	req->r_rkeys[i] = rkey;
	req->r_lens[i] = len;
	req->r_invalidated[i] = false;
	req->r_nr_mrs++;
	seg->handle = rkey;
	seg->length = len;
	seg->offset = addr;
	return 0;
}

/**
 * rsx_hdr_init - an RDMA_MSG header with empty chunk lists
 * @h: the header (its list contents are left as they are)
 * @xid: the RPC's xid, as on the wire
 * @credits: credits to ask for or grant
 */
void rsx_hdr_init(struct rpcrdma_hdr *h, __be32 xid, u32 credits)
{
	h->xid = be32_to_cpu(xid);
	h->vers = RPCRDMA_WIRE_VERSION;
	h->credits = credits;
	h->proc = RPCRDMA_MSG;
	h->nr_read = 0;
	h->nr_write = 0;
	h->has_reply = false;
}

/* The XDR pad that follows @len bytes of opaque data. */
static unsigned int rsx_pad(unsigned int len)
{
	return xdr_align_size(len) - len;
}

static int rsx_choose_reply(struct rsx_xprt *x, struct rst_conn *c,
			    struct rsx_req *req, struct rpcrdma_hdr *h)
{
	struct xdr_buf *rcv = &req->r_rqst->rq_rcv_buf;
	struct scatterlist *sg;
	int nents = 0, err;

	if (rcv->buflen <= x->x_inline_recv - RSX_HDR_NOCHUNKS) {
		x->x_stats.inline_replies++;
		return 0;
	}
	if ((rcv->flags & XDRBUF_READ) && rcv->page_len &&
	    RSX_HDR_MAX + rcv->head[0].iov_len + rcv->tail[0].iov_len <=
	    x->x_inline_recv) {
		sg = rsx_pages_sg(rcv->pages, rcv->page_base, rcv->page_len,
				  &nents, rsx_gfp());
		req->r_write_mr = req->r_nr_mrs;
		h->nr_write = 1;
		h->write[0].nr_segs = 1;
		err = rsx_register(req, c, sg, nents, DMA_FROM_DEVICE,
				   &h->write[0].segs[0]);
		if (!err) {
			x->x_stats.write_chunks++;
			x->x_stats.reply_bytes += rcv->page_len;
		}
		return err;
	}
	req->r_reply_bounce = rsx_bounce_alloc(rcv->buflen, rsx_gfp());
	if (!req->r_reply_bounce)
		return -ENOMEM;
	sg = rsx_bounce_sg(req->r_reply_bounce, &nents, rsx_gfp());
	req->r_reply_mr = req->r_nr_mrs;
	h->has_reply = true;
	h->reply.nr_segs = 1;
	err = rsx_register(req, c, sg, nents, DMA_FROM_DEVICE, &h->reply.segs[0]);
	if (!err) {
		x->x_stats.reply_chunks++;
		x->x_stats.reply_bytes += rcv->buflen;
	}
	return err;
}

/*
 * Encode the header into @dst and append the inline part of the call.
 * Return: bytes to send, or -errno.
 */
static int rsx_build(struct rsx_xprt *x, struct rsx_req *req,
		     struct rpcrdma_hdr *h, u8 *dst, bool read_chunk)
{
	struct xdr_buf *snd = &req->r_rqst->rq_snd_buf;
	unsigned int skip, tail_len, len;
	int hlen, err;

	hlen = rpcrdma_encode_hdr(dst, x->x_inline_send, h);
	if (hlen < 0)
		return hlen;
	len = hlen;
	if (h->proc == RPCRDMA_NOMSG)
		return len;
	if (!read_chunk) {
		if (len + snd->len > x->x_inline_send)
			return -EMSGSIZE;
		err = read_bytes_from_xdr_buf(snd, 0, dst + len, snd->len);
		return err ? err : (int)(len + snd->len);
	}
	/* Head and tail inline; the pages and their XDR pad are the chunk's. */
	skip = rsx_pad(snd->page_len);
	tail_len = snd->tail[0].iov_len > skip ? snd->tail[0].iov_len - skip : 0;
	if (len + snd->head[0].iov_len + tail_len > x->x_inline_send)
		return -EMSGSIZE;
	memcpy(dst + len, snd->head[0].iov_base, snd->head[0].iov_len);
	len += snd->head[0].iov_len;
	if (tail_len)
		memcpy(dst + len, (u8 *)snd->tail[0].iov_base + skip, tail_len);
	return len + tail_len;
}

/**
 * rsx_marshal - build and post one call on @c
 * @x: the transport
 * @c: its connection
 * @req: the RPC; armed on success
 *
 * Return: 0, or -errno (the req then holds nothing).
 */
int rsx_marshal(struct rsx_xprt *x, struct rst_conn *c, struct rsx_req *req)
{
	struct rpc_rqst *rqst = req->r_rqst;
	struct xdr_buf *snd = &rqst->rq_snd_buf;
	struct rpcrdma_hdr *h = &x->x_enc;
	unsigned int skip, tail_len;
	struct scatterlist *sg;
	bool read_chunk = false;
	struct rst_tx *tx;
	int nents = 0, len, err;

	rsx_hdr_init(h, rqst->rq_xid, rsx_credits);
	req->r_conn = c;
	req->r_nr_mrs = 0;
	req->r_write_mr = -1;
	req->r_reply_mr = -1;

	err = rsx_fill_sparse_pages(&rqst->rq_rcv_buf, rsx_gfp());
	if (err)
		return err;
	err = rst_io_begin(c);
	if (err)
		return err;
	skip = rsx_pad(snd->page_len);
	tail_len = snd->tail[0].iov_len > skip ? snd->tail[0].iov_len - skip : 0;
	if (RSX_HDR_MAX + snd->len <= x->x_inline_send) {
		x->x_stats.inline_calls++;
	} else if ((snd->flags & XDRBUF_WRITE) && snd->page_len &&
		   RSX_HDR_MAX + snd->head[0].iov_len + tail_len <= x->x_inline_send) {
		sg = rsx_pages_sg(snd->pages, snd->page_base, snd->page_len, &nents,
				  rsx_gfp());
		h->nr_read = 1;
		h->read[0].position = snd->head[0].iov_len;
		err = rsx_register(req, c, sg, nents, DMA_TO_DEVICE, &h->read[0].seg);
		if (err)
			goto fail;
		h->read[0].seg.length = snd->page_len;
		read_chunk = true;
		x->x_stats.read_chunks++;
		x->x_stats.request_bytes += snd->page_len;
	} else {
		req->r_call_bounce = rsx_bounce_alloc(snd->len, rsx_gfp());
		err = -ENOMEM;
		if (!req->r_call_bounce)
			goto fail;
		err = rsx_bounce_from_xdr(req->r_call_bounce, snd);
		if (err)
			goto fail;
		sg = rsx_bounce_sg(req->r_call_bounce, &nents, rsx_gfp());
		h->proc = RPCRDMA_NOMSG;
		h->nr_read = 1;
		h->read[0].position = 0;
		err = rsx_register(req, c, sg, nents, DMA_TO_DEVICE, &h->read[0].seg);
		if (err)
			goto fail;
		h->read[0].seg.length = snd->len;
		x->x_stats.long_calls++;
		x->x_stats.request_bytes += snd->len;
	}
	err = rsx_choose_reply(x, c, req, h);
	if (err)
		goto fail;

	tx = rst_tx_get(c, RSX_SEND_SLOT_MS);
	if (IS_ERR(tx)) {
		err = PTR_ERR(tx);
		goto fail;
	}
	len = rsx_build(x, req, h, rst_tx_buf(tx), read_chunk);
	if (len < 0) {
		rst_tx_put(c, tx);
		err = len;
		goto fail;
	}
	trace_rsx_marshal(x, req, h, len);
	/* Armed before the post: the reply may beat rst_tx_post_mrs()'s return. */
	spin_lock(&x->x_lock);
	list_add_tail(&req->r_node, &x->x_armed);
	req->r_armed = true;
	req->r_replied = false;
	spin_unlock(&x->x_lock);
	err = rst_tx_post_mrs(c, tx, len, req->r_mrs, req->r_nr_mrs, false, 0);
	if (err)
		return err;	/* armed: the close that follows releases it */
	return 0;

fail:
	x->x_stats.failed_marshal++;
	req->r_armed = true;	/* so that the release below takes it */
	INIT_LIST_HEAD(&req->r_node);
	rsx_req_release(req, false);
	return err;
}

/* Take what an armed req holds; false if someone else already did. */
static bool rsx_disarm(struct rsx_req *req)
{
	struct rsx_xprt *x = req->r_x;
	bool mine;

	spin_lock(&x->x_lock);
	mine = req->r_armed;
	req->r_armed = false;
	list_del_init(&req->r_node);
	spin_unlock(&x->x_lock);
	return mine;
}

/* Put back a disarmed req's MRs and window slot, optionally invalidating. */
static void rsx_req_put(struct rsx_req *req, bool invalidate)
{
	unsigned int i;

	if (WARN_ON_ONCE(!req->r_conn))	/* A1: armed without a connection */
		return;

	for (i = 0; i < req->r_nr_mrs; i++) {
		if (invalidate && !req->r_invalidated[i])
			rst_mr_local_invalidate(req->r_mrs[i]);
		rst_mr_put(req->r_mrs[i]);	/* freed if not invalid */
		kfree(req->r_sgs[i]);
		req->r_mrs[i] = NULL;
		req->r_sgs[i] = NULL;
	}
	req->r_nr_mrs = 0;
	rst_io_end(req->r_conn);
	req->r_conn = NULL;
	rsx_bounce_free(req->r_call_bounce);
	req->r_call_bounce = NULL;
}

/**
 * rsx_req_release - release what a req holds, if it still holds anything
 * @req: the RPC
 * @invalidate: invalidate its keys first (its connection is up)
 *
 * The Reply chunk's bounce pages stay until the reply is copied out or
 * the RPC's buffers are freed.
 */
void rsx_req_release(struct rsx_req *req, bool invalidate)
{
	if (rsx_disarm(req))
		rsx_req_put(req, invalidate);
}

/**
 * rsx_release_armed - give back what every armed req holds
 * @x: the transport, whose connection is drained (no ->recv, no reply work)
 *
 * Their keys died with the QP, so the engine frees their MRs. The RPCs
 * are retransmitted on the next connection.
 * Context: process.
 */
void rsx_release_armed(struct rsx_xprt *x)
{
	struct rsx_req *req;

	for (;;) {
		spin_lock(&x->x_lock);
		req = list_first_entry_or_null(&x->x_armed, struct rsx_req, r_node);
		if (req) {
			list_del_init(&req->r_node);
			req->r_armed = false;
		}
		spin_unlock(&x->x_lock);
		if (!req)
			return;
		trace_rsx_release_armed(x, be32_to_cpu(req->r_rqst->rq_xid), 0);
		rsx_req_put(req, false);
	}
}
