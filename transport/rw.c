// SPDX-License-Identifier: GPL-2.0
/*
 * Target-side data movement: RDMA WRITE into and RDMA READ from the
 * initiator's registered buffer. Local buffers are referenced by DMA
 * address with the local DMA lkey; rdma_rw registers an MR only where
 * the device needs one for a READ sink (iWARP).
 */
#include <linux/module.h>

#include "rst_int.h"
#include "trace.h"

/*
 * rdma_rw_ctx_init() for @c. A failure (no memory for the context, a DMA
 * mapping that failed) ends the connection: the ULP cannot answer the
 * I/O it was for, and the peer must not wait for that answer on a
 * connection that stays up.
 */
static int rst_rw_init(struct rst_conn *c, struct rdma_rw_ctx *ctx,
		       struct scatterlist *sg, u32 nents, u32 sg_off, u64 raddr,
		       u32 rkey, enum dma_data_direction dir)
{
	int n = rst_fault_rw_init() ? -EIO :
		rdma_rw_ctx_init(ctx, c->c_qp, c->c_port, sg, nents, sg_off,
				 raddr, rkey, dir);

	if (n < 0) {
		pr_warn_ratelimited("%s: cannot set up an RDMA %s of %u entries (%d): disconnecting\n",
				    c->c_p.name, dir == DMA_TO_DEVICE ? "WRITE" : "READ",
				    nents, n);
		rst_post_error(c, dir == DMA_TO_DEVICE ? "rw_ctx WRITE" : "rw_ctx READ",
			       n);
	}
	return n;
}

/*
 * Post the RDMA WRITE of @sg chained in front of @tx's send. The
 * context is destroyed when the send completes (rst_tx_done()).
 */
static int rst_rw_write_post(struct rst_conn *c, struct scatterlist *sg,
			     u32 nents, u64 raddr, u32 rkey, struct rst_tx *tx,
			     u32 len, bool send_inv)
{
	struct ib_send_wr *send;
	int n, err;

	if (len > c->c_p.msg_size) {
		rst_tx_put(c, tx);
		return -EINVAL;
	}
	if (READ_ONCE(c->c_state) == RST_DOWN) {
		rst_tx_put(c, tx);
		return -ENOTCONN;
	}
	n = rst_rw_init(c, &tx->tx_rw, sg, nents, 0, raddr, rkey, DMA_TO_DEVICE);
	if (n < 0) {
		rst_tx_put(c, tx);
		return n;
	}
	tx->tx_rw_sg = sg;
	tx->tx_rw_nents = nents;
	send = rst_tx_prepare(c, tx, len, send_inv, rkey);
	err = rst_tx_post_chain(c, tx, rdma_rw_ctx_wrs(&tx->tx_rw, c->c_qp,
						       c->c_port, NULL, send));
	if (err) {
		rdma_rw_ctx_destroy(&tx->tx_rw, c->c_qp, c->c_port, sg, nents,
				    DMA_TO_DEVICE);
		tx->tx_rw_sg = NULL;
		rst_tx_put(c, tx);
		rst_post_error(c, "RDMA WRITE", err);
	}
	return err;
}

/**
 * rst_rw_write_send - RDMA WRITE data to the peer, then send a reply
 * @c: the connection
 * @sg: local data (DMA-mapped here until the send completes)
 * @nents: entries in @sg
 * @raddr: the peer's address
 * @rkey: the peer's key
 * @tx: the reply's send slot, filled in; consumed
 * @len: reply length
 * @send_inv: send the reply with invalidate of @rkey
 *
 * RC ordering puts the data before the reply. Waits until the reply's
 * send has completed (or was flushed), so @sg may be reused on return.
 *
 * Return: 0 or an errno (the connection is then going down).
 * Context: process, sleeps.
 */
int rst_rw_write_send(struct rst_conn *c, struct scatterlist *sg, u32 nents,
		      u64 raddr, u32 rkey, struct rst_tx *tx, u32 len,
		      bool send_inv)
{
	DECLARE_COMPLETION_ONSTACK(done);
	int err;

	tx->tx_done = &done;
	err = rst_rw_write_post(c, sg, nents, raddr, rkey, tx, len, send_inv);
	if (err) {
		tx->tx_done = NULL;
		return err;
	}
	wait_for_completion(&done);
	return tx->tx_status;
}
EXPORT_SYMBOL_GPL(rst_rw_write_send);

/**
 * rst_rw_write_send_async - rst_rw_write_send() without waiting
 * @c: the connection
 * @sg: local data (DMA-mapped here until the send completes)
 * @nents: entries in @sg
 * @raddr: the peer's address
 * @rkey: the peer's key
 * @tx: the reply's send slot, filled in; consumed
 * @len: reply length
 * @send_inv: send the reply with invalidate of @rkey
 *
 * Completion is reported through the callback set on
 * @tx with rst_tx_on_done(), which also runs (before this returns) if
 * nothing could be posted; @sg must stay until then.
 *
 * Return: 0 if posted, else an errno.
 * Context: process or completion context; does not sleep.
 */
int rst_rw_write_send_async(struct rst_conn *c, struct scatterlist *sg,
			    u32 nents, u64 raddr, u32 rkey, struct rst_tx *tx,
			    u32 len, bool send_inv)
{
	return rst_rw_write_post(c, sg, nents, raddr, rkey, tx, len, send_inv);
}
EXPORT_SYMBOL_GPL(rst_rw_write_send_async);

/**
 * rst_rw_parts_destroy - release the RDMA WRITE contexts of a send
 * @c: the connection
 * @parts: the send's parts, their contexts initialised
 * @nr: how many
 */
void rst_rw_parts_destroy(struct rst_conn *c, struct rst_rw_part *parts, u32 nr)
{
	u32 i;

	for (i = 0; i < nr; i++)
		rdma_rw_ctx_destroy(&parts[i].ctx, c->c_qp, c->c_port, parts[i].sg,
				    parts[i].nents, DMA_TO_DEVICE);
}

/**
 * rst_rw_writev_send_async - RDMA WRITE to several places, then send
 * @c: the connection
 * @parts: what goes where (the caller's until the send completes)
 * @nr_parts: how many (0: just the send)
 * @tx: the reply's send slot, filled in; consumed
 * @len: reply length
 * @send_inv: send the reply with invalidate of @inv_rkey
 * @inv_rkey: the peer's key to invalidate
 *
 * One chain: every WRITE, then the send, which RC ordering delivers
 * after the data. Completion is reported through the callback set on
 * @tx with rst_tx_on_done(), which also runs (before this returns) if
 * nothing could be posted; @parts and their pages must stay until then.
 *
 * Return: 0 if posted, else an errno (the connection is then going
 * down, except for -EINVAL: @len too long).
 * Context: process or completion context; does not sleep.
 */
int rst_rw_writev_send_async(struct rst_conn *c, struct rst_rw_part *parts,
			     u32 nr_parts, struct rst_tx *tx, u32 len,
			     bool send_inv, u32 inv_rkey)
{
	struct ib_send_wr *first;
	u32 i;
	int n, err;

	if (len > c->c_p.msg_size) {
		rst_tx_put(c, tx);
		return -EINVAL;
	}
	if (READ_ONCE(c->c_state) == RST_DOWN) {
		rst_tx_put(c, tx);
		return -ENOTCONN;
	}
	for (i = 0; i < nr_parts; i++) {
		n = rst_rw_init(c, &parts[i].ctx, parts[i].sg, parts[i].nents, 0,
				parts[i].raddr, parts[i].rkey, DMA_TO_DEVICE);
		if (n < 0) {
			rst_rw_parts_destroy(c, parts, i);
			rst_tx_put(c, tx);
			return n;
		}
	}
	tx->tx_parts = parts;
	tx->tx_nr_parts = nr_parts;
	first = rst_tx_prepare(c, tx, len, send_inv, inv_rkey);
	for (i = nr_parts; i-- > 0;)
		first = rdma_rw_ctx_wrs(&parts[i].ctx, c->c_qp, c->c_port, NULL,
					first);
	err = rst_tx_post_chain(c, tx, first);
	if (err) {
		rst_rw_parts_destroy(c, parts, nr_parts);
		tx->tx_parts = NULL;
		tx->tx_nr_parts = 0;
		rst_tx_put(c, tx);
		rst_post_error(c, "RDMA WRITE", err);
	}
	return err;
}
EXPORT_SYMBOL_GPL(rst_rw_writev_send_async);

struct rst_read {
	struct ib_cqe r_cqe;
	struct completion r_done;
	struct rst_conn *r_conn;
	int r_status;
	struct rst_cid r_cid;
};

static void rst_read_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rst_read *r = container_of(wc->wr_cqe, struct rst_read, r_cqe);

	trace_rst_wc_read(wc, &r->r_cid);
	rst_cqe_check(r->r_conn);
	r->r_status = wc->status == IB_WC_SUCCESS ? 0 : -EIO;
	if (wc->status != IB_WC_SUCCESS)
		rst_wc_error(r->r_conn, wc, "RDMA READ");
	complete(&r->r_done);
}

/**
 * rst_rw_read - RDMA READ the peer's buffer into local pages
 * @c: the connection
 * @sg: local pages
 * @nents: entries in @sg
 * @raddr: the peer's address
 * @rkey: the peer's key
 *
 * Return: 0 once the data is in @sg, or an errno.
 * Context: process, sleeps.
 */
int rst_rw_read(struct rst_conn *c, struct scatterlist *sg, u32 nents,
		u64 raddr, u32 rkey)
{
	struct rdma_rw_ctx ctx;
	struct rst_read r = { .r_conn = c, .r_cqe.done = rst_read_done };
	int n, err;

	if (READ_ONCE(c->c_state) == RST_DOWN)
		return -ENOTCONN;
	init_completion(&r.r_done);
	rst_cid_init(c, &r.r_cid);
	n = rst_rw_init(c, &ctx, sg, nents, 0, raddr, rkey, DMA_FROM_DEVICE);
	if (n < 0)
		return n;
	err = rst_post_rw(c, &ctx, &r.r_cqe);
	if (err)
		rst_post_error(c, "RDMA READ", err);
	else
		wait_for_completion(&r.r_done);
	rdma_rw_ctx_destroy(&ctx, c->c_qp, c->c_port, sg, nents, DMA_FROM_DEVICE);
	return err ? err : r.r_status;
}
EXPORT_SYMBOL_GPL(rst_rw_read);

/* An unsignaled RDMA READ reports here only when it failed. */
static void rst_read_op_rd_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rst_read_op *op = container_of(wc->wr_cqe, struct rst_read_op,
					      op_rd_cqe);

	trace_rst_wc_read(wc, &op->op_cid);
	rst_cqe_check(op->op_conn);
	rst_wc_error(op->op_conn, wc, "RDMA READ");
}

static void rst_read_op_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rst_read_op *op = container_of(wc->wr_cqe, struct rst_read_op,
					      op_cqe);
	struct rst_conn *c = op->op_conn;
	int status = wc->status == IB_WC_SUCCESS ? 0 : -EIO;

	trace_rst_wc_read(wc, &op->op_cid);
	rst_cqe_check(c);
	if (status)
		rst_wc_error(c, wc, "RDMA READ");
	if (op->op_mr) {
		/* the fenced LOCAL_INV completed: the key is dead */
		if (status)
			op->op_mr->mr_status = status;
		else
			op->op_mr->mr_state = RST_MR_IDLE;
		if (!status)
			trace_rst_mr_local_inv(op->op_mr);
		spin_lock_irq(&c->c_lock);
		if (!status)
			c->c_stats.local_inv++;
		spin_unlock_irq(&c->c_lock);
		/* unmaps the pages; an MR to free waits for a work item in softirq */
		if (c->c_p.cq_softirq)
			rst_mr_put_nosleep(op->op_mr);
		else
			rst_mr_put(op->op_mr);
		op->op_mr = NULL;
	} else {
		rdma_rw_ctx_destroy(&op->op_rw, c->c_qp, c->c_port, op->op_sg,
				    op->op_nents, DMA_FROM_DEVICE);
	}
	op->done(op, status);
}

/**
 * rst_read_post_mr - post a forced-MR READ with the MR it got
 * @c: the connection
 * @op: from rst_rw_read_async(): op_sg, op_nents, op_sg_off (within the
 *	first entry), op_raddr, op_rkey
 * @m: from rst_mr_tryget(), ours until the LOCAL_INV completes
 *
 * REG_MR of the local pages, the RDMA READ into them, then a fenced
 * LOCAL_INV (it waits for the READ's data), one chain and one
 * completion. The MR exists for this READ only.
 *
 * Return: 0 if posted; else an errno, the MR is back and the connection
 * is going down.
 */
int rst_read_post_mr(struct rst_conn *c, struct rst_read_op *op,
		     struct rst_mr *m)
{
	u64 addr;
	u32 len, key;
	int err;

	err = rst_mr_map_off(m, op->op_sg, op->op_nents, op->op_sg_off,
			     DMA_FROM_DEVICE, &addr, &len, &key);
	if (err) {
		rst_mr_put(m);
		rst_post_error(c, "map READ sink", err);
		return err;
	}
	op->op_mr = m;
	op->op_sge.addr = addr;
	op->op_sge.length = len;
	op->op_sge.lkey = m->mr_ib->lkey;
	op->op_rd_wr = (struct ib_rdma_wr) {
		.wr.wr_cqe = &op->op_rd_cqe,
		.wr.opcode = IB_WR_RDMA_READ,
		.wr.sg_list = &op->op_sge,
		.wr.num_sge = 1,
		.remote_addr = op->op_raddr,
		.rkey = op->op_rkey,
	};
	op->op_inv_wr = (struct ib_send_wr) {
		.wr_cqe = &op->op_cqe,
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED | IB_SEND_FENCE,
		.ex.invalidate_rkey = m->mr_ib->lkey,
	};
	m->mr_reg_wr.wr.next = &op->op_rd_wr.wr;
	op->op_rd_wr.wr.next = &op->op_inv_wr;
	m->mr_state = RST_MR_VALID;
	err = rst_post_send(c, &m->mr_reg_wr.wr);
	if (err) {
		m->mr_status = err;
		rst_mr_put(m);
		op->op_mr = NULL;
		rst_post_error(c, "RDMA READ", err);
		return err;
	}
	spin_lock_irq(&c->c_lock);
	c->c_stats.regs++;
	spin_unlock_irq(&c->c_lock);
	return 0;
}

/*
 * A forced-MR READ: with an MR now if one is free and nobody waits for
 * one, else it waits its turn (read_wait.c) and is posted from there.
 */
static int rst_read_mr(struct rst_conn *c, struct rst_read_op *op,
		       u32 sg_off, u64 raddr, u32 rkey)
{
	struct scatterlist *sg = op->op_sg;
	u32 nents = op->op_nents;
	struct rst_mr *m;

	/* whole entries before the offset are skipped; the MR starts there */
	while (nents && sg_off >= sg->length) {
		sg_off -= sg->length;
		sg = sg_next(sg);
		nents--;
	}
	if (!nents)
		return -EINVAL;
	op->op_sg = sg;
	op->op_nents = nents;
	op->op_sg_off = sg_off;
	op->op_raddr = raddr;
	op->op_rkey = rkey;
	if (rst_reads_waiting(c))
		return rst_read_park(c, op);
	m = rst_fault_mr_busy() ? ERR_PTR(-EAGAIN) : rst_mr_tryget(c);
	if (m == ERR_PTR(-EAGAIN))
		return rst_read_park(c, op);
	if (IS_ERR(m)) {
		rst_post_error(c, "MR for READ sink", PTR_ERR(m));
		return PTR_ERR(m);
	}
	return rst_read_post_mr(c, op, m);
}

/**
 * rst_rw_read_async - RDMA READ the peer's buffer into local pages
 * @c: the connection
 * @op: the ULP's, unused until @op->done runs; @op->done set
 * @sg: local pages, kept until @op->done
 * @nents: entries in @sg
 * @sg_off: where in @sg the data goes
 * @raddr: the peer's address
 * @rkey: the peer's key
 * @use_mr: register the sink with a per-READ MR (iWARP needs it; the
 *	forced-MR mode tests it elsewhere); else DMA addresses
 *
 * With @use_mr and every MR of the share lent out, the READ waits in the
 * engine for one (never here) and is posted when one comes back.
 *
 * Return: 0 if posted or waiting for an MR (@op->done will run), or an
 * errno (the connection is going down).
 * Context: process or completion context; does not sleep unless an MR
 * has to be allocated.
 */
int rst_rw_read_async(struct rst_conn *c, struct rst_read_op *op,
		      struct scatterlist *sg, u32 nents, u32 sg_off, u64 raddr,
		      u32 rkey, bool use_mr)
{
	int n, err;

	if (READ_ONCE(c->c_state) == RST_DOWN)
		return -ENOTCONN;
	op->op_conn = c;
	op->op_sg = sg;
	op->op_nents = nents;
	op->op_mr = NULL;
	op->op_cqe.done = rst_read_op_done;
	op->op_rd_cqe.done = rst_read_op_rd_done;
	rst_cid_init(c, &op->op_cid);
	if (use_mr)
		return rst_read_mr(c, op, sg_off, raddr, rkey);
	n = rst_rw_init(c, &op->op_rw, sg, nents, sg_off, raddr, rkey,
			DMA_FROM_DEVICE);
	if (n < 0)
		return n;
	/* the test of the window between the state check and the post (M4) */
	rst_fault_read_post_delay();
	err = rst_post_rw(c, &op->op_rw, &op->op_cqe);
	if (err) {
		rdma_rw_ctx_destroy(&op->op_rw, c->c_qp, c->c_port, sg, nents,
				    DMA_FROM_DEVICE);
		rst_post_error(c, "RDMA READ", err);
	}
	return err;
}
EXPORT_SYMBOL_GPL(rst_rw_read_async);
