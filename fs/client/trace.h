/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the RPC-over-RDMA client transport:
 * trace system rdmastor_rpcrdma, events rsx_*.
 *
 * An RPC is followed by its xid: how it was marshaled (inline, Read
 * chunk or long call; where the reply goes), the reply that came back,
 * and its completion, which comes only after every key it advertised is
 * invalid. Replies that are refused say what was wrong with them. The
 * engine's own events (system "rst") carry the completions, MRs and the
 * window underneath.
 *
 *   trace-cmd record -e rdmastor_rpcrdma -e rdmastor_transport ...
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdmastor_rpcrdma

#if !defined(RSX_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RSX_TRACE_H

#include <linux/tracepoint.h>
#include <rdmastor/kcompat.h>
#include "rsx.h"

TRACE_DEFINE_ENUM(RPCRDMA_MSG);
TRACE_DEFINE_ENUM(RPCRDMA_NOMSG);
TRACE_DEFINE_ENUM(RPCRDMA_ERROR);

#define rsx_show_proc(x)						\
	__print_symbolic(x, { RPCRDMA_MSG, "RDMA_MSG" },		\
			 { RPCRDMA_NOMSG, "RDMA_NOMSG" },		\
			 { RPCRDMA_ERROR, "RDMA_ERROR" })

/* Calls */

TRACE_EVENT(rsx_marshal,
	TP_PROTO(const struct rsx_xprt *x, const struct rsx_req *req,
		 const struct rpcrdma_hdr *h, int len),
	TP_ARGS(x, req, h, len),
	TP_STRUCT__entry(
		__string(xprt, x->x_name)
		__field(u32, xid)
		__field(u32, proc)
		__field(u32, call_len)
		__field(int, hdr_len)
		__field(u32, nr_mrs)
		__field(bool, read_chunk)
		__field(bool, write_chunk)
		__field(bool, reply_chunk)
	),
	TP_fast_assign(
		kc_assign_str(xprt, x->x_name);
		__entry->xid = h->xid;
		__entry->proc = h->proc;
		__entry->call_len = req->r_rqst->rq_snd_buf.len;
		__entry->hdr_len = len;
		__entry->nr_mrs = req->r_nr_mrs;
		__entry->read_chunk = h->nr_read;
		__entry->write_chunk = req->r_write_mr >= 0;
		__entry->reply_chunk = req->r_reply_mr >= 0;
	),
	TP_printk("xprt=%s xid=0x%08x %s call_len=%u sent=%d mrs=%u%s%s%s",
		  __get_str(xprt), __entry->xid, rsx_show_proc(__entry->proc),
		  __entry->call_len, __entry->hdr_len, __entry->nr_mrs,
		  __entry->read_chunk ? " read-chunk" : "",
		  __entry->write_chunk ? " write-chunk" : "",
		  __entry->reply_chunk ? " reply-chunk" : "")
);

/* a call could not be marshaled (too large, no memory, no MR) */
TRACE_EVENT(rsx_marshal_error,
	TP_PROTO(const struct rsx_xprt *x, u32 xid, int err),
	TP_ARGS(x, xid, err),
	TP_STRUCT__entry(
		__string(xprt, x->x_name)
		__field(u32, xid)
		__field(int, err)
	),
	TP_fast_assign(
		kc_assign_str(xprt, x->x_name);
		__entry->xid = xid;
		__entry->err = err;
	),
	TP_printk("xprt=%s xid=0x%08x err=%d", __get_str(xprt), __entry->xid,
		  __entry->err)
);

/* Replies */

TRACE_EVENT(rsx_reply,
	TP_PROTO(const struct rsx_xprt *x, const struct rpcrdma_hdr *h, u32 len,
		 bool invalidated, u32 inv_rkey),
	TP_ARGS(x, h, len, invalidated, inv_rkey),
	TP_STRUCT__entry(
		__string(xprt, x->x_name)
		__field(u32, xid)
		__field(u32, proc)
		__field(u32, credits)
		__field(u32, len)
		__field(u32, nr_write)
		__field(bool, has_reply)
		__field(u32, inv_rkey)
	),
	TP_fast_assign(
		kc_assign_str(xprt, x->x_name);
		__entry->xid = h->xid;
		__entry->proc = h->proc;
		__entry->credits = h->credits;
		__entry->len = len;
		__entry->nr_write = h->nr_write;
		__entry->has_reply = h->has_reply;
		__entry->inv_rkey = invalidated ? inv_rkey : 0;
	),
	TP_printk("xprt=%s xid=0x%08x %s credits=%u len=%u writes=%u%s inv_rkey=0x%08x",
		  __get_str(xprt), __entry->xid, rsx_show_proc(__entry->proc),
		  __entry->credits, __entry->len, __entry->nr_write,
		  __entry->has_reply ? " reply-chunk" : "", __entry->inv_rkey)
);

/* a reply (or backchannel call) refused: a protocol error, and why */
TRACE_EVENT(rsx_bad_reply,
	TP_PROTO(const struct rsx_xprt *x, u32 xid, const char *why),
	TP_ARGS(x, xid, why),
	TP_STRUCT__entry(
		__string(xprt, x->x_name)
		__field(u32, xid)
		__string(why, why)
	),
	TP_fast_assign(
		kc_assign_str(xprt, x->x_name);
		__entry->xid = xid;
		kc_assign_str(why, why);
	),
	TP_printk("xprt=%s xid=0x%08x why=\"%s\"", __get_str(xprt),
		  __entry->xid, __get_str(why))
);

DECLARE_EVENT_CLASS(rsx_xid_class,
	TP_PROTO(const struct rsx_xprt *x, u32 xid, int status),
	TP_ARGS(x, xid, status),
	TP_STRUCT__entry(
		__string(xprt, x->x_name)
		__field(u32, xid)
		__field(int, status)
	),
	TP_fast_assign(
		kc_assign_str(xprt, x->x_name);
		__entry->xid = xid;
		__entry->status = status;
	),
	TP_printk("xprt=%s xid=0x%08x status=%d", __get_str(xprt),
		  __entry->xid, __entry->status)
);

#define DEFINE_RSX_XID_EVENT(name)					\
	DEFINE_EVENT(rsx_xid_class, name,				\
		TP_PROTO(const struct rsx_xprt *x, u32 xid, int status), \
		TP_ARGS(x, xid, status))

/* no RPC waits for this xid (it was killed, or timed out): dropped */
DEFINE_RSX_XID_EVENT(rsx_reply_unknown_xid);
/* the server answered RDMA_ERROR (status: its error code) */
DEFINE_RSX_XID_EVENT(rsx_rdma_error);
/* keys not invalidated by the server: LOCAL_INV in rsx_wq first */
DEFINE_RSX_XID_EVENT(rsx_reply_local_inv);
/* every key invalid, pages unmapped: the RPC completes with status */
DEFINE_RSX_XID_EVENT(rsx_complete);
/* the connection went while armed: released, retransmitted later */
DEFINE_RSX_XID_EVENT(rsx_release_armed);
/* a backchannel call arrived (status 0) or was dropped (errno) */
DEFINE_RSX_XID_EVENT(rsx_bc_call);

/* Connections */

DECLARE_EVENT_CLASS(rsx_xprt_class,
	TP_PROTO(const struct rsx_xprt *x, int status),
	TP_ARGS(x, status),
	TP_STRUCT__entry(
		__string(xprt, x->x_name)
		__field(int, status)
		__field(u32, inline_send)
		__field(u32, inline_recv)
	),
	TP_fast_assign(
		kc_assign_str(xprt, x->x_name);
		__entry->status = status;
		__entry->inline_send = x->x_inline_send;
		__entry->inline_recv = x->x_inline_recv;
	),
	TP_printk("xprt=%s status=%d inline_send=%u inline_recv=%u",
		  __get_str(xprt), __entry->status, __entry->inline_send,
		  __entry->inline_recv)
);

#define DEFINE_RSX_XPRT_EVENT(name)					\
	DEFINE_EVENT(rsx_xprt_class, name,				\
		TP_PROTO(const struct rsx_xprt *x, int status),		\
		TP_ARGS(x, status))

/* a connect attempt ended: 0, or why it failed */
DEFINE_RSX_XPRT_EVENT(rsx_connect_done);
/* the engine lost the connection (status: the reason) */
DEFINE_RSX_XPRT_EVENT(rsx_disconnected);
/* we close it (SUNRPC's ->close, a reconnect, a protocol error) */
DEFINE_RSX_XPRT_EVENT(rsx_close);

#endif /* RSX_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
