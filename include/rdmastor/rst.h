/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rst: rdmastor's protocol-neutral RDMA transport engine.
 *
 * A connection (struct rst_conn) is one RC queue pair set up with rdma_cm,
 * a receive ring of pre-posted buffers and a send ring, all DMA-mapped once
 * and referenced with the protection domain's local DMA lkey: messaging
 * never consumes an MR. The upper-layer protocol (ULP) owns the message
 * format, including how credits travel; the engine owns the rings, the
 * completions, per-I/O fast registration and the window.
 *
 * Per I/O (initiator side), the ULP:
 *   rst_io_begin()           waits for room in the window
 *   rst_mr_get(), rst_mr_map()  an MR charged to rnic_mgr, key rotated
 *   rst_tx_get(), rst_tx_post(..., mr, ...)
 *                            the REG_MR is chained in front of the send
 *   ... the reply arrives through ->recv ...
 *   rst_mr_remote_invalidated() or rst_mr_local_invalidate()
 *   rst_mr_put(), rst_io_end()  and only then completes the I/O
 *
 * A ULP that submits from atomic context uses rst_io_trybegin(),
 * rst_mr_tryget_sg(), rst_tx_tryget(), rst_mr_local_invalidate_async()
 * and rst_mr_put_nosleep() instead, and rst_mr_prealloc() from process
 * context when rst_mr_tryget_sg() found no idle MR.
 *
 * The target side moves data with rst_rw_write_send() (RDMA WRITE chained
 * with the reply) and rst_rw_read(), from buffers referenced by DMA
 * address (rdma_rw picks an MR only where the device needs one).
 *
 * Window: at most rst_window() I/Os are outstanding: the minimum of the
 * peer's credits, our receive ring, and the MRs our rnic_mgr share
 * covers. A shrink from rnic_mgr lowers it at once and frees idle MRs;
 * busy ones are freed as their I/Os end.
 *
 * Lifetime: rst_connect() returns a connected client connection, which
 * the ULP ends with rst_close() (never from its own callbacks). A server
 * connection is created by the listener; the ULP holds it with
 * rst_conn_get() from its accept callback on and lets go with
 * rst_conn_put() whenever it is done with it, after ->disconnected or
 * before. ->disconnected must not wait for anything of the ULP's.
 */
#ifndef RDMASTOR_RST_H
#define RDMASTOR_RST_H

#include <linux/types.h>
#include <linux/socket.h>
#include <net/net_namespace.h>
#include <linux/scatterlist.h>
#include <linux/completion.h>
#include <rdma/ib_verbs.h>
#include <rdma/rw.h>

struct rst_conn;
struct rst_listener;
struct rst_tx;
struct rst_mr;

/**
 * struct rst_conn_ops - callbacks of a connection's ULP
 * @recv: a message arrived; @invalidated says the peer sent it with
 *	Send-with-Invalidate of @inv_rkey. Runs from the completion
 *	workqueue; may not sleep for long; @buf is reposted on return.
 * @disconnected: the connection is down (peer, error, protocol error or
 *	device removal) and every posted work request has been flushed.
 *	Process context.
 */
struct rst_conn_ops {
	void (*recv)(struct rst_conn *c, const void *buf, u32 len,
		     bool invalidated, u32 inv_rkey);
	void (*disconnected)(struct rst_conn *c, int reason);
};

/**
 * struct rst_conn_params - what a connection is set up with
 * @name: rnic_mgr consumer name
 * @weight: rnic_mgr weight
 * @recv_depth: receive ring size: the credits this side can grant
 * @send_depth: send ring size: at most this many I/Os outstanding
 * @msg_size: size of every send and receive buffer
 * @max_io_pages: pages of the largest I/O: the size of each MR and the
 *	rnic_mgr minimum; 0 for a side that never registers memory
 * @small_io_pages: if set (and below @max_io_pages), a second MR size
 *	class: I/Os of at most this many pages that ask with
 *	rst_mr_get_sg() get, and are charged for, an MR of this size
 * @rw_pages: pages of the largest RDMA READ or WRITE this side issues
 *	(target side; sizes the send queue), else 0
 * @iwarp_io_pages: target side: @max_io_pages for a connection on an
 *	iWARP device, whose RDMA READ sinks need an MR (RFC 5040: the READ
 *	response is placed as an RDMA WRITE into the sink's key), so the
 *	READs take per-READ MRs from an rnic_mgr-charged pool there (see
 *	rst_conn_iwarp()); 0 to leave @max_io_pages as it is
 * @rx_align_off: if set, receive buffers are placed so that this byte of
 *	every message is 512-byte aligned (data behind the ULP's headers)
 * @initial_depth: if set (below @recv_depth or @send_depth), only this
 *	many receive buffers and send slots exist until the ULP calls
 *	rst_rings_grow(): a server whose peer has not authenticated yet
 *	keeps its memory small (the QP is sized for the full depths)
 * @post_irqoff: post with interrupts off rather than bottom halves off,
 *	for a ULP that posts while holding a lock its other callers wait
 *	on (sunrpc's transport send lock): a software provider (soft-RoCE)
 *	then runs its send work in its own thread, not in the poster's at
 *	the unlock; no difference on hardware, where a post is a doorbell
 * @cq_softirq: poll the completion queue in softirq (IB_POLL_SOFTIRQ)
 *	rather than in a workqueue: completions are handled in the
 *	provider's own bottom half, with no hop to a kworker. The ULP's
 *	->recv and every callback the engine runs from a completion
 *	(rst_rw_read_async()'s done, rst_tx_on_done()'s function) then
 *	run in softirq: they must not sleep, and every lock they take
 *	must be taken with bottom halves off everywhere else
 * @private_data: rdma_cm private data of the connect or accept
 * @private_len: its length
 * @ops: callbacks
 * @priv: the ULP's, see rst_conn_priv()
 * @owner: server side: the ULP's module, held from a connection's
 *	accept until its ->disconnected has returned (a connection can
 *	outlive every object of the ULP that knew it); NULL on the client
 *	side, whose ULP waits in rst_close()
 */
struct rst_conn_params {
	const char *name;
	u32 weight;
	u32 recv_depth;
	u32 send_depth;
	u32 msg_size;
	u32 max_io_pages;
	u32 small_io_pages;
	u32 rw_pages;
	u32 iwarp_io_pages;
	u32 rx_align_off;
	u32 initial_depth;
	bool post_irqoff;
	bool cq_softirq;
	const void *private_data;
	u8 private_len;
	const struct rst_conn_ops *ops;
	void *priv;
	struct module *owner;
};

/**
 * struct rst_stats - counters of a connection
 * @mrs: MRs allocated now
 * @mrs_peak: most MRs ever allocated at once
 * @mr_limit: MRs the share allows now
 * @window: rst_window() now
 * @outstanding: I/Os in the window
 * @rx_held: receive buffers the ULP holds (rst_rx_hold())
 * @regs: registrations posted
 * @remote_inv: keys the peer invalidated (Send-with-Invalidate)
 * @local_inv: keys we invalidated (LOCAL_INV)
 * @mr_freed_unknown: MRs freed because their state was unknown
 * @shrinks: shrink requests from rnic_mgr
 * @reclaims: requests from rnic_mgr for idle MRs (another consumer waits)
 * @sends: messages posted
 * @sends_signaled: how many of them asked for a completion
 * @mr_entries: rnic_mgr entries the MRs are charged now
 * @reads_parked: forced-MR RDMA READs that found no MR and waited for
 *	one, ever
 * @reads_waiting: how many wait now
 * @kicks: doorbells the soft-RoCE watchdog rang (transport/kick.c)
 */
struct rst_stats {
	u32 mrs, mrs_peak, mr_limit, window, outstanding, rx_held;
	u64 regs, remote_inv, local_inv, mr_freed_unknown, shrinks, reclaims;
	u64 sends, sends_signaled;
	u32 mr_entries;
	u64 reads_parked;
	u32 reads_waiting;
	u64 kicks;
};

typedef int (*rst_accept_fn)(struct rst_conn *c, const void *pdata, u8 plen,
			     void *lpriv);
/*
 * Asked before a connection is built for a connect request (QP, rings):
 * non-zero refuses it at no cost. @accept still decides, under the
 * ULP's own lock; this only keeps a flood beyond the ULP's caps cheap.
 */
typedef int (*rst_admit_fn)(struct ib_device *dev, const struct sockaddr *local,
			    const struct sockaddr *peer, void *lpriv);
/* Asynchronous invalidation: @fn runs from the completion context, once. */
typedef void (*rst_mr_inv_fn)(void *arg, int status);
/* Asynchronous sends: @fn runs from the completion context, once. */
typedef void (*rst_tx_done_fn)(void *arg, int status);

/**
 * struct rst_cid - names a work request's completion in traces
 * @ci_queue_id: the restrack id of the connection's CQ
 * @ci_completion_id: unique among the connection's work requests
 */
struct rst_cid {
	u32 ci_queue_id;
	int ci_completion_id;
};

/**
 * struct rst_read_op - one asynchronous RDMA READ (the ULP embeds it)
 * @done: runs once from the completion context; 0 when the data is in
 *	the pages, else an errno (the connection is then going down)
 *
 * The rest is the engine's. With an MR (rst_rw_read_async() @use_mr)
 * the sink is fast-registered for this READ only, from the connection's
 * rnic_mgr-charged pool, and invalidated before @done runs.
 */
struct rst_read_op {
	void (*done)(struct rst_read_op *op, int status);
	/* private: the engine's */
	struct rst_conn *op_conn;
	struct scatterlist *op_sg;
	u32 op_nents;
	struct rst_mr *op_mr;
	struct ib_cqe op_cqe;
	struct ib_cqe op_rd_cqe;
	struct rdma_rw_ctx op_rw;
	struct ib_rdma_wr op_rd_wr;
	struct ib_send_wr op_inv_wr;
	struct ib_sge op_sge;
	struct list_head op_node;	/* waiting for an MR */
	u32 op_sg_off;
	u64 op_raddr;
	u32 op_rkey;
	struct rst_cid op_cid;
};

/**
 * struct rst_rw_part - one RDMA WRITE of a reply (the ULP's array)
 * @sg: local data, exactly the bytes for @raddr (DMA-mapped by the
 *	engine until the reply's send completes)
 * @nents: entries in @sg
 * @raddr: the peer's address
 * @rkey: the peer's key
 *
 * The rest is the engine's.
 */
struct rst_rw_part {
	struct scatterlist *sg;
	u32 nents;
	u64 raddr;
	u32 rkey;
	/* private: the engine's */
	struct rdma_rw_ctx ctx;
};

/* Connections (conn.c, listen.c) */
struct rst_conn *rst_connect(struct net *net, struct sockaddr *dst,
			     const struct rst_conn_params *p,
			     unsigned int timeout_ms);
struct rst_listener *rst_listen(struct net *net, struct sockaddr *src,
				const struct rst_conn_params *p,
				rst_accept_fn accept, rst_admit_fn admit,
				void *lpriv);
void rst_listener_destroy(struct rst_listener *l);
void rst_conn_set_accept_pdata(struct rst_conn *c, const void *pdata, u8 len);
void rst_conn_get(struct rst_conn *c);
void rst_conn_put(struct rst_conn *c);
void rst_shutdown(struct rst_conn *c);
void rst_close(struct rst_conn *c);
void rst_disconnect(struct rst_conn *c, int reason);

/* What a connection is (conn.c) */
void *rst_conn_priv(struct rst_conn *c);
void rst_conn_set_priv(struct rst_conn *c, void *priv);
const void *rst_conn_peer_pdata(struct rst_conn *c, u8 *len);
struct ib_device *rst_conn_device(struct rst_conn *c);
u32 rst_conn_id(const struct rst_conn *c);
bool rst_conn_up(struct rst_conn *c);
bool rst_conn_closed(struct rst_conn *c);
bool rst_conn_iwarp(struct rst_conn *c);
void rst_conn_addrs(struct rst_conn *c, struct sockaddr_storage *local,
		    struct sockaddr_storage *peer);
void rst_conn_stats(struct rst_conn *c, struct rst_stats *s);
ssize_t rst_conn_peer_show(struct rst_conn *c, char *buf);

/* Messages (ring.c) */
struct rst_rx;
struct rst_rx *rst_rx_hold(struct rst_conn *c);
void rst_rx_release(struct rst_conn *c, struct rst_rx *rx);
struct rst_tx *rst_tx_get(struct rst_conn *c, unsigned int timeout_ms);
struct rst_tx *rst_tx_tryget(struct rst_conn *c);
void *rst_tx_buf(struct rst_tx *tx);
void rst_tx_on_done(struct rst_tx *tx, rst_tx_done_fn fn, void *arg);
int rst_tx_post(struct rst_conn *c, struct rst_tx *tx, u32 len,
		struct rst_mr *mr, bool send_inv, u32 inv_rkey);
int rst_tx_post_mrs(struct rst_conn *c, struct rst_tx *tx, u32 len,
		    struct rst_mr **mrs, unsigned int nr_mrs, bool send_inv,
		    u32 inv_rkey);
void rst_tx_put(struct rst_conn *c, struct rst_tx *tx);
int rst_rings_grow(struct rst_conn *c);

/* The window and the share (window.c, frwr.c) */
void rst_set_peer_credits(struct rst_conn *c, u32 credits);
u32 rst_window(struct rst_conn *c);
int rst_io_begin(struct rst_conn *c);
int rst_io_trybegin(struct rst_conn *c);
void rst_io_end(struct rst_conn *c);
u32 rst_mr_limit(struct rst_conn *c);
void rst_refresh_share(struct rst_conn *c);

/* Per-I/O fast registration, initiator side (frwr.c) */
struct rst_mr *rst_mr_get(struct rst_conn *c);
struct rst_mr *rst_mr_get_sg(struct rst_conn *c, struct scatterlist *sg,
			     int nents);
int rst_mr_map(struct rst_mr *m, struct scatterlist *sg, int nents,
	       enum dma_data_direction dir, u64 *addr, u32 *len, u32 *rkey);
int rst_mr_remote_invalidated(struct rst_mr *m, u32 inv_rkey);
int rst_mr_local_invalidate(struct rst_mr *m);
void rst_mr_put(struct rst_mr *m);

/* The same from atomic context (the iSER initiator's submit path) */
struct rst_mr *rst_mr_tryget_sg(struct rst_conn *c, struct scatterlist *sg,
				int nents);
int rst_mr_prealloc(struct rst_conn *c, u32 pages, u32 nr);
u32 rst_sg_pages(struct scatterlist *sg, int nents);
int rst_mr_local_invalidate_async(struct rst_mr *m, rst_mr_inv_fn fn,
				  void *arg);
void rst_mr_put_nosleep(struct rst_mr *m);

/* Data movement, target side (rw.c) */
int rst_rw_write_send(struct rst_conn *c, struct scatterlist *sg, u32 nents,
		      u64 raddr, u32 rkey, struct rst_tx *tx, u32 len,
		      bool send_inv);
int rst_rw_write_send_async(struct rst_conn *c, struct scatterlist *sg,
			    u32 nents, u64 raddr, u32 rkey, struct rst_tx *tx,
			    u32 len, bool send_inv);
int rst_rw_writev_send_async(struct rst_conn *c, struct rst_rw_part *parts,
			     u32 nr_parts, struct rst_tx *tx, u32 len,
			     bool send_inv, u32 inv_rkey);
int rst_rw_read(struct rst_conn *c, struct scatterlist *sg, u32 nents,
		u64 raddr, u32 rkey);
int rst_rw_read_async(struct rst_conn *c, struct rst_read_op *op,
		      struct scatterlist *sg, u32 nents, u32 sg_off, u64 raddr,
		      u32 rkey, bool use_mr);

#endif /* RDMASTOR_RST_H */
