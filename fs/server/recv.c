// SPDX-License-Identifier: GPL-2.0
/*
 * Receiving calls (RFC 8166 sections 3.5 and 4.4, as the responder).
 *
 * Every Send is decoded and its chunk lists checked (rpcrdma_plan_call(),
 * pure C) in the completion context, before nfsd sees anything. A call
 * with a Read chunk has the chunk pulled by RDMA READs into pages of its
 * own, posted from rsv_wq; nfsd's thread only takes finished calls
 * (->xpo_recvfrom), so no nfsd thread waits on a client's RDMA.
 *
 * What a client can get wrong and what it gets back:
 *   a version other than 1                 RDMA_ERROR ERR_VERS
 *   a header that does not decode, chunk   RDMA_ERROR ERR_CHUNK
 *   lists that contradict themselves or
 *   the message, a chunk too large
 *   fewer than 4 bytes (no xid), an        disconnect
 *   RDMA_ERROR or a reply we never asked
 *   for, more calls than its credits
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/highmem.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/wait_bit.h>

#include "rsv.h"
#include "trace.h"

/**
 * rsv_protocol_error - the client broke the protocol: count it, end it
 * @x: the connection
 * @what: what the client did, for the log and the trace
 *
 * Context: any but hard IRQ; never waits.
 */
void rsv_protocol_error(struct rsv_xprt *x, const char *what)
{
	spin_lock_bh(&x->x_lock);
	x->x_stats.bad_calls++;
	spin_unlock_bh(&x->x_lock);
	trace_rsv_protocol_error(x, what);
	pr_info_ratelimited("%s: protocol error: %s; disconnecting\n",
			    x->x_name, what);
	rst_disconnect(x->x_conn, -EPROTO);
}

/**
 * rsv_calls_alloc - a connection's calls, one per credit
 * @x: the connection
 * @n: how many
 *
 * Return: 0 or -ENOMEM.
 */
int rsv_calls_alloc(struct rsv_xprt *x, unsigned int n)
{
	unsigned int i;

	x->x_calls = kvcalloc(n, sizeof(*x->x_calls), GFP_KERNEL);
	if (!x->x_calls)
		return -ENOMEM;
	x->x_nr_calls = n;
	for (i = 0; i < n; i++) {
		x->x_calls[i].c_x = x;
		list_add_tail(&x->x_calls[i].c_node, &x->x_calls_free);
	}
	return 0;
}

/**
 * rsv_calls_free - free a connection's calls, all of them back (S2)
 * @x: the connection
 */
void rsv_calls_free(struct rsv_xprt *x)
{
	unsigned int i;

	for (i = 0; i < x->x_nr_calls; i++)
		WARN_ON_ONCE(x->x_calls[i].c_out);
	kvfree(x->x_calls);
	x->x_calls = NULL;
	x->x_nr_calls = 0;
}

static struct rsv_call *rsv_call_get(struct rsv_xprt *x)
{
	struct rsv_call *call;

	spin_lock_bh(&x->x_lock);
	call = list_first_entry_or_null(&x->x_calls_free, struct rsv_call, c_node);
	if (call) {
		list_del_init(&call->c_node);
		call->c_out = true;
		x->x_calls_out++;
	}
	spin_unlock_bh(&x->x_lock);
	return call;
}

/* The Read chunk's pages and what described them; pages not handed on. */
static void rsv_call_free_chunk(struct rsv_call *call)
{
	unsigned int i;

	if (call->c_pages) {
		for (i = 0; i < call->c_nr_pages; i++)
			if (call->c_pages[i])
				put_page(call->c_pages[i]);
		kvfree(call->c_pages);
	}
	call->c_pages = NULL;
	call->c_nr_pages = 0;
	kvfree(call->c_sgl);
	call->c_sgl = NULL;
	kfree(call->c_reads);
	call->c_reads = NULL;
	rsv_pull_uncharge(call);
}

/**
 * rsv_call_put - a call is done with: back on the free list (S2)
 * @call: the call; its receive buffer is released if it still holds it
 */
void rsv_call_put(struct rsv_call *call)
{
	struct rsv_xprt *x = call->c_x;

	if (call->c_rx) {
		rst_rx_release(x->x_conn, call->c_rx);
		call->c_rx = NULL;
	}
	rsv_call_free_chunk(call);
	call->c_nr_payloads = 0;
	spin_lock_bh(&x->x_lock);
	if (!WARN_ON_ONCE(!call->c_out)) {
		call->c_out = false;
		x->x_calls_out--;
		list_add(&call->c_node, &x->x_calls_free);
	}
	spin_unlock_bh(&x->x_lock);
}

/*
 * svc's reference, if svc has the transport: for waking it. NULL if svc
 * has not taken it yet (->xpo_accept then looks at x_ready itself) or
 * has let go of it.
 */
static struct svc_xprt *rsv_svc_get(struct rsv_xprt *x)
{
	struct svc_xprt *xprt = NULL;

	if (x->x_svc_live && !x->x_svc_gone && kref_get_unless_zero(&x->xprt.xpt_ref))
		xprt = &x->xprt;
	return xprt;
}

/**
 * rsv_put_work - drop svc's last reference, which rsv_svc_put() handed on
 * @work: the connection's x_put_work
 */
void rsv_put_work(struct work_struct *work)
{
	struct rsv_xprt *x = container_of(work, struct rsv_xprt, x_put_work);

	WARN_ON_ONCE(in_interrupt());	/* S7: ->xpo_free sleeps */
	svc_xprt_put(&x->xprt);
}

/*
 * Drop a reference rsv_svc_get() took, from a completion (S7): the last
 * one frees the svc_xprt, which sleeps (->xpo_free, the backchannel's
 * xprt_put()), so it goes to x_put_work. Only the holder of the last
 * reference gets there, once: the work item is queued once at most.
 */
static void rsv_svc_put(struct rsv_xprt *x)
{
	if (refcount_dec_not_one(&x->xprt.xpt_ref.refcount))
		return;
	queue_work(rsv_wq, &x->x_put_work);
}

/* A call is complete: nfsd may take it. Context: a completion. */
static void rsv_call_ready(struct rsv_call *call)
{
	struct rsv_xprt *x = call->c_x;
	struct svc_xprt *xprt;

	spin_lock_bh(&x->x_lock);
	if (x->x_down) {
		spin_unlock_bh(&x->x_lock);
		rsv_call_put(call);
		return;
	}
	list_add_tail(&call->c_node, &x->x_ready);
	xprt = rsv_svc_get(x);
	spin_unlock_bh(&x->x_lock);
	if (!xprt)
		return;
	set_bit(XPT_DATA, &xprt->xpt_flags);
	svc_xprt_enqueue(xprt);
	rsv_svc_put(x);
}

/**
 * rsv_drop_ready - drop the calls nfsd has not taken (connection down)
 * @x: the connection
 */
void rsv_drop_ready(struct rsv_xprt *x)
{
	struct rsv_call *call;

	for (;;) {
		spin_lock_bh(&x->x_lock);
		call = list_first_entry_or_null(&x->x_ready, struct rsv_call, c_node);
		if (call)
			list_del_init(&call->c_node);
		spin_unlock_bh(&x->x_lock);
		if (!call)
			return;
		rsv_call_put(call);
	}
}

static void rsv_read_done(struct rst_read_op *op, int status)
{
	struct rsv_read *r = container_of(op, struct rsv_read, r_op);
	struct rsv_call *call = r->r_call;

	if (status)
		call->c_status = status;
	if (!atomic_dec_and_test(&call->c_reads_left))
		return;
	trace_rsv_pull_done(call->c_x, call, call->c_status);
	if (call->c_status) {
		/* the connection is going down: nobody is waiting for an answer */
		rsv_call_put(call);
		return;
	}
	rsv_call_ready(call);
}

/*
 * Describe bytes [@off, @off + @len) of the chunk's pages in @sg.
 * Return: the entries used.
 */
static unsigned int rsv_chunk_sg(struct rsv_call *call, struct scatterlist *sg,
				 u32 off, u32 len)
{
	unsigned int n = 0, first = off >> PAGE_SHIFT;
	unsigned int last = (off + len - 1) >> PAGE_SHIFT;
	u32 in_page = offset_in_page(off);

	sg_init_table(sg, last - first + 1);
	while (len) {
		u32 take = min_t(u32, len, PAGE_SIZE - in_page);

		sg_set_page(&sg[n++], call->c_pages[first++], take, in_page);
		len -= take;
		in_page = 0;
	}
	return n;
}

/*
 * A pull work of @x is over: the last one wakes rsv_disconnected(),
 * which waits for this connection's pulls only, not the whole
 * workqueue. wake_up_var() only hashes the address: @x may be gone.
 */
static void rsv_pull_end(struct rsv_xprt *x)
{
	if (atomic_dec_and_test(&x->x_pulls))
		wake_up_var(&x->x_pulls);
}

/**
 * rsv_pull_work - pull a call's Read chunk (c_pull_work, on rsv_wq)
 * @work: the call's c_pull_work
 *
 * Pages for the whole chunk (with its XDR pad), then one RDMA READ per
 * segment, all posted at once; the last completion (rsv_read_done())
 * hands the call to nfsd. Queued by pull.c once the call's bytes
 * fit the pull budget.
 */
void rsv_pull_work(struct work_struct *work)
{
	struct rsv_call *call = container_of(work, struct rsv_call, c_pull_work);
	struct rsv_xprt *x = call->c_x;
	const struct rpcrdma_hdr *h = &call->c_hdr;
	u32 len = call->c_plan.chunk_len, off = 0;
	unsigned int i, np, got = 0, k = 0;
	struct scatterlist *sg;
	int err = -ENOMEM;

	if (READ_ONCE(x->x_down))
		goto drop;
	np = DIV_ROUND_UP(round_up(len, 4), PAGE_SIZE);
	call->c_pages = kvcalloc(np, sizeof(*call->c_pages), GFP_KERNEL);
	call->c_sgl = kvcalloc(np + h->nr_read, sizeof(*call->c_sgl), GFP_KERNEL);
	call->c_reads = kcalloc(h->nr_read, sizeof(*call->c_reads), GFP_KERNEL);
	if (!call->c_pages || !call->c_sgl || !call->c_reads)
		goto drop;
	call->c_nr_pages = np;
	while (got < np) {
		unsigned long n = alloc_pages_bulk_array(GFP_KERNEL, np, call->c_pages);

		if (n == got)
			goto drop;
		got = n;
	}
	/* the pad the client left out reads as zeros (RFC 8166 3.4.5.2) */
	if (len & 3)
		memzero_page(call->c_pages[len >> PAGE_SHIFT], offset_in_page(len),
			     4 - (len & 3));

	call->c_status = 0;
	/*
	 * Every READ knows its call before any is posted: the guard below
	 * completes through c_reads[0], whose segment may be one of length
	 * zero that is never posted (a client may send one).
	 */
	for (i = 0; i < h->nr_read; i++)
		call->c_reads[i].r_call = call;
	atomic_set(&call->c_reads_left, h->nr_read + 1);
	/* pages in hand: from here to rsv_pull_done is the READs' own time */
	trace_rsv_pull_post(x, call);
	for (i = 0; i < h->nr_read; i++) {
		const struct rpcrdma_seg *seg = &h->read[i].seg;
		struct rsv_read *r = &call->c_reads[i];
		unsigned int n;

		if (!seg->length) {
			atomic_dec(&call->c_reads_left);
			continue;
		}
		sg = &call->c_sgl[k];
		n = rsv_chunk_sg(call, sg, off, seg->length);
		k += n;
		off += seg->length;
		r->r_op.done = rsv_read_done;
		err = rst_rw_read_async(x->x_conn, &r->r_op, sg, n, 0, seg->offset,
					seg->handle, x->x_use_mr);
		if (err) {
			/* not posted: the connection is going down */
			call->c_status = err;
			atomic_sub(h->nr_read - i, &call->c_reads_left);
			break;
		}
	}
	/* the guard: the call is done when every posted READ is */
	rsv_read_done(&call->c_reads[0].r_op, 0);
	rsv_pull_end(x);
	return;
drop:
	trace_rsv_pull_done(x, call, err);
	rsv_call_put(call);
	rsv_pull_end(x);
}

/**
 * rsv_recv - the engine's ->recv: a Send from the client
 * @rc: the connection
 * @buf: the message, valid until we return unless held
 * @len: its length
 * @inv: sent with invalidate (a client never has reason to)
 * @inv_rkey: the key it invalidated
 *
 * Context: completion (softirq with rsv_cq_softirq, else the CQ's work),
 * one at a time per connection; never sleeps (S7).
 */
void rsv_recv(struct rst_conn *rc, const void *buf, u32 len, bool inv,
	      u32 inv_rkey)
{
	struct rsv_xprt *x = rst_conn_priv(rc);
	struct rpcrdma_hdr *h = &x->x_dec;
	struct rpcrdma_call_plan plan;
	struct rsv_call *call;
	int err;

	if (inv) {
		rsv_protocol_error(x, "a call sent with invalidate");
		return;
	}
	err = rpcrdma_decode_hdr(buf, len, h);
	if (err && len < 4) {
		rsv_protocol_error(x, "a message without an xid");
		return;
	}
	if (err) {
		trace_rsv_bad_call(x, h, err);
		rsv_send_error(x, h, err);
		return;
	}
	if (h->proc == RPCRDMA_ERROR) {
		rsv_protocol_error(x, "RDMA_ERROR from a client");
		return;
	}
	if (rpcrdma_is_bc_reply(h, (const u8 *)buf + h->len, len - h->len)) {
		rsv_bc_queue(x, h, (const u8 *)buf + h->len, len - h->len);
		return;
	}
	err = rpcrdma_plan_call(h, len, RSV_MAX_CHUNK, &plan);
	if (err == -EPROTO) {
		rsv_protocol_error(x, "not a call");
		return;
	}
	if (err) {
		trace_rsv_bad_call(x, h, err);
		rsv_send_error(x, h, err);
		return;
	}
	call = rsv_call_get(x);
	if (!call) {
		rsv_protocol_error(x, "more calls than credits");
		return;
	}
	call->c_rx = rsv_fault_rx_hold() ? NULL : rst_rx_hold(rc);
	if (!call->c_rx) {
		rsv_call_put(call);
		rsv_protocol_error(x, "more calls than the receive ring holds");
		return;
	}
	call->c_hdr = *h;
	call->c_plan = plan;
	call->c_msg = (const u8 *)buf + h->len;
	call->c_nr_payloads = 0;
	trace_rsv_call(x, call);
	spin_lock_bh(&x->x_lock);
	x->x_stats.calls++;
	if (plan.kind == RPCRDMA_CALL_INLINE)
		x->x_stats.inline_calls++;
	else if (plan.kind == RPCRDMA_CALL_DATA_CHUNK)
		x->x_stats.data_chunks++;
	else
		x->x_stats.long_calls++;
	spin_unlock_bh(&x->x_lock);
	if (plan.kind == RPCRDMA_CALL_INLINE) {
		rsv_call_ready(call);
		return;
	}
	rsv_pull_submit(call);
}

/* Put @page in rq_pages[@k], the one there going back to the allocator. */
static void rsv_swap_page(struct svc_rqst *rqstp, unsigned int k,
			  struct page *page)
{
	if (rqstp->rq_pages[k])
		put_page(rqstp->rq_pages[k]);
	rqstp->rq_pages[k] = page;
}

/* Copy @len bytes of @src into rq_pages from @k on; return pages used. */
static unsigned int rsv_copy_to_pages(struct svc_rqst *rqstp, unsigned int k,
				      const u8 *src, u32 len)
{
	unsigned int n = 0;

	while (len) {
		u32 take = min_t(u32, len, PAGE_SIZE);

		memcpy(page_address(rqstp->rq_pages[k + n]), src, take);
		src += take;
		len -= take;
		n++;
	}
	return n;
}

/* Copy @len bytes of @src into the stream of @pages at *@off. */
static void rsv_stream_put(struct page **pages, u32 *off, const u8 *src, u32 len)
{
	while (len) {
		u32 in = offset_in_page(*off);
		u32 take = min_t(u32, len, PAGE_SIZE - in);

		memcpy((u8 *)page_address(pages[*off >> PAGE_SHIFT]) + in, src, take);
		*off += take;
		src += take;
		len -= take;
	}
}

/*
 * A data-chunk call whose inline bytes do not fit the head page (more
 * than 4 KiB of RPC around the chunk: reachable with 16 KiB inline).
 * nfsd's head is one page, so the call becomes one stream in the
 * request's pages: the bytes before the chunk's position, the chunk's
 * data (copied: it no longer starts on a page), the rest. Rare, and
 * correct rather than fast. Return: pages used, or 0 if too few.
 */
static unsigned int rsv_build_stream(struct svc_rqst *rqstp, struct rsv_call *call,
				     unsigned int avail)
{
	const struct rpcrdma_call_plan *plan = &call->c_plan;
	unsigned int used = DIV_ROUND_UP(plan->msg_len, PAGE_SIZE), i;
	u32 off = 0, left = round_up(plan->chunk_len, 4);

	if (used + 1 > avail)
		return 0;
	rsv_stream_put(rqstp->rq_pages, &off, call->c_msg, plan->position);
	for (i = 0; left; i++) {
		u32 take = min_t(u32, left, PAGE_SIZE);

		rsv_stream_put(rqstp->rq_pages, &off, page_address(call->c_pages[i]), take);
		left -= take;
	}
	rsv_stream_put(rqstp->rq_pages, &off, call->c_msg + plan->position,
		       plan->inline_len - plan->position);
	return used;
}

/*
 * Lay the call out in rq_arg: the inline bytes copied into the request's
 * own pages, the Read chunk's pages swapped in. Return: pages of rq_pages
 * the call uses, or 0 if they are too few.
 */
static unsigned int rsv_build_arg(struct svc_rqst *rqstp, struct rsv_call *call)
{
	const struct rpcrdma_call_plan *plan = &call->c_plan;
	struct xdr_buf *arg = &rqstp->rq_arg;
	unsigned int avail = rqstp->rq_page_end - rqstp->rq_pages;
	unsigned int used, i;
	u8 *head;

	/* at least one page stays for the reply */
	switch (plan->kind) {
	case RPCRDMA_CALL_INLINE:
		used = DIV_ROUND_UP(plan->inline_len, PAGE_SIZE);
		if (used + 1 > avail)
			return 0;
		rsv_copy_to_pages(rqstp, 0, call->c_msg, plan->inline_len);
		break;
	case RPCRDMA_CALL_DATA_CHUNK:
		if (plan->inline_len > PAGE_SIZE) {
			used = rsv_build_stream(rqstp, call, avail);
			if (!used)
				return 0;
			break;
		}
		used = 1 + call->c_nr_pages;
		if (used + 1 > avail)
			return 0;
		head = page_address(rqstp->rq_pages[0]);
		memcpy(head, call->c_msg, plan->inline_len);
		for (i = 0; i < call->c_nr_pages; i++) {
			rsv_swap_page(rqstp, 1 + i, call->c_pages[i]);
			call->c_pages[i] = NULL;
		}
		arg->head[0].iov_base = head;
		arg->head[0].iov_len = plan->position;
		arg->pages = &rqstp->rq_pages[1];
		arg->page_base = 0;
		arg->page_len = round_up(plan->chunk_len, 4);
		arg->tail[0].iov_base = head + plan->position;
		arg->tail[0].iov_len = plan->inline_len - plan->position;
		goto done;
	default:	/* RPCRDMA_CALL_LONG */
		used = call->c_nr_pages;
		if (used + 1 > avail)
			return 0;
		for (i = 0; i < call->c_nr_pages; i++) {
			rsv_swap_page(rqstp, i, call->c_pages[i]);
			call->c_pages[i] = NULL;
		}
		break;
	}
	/* the message as a stream: the first page is the head */
	arg->head[0].iov_base = page_address(rqstp->rq_pages[0]);
	arg->head[0].iov_len = min_t(u32, plan->msg_len, PAGE_SIZE);
	arg->pages = &rqstp->rq_pages[1];
	arg->page_base = 0;
	arg->page_len = plan->msg_len - arg->head[0].iov_len;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
done:
	arg->len = plan->msg_len;
	arg->buflen = plan->msg_len;
	return used;
}

/**
 * rsv_recvfrom - svc's ->xpo_recvfrom: hand nfsd the next ready call
 * @rqstp: the request to fill in
 *
 * Return: bytes of the call, or 0 if none is ready (or it was dropped).
 * Context: an nfsd thread; copies, never waits.
 */
int rsv_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	struct rsv_xprt *x = rsv_of(xprt);
	struct rsv_call *call;
	unsigned int used;

	/* nothing of rq_pages is ours to release when we return 0 */
	rqstp->rq_respages = rqstp->rq_pages;
	rqstp->rq_next_page = rqstp->rq_respages;
	rqstp->rq_xprt_ctxt = NULL;

	spin_lock_bh(&x->x_lock);
	call = list_first_entry_or_null(&x->x_ready, struct rsv_call, c_node);
	if (call)
		list_del_init(&call->c_node);
	else
		clear_bit(XPT_DATA, &xprt->xpt_flags);
	spin_unlock_bh(&x->x_lock);
	svc_xprt_received(xprt);
	if (!call)
		return 0;

	used = rsv_build_arg(rqstp, call);
	/* the inline part is copied: the receive buffer goes back (S1) */
	rst_rx_release(x->x_conn, call->c_rx);
	call->c_rx = NULL;
	call->c_msg = NULL;
	if (!used) {
		rsv_send_error(x, &call->c_hdr, -E2BIG);
		rsv_call_put(call);
		return 0;
	}
	rsv_call_free_chunk(call);	/* the pages are the request's now */
	rqstp->rq_respages = &rqstp->rq_pages[used];
	rqstp->rq_next_page = rqstp->rq_respages;
	rqstp->rq_xprt_ctxt = call;
	rqstp->rq_prot = IPPROTO_MAX;
	/* no reserved ports on RDMA: every caller counts as on one */
	set_bit(RQ_SECURE, &rqstp->rq_flags);
	svc_xprt_copy_addrs(rqstp, xprt);
	trace_rsv_recvfrom(x, call);
	return rqstp->rq_arg.len;
}

/**
 * rsv_release_ctxt - svc's ->xpo_release_ctxt: nfsd is done with a call
 * @xprt: the connection
 * @ctxt: the call (rq_xprt_ctxt), or NULL
 */
void rsv_release_ctxt(struct svc_xprt *xprt, void *ctxt)
{
	if (ctxt)
		rsv_call_put(ctxt);
}
