/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rsx: rdmastor's RPC-over-RDMA version 1 client transport for SUNRPC
 * (RFC 8166, RFC 8167 backchannel, RFC 8797 private data), built on the
 * transport engine (include/rdmastor/rst.h). Internals shared by its
 * files only.
 *
 * One struct rsx_xprt per rpc_xprt. It owns at most one engine
 * connection at a time (x_conn); a reconnect closes the old one and opens
 * a new one, and every RPC still waiting is retransmitted on it by the
 * RPC layer.
 *
 * Per RPC (struct rsx_req, allocated with the RPC's buffers):
 *   send_request: take a window slot, register the chunks' memory (at
 *     most RSX_MAX_MRS MRs), build the header and inline payload, post.
 *     The req is then "armed": on x_armed, holding its slot and MRs.
 *   the reply (->recv): look the RPC up by xid and pin it, claim it
 *     (r_replied, under x_lock: a second reply to the same arming is a
 *     protocol error), check the reply against the chunks we offered,
 *     copy the inline part, disarm,
 *     invalidate (remote or local; local waits, so it runs in rsx_wq),
 *     put the MRs back, copy a Reply chunk out of its bounce pages, and
 *     only then complete the RPC.
 *   a lost connection: whoever disarms a req (the reply path, the close
 *     path or buf_free) releases what it holds; x_lock decides who.
 *
 * Invariants of a req's arming (x_lock orders every change):
 *   A1. A req is armed (r_armed, on x_armed) exactly while it holds a
 *       window slot and r_nr_mrs MRs of r_conn.
 *       Asserted: rsx_req_put() warns on a req with no r_conn.
 *   A2. Whoever disarms a req releases what it holds, once: of every
 *       caller, rsx_disarm() returns true to one only.
 *       Asserted: rsx_disarm() tests and clears r_armed under x_lock.
 *   A3. A reply is taken at most once per arming, and only on the
 *       connection the req was armed on; any other is a protocol error.
 *       Asserted: rsx_claim_reply().
 *   A4. An RPC completes only after its req is disarmed and every key
 *       it advertised is invalid (or its MR freed, which kills the key).
 *       Asserted: rsx_finish() releases with invalidation before
 *       xprt_complete_rqst(); rst_mr_put() frees an MR not known IDLE.
 *   A5. Armed reqs are released by the close path only once the
 *       connection is drained: no ->recv runs and no reply work is left.
 *       Asserted: rsx_conn_close() runs rst_shutdown() and flushes rsx_wq
 *       before rsx_release_armed().
 *
 * Locks: each is taken and dropped within one function, and no two are
 * ever held at once, so no function expects its caller to hold one
 * (nothing for lockdep_assert_held() to check; lockdep sees no nesting).
 *   L1. x_lock guards x_armed and, on it, each req's r_node, r_armed and
 *       r_replied; x_bc_count; x_stats. Taken from process context and
 *       the engine's completion work, never from an interrupt.
 *       Checked: by lockdep, in make check-debug's rpcrdma_malformed and
 *       rpcrdma_faults.
 *   L2. x_conn_mutex guards x_conn's lifetime: connect and close change
 *       it under the mutex, buf_free and the statistics read it so. The
 *       send paths read it under SUNRPC's XPRT_LOCKED, which the close
 *       path holds too (xprt_autoclose()).
 *       Checked: by lockdep, in make check-debug's rpcrdma_faults.
 *   L3. SUNRPC's queue_lock (xprt_lookup_rqst(), pinning, completing)
 *       and transport_lock (the congestion window) are taken alone.
 *       Checked: by lockdep, which would report a nesting, in make
 *       check-debug's rpcrdma_malformed and rpcrdma_faults.
 */
#ifndef RDMASTOR_RSX_H
#define RDMASTOR_RSX_H

#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xdr.h>
#include <linux/workqueue.h>
#include <linux/mutex.h>
#include <rdmastor/rst.h>
#include <rdmastor/rpcrdma_wire.h>

/* A Read chunk (or long call) and a Write or Reply chunk. */
#define RSX_MAX_MRS		2
/* Backchannel calls the server may have outstanding (RFC 8167). */
#define RSX_BC_SLOTS		8
/*
 * How long a call or a backchannel reply waits for a send slot. Slots
 * come back as earlier Sends complete; after this long they do not,
 * and the call fails with the engine's error.
 */
#define RSX_SEND_SLOT_MS	10000
/* Fixed header of a message without chunks: 7 words. */
#define RSX_HDR_NOCHUNKS	28
/* ... with one Read segment and one Write or Reply segment: 6 words each. */
#define RSX_HDR_MAX		(RSX_HDR_NOCHUNKS + 4 * (6 + 6))

extern struct workqueue_struct *rsx_wq;
extern unsigned int rsx_credits;
extern unsigned int rsx_inline;
extern unsigned int rsx_max_pages;

/* Pages we own that a long call or a Reply chunk goes through. */
struct rsx_bounce {
	unsigned int len;
	unsigned int nr_pages;
	struct page *pages[];
};

struct rsx_stats {
	u64 inline_calls, read_chunks, long_calls;
	u64 inline_replies, write_chunks, reply_chunks;
	u64 rdma_errors, bad_replies, unknown_xids, local_inv_replies;
	u64 bc_calls, bc_dropped, reconnects;
	u64 abandoned;		/* RPCs that ended before their reply */
	u64 request_bytes;	/* registered for Read chunks (and NOMSG calls) */
	u64 reply_bytes;	/* registered for Write and Reply chunks */
	u64 failed_marshal;	/* calls that could not be marshalled */
};

struct rsx_xprt {
	struct rpc_xprt xprt;			/* first: xprt_alloc() */
	struct delayed_work x_connect_work;
	struct mutex x_conn_mutex;		/* x_conn's lifetime */
	struct rst_conn *x_conn;
	bool x_closing;				/* our own close, not a fault */
	bool x_connect_failed;
	bool x_proto_error;			/* the last connection ended on one */
	u32 x_inline_send;			/* negotiated (RFC 8797) */
	u32 x_inline_recv;
	atomic_t x_done_works;			/* r_done_works queued or running */
	spinlock_t x_lock;			/* x_armed, x_stats, x_bc_count */
	struct list_head x_armed;
	unsigned int x_bc_count;
	struct rsx_stats x_stats;
	/* scratch: sends are serialized by XPRT_LOCKED, receives by the CQ */
	struct rpcrdma_hdr x_enc;
	struct rpcrdma_hdr x_dec;
	char x_name[48];
	struct kobject *x_dir;			/* xprts/xprt-ID (stats.c) */
};

struct rsx_req {
	struct rsx_xprt *r_x;
	struct rpc_rqst *r_rqst;
	struct list_head r_node;		/* on x_armed while armed */
	bool r_armed;
	bool r_replied;				/* a reply was taken while armed */
	struct rst_conn *r_conn;		/* what r_mrs belong to */
	unsigned int r_nr_mrs;
	struct rst_mr *r_mrs[RSX_MAX_MRS];
	struct scatterlist *r_sgs[RSX_MAX_MRS];
	u32 r_rkeys[RSX_MAX_MRS];
	u32 r_lens[RSX_MAX_MRS];
	int r_write_mr;				/* index of the Write chunk's MR, or -1 */
	int r_reply_mr;				/* ... of the Reply chunk's */
	struct rsx_bounce *r_call_bounce;
	struct rsx_bounce *r_reply_bounce;
	/* the reply, between ->recv and completion */
	struct work_struct r_done_work;
	int r_status;				/* bytes of reply, or -errno */
	u32 r_reply_len;			/* Reply chunk bytes to copy out */
	bool r_invalidated[RSX_MAX_MRS];
	char r_buf[] __aligned(8);		/* rq_buffer, then rq_rbuffer */
};

static inline struct rsx_xprt *rsx_of(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct rsx_xprt, xprt);
}

static inline struct rsx_req *rsx_req_of(struct rpc_rqst *rqst)
{
	return container_of((char *)rqst->rq_buffer, struct rsx_req, r_buf[0]);
}

/* xprt.c */
void rsx_close(struct rpc_xprt *xprt);

/* marshal.c */
void rsx_hdr_init(struct rpcrdma_hdr *h, __be32 xid, u32 credits);
int rsx_marshal(struct rsx_xprt *x, struct rst_conn *c, struct rsx_req *req);
void rsx_req_release(struct rsx_req *req, bool invalidate);
void rsx_release_armed(struct rsx_xprt *x);

/* reply.c */
void rsx_recv(struct rst_conn *c, const void *buf, u32 len, bool invalidated,
	      u32 inv_rkey);
void rsx_done_work(struct work_struct *work);

/* xdrbuf.c */
struct rsx_bounce *rsx_bounce_alloc(unsigned int len, gfp_t gfp);
void rsx_bounce_free(struct rsx_bounce *b);
struct scatterlist *rsx_bounce_sg(struct rsx_bounce *b, int *nents, gfp_t gfp);
struct scatterlist *rsx_pages_sg(struct page **pages, unsigned int base,
				 unsigned int len, int *nents, gfp_t gfp);
int rsx_bounce_from_xdr(struct rsx_bounce *b, const struct xdr_buf *xdr);
unsigned int rsx_xdr_scatter(struct xdr_buf *xdr, unsigned int off,
			     const void *src, unsigned int len);
int rsx_fill_sparse_pages(struct xdr_buf *xdr, gfp_t gfp);
unsigned int rsx_bounce_to_xdr(struct xdr_buf *xdr, const struct rsx_bounce *b,
			       unsigned int len);

/* backchannel.c */
int rsx_bc_setup(struct rpc_xprt *xprt, unsigned int reqs);
size_t rsx_bc_maxpayload(struct rpc_xprt *xprt);
unsigned int rsx_bc_num_slots(struct rpc_xprt *xprt);
void rsx_bc_free_rqst(struct rpc_rqst *rqst);
void rsx_bc_destroy(struct rpc_xprt *xprt, unsigned int reqs);
int rsx_bc_send_reply(struct rpc_rqst *rqst);
bool rsx_bc_is_call(const struct rpcrdma_hdr *h, const u8 *msg, u32 len);
void rsx_bc_receive_call(struct rsx_xprt *x, struct rst_conn *c,
			 const struct rpcrdma_hdr *h, const u8 *msg, u32 len);

/* stats.c: mountstats and sysfs */
void rsx_print_stats(struct rpc_xprt *xprt, struct seq_file *seq);
void rsx_stats_add(struct rsx_xprt *x);
void rsx_stats_del(struct rsx_xprt *x);
int rsx_stats_init(void);
void rsx_stats_exit(void);

#endif /* RDMASTOR_RSX_H */
