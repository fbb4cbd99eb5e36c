/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the transport engine, shared by its files only.
 *
 * Locking: c_lock (a spinlock) protects the state, the send ring's free
 * list, the MR pool and the window counters. It is taken with interrupts
 * off: rst_conn_down() takes it and is called from the QP's asynchronous
 * event handler, which some providers run in hard-IRQ context. Helpers
 * documented "Under c_lock" assert it (lockdep). Waiters sleep on c_wq,
 * which is woken whenever a send slot, an MR or window room frees up and
 * when the connection goes down. c_post_lock (taken with bottom halves
 * off, or interrupts off if c_p.post_irqoff: rst_post_lock(); never
 * inside c_lock) is held across every post to the QP: of a
 * send slot, so that c_tx_posted lists the slots in send queue order,
 * and of everything else, so that no post slips past the drain.
 *
 * Invariants (E1-E9; Documentation/transport.rst explains each):
 *   E1. Messaging uses no MR: every send and receive buffer is mapped
 *       once at set-up and referenced with the PD's local_dma_lkey.
 *       Asserted: rst_buf_map() is the rings' only mapping and sets
 *       that key; transport_loopback checks no MR exists before I/O.
 *   E2. A registration lives for one I/O: its key is rotated at each
 *       map and invalid before the ULP completes the I/O; a peer that
 *       invalidates another key breaks the protocol.
 *       Asserted: rst_mr_map_off() warns unless the MR is IDLE and
 *       rotates the key; rst_tx_post_mrs() warns unless it is MAPPED;
 *       rst_mr_remote_invalidated() returns -EPROTO on a wrong key.
 *   E3. MRs stay within the share: the entries they hold never exceed
 *       c_ent_limit and their number c_mr_limit, beyond the one MR
 *       rnic_mgr always allows; reclaim frees idle MRs only.
 *       Asserted: rst_over_limits() and rst_mr_room() decide under
 *       c_lock, which frwr.c's helpers assert (lockdep), with
 *       rst_window.h's pure rst_mr_over_calc() and rst_mr_room_calc(),
 *       unit-tested in test_transport.
 *   E4. The window is min(peer credits, receive ring, MRs of the
 *       smallest class the share covers); a shrink lowers it at once.
 *       Asserted: rst_io_end() warns on an I/O leaving an empty window;
 *       rst_window.h's calculations are unit-tested (test_transport).
 *   E5. Nothing is posted to the QP once the down work began its drain,
 *       so every completion is delivered before ib_drain_qp() returns
 *       and none after ->disconnected. Every post goes through
 *       rst_post_send(), rst_post_rw(), rst_post_recv() or
 *       rst_tx_post_chain(), which check c_posts_closed and post under
 *       c_post_lock; rst_down_work() sets it under that lock first.
 *       Asserted: each completion handler warns (rst_cqe_check()) if it
 *       runs after the drain returned (c_drained).
 *   E6. Sends complete in batches: at most rst_tx_batch() - 1 slots wait
 *       behind the last signaled Send, so a sender waiting for a slot
 *       always has a completion coming.
 *       Asserted: rst_tx_post_chain() signals every Send somebody waits
 *       for and every rst_tx_batch()-th, and lists slots in c_tx_posted
 *       in send queue order.
 *   E7. Queues are sized for the worst I/O: per I/O a REG_MR, the send
 *       and a LOCAL_INV, or the send plus its RDMA operations, and one
 *       WR for the drain. Asserted: rst_conn_setup() sizes them so,
 *       within the device's max_qp_wr.
 *   E8. On soft-RoCE a retransmission is a connection failure, so the
 *       ACK timeout is 4.3 s there, not rdma_cm's 0.5 s.
 *       Asserted: rst_set_ack_timeout() before every connect and accept
 *       (traced rst_ack_timeout).
 *   E9. A soft-RoCE send queue that stands still is rung, on 6.1 only.
 *       Asserted: rst_kick_arm() holds c_post_lock (lockdep) and arms
 *       only while posts are open (kick.c).
 */
#ifndef RDMASTOR_RST_INT_H
#define RDMASTOR_RST_INT_H

#include <linux/kref.h>
#include <linux/workqueue.h>
#include <linux/wait.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>
#include <rdmastor/rst.h>
#include <rdmastor/rnic_mgr.h>

enum rst_state {
	RST_NEW,		/* resources being set up */
	RST_CONNECTING,		/* connect or accept sent */
	RST_UP,
	RST_DOWN,		/* disconnected or failed: only teardown left */
};

/* What an rdma_cm id's context points to: both start with a tag. */
enum rst_obj { RST_OBJ_CONN = 1, RST_OBJ_LISTENER };

struct rst_rx {
	struct ib_cqe rx_cqe;
	struct ib_recv_wr rx_wr;
	struct ib_sge rx_sge;
	void *rx_buf;
	struct rst_conn *rx_conn;
	u32 rx_pad;		/* rx_buf is this far into its allocation */
	struct rst_cid rx_cid;
	bool rx_held;		/* rst_rx_hold(): reposted by rst_rx_release() */
};

struct rst_tx {
	struct ib_cqe tx_cqe;
	struct ib_send_wr tx_wr;
	struct ib_sge tx_sge;
	void *tx_buf;
	struct rst_conn *tx_conn;
	struct list_head tx_node;
	/* set by rst_rw_write_send(): the RDMA WRITE chained before us */
	struct rdma_rw_ctx tx_rw;
	struct scatterlist *tx_rw_sg;
	u32 tx_rw_nents;
	/* set by rst_rw_writev_send_async(): its WRITEs, chained before us */
	struct rst_rw_part *tx_parts;
	u32 tx_nr_parts;
	struct completion *tx_done;	/* signalled on completion, if set */
	rst_tx_done_fn tx_cb;		/* called on completion, if set */
	void *tx_cb_arg;
	int tx_status;
	struct rst_cid tx_cid;
};

/* MR size classes (rst_conn_params.small_io_pages) */
enum { RST_MR_SMALL, RST_MR_LARGE, RST_MR_CLASSES };

/* struct rst_mr states */
enum { RST_MR_IDLE, RST_MR_MAPPED, RST_MR_VALID };

struct rst_mr {
	struct list_head mr_node;
	struct ib_mr *mr_ib;
	struct rst_conn *mr_conn;
	int mr_cls;			/* size class: RST_MR_SMALL or _LARGE */
	struct scatterlist *mr_sg;
	int mr_nents;
	enum dma_data_direction mr_dir;
	int mr_state;
	int mr_status;		/* a REG_MR or LOCAL_INV failed: state unknown */
	struct ib_reg_wr mr_reg_wr;
	struct ib_send_wr mr_inv_wr;
	struct ib_cqe mr_reg_cqe;
	struct ib_cqe mr_inv_cqe;
	struct completion mr_inv_done;
	/* rst_mr_local_invalidate_async(): called instead of waking a waiter */
	rst_mr_inv_fn mr_inv_fn;
	void *mr_inv_arg;
	bool mr_defer_unknown;	/* rst_mr_put_nosleep(): bury, not free */
	/* for its REG_MR and LOCAL_INV; ci_completion_id names the MR */
	struct rst_cid mr_cid;
};

struct rst_listener;

struct rst_conn {
	enum rst_obj c_tag;
	u32 c_nr;			/* names it in traces; never reused */
	/*
	 * c_p.name points here: a server connection may outlive the ULP
	 * module whose string the listener's parameters pointed to.
	 */
	char c_name[48];
	atomic_t c_completion_ids;	/* the last rst_cid handed out */
	struct rdma_cm_id *c_id;
	struct ib_device *c_dev;
	struct ib_pd *c_pd;
	struct ib_cq *c_cq;
	struct ib_qp *c_qp;
	u32 c_port;
	struct rst_conn_params c_p;
	void *c_priv;
	bool c_server;				/* accepted by a listener */
	bool c_owner_held;			/* c_p.owner's module, until ->disconnected */
	/* its listener, until it leaves l_conns (then NULL: l may be gone) */
	struct rst_listener *c_listener;
	struct list_head c_lnode;		/* in the listener's list */
	/*
	 * Server side: references. The engine holds one until the down work
	 * has told the ULP; the ULP takes its own (rst_conn_get()) for as
	 * long as it uses the connection after that. The last put frees it
	 * from rst_wq (c_free_work): the final put may come from any
	 * context, and freeing destroys the CQ, which waits for its work.
	 */
	struct kref c_ref;
	struct work_struct c_free_work;

	spinlock_t c_lock;
	enum rst_state c_state;
	int c_reason;			/* why it went down */
	int c_cm_status;		/* result of the last awaited cm step */
	struct completion c_cm_done;
	wait_queue_head_t c_wq;
	struct work_struct c_down_work;
	struct completion c_down_done;	/* ->disconnected has returned */
	u8 c_peer_pdata[64];
	u8 c_peer_plen;

	struct rst_rx *c_rx;
	/*
	 * Receive buffers and send slots that exist: c_p.initial_depth
	 * until rst_rings_grow(), then the full depths. They only grow,
	 * under c_lock (read without it where a stale value is safe).
	 */
	u32 c_rx_nr, c_tx_nr;
	struct rst_rx *c_rx_cur;	/* the one ->recv is looking at */
	atomic_t c_rx_held_nr;		/* held by the ULP (rst_rx_hold()) */
	struct rst_tx *c_tx;
	struct list_head c_tx_free;
	spinlock_t c_post_lock;
	bool c_posts_closed;		/* the drain began: post nothing (c_post_lock) */
	bool c_drained;			/* ib_drain_qp() returned: no completion comes */
	struct list_head c_tx_posted;	/* posted, not yet retired, in order */
	u32 c_tx_unsignaled;		/* posted unsignaled since the last signaled */
	u64 c_sends, c_sends_signaled;	/* under c_post_lock too */

	struct rnic_consumer *c_rc;
	struct list_head c_mr_free[RST_MR_CLASSES];	/* idle, by size class */
	struct list_head c_mr_dead;	/* deregistered, freed after the drain */
	/* rst_mr_put_nosleep(): MRs to deregister from process context */
	struct list_head c_mr_defer;
	struct work_struct c_mr_defer_work;
	u32 c_mr_total;			/* allocated (or being allocated) */
	u32 c_mr_idle;			/* in c_mr_free */
	u32 c_mr_limit;			/* MRs the share covers (smallest class) */
	u32 c_mr_entries;		/* entries charged for c_mr_total */
	u32 c_ent_limit;		/* entries the share covers */
	u64 c_mr_gets[RST_MR_CLASSES];	/* MRs asked for, ever, by class */
	u64 c_mr_gets_seen[RST_MR_CLASSES];	/* ... as of the idle reaper's last look */
	struct delayed_work c_idle_work;
	struct list_head c_reads_parked;	/* READs waiting for an MR */
	u32 c_reads_waiting;
	struct delayed_work c_read_work;	/* posts them */

	/* kick.c: the doorbell watchdog, on soft-RoCE only */
	bool c_kick_on;
	struct delayed_work c_kick_work;
	u64 c_tx_progress;		/* sends posted and retired (c_post_lock) */
	u64 c_kick_seen;		/* ... at the watchdog's last look */
	u64 c_kicks;			/* doorbells rung (c_post_lock) */

	u32 c_peer_credits;
	u32 c_outstanding;
	struct rst_stats c_stats;
};

struct rst_listener {
	enum rst_obj l_tag;
	struct rdma_cm_id *l_id;
	struct rst_conn_params l_p;
	rst_accept_fn l_accept;
	rst_admit_fn l_admit;
	void *l_priv;
	spinlock_t l_lock;
	struct list_head l_conns;
	wait_queue_head_t l_wq;
	bool l_closing;
	/*
	 * Who destroys l_id (under l_lock, first one wins): rdma_cm, after
	 * DEVICE_REMOVAL on a listener bound to that device (l_id_gone), or
	 * rst_listener_destroy() (l_id_ours).
	 */
	bool l_id_gone;
	bool l_id_ours;
};

extern struct workqueue_struct *rst_wq;
extern unsigned int rst_mr_idle_ms;
extern bool rst_mr_keep_idle;
extern int rst_ack_timeout;
int rst_set_ack_timeout(struct rst_conn *c, struct rdma_cm_id *id);

/* fault.c: fault switches for tests, in debug builds only (RDMASTOR_DEBUG) */
#ifdef RDMASTOR_DEBUG
void rst_fault_init(void);
void rst_fault_exit(void);
bool rst_fault_rw_init(void);
bool rst_fault_mr_busy(void);
void rst_fault_read_post_delay(void);
#else
static inline void rst_fault_init(void) { }
static inline void rst_fault_exit(void) { }
static inline bool rst_fault_rw_init(void) { return false; }
static inline bool rst_fault_mr_busy(void) { return false; }
static inline void rst_fault_read_post_delay(void) { }
#endif

/**
 * rst_cqe_check - a completion handler's check of the drain invariant
 * @c: the connection the completion belongs to
 *
 * Nothing completes after ib_drain_qp() returned (rst_int.h, M4): a
 * completion now means a work request slipped past the drain.
 */
static inline void rst_cqe_check(struct rst_conn *c)
{
	WARN_ONCE(READ_ONCE(c->c_drained), "%s: a completion after the drain\n",
		  c->c_p.name);
}

/**
 * rst_cid_init - a new completion id for a work request of @c
 * @c: the connection, its CQ allocated
 * @cid: out
 */
static inline void rst_cid_init(struct rst_conn *c, struct rst_cid *cid)
{
	cid->ci_queue_id = c->c_cq->res.id;
	cid->ci_completion_id = atomic_inc_return(&c->c_completion_ids);
}

/**
 * rst_post_lock - take c_post_lock as the connection's ULP asked
 * @c: the connection
 *
 * Bottom halves off, or interrupts off if c_p.post_irqoff: a tasklet a
 * software provider raises inside a post then goes to ksoftirqd instead
 * of running at the unlock in the poster's thread (rst.h, post_irqoff).
 *
 * Return: the saved interrupt state, for rst_post_unlock().
 * Context: any but hard IRQ.
 */
static inline unsigned long rst_post_lock(struct rst_conn *c)
	__acquires(&c->c_post_lock)
{
	unsigned long flags = 0;

	if (c->c_p.post_irqoff)
		spin_lock_irqsave(&c->c_post_lock, flags);
	else
		spin_lock_bh(&c->c_post_lock);
	return flags;
}

/**
 * rst_post_unlock - release c_post_lock taken by rst_post_lock()
 * @c: the connection
 * @flags: what rst_post_lock() returned
 */
static inline void rst_post_unlock(struct rst_conn *c, unsigned long flags)
	__releases(&c->c_post_lock)
{
	if (c->c_p.post_irqoff)
		spin_unlock_irqrestore(&c->c_post_lock, flags);
	else
		spin_unlock_bh(&c->c_post_lock);
}

/* conn.c */
struct rst_conn *rst_conn_alloc(const struct rst_conn_params *p,
				struct rst_listener *l);
void rst_conn_free(struct rst_conn *c);
void rst_wc_error(struct rst_conn *c, const struct ib_wc *wc, const char *what);
void rst_post_error(struct rst_conn *c, const char *what, int err);
int rst_post_send(struct rst_conn *c, const struct ib_send_wr *wr);
int rst_post_rw(struct rst_conn *c, struct rdma_rw_ctx *ctx, struct ib_cqe *cqe);
int rst_post_recv(struct rst_conn *c, const struct ib_recv_wr *wr);
int rst_conn_setup(struct rst_conn *c, struct rdma_cm_id *id);
void rst_conn_free_hw(struct rst_conn *c);
void rst_conn_destroy(struct rst_conn *c);
void rst_conn_down(struct rst_conn *c, int reason);
void rst_down_work(struct work_struct *work);
int rst_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev);

/* listen.c */
int rst_listener_cm_event(struct rst_listener *l, struct rdma_cm_id *id,
			  struct rdma_cm_event *ev);

/* ring.c */
int rst_rings_create(struct rst_conn *c);
void rst_rings_destroy(struct rst_conn *c);
int rst_rx_post_all(struct rst_conn *c);
int rst_tx_post_chain(struct rst_conn *c, struct rst_tx *tx,
		      struct ib_send_wr *first);
struct ib_send_wr *rst_tx_prepare(struct rst_conn *c, struct rst_tx *tx, u32 len,
				  bool send_inv, u32 inv_rkey);

/* frwr.c */
struct rst_mr *rst_mr_tryget(struct rst_conn *c);
int rst_mr_pool_init(struct rst_conn *c);
void rst_mr_pool_destroy(struct rst_conn *c);
void rst_mr_refresh_limit(struct rst_conn *c);
void rst_mr_defer_work(struct work_struct *work);
int rst_mr_map_off(struct rst_mr *m, struct scatterlist *sg, int nents,
		   unsigned int sg_off, enum dma_data_direction dir, u64 *addr,
		   u32 *len, u32 *rkey);

/* kick.c */
void rst_kick_init(struct rst_conn *c);
bool rst_kick_wanted(const struct ib_device *dev);
void rst_kick_watch(struct rst_conn *c);
void rst_kick_stop(struct rst_conn *c);
extern unsigned int rst_rxe_kick_ms;

/**
 * rst_kick_arm - something moved on the send queue
 * @c: the connection, under c_post_lock
 *
 * Counts the progress the watchdog compares; only a soft-RoCE
 * connection goes on to watch (a call per post and retire saved on
 * every other device).
 */
static inline void rst_kick_arm(struct rst_conn *c)
{
	lockdep_assert_held(&c->c_post_lock);
	c->c_tx_progress++;
	if (c->c_kick_on)
		rst_kick_watch(c);
}

/* read_wait.c */
void rst_reads_init(struct rst_conn *c);
bool rst_reads_waiting(struct rst_conn *c);
int rst_read_park(struct rst_conn *c, struct rst_read_op *op);
void rst_reads_kick(struct rst_conn *c);
void rst_read_work(struct work_struct *work);
void rst_reads_flush(struct rst_conn *c);

/* rw.c */
void rst_rw_parts_destroy(struct rst_conn *c, struct rst_rw_part *parts, u32 nr);
int rst_read_post_mr(struct rst_conn *c, struct rst_read_op *op,
		     struct rst_mr *m);

#endif /* RDMASTOR_RST_INT_H */
