/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the RPC-over-RDMA server transport:
 * trace system rdmastor_svcrdma, events rsv_*.
 *
 * A connection is named by its engine connection number (conn=, as in
 * the engine's "rst" events). Births and deaths: rsv_accept (the engine
 * accepted it), rsv_svc_accept (nfsd took it), rsv_disconnected,
 * rsv_xprt_free. A call is followed by its xid: how it came (inline,
 * data chunk, long call), its Read chunk pulled, nfsd taking it, the
 * reply (inline or Reply chunk, Write chunk parts, Send-with-
 * Invalidate). Calls that are refused say why.
 *
 *   trace-cmd record -e rdmastor_svcrdma -e rdmastor_transport ...
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdmastor_svcrdma

#if !defined(RSV_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RSV_TRACE_H

#include <linux/tracepoint.h>
#include <rdmastor/kcompat.h>
#include "rsv.h"

TRACE_DEFINE_ENUM(RPCRDMA_MSG);
TRACE_DEFINE_ENUM(RPCRDMA_NOMSG);
TRACE_DEFINE_ENUM(RPCRDMA_CALL_INLINE);
TRACE_DEFINE_ENUM(RPCRDMA_CALL_DATA_CHUNK);
TRACE_DEFINE_ENUM(RPCRDMA_CALL_LONG);

#define rsv_show_kind(k)						\
	__print_symbolic(k, { RPCRDMA_CALL_INLINE, "inline" },		\
			 { RPCRDMA_CALL_DATA_CHUNK, "data-chunk" },	\
			 { RPCRDMA_CALL_LONG, "long-call" })

/* Connections */

DECLARE_EVENT_CLASS(rsv_xprt_class,
	TP_PROTO(const struct rsv_xprt *x),
	TP_ARGS(x),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(bool, listener)
	),
	TP_fast_assign(
		__entry->conn = x->x_nr;
		__entry->listener = x->x_listener;
	),
	TP_printk("conn=%u%s", __entry->conn, __entry->listener ? " listener" : "")
);

/* nfsd took a connection (->xpo_accept) */
DEFINE_EVENT(rsv_xprt_class, rsv_svc_accept,
	TP_PROTO(const struct rsv_xprt *x), TP_ARGS(x));
/* the last reference is gone */
DEFINE_EVENT(rsv_xprt_class, rsv_xprt_free,
	TP_PROTO(const struct rsv_xprt *x), TP_ARGS(x));

DECLARE_EVENT_CLASS(rsv_xprt_int_class,
	TP_PROTO(const struct rsv_xprt *x, int v),
	TP_ARGS(x, v),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(int, v)
	),
	TP_fast_assign(
		__entry->conn = x->x_nr;
		__entry->v = v;
	),
	TP_printk("conn=%u %d", __entry->conn, __entry->v)
);

/* the engine connection is down (reason: 0 orderly, else an errno) */
DEFINE_EVENT(rsv_xprt_int_class, rsv_disconnected,
	TP_PROTO(const struct rsv_xprt *x, int reason), TP_ARGS(x, reason));
/* a connection that went down: its own pull works ended (ms waited) */
DEFINE_EVENT(rsv_xprt_int_class, rsv_pulls_done,
	TP_PROTO(const struct rsv_xprt *x, int ms), TP_ARGS(x, ms));
/* forced-MR mode: the credits granted changed with the rnic_mgr share */
DEFINE_EVENT(rsv_xprt_int_class, rsv_grant,
	TP_PROTO(const struct rsv_xprt *x, int credits), TP_ARGS(x, credits));
/* nfsd built its backchannel (1: replies can be taken) */
DEFINE_EVENT(rsv_xprt_int_class, rsv_bc_setup,
	TP_PROTO(const struct rsv_xprt *x, int live), TP_ARGS(x, live));

DECLARE_EVENT_CLASS(rsv_xprt_str_class,
	TP_PROTO(const struct rsv_xprt *x, const char *what),
	TP_ARGS(x, what),
	TP_STRUCT__entry(
		__field(u32, conn)
		__string(what, what)
	),
	TP_fast_assign(
		__entry->conn = x->x_nr;
		kc_assign_str(what, what);
	),
	TP_printk("conn=%u %s", __entry->conn, __get_str(what))
);

/* a connection request refused */
DEFINE_EVENT(rsv_xprt_str_class, rsv_refuse,
	TP_PROTO(const struct rsv_xprt *x, const char *why), TP_ARGS(x, why));
/* what the client did wrong; the connection ends */
DEFINE_EVENT(rsv_xprt_str_class, rsv_protocol_error,
	TP_PROTO(const struct rsv_xprt *x, const char *why), TP_ARGS(x, why));

TRACE_EVENT(rsv_listen,
	TP_PROTO(const struct rsv_xprt *l, const struct sockaddr *sa, int err),
	TP_ARGS(l, sa, err),
	TP_STRUCT__entry(
		__array(u8, addr, sizeof(struct sockaddr_in6))
		__field(int, err)
	),
	TP_fast_assign(
		memset(__entry->addr, 0, sizeof(__entry->addr));
		memcpy(__entry->addr, sa, sa->sa_family == AF_INET6 ?
		       sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
		__entry->err = err;
	),
	TP_printk("addr=%pISpc err=%d", __entry->addr, __entry->err)
);

/* the engine accepted a connection; what its RFC 8797 private data said */
TRACE_EVENT(rsv_accept,
	TP_PROTO(const struct rsv_xprt *x, const struct rpcrdma_cm_pdata *peer),
	TP_ARGS(x, peer),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(bool, remote_inv)
		__field(u32, send_size)
		__field(u32, recv_size)
		__field(u32, inline_send)
	),
	TP_fast_assign(
		__entry->conn = x->x_nr;
		__entry->remote_inv = peer->remote_inv;
		__entry->send_size = peer->send_size;
		__entry->recv_size = peer->recv_size;
		__entry->inline_send = x->x_inline_send;
	),
	TP_printk("conn=%u client: send=%u recv=%u%s; our replies inline up to %u",
		  __entry->conn, __entry->send_size, __entry->recv_size,
		  __entry->remote_inv ? " remote-inv" : "", __entry->inline_send)
);

/* Calls */

DECLARE_EVENT_CLASS(rsv_call_class,
	TP_PROTO(const struct rsv_xprt *x, const struct rsv_call *call),
	TP_ARGS(x, call),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, xid)
		__field(u32, kind)
		__field(u32, msg_len)
		__field(u32, chunk_len)
		__field(u32, nr_write)
		__field(bool, reply_chunk)
	),
	TP_fast_assign(
		__entry->conn = x->x_nr;
		__entry->xid = call->c_hdr.xid;
		__entry->kind = call->c_plan.kind;
		__entry->msg_len = call->c_plan.msg_len;
		__entry->chunk_len = call->c_plan.chunk_len;
		__entry->nr_write = call->c_hdr.nr_write;
		__entry->reply_chunk = call->c_hdr.has_reply;
	),
	TP_printk("conn=%u xid=0x%08x %s len=%u chunk=%u write-chunks=%u%s",
		  __entry->conn, __entry->xid, rsv_show_kind(__entry->kind),
		  __entry->msg_len, __entry->chunk_len, __entry->nr_write,
		  __entry->reply_chunk ? " reply-chunk" : "")
);

/* a call arrived and was checked */
DEFINE_EVENT(rsv_call_class, rsv_call,
	TP_PROTO(const struct rsv_xprt *x, const struct rsv_call *call),
	TP_ARGS(x, call));
/* nfsd took it */
DEFINE_EVENT(rsv_call_class, rsv_recvfrom,
	TP_PROTO(const struct rsv_xprt *x, const struct rsv_call *call),
	TP_ARGS(x, call));
/* its Read chunk does not fit the pull budget now: it waits (pull.c) */
DEFINE_EVENT(rsv_call_class, rsv_pull_wait,
	TP_PROTO(const struct rsv_xprt *x, const struct rsv_call *call),
	TP_ARGS(x, call));
/* ... and now it does: its pull starts */
DEFINE_EVENT(rsv_call_class, rsv_pull_resume,
	TP_PROTO(const struct rsv_xprt *x, const struct rsv_call *call),
	TP_ARGS(x, call));
/* the pull work has the chunk's pages and posts its RDMA READs */
DEFINE_EVENT(rsv_call_class, rsv_pull_post,
	TP_PROTO(const struct rsv_xprt *x, const struct rsv_call *call),
	TP_ARGS(x, call));

TRACE_EVENT(rsv_pull_done,
	TP_PROTO(const struct rsv_xprt *x, const struct rsv_call *call, int status),
	TP_ARGS(x, call, status),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, xid)
		__field(u32, len)
		__field(int, status)
	),
	TP_fast_assign(
		__entry->conn = x->x_nr;
		__entry->xid = call->c_hdr.xid;
		__entry->len = call->c_plan.chunk_len;
		__entry->status = status;
	),
	TP_printk("conn=%u xid=0x%08x read-chunk=%u status=%d",
		  __entry->conn, __entry->xid, __entry->len, __entry->status)
);

/* a call refused with RDMA_ERROR: the decoder's or the checks' errno */
TRACE_EVENT(rsv_bad_call,
	TP_PROTO(const struct rsv_xprt *x, const struct rpcrdma_hdr *h, int err),
	TP_ARGS(x, h, err),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, xid)
		__field(u32, vers)
		__field(u32, proc)
		__field(u32, nr_read)
		__field(int, err)
	),
	TP_fast_assign(
		__entry->conn = x->x_nr;
		__entry->xid = h->xid;
		__entry->vers = h->vers;
		__entry->proc = h->proc;
		__entry->nr_read = h->nr_read;
		__entry->err = err;
	),
	TP_printk("conn=%u xid=0x%08x vers=%u proc=%u read-segs=%u err=%d",
		  __entry->conn, __entry->xid, __entry->vers, __entry->proc,
		  __entry->nr_read, __entry->err)
);

DECLARE_EVENT_CLASS(rsv_xid_class,
	TP_PROTO(const struct rsv_xprt *x, u32 xid, u32 v),
	TP_ARGS(x, xid, v),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, xid)
		__field(u32, v)
	),
	TP_fast_assign(
		__entry->conn = x->x_nr;
		__entry->xid = xid;
		__entry->v = v;
	),
	TP_printk("conn=%u xid=0x%08x %u", __entry->conn, __entry->xid, __entry->v)
);

/* RDMA_ERROR sent (1 ERR_VERS, 2 ERR_CHUNK) */
DEFINE_EVENT(rsv_xid_class, rsv_send_error,
	TP_PROTO(const struct rsv_xprt *x, u32 xid, u32 err), TP_ARGS(x, xid, err));
/* a backchannel call sent (bytes) */
DEFINE_EVENT(rsv_xid_class, rsv_bc_call,
	TP_PROTO(const struct rsv_xprt *x, u32 xid, u32 len), TP_ARGS(x, xid, len));
/* a backchannel reply came (bytes) */
DEFINE_EVENT(rsv_xid_class, rsv_bc_reply,
	TP_PROTO(const struct rsv_xprt *x, u32 xid, u32 len), TP_ARGS(x, xid, len));

/* Replies */

TRACE_EVENT(rsv_reply,
	TP_PROTO(const struct rsv_xprt *x, const struct rpcrdma_hdr *h, int len,
		 unsigned int parts, bool send_inv),
	TP_ARGS(x, h, len, parts, send_inv),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, xid)
		__field(u32, proc)
		__field(int, len)
		__field(u32, nr_write)
		__field(u32, parts)
		__field(bool, send_inv)
	),
	TP_fast_assign(
		__entry->conn = x->x_nr;
		__entry->xid = h->xid;
		__entry->proc = h->proc;
		__entry->len = len;
		__entry->nr_write = h->nr_write;
		__entry->parts = parts;
		__entry->send_inv = send_inv;
	),
	TP_printk("conn=%u xid=0x%08x %s sent=%d write-chunks=%u rdma-writes=%u%s",
		  __entry->conn, __entry->xid,
		  __entry->proc == RPCRDMA_NOMSG ? "RDMA_NOMSG" : "RDMA_MSG",
		  __entry->len, __entry->nr_write, __entry->parts,
		  __entry->send_inv ? " send-inv" : "")
);

#endif /* RSV_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
