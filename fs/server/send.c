// SPDX-License-Identifier: GPL-2.0
/*
 * Replies (RFC 8166 sections 3.5.4 and 4.5, as the responder).
 *
 * A reply is the transport header, then its RPC message inline when it
 * fits what the client receives (RDMA_MSG); else the message goes into
 * the client's Reply chunk by RDMA WRITE and the Send carries the header
 * only (RDMA_NOMSG); with neither, ERR_CHUNK. A READ payload nfsd marked
 * (->xpo_result_payload) goes into the call's next Write chunk and is
 * left out of the message, with its XDR pad.
 *
 * Every WRITE is chained in front of the Send in one post, and the
 * pages they read are held by a page reference until the Send completes
 * (rsv_reply_done()), so the nfsd thread returns at once; svc gives its
 * request fresh pages. The reply invalidates the client's key with
 * Send-with-Invalidate when the client allows it and the call used one
 * key only.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xdr.h>

#include "rsv.h"
#include "trace.h"

/* A byte range of rq_res that goes somewhere. */
struct rsv_range {
	u32 off, len;
};

/* A walk over ranges of an xdr_buf. */
struct rsv_cursor {
	const struct xdr_buf *xb;
	const struct rsv_range *r;
	unsigned int nr, i;
	u32 done;			/* into r[i] */
};

/* The page and offset of byte @off of @xb; @len trimmed to stay in it. */
static struct page *rsv_xdr_page(const struct xdr_buf *xb, u32 off, u32 *len,
				 u32 *pgoff)
{
	u32 in_pages = off - xb->head[0].iov_len;
	const u8 *p;

	if (off >= xb->head[0].iov_len && in_pages < xb->page_len) {
		u32 o = xb->page_base + in_pages;

		*pgoff = offset_in_page(o);
		*len = min_t(u32, *len, xb->page_len - in_pages);
		*len = min_t(u32, *len, PAGE_SIZE - *pgoff);
		return xb->pages[o >> PAGE_SHIFT];
	}
	if (off < xb->head[0].iov_len) {
		p = (const u8 *)xb->head[0].iov_base + off;
		*len = min_t(u32, *len, xb->head[0].iov_len - off);
	} else {
		off -= xb->head[0].iov_len + xb->page_len;
		p = (const u8 *)xb->tail[0].iov_base + off;
		*len = min_t(u32, *len, xb->tail[0].iov_len - off);
	}
	*pgoff = offset_in_page(p);
	*len = min_t(u32, *len, PAGE_SIZE - *pgoff);
	return virt_to_page(p);
}

/*
 * The next @len bytes under the cursor: the scatterlist entries they
 * take (@sg NULL: count only), each page referenced in @pages.
 */
static unsigned int rsv_cursor_sg(struct rsv_cursor *cur, u32 len,
				  struct scatterlist *sg, struct page **pages)
{
	unsigned int n = 0;

	while (len && cur->i < cur->nr) {
		const struct rsv_range *r = &cur->r[cur->i];
		u32 take = min(len, r->len - cur->done), pgoff = 0;
		struct page *page;

		page = rsv_xdr_page(cur->xb, r->off + cur->done, &take, &pgoff);
		if (sg) {
			sg_set_page(&sg[n], page, take, pgoff);
			get_page(page);
			pages[n] = page;
		}
		n++;
		len -= take;
		cur->done += take;
		if (cur->done == r->len) {
			cur->i++;
			cur->done = 0;
		}
	}
	return n;
}

static void rsv_reply_free(struct rsv_reply *reply)
{
	unsigned int i;

	for (i = 0; i < reply->r_nr_pages; i++)
		put_page(reply->r_pages[i]);
	kvfree(reply->r_pages);
	kvfree(reply->r_sgl);
	kfree(reply);
}

/* The reply's Send completed or was flushed: its WRITEs are done (S3). */
static void rsv_reply_done(void *arg, int status)
{
	rsv_reply_free(arg);
}

/*
 * Parts that WRITE the cursor's next @len bytes into @chunk's segments,
 * in order. Return: 0 or -ENOMEM (out of the entries sized for).
 */
static int rsv_add_parts(struct rsv_reply *reply, struct rsv_cursor *cur,
			 const struct rpcrdma_chunk *chunk, u32 len,
			 unsigned int max_sg)
{
	u32 i;

	for (i = 0; i < chunk->nr_segs && len; i++) {
		const struct rpcrdma_seg *seg = &chunk->segs[i];
		u32 n = min(len, seg->length);
		struct rsv_cursor probe = *cur;
		struct rst_rw_part *part;
		unsigned int cnt;

		if (!n)
			continue;
		cnt = rsv_cursor_sg(&probe, n, NULL, NULL);
		if (reply->r_nr_sg + cnt > max_sg)
			return -ENOMEM;
		part = &reply->r_parts[reply->r_nr_parts++];
		part->sg = &reply->r_sgl[reply->r_nr_sg];
		sg_init_table(part->sg, cnt);
		part->nents = rsv_cursor_sg(cur, n, part->sg,
					    &reply->r_pages[reply->r_nr_pages]);
		reply->r_nr_sg += cnt;
		reply->r_nr_pages += cnt;
		part->raddr = seg->offset;
		part->rkey = seg->handle;
		len -= n;
	}
	return len ? -E2BIG : 0;
}

static struct rsv_reply *rsv_reply_alloc(struct rsv_xprt *x,
					 const struct xdr_buf *res,
					 unsigned int *max_sg)
{
	unsigned int parts = RPCRDMA_MAX_WRITE_CHUNKS * RPCRDMA_MAX_CHUNK_SEGS +
			     RPCRDMA_MAX_CHUNK_SEGS;
	struct rsv_reply *reply;

	/* pages touched, plus a split at every range and segment boundary */
	*max_sg = (res->page_len >> PAGE_SHIFT) + 4 + parts + 2 * RPCRDMA_MAX_WRITE_CHUNKS + 2;
	reply = kzalloc(struct_size(reply, r_parts, parts), GFP_KERNEL);
	if (!reply)
		return NULL;
	reply->r_x = x;
	reply->r_sgl = kvcalloc(*max_sg, sizeof(*reply->r_sgl), GFP_KERNEL);
	reply->r_pages = kvcalloc(*max_sg, sizeof(*reply->r_pages), GFP_KERNEL);
	if (!reply->r_sgl || !reply->r_pages) {
		rsv_reply_free(reply);
		return NULL;
	}
	return reply;
}

/**
 * rsv_grant - the credits to grant in a reply (S5)
 * @x: the connection
 * @may_refresh: the share may be re-read: not from ->recv, which may run
 *	in softirq while rnic_mgr's lock is held with bottom halves on (S7)
 *
 * DMA mode: the credits configured. Forced-MR mode: the MRs the rnic_mgr
 * share covers, at least one, at most the credits configured; the share
 * is re-read (at most every 100 ms) while the calls out reach it, since
 * entries may have come free.
 *
 * Return: the credits.
 */
u32 rsv_grant(struct rsv_xprt *x, bool may_refresh)
{
	u32 win, out;

	if (!x->x_use_mr)
		return rsv_credits;
	win = max(rst_mr_limit(x->x_conn), 1U);
	out = READ_ONCE(x->x_calls_out);
	if (may_refresh && out + 1 >= win &&
	    time_after(jiffies, READ_ONCE(x->x_share_checked) + HZ / 10)) {
		WRITE_ONCE(x->x_share_checked, jiffies);
		rst_refresh_share(x->x_conn);
		win = max(rst_mr_limit(x->x_conn), 1U);
	}
	win = min(win, rsv_credits);
	if (win != READ_ONCE(x->x_granted))
		trace_rsv_grant(x, win);
	WRITE_ONCE(x->x_granted, win);
	return win;
}

/**
 * rsv_result_payload - svc's ->xpo_result_payload: where a READ's data is
 * @rqstp: the request
 * @offset: the payload's offset in rq_res
 * @length: its length
 *
 * The payload goes into the call's next Write chunk when sendto runs; a
 * call without one (more) gets it inline.
 *
 * Return: 0, or -E2BIG if the payload is larger than its Write chunk.
 */
int rsv_result_payload(struct svc_rqst *rqstp, unsigned int offset,
		       unsigned int length)
{
	struct rsv_call *call = rqstp->rq_xprt_ctxt;
	unsigned int i;

	if (!call || !length)
		return 0;
	i = call->c_nr_payloads;
	if (i >= call->c_hdr.nr_write)
		return 0;
	if (length > call->c_plan.write_len[i])
		return -E2BIG;
	call->c_payload_off[i] = offset;
	call->c_payload_len[i] = length;
	call->c_nr_payloads++;
	return 0;
}

/**
 * rsv_send_error - answer a call with RDMA_ERROR
 * @x: the connection
 * @h: the call's header (its xid at least)
 * @err: -EPROTO: ERR_VERS; anything else: ERR_CHUNK
 *
 * Without a send slot (a client far over its credits) the connection
 * ends instead. Context: any; never waits.
 */
void rsv_send_error(struct rsv_xprt *x, const struct rpcrdma_hdr *h, int err)
{
	struct rpcrdma_hdr e = {
		.xid = h->xid,
		.vers = RPCRDMA_WIRE_VERSION,
		.credits = rsv_grant(x, false),
		.proc = RPCRDMA_ERROR,
		.err = err == -EPROTO ? RPCRDMA_ERR_VERS : RPCRDMA_ERR_CHUNK,
		.vers_low = RPCRDMA_WIRE_VERSION,
		.vers_high = RPCRDMA_WIRE_VERSION,
	};
	struct rst_tx *tx;
	int len;

	trace_rsv_send_error(x, h->xid, e.err);
	spin_lock_bh(&x->x_lock);
	x->x_stats.rdma_errors++;
	spin_unlock_bh(&x->x_lock);
	tx = rst_tx_tryget(x->x_conn);	/* ->recv: never waits (S7) */
	if (IS_ERR(tx)) {
		rst_disconnect(x->x_conn, -EPROTO);
		return;
	}
	len = rpcrdma_encode_hdr(rst_tx_buf(tx), x->x_inline_recv, &e);
	if (len < 0) {
		rst_tx_put(x->x_conn, tx);
		return;
	}
	rst_tx_post(x->x_conn, tx, len, NULL, false, 0);
}

/*
 * The byte ranges of rq_res that are not READ payloads (each payload
 * with its XDR pad goes by Write chunk). Return: how many; @len their
 * total.
 */
static unsigned int rsv_inline_ranges(const struct rsv_call *call,
				      const struct xdr_buf *res,
				      struct rsv_range *r, u32 *len)
{
	u32 at = 0, end, skip;
	unsigned int i, n = 0;

	*len = 0;
	for (i = 0; i < call->c_nr_payloads; i++) {
		end = min_t(u32, call->c_payload_off[i], res->len);
		if (end > at) {
			r[n++] = (struct rsv_range){ at, end - at };
			*len += end - at;
		}
		skip = xdr_align_size(call->c_payload_len[i]);
		at = max_t(u32, at, min_t(u32, end + skip, res->len));
	}
	if (res->len > at) {
		r[n++] = (struct rsv_range){ at, res->len - at };
		*len += res->len - at;
	}
	return n;
}

/**
 * rsv_sendto - svc's ->xpo_sendto: send nfsd's reply to a call
 * @rqstp: the request, its reply in rq_res
 *
 * Return: 0 if the reply (or an RDMA_ERROR in its place) is posted;
 * -ENOTCONN if the connection is gone or has to go.
 * Context: an nfsd thread; never waits for the client.
 */
int rsv_sendto(struct svc_rqst *rqstp)
{
	struct rsv_xprt *x = rsv_of(rqstp->rq_xprt);
	struct rsv_call *call = rqstp->rq_xprt_ctxt;
	const struct xdr_buf *res = &rqstp->rq_res;
	struct rsv_range ranges[RPCRDMA_MAX_WRITE_CHUNKS + 1];
	struct rpcrdma_hdr *h = &call->c_hdr;
	struct rsv_reply *reply = NULL;
	unsigned int nr_ranges, i, max_sg = 0;
	struct rsv_cursor cur;
	bool send_inv = false, had_reply = h->has_reply;
	u32 inv_rkey = 0, inline_len, reply_len = 0;
	struct rst_tx *tx;
	int hlen, err;
	u8 *buf;

	if (svc_xprt_is_dead(&x->xprt) || READ_ONCE(x->x_down))
		return -ENOTCONN;
	tx = rst_tx_get(x->x_conn, 0);
	if (IS_ERR(tx)) {
		rsv_close(x);
		return -ENOTCONN;
	}
	buf = rst_tx_buf(tx);
	if (x->x_snd_w_inv)
		send_inv = rpcrdma_call_one_handle(h, &inv_rkey);
	nr_ranges = rsv_inline_ranges(call, res, ranges, &inline_len);
	if (call->c_nr_payloads || h->has_reply) {
		reply = rsv_reply_alloc(x, res, &max_sg);
		if (!reply) {
			err = -ENOMEM;
			goto fail;
		}
	}

	/* The call's header becomes the reply's: the same xid and chunks. */
	h->vers = RPCRDMA_WIRE_VERSION;
	h->credits = rsv_grant(x, true);
	h->proc = RPCRDMA_MSG;
	h->nr_read = 0;
	for (i = 0; i < h->nr_write; i++) {
		u32 n = i < call->c_nr_payloads ? call->c_payload_len[i] : 0;
		struct rsv_range payload = { call->c_payload_off[i], n };

		if (n) {
			cur = (struct rsv_cursor){ .xb = res, .r = &payload, .nr = 1 };
			err = rsv_add_parts(reply, &cur, &h->write[i], n, max_sg);
			if (err)
				goto fail;
		}
		rpcrdma_fill_chunk(&h->write[i], n, &h->write[i]);
	}
	/* inline if it fits; the Reply chunk is then not returned */
	h->has_reply = false;
	hlen = rpcrdma_encode_hdr(buf, x->x_inline_send, h);
	if (hlen >= 0 && hlen + inline_len <= x->x_inline_send) {
		u32 at = hlen;

		for (i = 0; i < nr_ranges; i++) {
			read_bytes_from_xdr_buf(res, ranges[i].off, buf + at,
						ranges[i].len);
			at += ranges[i].len;
		}
		hlen = at;
	} else {
		const struct rpcrdma_call_plan *plan = &call->c_plan;

		if (!had_reply || inline_len > plan->reply_len) {
			err = -E2BIG;
			goto fail;
		}
		cur = (struct rsv_cursor){ .xb = res, .r = ranges, .nr = nr_ranges };
		err = rsv_add_parts(reply, &cur, &h->reply, inline_len, max_sg);
		if (err)
			goto fail;
		rpcrdma_fill_chunk(&h->reply, inline_len, &h->reply);
		h->has_reply = true;
		h->proc = RPCRDMA_NOMSG;
		reply_len = inline_len;
		hlen = rpcrdma_encode_hdr(buf, x->x_inline_send, h);
		if (hlen < 0) {
			err = -E2BIG;
			goto fail;
		}
	}
	trace_rsv_reply(x, h, hlen, reply ? reply->r_nr_parts : 0, send_inv);
	spin_lock_bh(&x->x_lock);
	if (reply_len)
		x->x_stats.reply_chunks++;
	else
		x->x_stats.inline_replies++;
	x->x_stats.write_chunks += call->c_nr_payloads;
	x->x_stats.send_inv += send_inv;
	spin_unlock_bh(&x->x_lock);
	if (!reply || !reply->r_nr_parts) {
		if (reply)
			rsv_reply_free(reply);
		err = rst_tx_post(x->x_conn, tx, hlen, NULL, send_inv, inv_rkey);
	} else {
		rst_tx_on_done(tx, rsv_reply_done, reply);
		err = rst_rw_writev_send_async(x->x_conn, reply->r_parts,
					       reply->r_nr_parts, tx, hlen,
					       send_inv, inv_rkey);
	}
	return err ? -ENOTCONN : 0;

fail:
	rst_tx_put(x->x_conn, tx);
	if (reply)
		rsv_reply_free(reply);
	if (err == -E2BIG) {
		/* the reply does not fit what the client offered */
		rsv_send_error(x, h, err);
		return 0;
	}
	rsv_close(x);
	return -ENOTCONN;
}
