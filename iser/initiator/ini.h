/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdmastor_iser: an iSCSI initiator transport of open-iscsi's "iser"
 * kind (scsi_transport_iscsi + libiscsi) on the rdmastor engine.
 *
 * Objects: libiscsi owns sessions, connections and tasks; each has our
 * part in its dd_data (struct ini_conn, struct ini_task). An endpoint
 * (struct ini_ep, in an iscsi_endpoint) is one RDMA connection being
 * made; bind_conn hands its rst_conn to the ini_conn, which owns it from
 * then until stop_conn or destroy_conn closes it.
 *
 * Submission runs from libiscsi's queuecommand under the session's
 * frwd_lock (the host has no transmit workqueue), so xmit_task never
 * sleeps: a full window, no idle MR or no free send slot returns the
 * command to the SCSI midlayer, which runs the queue again when a
 * command completes (or ini_grow_work() has made MRs). Completions
 * run in softirq by default (ep.c's cq_softirq, as ib_iser's do), so
 * the receive path and the LOCAL_INV callbacks never sleep either.
 *
 * Invariants (H, the host side of iSER):
 *  H1. A command's data buffer is reachable by the target only between
 *      its Send (the REG_MR is chained in front, key rotated) and the
 *      end of its registration: the target's Send-with-Invalidate of
 *      exactly that key, or our LOCAL_INV, which completes before the
 *      response is handed to libiscsi. Only then can the command
 *      complete to the block layer.
 *      Asserted: ini_scsi_rsp() refuses a response that invalidated a
 *      key not the command's (a protocol error), and one that did not
 *      invalidate waits for our LOCAL_INV (ini_inv_done());
 *      ini_conn_stop() drains the QP (rst_shutdown()) before libiscsi
 *      fails the commands left. Tested by iser_ini_faults (a response
 *      that invalidates another command's key; READ data sent to a
 *      completed command's old key, refused by the NIC).
 *  H2. Headers, login, text, NOP and logout PDUs travel in the engine's
 *      send ring by the local DMA lkey: no MR. A WRITE whose data all
 *      fits the immediate data is copied and registers nothing.
 *      Enforced: the PDU paths (send_pdu.c, ini_xmit_mgmt(),
 *      ini_xmit_unsol()) post from the ring with rst_tx_post(); only
 *      ini_xmit_cmd()'s data path calls rst_mr_tryget_sg(). Tested by
 *      iser_ini_faults: an idle session holds 0 MRs.
 *  H3. A SCSI Response completes a command once: it must name a command
 *      we sent and have not seen answered (ini_task.it_state), carry a
 *      StatSN newer than every response's seen when the command was sent,
 *      and invalidate no key but the command's. Anything else is a
 *      protocol error: connection failure and open-iscsi's recovery.
 *      Asserted: ini_scsi_rsp(), ini_tmf_rsp() and ini_deliver(), where a
 *      task's it_state changes on a response, hold the back_lock
 *      (lockdep_assert_held); what the target sent is checked, never
 *      WARNed on.
 *  H4. Every command in flight holds a place in the engine's window
 *      (rst_io_trybegin), released by cleanup_task, and its MR, charged
 *      to the session's rnic_mgr consumer, is put back there too.
 *      Asserted: ini_cleanup_task() holds the back_lock
 *      (lockdep_assert_held), as ini_scsi_rsp() does when it reads the
 *      task's MR.
 *  H5. A task management response that ends commands (abort task, LUN
 *      or target reset) reaches libiscsi, which then fails them to the
 *      block layer, only after our LOCAL_INVs of their keys completed:
 *      those it posts for commands still in flight, and those already
 *      running for commands whose response came without invalidation
 *      (INI_T_INVALIDATING, review L1).
 *      Asserted: ini_tmf_rsp() counts both in tmf_pending, and only the
 *      last LOCAL_INV to complete (ini_tmf_inv_done() or ini_inv_done())
 *      delivers the response.
 *  H6. The rst_conn is freed only after its QP is drained and libiscsi
 *      has cleaned up every task (stop_conn), so a task's MR never
 *      outlives the connection it belongs to.
 *      Asserted: the rst_conn is closed (rst_close()) only by
 *      ini_conn_release(), under ini_mutex (lockdep_assert_held), which
 *      runs from stop_conn after iscsi_conn_stop() cleaned up the
 *      tasks, from a recovery's bind and from destroy_conn, both after
 *      a stop_conn.
 *  H7. A Login or Text request that a user task sent is posted only once
 *      that task has returned from the system call that sent it, so the
 *      target's response reaches its netlink socket after
 *      scsi_transport_iscsi's reply (send_pdu.c: open-iscsi's
 *      iscsiadm loses a response that comes first). A held request is
 *      posted by the sender's task_work or given back by
 *      ini_conn_release(), never both.
 *      Asserted: ini_held_post() and ini_held_release() hold ini_mutex
 *      (lockdep_assert_held), under which held_tx is taken.
 */
#ifndef RDMASTOR_INI_H
#define RDMASTOR_INI_H

#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <scsi/libiscsi.h>
#include <scsi/scsi_transport_iscsi.h>
#include <rdmastor/rst.h>
#include <rdmastor/iser_wire.h>

/* Largest data segment of a PDU either way (stock targets use 8 KiB) */
#define INI_MAX_DSL		8192
#define INI_MSG_SIZE		ALIGN(ISER_HEADERS_LEN + INI_MAX_DSL, 64)
/*
 * Unsolicited data (InitialR2T=No) goes in Data-Out PDUs copied into
 * Sends: at most INI_MAX_UNSOL bytes of it (FirstBurstLength is clamped
 * to it; an initiator may send less than negotiated), in at most
 * INI_MAX_UNSOL / INI_MIN_XMIT_DSL PDUs: a target that takes smaller
 * data segments (RFC 7143 allows down to 512 bytes) and asks for
 * unsolicited data gets a connection failure.
 */
#define INI_MAX_UNSOL		(256 * 1024)
#define INI_MIN_XMIT_DSL	8192
/*
 * Pages of the largest I/O (1 MiB, unaligned start) and, by default, of
 * the small MRs (module parameter small_mr_pages): 16 pages take a 64 KiB
 * I/O, the block size of most random workloads, which would otherwise
 * be charged for a 257-page MR (as the NFS client's default, fs/client/xprt.c).
 */
#define INI_IO_PAGES		257
#define INI_SMALL_PAGES		16
#define INI_CMDS_MAX		128
/* Sends beyond the commands: management PDUs, unsolicited Data-Out */
#define INI_SEND_SPARE		64
#define INI_RECV_DEPTH		(INI_CMDS_MAX + ISCSI_MGMT_CMDS_MAX + 1)
#define INI_SEND_DEPTH		(INI_CMDS_MAX + INI_SEND_SPARE)
/* MRs made at once when a command found none idle */
#define INI_GROW_BATCH		4
#define INI_CONNECT_MS		10000

/**
 * struct ini_ep - an RDMA connection being made (iscsi_endpoint dd_data)
 * @iep: libiscsi's endpoint
 * @dst: the target's address
 * @rc: the connection once up, until bind_conn hands it on
 * @conn: the connection it is bound to, or NULL
 * @connect_work: runs rst_connect(), which sleeps
 * @connected: completed when @connect_work is done
 * @connect_err: its result
 */
struct ini_ep {
	struct iscsi_endpoint *iep;
	struct sockaddr_storage dst;
	struct rst_conn *rc;
	struct ini_conn *conn;
	struct work_struct connect_work;
	struct completion connected;
	int connect_err;
};

/**
 * struct ini_conn - our part of a libiscsi connection
 * @iconn: libiscsi's connection
 * @rc: the RDMA connection (written under the session's frwd_lock and
 *	ini_mutex; xmit_task reads it under frwd_lock)
 * @ep: the endpoint bound, or NULL
 * @stopping: set before we take the connection down ourselves, so
 *	->disconnected does not start a recovery
 * @logged_out: libiscsi took a Logout Response on it: the target's close
 *	that follows is the end of the logout, not a failure
 * @statsn_seen: @max_statsn is valid
 * @max_statsn: the newest StatSN of a SCSI Response (H3);
 *	written under the back_lock, read locklessly by xmit_task
 * @tmf_func: the function of the last task management request sent
 * @tmf_rtt: its Referenced Task Tag
 * @tmf_lun: its LUN
 * @tmf_pending: LOCAL_INVs of commands it ended still to complete
 * @tmf_failed: one of them failed (the connection is going down)
 * @tmf_rsp: its response, held until they complete
 * @hold_mgmt: ini_send_pdu() asks ini_xmit_mgmt() to build the login
 *	task's PDU into @held_tx instead of posting it (send_pdu.c)
 * @held_tx: a Login or Text request built, posted when its sender
 *	returns to user space (ini_mutex; H7)
 * @held_len: its length
 * @held: the sender's task_work's link to us while it is pending
 * @grow_work: makes idle MRs (rst_mr_prealloc), then reruns the queues
 * @grow_pages: pages of the command that found none
 * @all: in stats.c's list while @rc is set
 * @dir: its directory connections/NAME/ (stats.c), while on @all
 */
struct ini_conn {
	struct iscsi_conn *iconn;
	struct rst_conn *rc;
	struct ini_ep *ep;
	bool stopping;
	bool logged_out;
	bool statsn_seen;
	u32 max_statsn;
	u8 tmf_func;
	itt_t tmf_rtt;
	struct scsi_lun tmf_lun;
	atomic_t tmf_pending;
	bool tmf_failed;
	u8 tmf_rsp[ISER_BHS_LEN];
	bool hold_mgmt;
	struct rst_tx *held_tx;
	u32 held_len;
	struct ini_held *held;
	struct work_struct grow_work;
	u32 grow_pages;
	struct list_head all;
	struct kobject *dir;		/* stats.c: connections/NAME/ */
};

/* struct ini_task.it_state */
enum ini_task_state {
	INI_T_IDLE,		/* prepared, not sent */
	INI_T_SENT,		/* sent, awaiting the response */
	INI_T_INVALIDATING,	/* response held until our LOCAL_INV completes */
	INI_T_ABORTED,		/* ended by task management, key invalidated */
	INI_T_ANSWERED,		/* response handed to libiscsi */
};

/**
 * struct ini_task - our part of a libiscsi task
 * @hdr: the BHS libiscsi builds (task->hdr points here)
 * @rc: the connection its window place and MR belong to
 * @mr: the data buffer's registration, or NULL
 * @in_window: holds a place in @rc's window
 * @it_state: enum ini_task_state, under the session's back_lock once sent
 * @statsn_valid: @statsn_at_send is valid
 * @statsn_at_send: the connection's newest StatSN when it was sent
 * @rsp: a response held while the key is invalidated (kmalloc'ed copy)
 * @rsp_len: its length
 * @tmf_waits: a task management response waits for this task's
 *	LOCAL_INV, which was already running when it came (back_lock)
 * @inv_work: debug builds: the LOCAL_INV's completion, delayed (fault.c)
 * @inv_task: its task
 * @inv_status: its status
 */
struct ini_task {
	struct iscsi_hdr hdr;
	struct rst_conn *rc;
	struct rst_mr *mr;
	bool in_window;
	int it_state;
	bool statsn_valid;
	u32 statsn_at_send;
	u8 *rsp;
	u32 rsp_len;
	bool tmf_waits;
#ifdef RDMASTOR_DEBUG
	struct delayed_work inv_work;
	struct iscsi_task *inv_task;
	int inv_status;
#endif
};

extern struct mutex ini_mutex;

/* ep.c */
struct iscsi_endpoint *ini_ep_connect(struct Scsi_Host *shost,
				      struct sockaddr *dst, int non_blocking);
int ini_ep_poll(struct iscsi_endpoint *ep, int timeout_ms);
void ini_ep_disconnect(struct iscsi_endpoint *ep);
int ini_get_ep_param(struct iscsi_endpoint *ep, enum iscsi_param param,
		     char *buf);

/* task.c */
int ini_alloc_pdu(struct iscsi_task *task, u8 opcode);
int ini_init_task(struct iscsi_task *task);
int ini_xmit_task(struct iscsi_task *task);
void ini_cleanup_task(struct iscsi_task *task);
void ini_grow_work(struct work_struct *work);

/* send_pdu.c */
int ini_send_pdu(struct iscsi_cls_conn *cls_conn, struct iscsi_hdr *hdr,
		 char *data, u32 size);
void ini_held_release(struct ini_conn *ic);

/* stats.c */
void ini_stats_add(struct ini_conn *ic);
void ini_stats_del(struct ini_conn *ic);
void ini_stats_init(void);
void ini_stats_exit(void);

/* rx.c */
void ini_inv_done(void *arg, int status);

/* fault.c: fault switches for tests, in debug builds only */
#ifdef RDMASTOR_DEBUG
void ini_fault_init(struct dentry *dir);
rst_mr_inv_fn ini_fault_inv_done(void);
void ini_fault_send_pdu_delay(u8 opcode);
#else
static inline void ini_fault_init(struct dentry *dir) { }
static inline rst_mr_inv_fn ini_fault_inv_done(void) { return ini_inv_done; }
static inline void ini_fault_send_pdu_delay(u8 opcode) { }
#endif

/* rx.c */
extern const struct rst_conn_ops ini_rst_ops;

#endif /* RDMASTOR_INI_H */
