// SPDX-License-Identifier: GPL-2.0
/*
 * The receive and send rings. Every buffer is allocated and DMA-mapped
 * once, when the connection is set up, and referenced by the protection
 * domain's local DMA lkey: messaging consumes no MR (principle 1).
 *
 * Receive: recv_depth buffers, all posted; each completion hands the
 * message to the ULP and reposts the buffer. Send: send_depth slots on a
 * free list; a slot returns to it when its send completes. A connection
 * set up with initial_depth has that many of each until the ULP grows
 * the rings (rst_rings_grow()).
 *
 * Most sends are unsignaled: a send queue completes in order, so one
 * signaled completion retires every send posted before it. Only every
 * rst_tx_batch()-th send, and every send somebody waits for (a
 * completion, a callback, an RDMA WRITE context to destroy), asks for a
 * completion; the others save a completion and a wakeup of the
 * completion queue's work each. A send that fails or is flushed
 * completes whether it asked to or not. Since at most batch - 1 slots
 * wait behind the last signaled send and batch <= send_depth, a sender
 * waiting for a slot always has a completion coming.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "rst_int.h"
#include "trace.h"

static void rst_rx_done(struct ib_cq *cq, struct ib_wc *wc);
static void rst_tx_done(struct ib_cq *cq, struct ib_wc *wc);
static int rst_rx_post(struct rst_conn *c, struct rst_rx *rx);

/*
 * A message buffer, DMA-mapped. With @align_off, the buffer starts @pad
 * bytes into its allocation so that byte @align_off of every message
 * lands on a 512-byte boundary (a ULP's data behind its headers, handed
 * to a block device in place).
 */
static void *rst_buf_map(struct rst_conn *c, struct ib_sge *sge,
			 enum dma_data_direction dir, u32 align_off, u32 *pad)
{
	u32 extra = align_off ? 511 : 0;
	void *buf = kmalloc(c->c_p.msg_size + extra, GFP_KERNEL);
	u64 dma;

	if (!buf)
		return NULL;
	*pad = align_off ? (512 - ((uintptr_t)buf + align_off) % 512) % 512 : 0;
	dma = ib_dma_map_single(c->c_dev, buf, c->c_p.msg_size + extra, dir);
	if (ib_dma_mapping_error(c->c_dev, dma)) {
		kfree(buf);
		return NULL;
	}
	sge->addr = dma + *pad;
	sge->length = c->c_p.msg_size;
	sge->lkey = c->c_pd->local_dma_lkey;
	return buf + *pad;
}

static void rst_buf_unmap(struct rst_conn *c, void *buf, struct ib_sge *sge,
			  enum dma_data_direction dir, u32 align_off, u32 pad)
{
	u32 extra = align_off ? 511 : 0;

	if (!buf)
		return;
	ib_dma_unmap_single(c->c_dev, sge->addr - pad, c->c_p.msg_size + extra, dir);
	kfree(buf - pad);
}

/* Receive buffers [c_rx_nr, @to): allocated and mapped, not yet posted. */
static int rst_rx_fill(struct rst_conn *c, u32 to)
{
	u32 i;

	for (i = c->c_rx_nr; i < to; i++) {
		struct rst_rx *rx = &c->c_rx[i];

		rx->rx_conn = c;
		rx->rx_buf = rst_buf_map(c, &rx->rx_sge, DMA_FROM_DEVICE,
					 c->c_p.rx_align_off, &rx->rx_pad);
		if (!rx->rx_buf)
			return -ENOMEM;
		rst_cid_init(c, &rx->rx_cid);
		rx->rx_cqe.done = rst_rx_done;
		rx->rx_wr.wr_cqe = &rx->rx_cqe;
		rx->rx_wr.sg_list = &rx->rx_sge;
		rx->rx_wr.num_sge = 1;
	}
	return 0;
}

/* Send slots [c_tx_nr, @to) onto @list, allocated and mapped. */
static int rst_tx_fill(struct rst_conn *c, u32 to, struct list_head *list)
{
	u32 i, pad;

	for (i = c->c_tx_nr; i < to; i++) {
		struct rst_tx *tx = &c->c_tx[i];

		tx->tx_conn = c;
		tx->tx_buf = rst_buf_map(c, &tx->tx_sge, DMA_TO_DEVICE, 0, &pad);
		if (!tx->tx_buf)
			return -ENOMEM;
		rst_cid_init(c, &tx->tx_cid);
		tx->tx_cqe.done = rst_tx_done;
		tx->tx_wr.wr_cqe = &tx->tx_cqe;
		tx->tx_wr.sg_list = &tx->tx_sge;
		tx->tx_wr.num_sge = 1;
		list_add_tail(&tx->tx_node, list);
	}
	return 0;
}

/**
 * rst_rings_create - allocate and DMA-map the send and receive rings
 * @c: the connection, its PD and CQ set up
 *
 * The full depths, or c_p.initial_depth of each until rst_rings_grow().
 *
 * Return: 0 or -ENOMEM (what was made stays for rst_rings_destroy()).
 */
int rst_rings_create(struct rst_conn *c)
{
	u32 init = c->c_p.initial_depth;
	int err;

	c->c_rx = kcalloc(c->c_p.recv_depth, sizeof(*c->c_rx), GFP_KERNEL);
	c->c_tx = kcalloc(c->c_p.send_depth, sizeof(*c->c_tx), GFP_KERNEL);
	if (!c->c_rx || !c->c_tx)
		return -ENOMEM;
	/* nothing is posted yet: no lock needed to publish the counts */
	err = rst_rx_fill(c, init ? min(init, c->c_p.recv_depth) : c->c_p.recv_depth);
	c->c_rx_nr = init ? min(init, c->c_p.recv_depth) : c->c_p.recv_depth;
	if (err)
		return err;
	err = rst_tx_fill(c, init ? min(init, c->c_p.send_depth) : c->c_p.send_depth,
			  &c->c_tx_free);
	c->c_tx_nr = init ? min(init, c->c_p.send_depth) : c->c_p.send_depth;
	return err;
}

/**
 * rst_rings_grow - give the rings their full depths
 * @c: a connection set up with rst_conn_params.initial_depth
 *
 * Allocates and posts the rest of the receive buffers, and frees the
 * rest of the send slots. The ULP calls it once, before it lets the
 * peer use the full window (an iSER target: before the final login
 * response). Does nothing if the rings are full already.
 *
 * Return: 0, -ENOMEM (the rings stay as they were, and the connection
 * still works with them), or -ENOTCONN if it went down.
 * Context: process; not concurrently with itself on @c.
 */
int rst_rings_grow(struct rst_conn *c)
{
	u32 rx_from = c->c_rx_nr, i;
	LIST_HEAD(slots);
	int err;

	if (c->c_rx_nr == c->c_p.recv_depth && c->c_tx_nr == c->c_p.send_depth)
		return 0;
	err = rst_rx_fill(c, c->c_p.recv_depth);
	if (!err)
		err = rst_tx_fill(c, c->c_p.send_depth, &slots);
	if (err) {
		/* unpublished: undo, so that destroy sees only published ones */
		for (i = c->c_rx_nr; i < c->c_p.recv_depth; i++) {
			rst_buf_unmap(c, c->c_rx[i].rx_buf, &c->c_rx[i].rx_sge,
				      DMA_FROM_DEVICE, c->c_p.rx_align_off,
				      c->c_rx[i].rx_pad);
			c->c_rx[i].rx_buf = NULL;
		}
		for (i = c->c_tx_nr; i < c->c_p.send_depth; i++) {
			rst_buf_unmap(c, c->c_tx[i].tx_buf, &c->c_tx[i].tx_sge,
				      DMA_TO_DEVICE, 0, 0);
			c->c_tx[i].tx_buf = NULL;
		}
		return err;
	}
	spin_lock_irq(&c->c_lock);
	list_splice_tail(&slots, &c->c_tx_free);
	WRITE_ONCE(c->c_tx_nr, c->c_p.send_depth);
	WRITE_ONCE(c->c_rx_nr, c->c_p.recv_depth);
	spin_unlock_irq(&c->c_lock);
	wake_up_all(&c->c_wq);
	trace_rst_rings_grow(c, rx_from);
	for (i = rx_from; i < c->c_p.recv_depth; i++) {
		err = rst_rx_post(c, &c->c_rx[i]);
		if (err)
			return -ENOTCONN;	/* the drain began */
	}
	return 0;
}
EXPORT_SYMBOL_GPL(rst_rings_grow);

/**
 * rst_rings_destroy - unmap and free both rings
 * @c: the connection; its QP drained (or never used)
 */
void rst_rings_destroy(struct rst_conn *c)
{
	u32 i;

	if (c->c_rx)
		for (i = 0; i < c->c_rx_nr; i++)
			rst_buf_unmap(c, c->c_rx[i].rx_buf, &c->c_rx[i].rx_sge,
				      DMA_FROM_DEVICE, c->c_p.rx_align_off,
				      c->c_rx[i].rx_pad);
	if (c->c_tx)
		for (i = 0; i < c->c_tx_nr; i++)
			rst_buf_unmap(c, c->c_tx[i].tx_buf, &c->c_tx[i].tx_sge,
				      DMA_TO_DEVICE, 0, 0);
	kfree(c->c_rx);
	kfree(c->c_tx);
	c->c_rx = NULL;
	c->c_tx = NULL;
	c->c_rx_nr = 0;
	c->c_tx_nr = 0;
	INIT_LIST_HEAD(&c->c_tx_free);
	INIT_LIST_HEAD(&c->c_tx_posted);
}

static int rst_rx_post(struct rst_conn *c, struct rst_rx *rx)
{
	ib_dma_sync_single_for_device(c->c_dev, rx->rx_sge.addr,
				      c->c_p.msg_size, DMA_FROM_DEVICE);
	return rst_post_recv(c, &rx->rx_wr);
}

/**
 * rst_rx_post_all - post every receive of the ring
 * @c: the connection, its QP ready
 *
 * Return: 0 or the verbs error.
 */
int rst_rx_post_all(struct rst_conn *c)
{
	u32 i;
	int err;

	for (i = 0; i < c->c_rx_nr; i++) {
		err = rst_rx_post(c, &c->c_rx[i]);
		if (err)
			return err;
	}
	return 0;
}

static void rst_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rst_rx *rx = container_of(wc->wr_cqe, struct rst_rx, rx_cqe);
	struct rst_conn *c = rx->rx_conn;
	bool inv;
	int err;

	trace_rst_wc_receive(wc, &rx->rx_cid);
	rst_cqe_check(c);
	if (wc->status != IB_WC_SUCCESS) {
		rst_wc_error(c, wc, "receive");
		return;
	}
	ib_dma_sync_single_for_cpu(c->c_dev, rx->rx_sge.addr, wc->byte_len,
				   DMA_FROM_DEVICE);
	inv = wc->wc_flags & IB_WC_WITH_INVALIDATE;
	rx->rx_held = false;
	c->c_rx_cur = rx;
	c->c_p.ops->recv(c, rx->rx_buf, wc->byte_len, inv,
			 inv ? wc->ex.invalidate_rkey : 0);
	c->c_rx_cur = NULL;
	if (rx->rx_held)
		return;		/* reposted by rst_rx_release() */
	if (READ_ONCE(c->c_state) == RST_DOWN)
		return;		/* the drain flushes whatever is still posted */
	err = rst_rx_post(c, rx);
	if (err)
		rst_post_error(c, "receive", err);
}

/**
 * rst_rx_hold - keep the message being received past ->recv
 * @c: the connection, from within its ->recv only
 *
 * The buffer ->recv was given stays valid and is not reposted until
 * rst_rx_release(); the ring has one buffer fewer meanwhile. At most
 * half the ring is held at once, so the peer can always be heard.
 *
 * Return: the handle for rst_rx_release(), or NULL if half the ring is
 * already held (the caller copies what it needs instead).
 */
struct rst_rx *rst_rx_hold(struct rst_conn *c)
{
	struct rst_rx *rx = c->c_rx_cur;

	if (atomic_inc_return(&c->c_rx_held_nr) > READ_ONCE(c->c_rx_nr) / 2) {
		atomic_dec(&c->c_rx_held_nr);
		return NULL;
	}
	rx->rx_held = true;
	return rx;
}
EXPORT_SYMBOL_GPL(rst_rx_hold);

/**
 * rst_rx_release - repost a held receive buffer
 * @c: the connection
 * @rx: from rst_rx_hold()
 *
 * Context: any; before the connection is freed.
 */
void rst_rx_release(struct rst_conn *c, struct rst_rx *rx)
{
	int err;

	atomic_dec(&c->c_rx_held_nr);
	if (READ_ONCE(c->c_state) == RST_DOWN)
		return;
	err = rst_rx_post(c, rx);
	if (err)
		rst_post_error(c, "receive", err);
}
EXPORT_SYMBOL_GPL(rst_rx_release);

static void rst_tx_free(struct rst_conn *c, struct rst_tx *tx)
{
	unsigned long flags;

	if (tx->tx_cb) {
		rst_tx_done_fn fn = tx->tx_cb;

		/* never posted: the ULP still hears of it, once */
		tx->tx_cb = NULL;
		fn(tx->tx_cb_arg, -ENOTCONN);
	}

	spin_lock_irqsave(&c->c_lock, flags);
	list_add(&tx->tx_node, &c->c_tx_free);
	spin_unlock_irqrestore(&c->c_lock, flags);
	wake_up_all(&c->c_wq);
}

/*
 * @tx has completed, and so has every send posted before it (those still
 * listed were unsignaled and succeeded): give them back to the free list.
 */
static void rst_tx_retire_before(struct rst_conn *c, struct rst_tx *tx)
{
	unsigned long flags, pflags;
	LIST_HEAD(done);

	pflags = rst_post_lock(c);
	list_cut_before(&done, &c->c_tx_posted, &tx->tx_node);
	list_del_init(&tx->tx_node);
	if (!list_empty(&c->c_tx_posted))
		rst_kick_arm(c);
	rst_post_unlock(c, pflags);
	if (list_empty(&done))
		return;
	spin_lock_irqsave(&c->c_lock, flags);
	list_splice(&done, &c->c_tx_free);
	spin_unlock_irqrestore(&c->c_lock, flags);
}

static void rst_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rst_tx *tx = container_of(wc->wr_cqe, struct rst_tx, tx_cqe);
	struct rst_conn *c = tx->tx_conn;

	trace_rst_wc_send(wc, &tx->tx_cid);
	rst_cqe_check(c);
	rst_tx_retire_before(c, tx);
	/*
	 * A flush may also mean an RDMA WRITE chained before this send
	 * (unsignaled, so its own error completion has no context) was
	 * refused.
	 */
	if (wc->status != IB_WC_SUCCESS)
		rst_wc_error(c, wc, "send");
	tx->tx_status = wc->status == IB_WC_SUCCESS ? 0 : -EIO;
	if (tx->tx_rw_sg) {
		rdma_rw_ctx_destroy(&tx->tx_rw, c->c_qp, c->c_port, tx->tx_rw_sg,
				    tx->tx_rw_nents, DMA_TO_DEVICE);
		tx->tx_rw_sg = NULL;
	}
	if (tx->tx_parts) {
		rst_rw_parts_destroy(c, tx->tx_parts, tx->tx_nr_parts);
		tx->tx_parts = NULL;
		tx->tx_nr_parts = 0;
	}
	if (tx->tx_done) {
		complete(tx->tx_done);
		tx->tx_done = NULL;
	}
	if (tx->tx_cb) {
		rst_tx_done_fn fn = tx->tx_cb;

		tx->tx_cb = NULL;
		fn(tx->tx_cb_arg, tx->tx_status);
	}
	rst_tx_free(c, tx);
}

/**
 * rst_tx_on_done - be told when a send completes
 * @tx: a slot from rst_tx_get(), not yet posted
 * @fn: called once from the completion context with 0 or -EIO; also if
 *	the post fails (then before the posting call returns)
 * @arg: passed to @fn
 */
void rst_tx_on_done(struct rst_tx *tx, rst_tx_done_fn fn, void *arg)
{
	tx->tx_cb = fn;
	tx->tx_cb_arg = arg;
}
EXPORT_SYMBOL_GPL(rst_tx_on_done);

/*
 * The wait's condition takes the slot itself: one that only looked for a
 * free slot let every waiter wake for it, and all but one then found the
 * list empty and failed with -ETIMEDOUT long before their time (seen as
 * one failed I/O, its MR freed as unknown, in transport_faults on 6.12).
 */
static bool rst_tx_take(struct rst_conn *c, struct rst_tx **tx)
{
	bool done = true;

	spin_lock_irq(&c->c_lock);
	if (c->c_state == RST_DOWN) {
		*tx = ERR_PTR(-ENOTCONN);
	} else {
		*tx = list_first_entry_or_null(&c->c_tx_free, struct rst_tx, tx_node);
		if (*tx)
			list_del(&(*tx)->tx_node);
		else
			done = false;
	}
	spin_unlock_irq(&c->c_lock);
	return done;
}

/**
 * rst_tx_get - take a send slot
 * @c: the connection
 * @timeout_ms: how long to wait for one
 *
 * Return: the slot, ERR_PTR(-ENOTCONN) if the connection is down,
 * -ETIMEDOUT, or -EINTR on a fatal signal.
 */
struct rst_tx *rst_tx_get(struct rst_conn *c, unsigned int timeout_ms)
{
	struct rst_tx *tx = NULL;
	long left;

	left = wait_event_killable_timeout(c->c_wq, rst_tx_take(c, &tx),
					   msecs_to_jiffies(timeout_ms));
	if (tx)
		return tx;
	return ERR_PTR(left < 0 ? -EINTR : -ETIMEDOUT);
}
EXPORT_SYMBOL_GPL(rst_tx_get);

/**
 * rst_tx_tryget - take a send slot if one is free now
 * @c: the connection
 *
 * Return: the slot, ERR_PTR(-EAGAIN) if none is free, -ENOTCONN if the
 * connection is down.
 * Context: any; never sleeps.
 */
struct rst_tx *rst_tx_tryget(struct rst_conn *c)
{
	struct rst_tx *tx = NULL;
	unsigned long flags;
	int err = -ENOTCONN;

	spin_lock_irqsave(&c->c_lock, flags);
	if (c->c_state != RST_DOWN) {
		err = -EAGAIN;
		tx = list_first_entry_or_null(&c->c_tx_free, struct rst_tx, tx_node);
		if (tx)
			list_del(&tx->tx_node);
	}
	spin_unlock_irqrestore(&c->c_lock, flags);
	return tx ?: ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(rst_tx_tryget);

/**
 * rst_tx_buf - where the message of a send slot goes
 * @tx: from rst_tx_get()
 *
 * Return: the slot's buffer (rst_conn_params.msg_size bytes).
 */
void *rst_tx_buf(struct rst_tx *tx)
{
	return tx->tx_buf;
}
EXPORT_SYMBOL_GPL(rst_tx_buf);

/**
 * rst_tx_put - give back a slot that was not posted
 * @c: the connection
 * @tx: from rst_tx_get()
 */
void rst_tx_put(struct rst_conn *c, struct rst_tx *tx)
{
	rst_tx_free(c, tx);
}
EXPORT_SYMBOL_GPL(rst_tx_put);

/**
 * rst_tx_prepare - fill in a send work request
 * @c: the connection
 * @tx: the slot, its message written
 * @len: bytes of the message
 * @send_inv: send with invalidate
 * @inv_rkey: the key to invalidate (with @send_inv)
 *
 * The caller posts it, possibly behind other WRs, with
 * rst_tx_post_chain().
 *
 * Return: @tx's send work request.
 */
struct ib_send_wr *rst_tx_prepare(struct rst_conn *c, struct rst_tx *tx, u32 len,
				  bool send_inv, u32 inv_rkey)
{
	tx->tx_sge.length = len;
	tx->tx_wr.next = NULL;
	tx->tx_wr.send_flags = 0;
	tx->tx_wr.opcode = send_inv ? IB_WR_SEND_WITH_INV : IB_WR_SEND;
	tx->tx_wr.ex.invalidate_rkey = send_inv ? inv_rkey : 0;
	ib_dma_sync_single_for_device(c->c_dev, tx->tx_sge.addr, len, DMA_TO_DEVICE);
	return &tx->tx_wr;
}

static u32 rst_tx_batch(struct rst_conn *c)
{
	/* batch <= the slots that exist (the header's invariant) */
	return max_t(u32, READ_ONCE(c->c_tx_nr) / 4, 1);
}

/**
 * rst_tx_post_chain - post a chain of WRs that ends with a send
 * @c: the connection
 * @tx: the slot whose send ends the chain (rst_tx_prepare())
 * @first: the first WR of the chain
 *
 * Lists @tx in send queue order. The send is signaled if somebody waits
 * for it or it ends a batch.
 *
 * Return: 0 or the verbs error (@tx then not posted).
 */
int rst_tx_post_chain(struct rst_conn *c, struct rst_tx *tx,
		      struct ib_send_wr *first)
{
	bool wanted = tx->tx_cb || tx->tx_done || tx->tx_rw_sg || tx->tx_parts;
	unsigned long pflags;
	int err;

	pflags = rst_post_lock(c);
	if (c->c_posts_closed) {	/* the drain began (rst_int.h, M4) */
		rst_post_unlock(c, pflags);
		return -ENOTCONN;
	}
	if (wanted || ++c->c_tx_unsignaled >= rst_tx_batch(c)) {
		tx->tx_wr.send_flags |= IB_SEND_SIGNALED;
		c->c_tx_unsignaled = 0;
	}
	list_add_tail(&tx->tx_node, &c->c_tx_posted);
	err = ib_post_send(c->c_qp, first, NULL);
	if (err) {
		list_del_init(&tx->tx_node);
	} else {
		c->c_sends++;
		if (tx->tx_wr.send_flags & IB_SEND_SIGNALED)
			c->c_sends_signaled++;
		rst_kick_arm(c);
	}
	rst_post_unlock(c, pflags);
	return err;
}

/**
 * rst_tx_post_mrs - send a message behind the registration of its MRs
 * @c: the connection
 * @tx: the slot, its buffer filled in; consumed whatever the result
 * @len: message length, at most msg_size
 * @mrs: MRs mapped with rst_mr_map(): their REG_MRs are posted in front
 * @nr_mrs: how many (0 for none)
 * @send_inv: send with invalidate of @inv_rkey (the peer's key)
 * @inv_rkey: see @send_inv
 *
 * Return: 0, -EINVAL, -ENOTCONN, or the verbs error.
 */
int rst_tx_post_mrs(struct rst_conn *c, struct rst_tx *tx, u32 len,
		    struct rst_mr **mrs, unsigned int nr_mrs, bool send_inv,
		    u32 inv_rkey)
{
	struct ib_send_wr *first;
	unsigned int i;
	int err;

	for (i = 0; i < nr_mrs; i++) {
		/* the ULP must map each MR first, and post it once */
		if (WARN_ON_ONCE(mrs[i]->mr_state != RST_MR_MAPPED)) {
			rst_tx_free(c, tx);
			return -EINVAL;
		}
	}
	if (len > c->c_p.msg_size) {
		rst_tx_free(c, tx);
		return -EINVAL;
	}
	if (READ_ONCE(c->c_state) == RST_DOWN) {
		rst_tx_free(c, tx);
		return -ENOTCONN;
	}
	first = rst_tx_prepare(c, tx, len, send_inv, inv_rkey);
	for (i = nr_mrs; i-- > 0;) {
		mrs[i]->mr_reg_wr.wr.next = first;
		first = &mrs[i]->mr_reg_wr.wr;
		/* From here the peer may hold a valid key. */
		mrs[i]->mr_state = RST_MR_VALID;
	}
	err = rst_tx_post_chain(c, tx, first);
	if (err) {
		for (i = 0; i < nr_mrs; i++)
			mrs[i]->mr_status = err;	/* state unknown: freed on put */
		rst_tx_free(c, tx);
		rst_post_error(c, "send", err);
		return err;
	}
	if (nr_mrs) {
		spin_lock_irq(&c->c_lock);
		c->c_stats.regs += nr_mrs;
		spin_unlock_irq(&c->c_lock);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(rst_tx_post_mrs);

/**
 * rst_tx_post - send a message, behind at most one registration
 * @c: the connection
 * @tx: the slot, its buffer filled in; consumed whatever the result
 * @len: message length, at most msg_size
 * @mr: if set, its registration (rst_mr_map()) is posted in front
 * @send_inv: send with invalidate of @inv_rkey (the peer's key)
 * @inv_rkey: see @send_inv
 *
 * Return: 0, -EINVAL, -ENOTCONN, or the verbs error.
 */
int rst_tx_post(struct rst_conn *c, struct rst_tx *tx, u32 len,
		struct rst_mr *mr, bool send_inv, u32 inv_rkey)
{
	return rst_tx_post_mrs(c, tx, len, &mr, mr ? 1 : 0, send_inv, inv_rkey);
}
EXPORT_SYMBOL_GPL(rst_tx_post);
