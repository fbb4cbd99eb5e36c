/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rsv: rdmastor's RPC-over-RDMA version 1 server transport for nfsd
 * (RFC 8166 as the responder, RFC 8167 backchannel, RFC 8797 private
 * data), built on the transport engine (include/rdmastor/rst.h).
 * Internals shared by its files only.
 *
 * Objects:
 *   struct rsv_xprt  a SUNRPC server transport: a listener (an engine
 *                    listener) or one client's connection (an engine
 *                    connection). It embeds the svc_xprt.
 *   struct rsv_call  one received call, from its Send to the end of
 *                    nfsd's work on it (->xpo_release_ctxt). A
 *                    connection has one per receive credit, allocated
 *                    with it.
 *   struct rsv_reply what an asynchronous reply holds until its send
 *                    completes: the RDMA WRITE parts and the pages.
 *
 * A call's way (no nfsd thread ever waits on the client's RDMA):
 *   ->recv (completion context: softirq with rsv_cq_softirq, else the
 *     CQ's work): decode and check the header (pure C,
 *     rpcrdma_plan_call()); a bad one is answered with RDMA_ERROR or
 *     ends the connection; a backchannel reply goes to x_bc_work, which
 *     completes its RPC (S7). A
 *     good call holds its receive buffer (rst_rx_hold()) and either is
 *     ready at once or, with a Read chunk, goes to rsv_wq, which
 *     allocates pages and posts the RDMA READs; the last READ's
 *     completion makes it ready.
 *   ready: on x_ready, XPT_DATA set, svc_xprt_enqueue().
 *   ->xpo_recvfrom (an nfsd thread): copy the inline part into the
 *     request's first page, swap the Read chunk's pages into rq_pages,
 *     release the receive buffer.
 *   ->xpo_result_payload: notes where each READ payload is (Write chunk).
 *   ->xpo_sendto: the reply inline, or RDMA WRITEs into Write and Reply
 *     chunks chained before the Send; the pages they read from are
 *     held by a page reference until the send completes, so nfsd's
 *     thread returns at once.
 *
 * Invariants:
 *   S1. A call holds its receive buffer from ->recv until recvfrom has
 *       copied it out (or the call is dropped); a client that keeps
 *       more calls in flight than its credits finds no buffer to hold,
 *       and that is a protocol error.
 *       Asserted: rsv_recv() disconnects when rst_rx_hold() fails
 *       (svcrdma_malformed makes it fail with fail_rx_hold, fault.c).
 *   S2. Every call leaves x_calls_free once and comes back once: from
 *       ->recv to ->xpo_release_ctxt, or to its drop.
 *       Asserted: rsv_call_put() warns on a call that is not out.
 *   S3. A reply's pages and chunk data stay until its send completed
 *       or was flushed: rsv_reply_done() alone puts them.
 *       Enforced: send.c frees a reply itself only before it is posted;
 *       once rst_rw_writev_send_async() has it, only rsv_reply_done(),
 *       which the engine calls once for the Send whether it completed,
 *       was flushed or was refused, frees it.
 *   S4. The rsv_xprt lives while svc holds it (until ->xpo_free) and
 *       while its engine connection is up (until ->disconnected), and
 *       while a backchannel rpc_xprt points at it (x_ref).
 *       Asserted: rsv_xprt_put() frees only at zero.
 *   S5. In forced-MR mode every RDMA READ sink takes an MR of the
 *       connection's rnic_mgr share, and the credits each reply grants
 *       are the MRs the share covers (at most the credits configured):
 *       a shrink lowers what the client may send as replies go out; the
 *       calls already granted wait in the engine for an MR (never in
 *       an nfsd thread).
 *       Enforced: rsv_grant().
 *   S6. The bytes of Read chunks held for calls nfsd has not taken are
 *       bounded per connection and in total (pull.c, which states
 *       it in full). Asserted: rsv_pull_uncharge().
 *   S7. Nothing that runs from a completion (->recv, a READ's done, a
 *       send's done) sleeps or takes a lock that others take with bottom
 *       halves on: SUNRPC's backchannel locks are taken in x_bc_work,
 *       svc's last reference to a connection is dropped in x_put_work
 *       (->xpo_free and the backchannel's xprt_put() sleep), an
 *       RDMA_ERROR's credits do not re-read the rnic_mgr share, and a
 *       forced-MR READ's MR is freed by the engine's work.
 *       Asserted: rsv_bc_reply() and rsv_put_work() warn when called
 *       with bottom halves off; ->recv reaches them only through
 *       rsv_bc_queue() and rsv_svc_put(). rpcrdma_loopback,
 *       svcrdma_malformed and svcrdma_force_mr's second pass serve with
 *       the CQ in softirq (cq_softirq=Y).
 *
 * Locks: each is taken and dropped within one function, and no two are
 * ever held at once, so no function expects its caller to hold one
 * (nothing for lockdep_assert_held() to check; lockdep sees no nesting).
 *   L1. x_lock (with BHs off: the engine's completion work and nfsd's
 *       threads both take it) guards x_ready, x_calls_free, the flags
 *       after it in struct rsv_xprt, and x_stats.
 *       Checked: by lockdep, in make check-debug's svcrdma_malformed.
 *   L2. The listener's x_pend_lock guards x_pending and each
 *       connection's x_on_pending, between accept and svc's accept.
 *       Checked: by lockdep, in make check-debug's svcrdma_malformed.
 *   L3. rsv_conns_lock guards the list of connections the statistics
 *       walk and the sums of those already freed.
 *       Checked: by lockdep, in make check-debug's svcrdma_malformed.
 *   L4. The backchannel's SUNRPC queue_lock and transport_lock are
 *       taken alone.
 *       Checked: by lockdep, in make check-debug's svcrdma_malformed.
 *   L5. rsv_pull_lock (pull.c) guards the pull budget, every
 *       connection's x_pull_wait, x_pull_node and x_pull_bytes, and
 *       each call's c_budget while it is charged.
 *       Checked: by lockdep, in make check-debug's svcrdma_malformed.
 */
#ifndef RDMASTOR_RSV_H
#define RDMASTOR_RSV_H

#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>
#include <linux/workqueue.h>
#include <linux/kref.h>
#include <rdmastor/rst.h>
#include <rdmastor/rpcrdma_call.h>

/* The private ident of our class: 256 (stock's) would pick stock's backchannel. */
#define RSV_XPRT_IDENT		0x5253
/* Backchannel calls nfsd may have outstanding on one connection */
#define RSV_BC_SLOTS		8
/* Most bytes of a Read chunk: 1 MiB of payload and a page of RPC header */
#define RSV_MAX_CHUNK		(1024 * 1024 + 4096)
#define RSV_MAX_CHUNK_PAGES	(RSV_MAX_CHUNK / PAGE_SIZE + 1)
/* Connections accepted that nfsd has not taken yet, per listener */
#define RSV_MAX_PENDING		64

extern struct workqueue_struct *rsv_wq;
extern unsigned int rsv_credits;
extern unsigned int rsv_inline;
extern bool rsv_force_mr;
extern bool rsv_cq_softirq;
extern struct svc_xprt_class rsv_class;

/* only u64 counters: stats.c sums them as an array */
struct rsv_stats {
	u64 calls, inline_calls, data_chunks, long_calls;
	u64 inline_replies, write_chunks, reply_chunks, rdma_errors;
	u64 bad_calls, send_inv, bc_calls, bc_replies;
	u64 pull_waits;
};

struct rsv_call;

/* A reply to one of our callbacks, waiting for x_bc_work (S7). */
struct rsv_bc_reply {
	struct list_head b_node;	/* on x_bc_free or x_bc_wait (L1) */
	struct rst_rx *b_rx;		/* the held receive buffer */
	const u8 *b_msg;		/* its RPC message */
	u32 b_len;
	u32 b_xid;
	u32 b_credits;
};

/* One RDMA READ of a Read chunk's segment. */
struct rsv_read {
	struct rst_read_op r_op;
	struct rsv_call *r_call;
};

struct rsv_call {
	struct rsv_xprt *c_x;
	struct list_head c_node;	/* on x_calls_free, x_ready or x_pull_wait */
	u64 c_budget;			/* bytes charged to the pull budget (L5) */
	bool c_out;			/* off x_calls_free (S2) */
	struct rst_rx *c_rx;		/* the held receive buffer */
	const u8 *c_msg;		/* its RPC message (after the header) */
	struct rpcrdma_hdr c_hdr;
	struct rpcrdma_call_plan c_plan;
	/* a Read chunk's data */
	struct work_struct c_pull_work;
	struct page **c_pages;
	unsigned int c_nr_pages;
	struct scatterlist *c_sgl;
	struct rsv_read *c_reads;
	atomic_t c_reads_left;
	int c_status;
	/* where nfsd put each READ payload (->xpo_result_payload) */
	unsigned int c_nr_payloads;
	u32 c_payload_off[RPCRDMA_MAX_WRITE_CHUNKS];
	u32 c_payload_len[RPCRDMA_MAX_WRITE_CHUNKS];
};

struct rsv_xprt {
	struct svc_xprt xprt;		/* first */
	struct kref x_ref;		/* S4 */
	bool x_listener;
	/* a listener */
	struct rst_listener *x_lst;
	spinlock_t x_pend_lock;		/* x_pending, each conn's x_on_pending */
	struct list_head x_pending;
	unsigned int x_nr_pending;
	struct svc_serv *x_serv;
	struct rpcrdma_hdr x_dec;	/* ->recv's scratch (one CQ: serialized) */
	struct net *x_net;
	/* a connection */
	struct rsv_xprt *x_parent;	/* its listener, while on x_pending */
	struct list_head x_pend_node;
	bool x_on_pending;
	struct rst_conn *x_conn;
	u32 x_nr;			/* rst_conn_id(), for traces */
	spinlock_t x_lock;		/* x_ready, x_calls_free, flags below, x_stats */
	struct list_head x_ready;
	struct list_head x_calls_free;
	struct rsv_call *x_calls;
	unsigned int x_nr_calls;
	unsigned int x_calls_out;	/* off x_calls_free */
	bool x_svc_live;		/* svc has it (->xpo_accept ran) */
	bool x_svc_gone;		/* ->xpo_free ran */
	bool x_down;			/* ->disconnected ran */
	atomic_t x_pulls;		/* pull works queued or running */
	struct list_head x_pull_wait;	/* calls waiting for the budget (L5) */
	struct list_head x_pull_node;	/* in the budget's waiting connections */
	u64 x_pull_bytes;		/* charged to the budget (S6) */
	bool x_snd_w_inv;		/* the client takes Send-with-Invalidate */
	bool x_use_mr;			/* forced-MR READ sinks (rsv_force_mr) */
	u32 x_inline_send;		/* most bytes a reply may carry inline */
	u32 x_inline_recv;		/* ... a call, as the client was told */
	u32 x_granted;			/* credits in the last reply */
	unsigned long x_share_checked;	/* jiffies of the last share refresh */
	struct rsv_stats x_stats;
	struct rpc_xprt *x_bc;		/* the backchannel, for its replies */
	struct work_struct x_bc_work;	/* completes replies to callbacks */
	struct list_head x_bc_wait;	/* replies for it, in order (L1) */
	struct list_head x_bc_free;	/* x_bc_replies not waiting (L1) */
	struct rsv_bc_reply x_bc_replies[RSV_BC_SLOTS];
	struct work_struct x_put_work;	/* svc's last reference (S7) */
	struct list_head x_all;		/* stats.c, connections only */
	struct kobject *x_dir;		/* stats.c: connections/NR/, until down */
	char x_name[48];
};

struct rsv_reply {
	struct rsv_xprt *r_x;
	unsigned int r_nr_parts;
	struct rst_rw_part r_parts[RPCRDMA_MAX_WRITE_CHUNKS * RPCRDMA_MAX_CHUNK_SEGS +
				   RPCRDMA_MAX_CHUNK_SEGS];
	unsigned int r_nr_pages;
	unsigned int r_nr_sg;
	struct page **r_pages;
	struct scatterlist *r_sgl;
};

static inline struct rsv_xprt *rsv_of(struct svc_xprt *xprt)
{
	return container_of(xprt, struct rsv_xprt, xprt);
}

/* svc_xprt.c */
void rsv_xprt_put(struct rsv_xprt *x);
void rsv_close(struct rsv_xprt *x);

/* recv.c */
void rsv_recv(struct rst_conn *rc, const void *buf, u32 len, bool inv,
	      u32 inv_rkey);
int rsv_recvfrom(struct svc_rqst *rqstp);
void rsv_release_ctxt(struct svc_xprt *xprt, void *ctxt);
int rsv_calls_alloc(struct rsv_xprt *x, unsigned int n);
void rsv_calls_free(struct rsv_xprt *x);
void rsv_drop_ready(struct rsv_xprt *x);
void rsv_call_put(struct rsv_call *call);
void rsv_protocol_error(struct rsv_xprt *x, const char *what);
void rsv_put_work(struct work_struct *work);
void rsv_pull_work(struct work_struct *work);

/* pull.c */
struct seq_file;
void rsv_pull_submit(struct rsv_call *call);
void rsv_pull_uncharge(struct rsv_call *call);
void rsv_pull_forget(struct rsv_xprt *x);
struct rds_page;
void rsv_pull_show(struct rds_page *p);
void rsv_pull_init(void);

/* send.c */
u32 rsv_grant(struct rsv_xprt *x, bool may_refresh);
int rsv_sendto(struct svc_rqst *rqstp);
int rsv_result_payload(struct svc_rqst *rqstp, unsigned int offset,
		       unsigned int length);
void rsv_send_error(struct rsv_xprt *x, const struct rpcrdma_hdr *h, int err);

/* stats.c */
void rsv_stats_add(struct rsv_xprt *x);
void rsv_stats_del(struct rsv_xprt *x);
void rsv_stats_unpublish(struct rsv_xprt *x);
int rsv_stats_init(void);
void rsv_stats_exit(void);

/* fault.c: fault switches for tests, in debug builds only (RDMASTOR_DEBUG) */
#ifdef RDMASTOR_DEBUG
void rsv_fault_init(void);
void rsv_fault_exit(void);
void rsv_fault_bc_work_delay(void);
bool rsv_fault_rx_hold(void);
#else
static inline void rsv_fault_init(void) { }
static inline void rsv_fault_exit(void) { }
static inline void rsv_fault_bc_work_delay(void) { }
static inline bool rsv_fault_rx_hold(void) { return false; }
#endif

/* backchannel.c */
int rsv_bc_init(void);
void rsv_bc_exit(void);
void rsv_bc_drop(struct rsv_xprt *x);
void rsv_bc_init_conn(struct rsv_xprt *x);
void rsv_bc_queue(struct rsv_xprt *x, const struct rpcrdma_hdr *h,
		  const u8 *msg, u32 len);
void rsv_bc_flush(struct rsv_xprt *x);

#endif /* RDMASTOR_RSV_H */
