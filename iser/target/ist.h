/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdmastor_isert: an iSER target transport for LIO's iSCSI target on the
 * rdmastor engine. Internals shared by its files.
 *
 * Objects:
 *   struct ist_np    one iSCSI network portal with iSER enabled: an engine
 *                    listener, and the connections it accepted that LIO's
 *                    login thread has not taken yet.
 *   struct ist_conn  one iSER connection: the engine connection (rst_conn)
 *                    and, once LIO's login thread took it, LIO's
 *                    iscsit_conn.
 *   struct ist_cmd   our part of each LIO command (iscsit_priv_cmd()).
 *
 * Invariants of a connection's life:
 *  N1. An ist_conn holds one reference (ref) from its accept until the
 *      engine says the connection is down (ist_disconnected()), and one
 *      more from LIO's login thread taking it until LIO is done with it
 *      (->iscsit_free_conn). The last one frees it, and with it the
 *      reference it holds on the engine connection (rst_conn_get()).
 *      Asserted: ist_conn_free() warns unless the connection is down
 *      and LIO has let go of it (ic->conn cleared).
 *  N2. A connection LIO has not taken is on its portal's pending list,
 *      and one it has taken is not: the two change together, under the
 *      portal's lock (bound, node), when LIO takes it or it goes down.
 *      Asserted: ist_np_first_ready() holds inp->lock
 *      (lockdep_assert_held); ist_conn_free() warns if it is still
 *      listed.
 *  N3. The engine's ->disconnected never waits for LIO: it marks the
 *      connection down, wakes its waiters and drops the accept's
 *      reference. LIO learns of the loss from ->iscsit_get_rx_pdu
 *      returning (full feature phase) or ->iscsit_get_login_rx failing
 *      (login phase), and its close path waits for the drain
 *      (ist_wait_conn()).
 *      Enforced: ist_disconnected() takes only the portal's lock,
 *      briefly, and waits for nothing.
 *  N4. A connection is counted in its portal's nr_login (in_login) from
 *      its accept until it enters full feature phase or goes down,
 *      whichever comes first, under the portal's lock; until then it has
 *      IST_LOGIN_DEPTH receive buffers and send slots, not its full rings.
 *      Asserted: ist_conn_free() warns if it is still counted;
 *      ist_get_rx_pdu() grows the rings only after ist_np_login_end().
 *      Each such connection holds one of the portal's login_peer slots,
 *      with its initiator's address, and at most IST_MAX_LOGIN_PEER
 *      slots hold one address. Enforced: ist_accept() counts them
 *      under the portal's lock before it takes a slot.
 *  N5. A portal's ist_np lives while LIO's portal or any connection it
 *      accepted does (ref: one for the portal, one per ist_conn): LIO
 *      may run a connection's login work, which takes the portal's lock,
 *      after it freed the portal (from 6.5 its login timer queues that
 *      work by itself). Asserted: ist_np_release() warns if a connection
 *      is still pending or counted in login.
 */
#ifndef RDMASTOR_IST_H
#define RDMASTOR_IST_H

#include <linux/workqueue.h>
#include <target/iscsi/iscsi_transport.h>
#include <rdmastor/rst.h>
#include <rdmastor/iser_wire.h>

/* Largest data segment in either direction: LIO's iSER default. */
#define IST_MAX_DSL		8192
#define IST_MSG_SIZE		ALIGN(ISER_HEADERS_LEN + IST_MAX_DSL, 64)
/* Commands the initiator may have outstanding, plus unsolicited PDUs */
#define IST_RECV_DEPTH		(128 + 8)
#define IST_SEND_DEPTH		(IST_RECV_DEPTH + 8)
/*
 * Receive buffers and send slots of a connection in the login phase:
 * login is one request, then one response, so a few suffice. The full
 * rings (~4.5 MiB) come only with full feature phase (rst_rings_grow()),
 * as stock isert posts its receive descriptors only then; the QP is
 * created at full size, as stock's is.
 */
#define IST_LOGIN_DEPTH		4
/* Largest I/O moved with one RDMA READ or WRITE context (1 MiB) */
#define IST_IO_PAGES		256
/*
 * Connections LIO has not taken yet, per portal: each costs a QP and its
 * login-phase rings before the initiator proved anything. At the cap, a
 * new connection evicts the oldest one that has sent no login request
 * yet (a real initiator sends one at once), or is refused if every one
 * has; evicted ones still going down count too, up to twice the cap.
 * One that sends no login request in IST_LOGIN_WAIT_MS is dropped, and
 * LIO's login thread only ever takes connections whose first login
 * request is in, so idle ones never hold it up.
 */
#define IST_MAX_PENDING		16
/*
 * Connections in the login phase per portal, pending ones included:
 * beyond this a connect is refused. LIO serialises logins per portal
 * group (np_login_sem), so a working portal rarely has more than one
 * per group past the pending stage.
 */
#define IST_MAX_LOGIN		32
/*
 * ... and per initiator address: one host that keeps connections in
 * login (stalled, or reconnecting as each is dropped) takes at most
 * this many of a portal's IST_MAX_LOGIN, and other hosts still get in.
 */
#define IST_MAX_LOGIN_PEER	4
#define IST_REJECT_CLOSE_MS	2000
/* How long a login response waits for a send slot before it fails. */
#define IST_LOGIN_SEND_MS	5000
/*
 * The login deadline: a connection is dropped when its initiator has
 * sent no login request for this long, counted from the accept, then
 * from each non-final login response (ist_login_wait_expired()). LIO's
 * own timers cover only the wait for a request it has been told of; one
 * that never comes held the connection, and LIO's login semaphore of its
 * portal group, for ever. LIO over TCP allows 15 s too (TA_LOGIN_TIMEOUT).
 */
#define IST_LOGIN_WAIT_MS	15000

struct ist_np {
	struct kref ref;		/* N5 */
	struct iscsi_np *np;
	struct rst_listener *lst;
	struct mutex lock;		/* pending, and each ist_conn's binding */
	struct list_head pending;
	unsigned int nr_pending;	/* on pending, evicted ones included */
	unsigned int nr_evicted;
	unsigned int nr_login;		/* in the login phase (N4) */
	wait_queue_head_t wq;		/* LIO's login thread waits for pending */
	/* the initiators of the connections in login, by slot (N4) */
	struct sockaddr_storage login_peer[IST_MAX_LOGIN];
	bool login_used[IST_MAX_LOGIN];
};

enum ist_phase { IST_LOGIN, IST_FULL };

struct ist_conn {
	struct rst_conn *rc;
	u32 nr;				/* rst_conn_id(rc), for traces */
	struct ist_np *inp;
	struct list_head node;		/* in inp->pending until LIO takes it */
	struct iscsit_conn *conn;	/* LIO's, once bound, until free_conn */
	bool bound;
	bool login_ready;		/* the first login request is in */
	bool evicted;			/* dropped to make room (inp->lock) */
	bool in_login;			/* counted in inp->nr_login (N4) */
	unsigned int login_slot;	/* its inp->login_peer, while in_login */
	struct delayed_work login_wait;	/* the login deadline */
	bool down;			/* ->disconnected ran: nothing in flight */
	bool send_w_inv;		/* Send-with-Invalidate the initiator's keys */
	bool use_mr;			/* register RDMA READ sinks (forced-MR mode) */
#ifdef RDMASTOR_DEBUG
	/* for the hostile-target switches only (racy, test use: fault.c) */
	u32 recent_stag;		/* the last command's key */
	u32 last_read_stag;		/* the last READ's key and address */
	u64 last_read_va;
#endif
	enum ist_phase phase;
	wait_queue_head_t wq;		/* down, control completions */
	struct completion login_req;	/* one per login request received */
	struct kref ref;		/* see "Lifetime" above */

	/*
	 * A login request is accepted only while LIO waits for one: the
	 * first, and one after each non-final response (under inp->lock,
	 * which also covers the copy into LIO's login buffers). Anything
	 * else in the login phase is a protocol error: after a reject LIO
	 * frees those buffers and the connection without our lock.
	 */
	bool login_expect;
	/* the last login request (first one: before LIO bound us) */
	u8 login_bhs[ISER_BHS_LEN];
	u8 *login_data;
	u32 login_len;
	/* the final login response, sent once LIO is in full feature phase */
	struct rst_tx *login_final;
	u32 login_final_len;

	/*
	 * The iSCSI layer refused a PDU (LIO over TCP then closes the
	 * connection): nothing more is taken in, and the connection ends
	 * once the Reject LIO queued for it has been sent, or after
	 * IST_REJECT_CLOSE_MS if none comes.
	 */
	bool closing;
	struct delayed_work close_work;
	bool logout_posted;
	atomic_t ctrl_pending;		/* control completions queued to ist_wq */
	atomic_t outstanding;		/* SCSI commands not yet answered */
	u32 window_adv;			/* MaxCmdSN - ExpCmdSN + 1, last sent */
	unsigned long share_checked;	/* jiffies of the last share refresh */
	atomic_t rx_pdus;		/* PDUs in full feature phase (idle check) */
	struct list_head all;		/* stats.c */
	struct kobject *dir;		/* stats.c: connections/NR/ */
};

struct ist_cmd {
	struct ist_conn *ic;
	struct iscsit_cmd *cmd;
	bool has_read, has_write;
#ifdef RDMASTOR_DEBUG
	bool stale_write;		/* fault_stale_write chose it (fault.c) */
#endif
	u32 read_stag, write_stag;
	u64 read_va, write_va;
	unsigned long flags;
#define IST_CMD_COUNTED		0	/* in ic->outstanding */
#define IST_CMD_CTRL_COUNTED	1	/* in ic->ctrl_pending */
#define IST_CMD_TEXT_CONTINUE	2	/* a text response with C set was sent */
	struct rst_read_op rd;
	struct work_struct work;	/* control completion */
	/* all the WRITE data came as immediate data: used in place */
	struct scatterlist imm_sg;
	struct rst_rx *rx_hold;
	/* READ data shorter than its buffer: the entry trimmed, its length */
	struct scatterlist *trim_sg;
	u32 trim_len;
};

extern struct workqueue_struct *ist_wq;
extern bool ist_force_mr;
extern unsigned int ist_discovery_idle_s;
extern struct iscsit_transport ist_transport;

/* portal.c */
int ist_setup_np(struct iscsi_np *np, struct sockaddr_storage *addr);
int ist_accept_np(struct iscsi_np *np, struct iscsit_conn *conn);
void ist_free_np(struct iscsi_np *np);
void ist_wait_conn(struct iscsit_conn *conn);
void ist_free_conn(struct iscsit_conn *conn);
bool ist_np_login_end(struct ist_conn *ic);

/*
 * fault.c: fault and hostile-target switches for tests, in debug builds
 * only (RDMASTOR_DEBUG: make check and make bench build so). A product
 * build has these stubs instead: no switch, no copy of a response, no
 * branch (each stub is constant, so the compiler drops the code).
 */
struct dentry;

#ifdef RDMASTOR_DEBUG
/* a PDU kept to be sent again by the switches */
struct ist_fault_copy {
	u32 len;			/* 0: none kept */
	u8 buf[256];
};

void ist_fault_init(struct dentry *dir);
bool ist_fault_rx_hold(void);
bool ist_fault_silent(void);
void ist_fault_hold_logout(void);
void ist_fault_note_stag(struct ist_conn *ic, u32 stag);
u32 ist_fault_wrong_inv(struct ist_conn *ic, u32 key);
bool ist_fault_no_inv(void);
void ist_fault_stale_write(struct ist_cmd *icmd, u64 *va, u32 *stag);
void ist_fault_send_failed(struct ist_cmd *icmd);
void ist_fault_copy_save(struct ist_fault_copy *c, const void *msg, u32 len);
void ist_fault_copies(struct ist_conn *ic, const struct ist_fault_copy *c);
#else
struct ist_fault_copy {
};

static inline void ist_fault_init(struct dentry *dir) { }
static inline bool ist_fault_rx_hold(void) { return false; }
static inline bool ist_fault_silent(void) { return false; }
static inline void ist_fault_hold_logout(void) { }
static inline void ist_fault_note_stag(struct ist_conn *ic, u32 stag) { }
static inline u32 ist_fault_wrong_inv(struct ist_conn *ic, u32 key) { return key; }
static inline bool ist_fault_no_inv(void) { return false; }
static inline void ist_fault_stale_write(struct ist_cmd *icmd, u64 *va, u32 *stag) { }
static inline void ist_fault_send_failed(struct ist_cmd *icmd) { }
static inline void ist_fault_copy_save(struct ist_fault_copy *c, const void *msg,
				       u32 len) { }
static inline void ist_fault_copies(struct ist_conn *ic,
				    const struct ist_fault_copy *c) { }
#endif

/* stats.c */
void ist_stats_add(struct ist_conn *ic);
void ist_stats_del(struct ist_conn *ic);
void ist_stats_init(void);
void ist_stats_exit(void);

/* login.c */
void ist_login_recv(struct ist_conn *ic, const struct iser_pdu *p);
int ist_get_login_rx(struct iscsit_conn *conn, struct iscsi_login *login);
int ist_put_login_tx(struct iscsit_conn *conn, struct iscsi_login *login,
		     u32 length);
void ist_get_rx_pdu(struct iscsit_conn *conn);

/* rx.c */
void ist_recv(struct rst_conn *rc, const void *buf, u32 len, bool inv,
	      u32 inv_rkey);
void ist_protocol_error(struct ist_conn *ic, const char *what);
void ist_close_work(struct work_struct *work);

/* tx.c */
int ist_queue_data_in(struct iscsit_conn *conn, struct iscsit_cmd *cmd);
int ist_queue_status(struct iscsit_conn *conn, struct iscsit_cmd *cmd);
int ist_get_dataout(struct iscsit_conn *conn, struct iscsit_cmd *cmd,
		    bool recovery);
int ist_immediate_queue(struct iscsit_conn *conn, struct iscsit_cmd *cmd,
			int state);
int ist_response_queue(struct iscsit_conn *conn, struct iscsit_cmd *cmd,
		       int state);
void ist_aborted_task(struct iscsit_conn *conn, struct iscsit_cmd *cmd);
void ist_unmap_cmd(struct iscsit_conn *conn, struct iscsit_cmd *cmd);
void ist_cmd_put(struct ist_cmd *icmd, bool comp_err);
void ist_cmd_uncount(struct ist_cmd *icmd);
u32 ist_window(struct ist_conn *ic);

#endif /* RDMASTOR_IST_H */
