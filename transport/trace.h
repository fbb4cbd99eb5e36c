/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the transport engine: trace system rdmastor_transport,
 * events rst_*.
 *
 * Every work request carries a completion id (struct rst_cid: the CQ's
 * restrack id and a per-connection counter), so a completion can be
 * matched with what was posted; each completion handler traces its
 * completion first, before it acts on it. Objects are traced at birth
 * and death (rst_conn_create/rst_conn_destroy, rst_mr_alloc/rst_mr_free)
 * with ids that are never reused, so a whole run can be checked for
 * leaks by pairing them (tests/vm/lib.sh trace_pairs_check). The rest
 * traces decisions: a connection going down and why, MRs lent and given
 * back, keys invalidated (and a peer invalidating the wrong one), the
 * share and the window changing, READs waiting for an MR.
 *
 *   trace-cmd record -e rdmastor_transport -e rnic_mgr ...
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdmastor_transport

#if !defined(RST_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RST_TRACE_H

#include <linux/tracepoint.h>
#include <rdmastor/kcompat.h>
#include <rdma/ib_cm.h>		/* trace/misc/rdma.h names its events */
#include <trace/misc/rdma.h>
#include "rst_int.h"

/* Completions */

DECLARE_EVENT_CLASS(rst_completion_class,
	TP_PROTO(const struct ib_wc *wc, const struct rst_cid *cid),
	TP_ARGS(wc, cid),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(unsigned long, status)
		__field(unsigned int, vendor_err)
	),
	TP_fast_assign(
		__entry->cq_id = cid->ci_queue_id;
		__entry->completion_id = cid->ci_completion_id;
		__entry->status = wc->status;
		__entry->vendor_err = wc->status ? wc->vendor_err : 0;
	),
	TP_printk("cq.id=%u cid=%d status=%s (%lu/0x%x)",
		  __entry->cq_id, __entry->completion_id,
		  rdma_show_wc_status(__entry->status),
		  __entry->status, __entry->vendor_err)
);

#define DEFINE_RST_COMPLETION_EVENT(name)				\
	DEFINE_EVENT(rst_completion_class, name,			\
		TP_PROTO(const struct ib_wc *wc, const struct rst_cid *cid), \
		TP_ARGS(wc, cid))

/* a send (and every unsignaled send before it) */
DEFINE_RST_COMPLETION_EVENT(rst_wc_send);
/* a REG_MR: unsignaled, so only a failed one */
DEFINE_RST_COMPLETION_EVENT(rst_wc_reg);
/* a LOCAL_INV the ULP waits for */
DEFINE_RST_COMPLETION_EVENT(rst_wc_li);
/* an RDMA READ (or, forced-MR, the fenced LOCAL_INV that ends one) */
DEFINE_RST_COMPLETION_EVENT(rst_wc_read);

TRACE_EVENT(rst_wc_receive,
	TP_PROTO(const struct ib_wc *wc, const struct rst_cid *cid),
	TP_ARGS(wc, cid),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, received)
		__field(u32, inv_rkey)
		__field(unsigned long, status)
		__field(unsigned int, vendor_err)
	),
	TP_fast_assign(
		__entry->cq_id = cid->ci_queue_id;
		__entry->completion_id = cid->ci_completion_id;
		__entry->status = wc->status;
		if (wc->status) {
			__entry->received = 0;
			__entry->inv_rkey = 0;
			__entry->vendor_err = wc->vendor_err;
		} else {
			__entry->received = wc->byte_len;
			__entry->inv_rkey = wc->wc_flags & IB_WC_WITH_INVALIDATE ?
					    wc->ex.invalidate_rkey : 0;
			__entry->vendor_err = 0;
		}
	),
	TP_printk("cq.id=%u cid=%d status=%s (%lu/0x%x) received=%u inv_rkey=0x%08x",
		  __entry->cq_id, __entry->completion_id,
		  rdma_show_wc_status(__entry->status), __entry->status,
		  __entry->vendor_err, __entry->received, __entry->inv_rkey)
);

/* Connections */

TRACE_DEFINE_ENUM(RST_NEW);
TRACE_DEFINE_ENUM(RST_CONNECTING);
TRACE_DEFINE_ENUM(RST_UP);
TRACE_DEFINE_ENUM(RST_DOWN);

#define rst_show_state(x)					\
	__print_symbolic(x, { RST_NEW, "NEW" },			\
			 { RST_CONNECTING, "CONNECTING" },	\
			 { RST_UP, "UP" }, { RST_DOWN, "DOWN" })

DECLARE_EVENT_CLASS(rst_conn_class,
	TP_PROTO(const struct rst_conn *c),
	TP_ARGS(c),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(int, state)
		__string(name, c->c_p.name)
		__field(bool, server)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->state = c->c_state;
		kc_assign_str(name, c->c_p.name);
		__entry->server = c->c_server;
	),
	TP_printk("conn=%u name=%s %s state=%s", __entry->conn,
		  __get_str(name), __entry->server ? "server" : "client",
		  rst_show_state(__entry->state))
);

#define DEFINE_RST_CONN_EVENT(name)					\
	DEFINE_EVENT(rst_conn_class, name,				\
		TP_PROTO(const struct rst_conn *c), TP_ARGS(c))

/* birth and death: every rst_conn_create has one rst_conn_destroy */
DEFINE_RST_CONN_EVENT(rst_conn_create);
DEFINE_RST_CONN_EVENT(rst_conn_destroy);
DEFINE_RST_CONN_EVENT(rst_conn_up);
/* kick.c: soft-RoCE's send queue stood still; its doorbell was rung */
DEFINE_RST_CONN_EVENT(rst_kick);

TRACE_EVENT(rst_conn_down,
	TP_PROTO(const struct rst_conn *c, int reason),
	TP_ARGS(c, reason),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(int, reason)
		__field(int, was)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->reason = reason;
		__entry->was = c->c_state;
	),
	TP_printk("conn=%u reason=%d was=%s", __entry->conn, __entry->reason,
		  rst_show_state(__entry->was))
);

/* the rings grew from initial_depth to their full depths (rst_rings_grow) */
TRACE_EVENT(rst_rings_grow,
	TP_PROTO(const struct rst_conn *c, u32 from),
	TP_ARGS(c, from),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, from)
		__field(u32, recv)
		__field(u32, send)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->from = from;
		__entry->recv = c->c_p.recv_depth;
		__entry->send = c->c_p.send_depth;
	),
	TP_printk("conn=%u from=%u recv=%u send=%u", __entry->conn, __entry->from,
		  __entry->recv, __entry->send)
);

/* the ACK timeout chosen for a connection's QP (rst_set_ack_timeout) */
TRACE_EVENT(rst_ack_timeout,
	TP_PROTO(const struct rst_conn *c, int timeout),
	TP_ARGS(c, timeout),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(int, timeout)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->timeout = timeout;
	),
	TP_printk("conn=%u ack_timeout=%d (%llu us)", __entry->conn,
		  __entry->timeout, (4096ULL << __entry->timeout) / 1000)
);

TRACE_EVENT(rst_conn_qp_event,
	TP_PROTO(const struct rst_conn *c, const struct ib_event *ev),
	TP_ARGS(c, ev),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(unsigned long, event)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->event = ev->event;
	),
	TP_printk("conn=%u event=%s", __entry->conn,
		  rdma_show_ib_event(__entry->event))
);

/* a posting or an RDMA context set-up failed: the connection goes down */
TRACE_EVENT(rst_post_error,
	TP_PROTO(const struct rst_conn *c, const char *what, int err),
	TP_ARGS(c, what, err),
	TP_STRUCT__entry(
		__field(u32, conn)
		__string(what, what)
		__field(int, err)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		kc_assign_str(what, what);
		__entry->err = err;
	),
	TP_printk("conn=%u what=%s err=%d", __entry->conn, __get_str(what),
		  __entry->err)
);

/* MRs */

TRACE_DEFINE_ENUM(RST_MR_IDLE);
TRACE_DEFINE_ENUM(RST_MR_MAPPED);
TRACE_DEFINE_ENUM(RST_MR_VALID);

#define rst_show_mr_state(x)					\
	__print_symbolic(x, { RST_MR_IDLE, "IDLE" },		\
			 { RST_MR_MAPPED, "MAPPED" },		\
			 { RST_MR_VALID, "VALID" })

DECLARE_EVENT_CLASS(rst_mr_class,
	TP_PROTO(const struct rst_mr *m),
	TP_ARGS(m),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, mr)
		__field(u32, rkey)
		__field(int, cls)
		__field(int, state)
		__field(int, status)
	),
	TP_fast_assign(
		__entry->conn = m->mr_conn->c_nr;
		__entry->mr = m->mr_cid.ci_completion_id;
		__entry->rkey = m->mr_ib ? m->mr_ib->rkey : 0;
		__entry->cls = m->mr_cls;
		__entry->state = m->mr_state;
		__entry->status = m->mr_status;
	),
	TP_printk("conn=%u mr=%u rkey=0x%08x %s state=%s status=%d",
		  __entry->conn, __entry->mr, __entry->rkey,
		  __entry->cls == RST_MR_SMALL ? "small" : "large",
		  rst_show_mr_state(__entry->state),
		  __entry->status)
);

#define DEFINE_RST_MR_EVENT(name)					\
	DEFINE_EVENT(rst_mr_class, name,				\
		TP_PROTO(const struct rst_mr *m), TP_ARGS(m))

/* birth and death: charged to rnic_mgr from one to the other */
DEFINE_RST_MR_EVENT(rst_mr_alloc);
DEFINE_RST_MR_EVENT(rst_mr_free);
/* lent to an I/O, and given back (state and status say how it ended) */
DEFINE_RST_MR_EVENT(rst_mr_get);
DEFINE_RST_MR_EVENT(rst_mr_put);
/* its key died: by the peer's Send-with-Invalidate, or our LOCAL_INV */
DEFINE_RST_MR_EVENT(rst_mr_remote_inv);
DEFINE_RST_MR_EVENT(rst_mr_local_inv);

/* the peer invalidated a key that is not this MR's: a protocol error */
TRACE_EVENT(rst_mr_wrong_inv,
	TP_PROTO(const struct rst_mr *m, u32 inv_rkey),
	TP_ARGS(m, inv_rkey),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, mr)
		__field(u32, rkey)
		__field(u32, inv_rkey)
		__field(int, state)
	),
	TP_fast_assign(
		__entry->conn = m->mr_conn->c_nr;
		__entry->mr = m->mr_cid.ci_completion_id;
		__entry->rkey = m->mr_ib->rkey;
		__entry->inv_rkey = inv_rkey;
		__entry->state = m->mr_state;
	),
	TP_printk("conn=%u mr=%u rkey=0x%08x inv_rkey=0x%08x state=%s",
		  __entry->conn, __entry->mr, __entry->rkey, __entry->inv_rkey,
		  rst_show_mr_state(__entry->state))
);

TRACE_EVENT(rst_mr_map,
	TP_PROTO(const struct rst_mr *m, u32 len, int nents),
	TP_ARGS(m, len, nents),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, mr)
		__field(u32, rkey)
		__field(u32, len)
		__field(int, nents)
		__field(bool, write)
	),
	TP_fast_assign(
		__entry->conn = m->mr_conn->c_nr;
		__entry->mr = m->mr_cid.ci_completion_id;
		__entry->rkey = m->mr_ib->rkey;
		__entry->len = len;
		__entry->nents = nents;
		__entry->write = m->mr_dir == DMA_FROM_DEVICE;
	),
	TP_printk("conn=%u mr=%u rkey=0x%08x len=%u nents=%d peer %s",
		  __entry->conn, __entry->mr, __entry->rkey, __entry->len,
		  __entry->nents, __entry->write ? "writes" : "reads")
);

/* a peer that called found no room for its guaranteed minimum */
TRACE_EVENT(rst_mr_no_min,
	TP_PROTO(const struct rst_conn *c, u32 pages),
	TP_ARGS(c, pages),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, pages)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->pages = pages;
	),
	TP_printk("conn=%u pages=%u: no room for its minimum, served from its share",
		  __entry->conn, __entry->pages)
);

/* The share and the window */

/* what the share covers now (after a shrink, a grow or a re-read) */
TRACE_EVENT(rst_share,
	TP_PROTO(const struct rst_conn *c, u64 entries, u64 keys),
	TP_ARGS(c, entries, keys),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u64, entries)
		__field(u64, keys)
		__field(u32, mr_limit)
		__field(u32, mrs)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->entries = entries;
		__entry->keys = keys;
		__entry->mr_limit = c->c_mr_limit;
		__entry->mrs = c->c_mr_total;
	),
	TP_printk("conn=%u entries=%llu keys=%llu mr_limit=%u mrs=%u",
		  __entry->conn, __entry->entries, __entry->keys,
		  __entry->mr_limit, __entry->mrs)
);

/*
 * rnic_mgr asked for entries back, to a shrink target (rst_shrink) or
 * for a consumer that waits (rst_reclaim, no target): @freed idle MRs
 * went at once; @busy are in use, @idle stay idle.
 */
DECLARE_EVENT_CLASS(rst_giveback_class,
	TP_PROTO(const struct rst_conn *c, u64 entries, u32 freed),
	TP_ARGS(c, entries, freed),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u64, entries)
		__field(u32, freed)
		__field(u32, busy)
		__field(u32, idle)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->entries = entries;
		__entry->freed = freed;
		__entry->busy = c->c_mr_total - c->c_mr_idle;
		__entry->idle = c->c_mr_idle;
	),
	TP_printk("conn=%u entries=%llu freed=%u busy=%u idle=%u",
		  __entry->conn, __entry->entries, __entry->freed,
		  __entry->busy, __entry->idle)
);
DEFINE_EVENT(rst_giveback_class, rst_shrink,
	TP_PROTO(const struct rst_conn *c, u64 entries, u32 freed),
	TP_ARGS(c, entries, freed));
DEFINE_EVENT(rst_giveback_class, rst_reclaim,
	TP_PROTO(const struct rst_conn *c, u64 entries, u32 freed),
	TP_ARGS(c, entries, freed));

TRACE_EVENT(rst_credits,
	TP_PROTO(const struct rst_conn *c, u32 old, u32 credits),
	TP_ARGS(c, old, credits),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, old)
		__field(u32, credits)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->old = old;
		__entry->credits = credits;
	),
	TP_printk("conn=%u credits=%u->%u", __entry->conn, __entry->old,
		  __entry->credits)
);

/* an I/O found the window full and waits */
TRACE_EVENT(rst_window_full,
	TP_PROTO(const struct rst_conn *c, u32 window),
	TP_ARGS(c, window),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, window)
		__field(u32, credits)
		__field(u32, mr_limit)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->window = window;
		__entry->credits = c->c_peer_credits;
		__entry->mr_limit = c->c_mr_limit;
	),
	TP_printk("conn=%u window=%u credits=%u mr_limit=%u", __entry->conn,
		  __entry->window, __entry->credits, __entry->mr_limit)
);

/* READs that wait for an MR (forced-MR sinks) */

DECLARE_EVENT_CLASS(rst_read_class,
	TP_PROTO(const struct rst_conn *c, const struct rst_read_op *op),
	TP_ARGS(c, op),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(int, completion_id)
		__field(u32, waiting)
	),
	TP_fast_assign(
		__entry->conn = c->c_nr;
		__entry->completion_id = op->op_cid.ci_completion_id;
		__entry->waiting = c->c_reads_waiting;
	),
	TP_printk("conn=%u cid=%d waiting=%u", __entry->conn,
		  __entry->completion_id, __entry->waiting)
);

DEFINE_EVENT(rst_read_class, rst_read_park,
	TP_PROTO(const struct rst_conn *c, const struct rst_read_op *op),
	TP_ARGS(c, op));
DEFINE_EVENT(rst_read_class, rst_read_unpark,
	TP_PROTO(const struct rst_conn *c, const struct rst_read_op *op),
	TP_ARGS(c, op));

#endif /* RST_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
