// SPDX-License-Identifier: GPL-2.0
/*
 * Target-side data movement: RDMA WRITE into and RDMA READ from the
 * initiator's registered buffer. Local buffers are referenced by DMA
 * address with the local DMA lkey; rdma_rw registers an MR only where
 * the device needs one for a READ sink (iWARP).
 */
#include <linux/module.h>

#include "rst_int.h"

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
	struct ib_send_wr *send;
	int n, err;

	if (len > c->c_p.msg_size) {
		rst_tx_put(c, tx);
		return -EINVAL;
	}
	n = rdma_rw_ctx_init(&tx->tx_rw, c->c_qp, c->c_port, sg, nents, 0,
			     raddr, rkey, DMA_TO_DEVICE);
	if (n < 0) {
		rst_tx_put(c, tx);
		return n;
	}
	tx->tx_rw_sg = sg;
	tx->tx_rw_nents = nents;
	tx->tx_done = &done;
	send = rst_tx_prepare(c, tx, len, send_inv, rkey);
	err = rdma_rw_ctx_post(&tx->tx_rw, c->c_qp, c->c_port, NULL, send);
	if (err) {
		rdma_rw_ctx_destroy(&tx->tx_rw, c->c_qp, c->c_port, sg, nents,
				    DMA_TO_DEVICE);
		tx->tx_rw_sg = NULL;
		tx->tx_done = NULL;
		rst_tx_put(c, tx);
		rst_conn_down(c, err);
		return err;
	}
	wait_for_completion(&done);
	return tx->tx_status;
}
EXPORT_SYMBOL_GPL(rst_rw_write_send);

struct rst_read {
	struct ib_cqe r_cqe;
	struct completion r_done;
	struct rst_conn *r_conn;
	int r_status;
};

static void rst_read_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rst_read *r = container_of(wc->wr_cqe, struct rst_read, r_cqe);

	r->r_status = wc->status == IB_WC_SUCCESS ? 0 : -EIO;
	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			pr_info("rdmastor: %s: RDMA READ failed: %s\n",
				r->r_conn->c_p.name, ib_wc_status_msg(wc->status));
		rst_conn_down(r->r_conn, -EIO);
	}
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
	n = rdma_rw_ctx_init(&ctx, c->c_qp, c->c_port, sg, nents, 0, raddr, rkey,
			     DMA_FROM_DEVICE);
	if (n < 0)
		return n;
	err = rdma_rw_ctx_post(&ctx, c->c_qp, c->c_port, &r.r_cqe, NULL);
	if (err)
		rst_conn_down(c, err);
	else
		wait_for_completion(&r.r_done);
	rdma_rw_ctx_destroy(&ctx, c->c_qp, c->c_port, sg, nents, DMA_FROM_DEVICE);
	return err ? err : r.r_status;
}
EXPORT_SYMBOL_GPL(rst_rw_read);
