/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the iSER initiator: trace system rdmastor_iser,
 * events ini_*.
 *
 * A connection is named by the engine's number for it (conn=N, as in the
 * "rst" events underneath), a command by its initiator task tag. Traced:
 * binding an RDMA connection to libiscsi's and letting it go (birth and
 * death of the binding); every command sent, and every one refused back
 * to the midlayer with why; how each response ended its command's key;
 * task management responses and the commands they ended; MRs made for
 * commands that found none; what was wrong when a target is cut off.
 *
 *   trace-cmd record -e rdmastor_iser -e rdmastor_transport ...
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdmastor_iser

#if !defined(INI_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define INI_TRACE_H

#include <linux/tracepoint.h>
#include <rdmastor/kcompat.h>
#include "ini.h"

DECLARE_EVENT_CLASS(ini_conn_class,
	TP_PROTO(struct rst_conn *rc, int status),
	TP_ARGS(rc, status),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(int, status)
	),
	TP_fast_assign(
		__entry->conn = rst_conn_id(rc);
		__entry->status = status;
	),
	TP_printk("conn=%u status=%d", __entry->conn, __entry->status)
);

#define DEFINE_INI_CONN_EVENT(name)					\
	DEFINE_EVENT(ini_conn_class, name,				\
		TP_PROTO(struct rst_conn *rc, int status),		\
		TP_ARGS(rc, status))

/* birth and death of a binding: every bind has one release */
DEFINE_INI_CONN_EVENT(ini_conn_bind);
DEFINE_INI_CONN_EVENT(ini_conn_release);
/*
 * The engine says it is down (reason: 0 or an errno), and what we made
 * of it: "failed" (the session recovers), "stopping" (iscsid is taking
 * it down), "after_logout" (the target's close after its Logout
 * Response), "unbound" (no iSCSI connection yet).
 */
TRACE_EVENT(ini_disconnected,
	TP_PROTO(struct rst_conn *rc, int reason, const char *verdict),
	TP_ARGS(rc, reason, verdict),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(int, reason)
		__string(verdict, verdict)
	),
	TP_fast_assign(
		__entry->conn = rst_conn_id(rc);
		__entry->reason = reason;
		kc_assign_str(verdict, verdict);
	),
	TP_printk("conn=%u reason=%d verdict=%s", __entry->conn, __entry->reason,
		  __get_str(verdict))
);

TRACE_EVENT(ini_cmd_sent,
	TP_PROTO(struct rst_conn *rc, u32 itt, u32 len, u32 imm, u32 unsol,
		 bool read, u32 rkey),
	TP_ARGS(rc, itt, len, imm, unsol, read, rkey),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, itt)
		__field(u32, len)
		__field(u32, imm)
		__field(u32, unsol)
		__field(bool, read)
		__field(u32, rkey)
	),
	TP_fast_assign(
		__entry->conn = rst_conn_id(rc);
		__entry->itt = itt;
		__entry->len = len;
		__entry->imm = imm;
		__entry->unsol = unsol;
		__entry->read = read;
		__entry->rkey = rkey;
	),
	TP_printk("conn=%u itt=0x%x %s len=%u imm=%u unsol=%u rkey=0x%x%s",
		  __entry->conn, __entry->itt, __entry->read ? "read" : "write",
		  __entry->len, __entry->imm, __entry->unsol, __entry->rkey,
		  __entry->rkey ? "" : " (no MR)")
);

/* a command went back to the midlayer: @what was full, or failed */
TRACE_EVENT(ini_cmd_refused,
	TP_PROTO(struct rst_conn *rc, u32 itt, const char *what, int err),
	TP_ARGS(rc, itt, what, err),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, itt)
		__string(what, what)
		__field(int, err)
	),
	TP_fast_assign(
		__entry->conn = rst_conn_id(rc);
		__entry->itt = itt;
		kc_assign_str(what, what);
		__entry->err = err;
	),
	TP_printk("conn=%u itt=0x%x %s err=%d", __entry->conn, __entry->itt,
		  __get_str(what), __entry->err)
);

/* a SCSI Response and how its command's key ended */
TRACE_EVENT(ini_rsp,
	TP_PROTO(struct rst_conn *rc, u32 itt, u32 stat_sn, const char *how),
	TP_ARGS(rc, itt, stat_sn, how),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, itt)
		__field(u32, stat_sn)
		__string(how, how)
	),
	TP_fast_assign(
		__entry->conn = rst_conn_id(rc);
		__entry->itt = itt;
		__entry->stat_sn = stat_sn;
		kc_assign_str(how, how);
	),
	TP_printk("conn=%u itt=0x%x statsn=%u %s", __entry->conn, __entry->itt,
		  __entry->stat_sn, __get_str(how))
);

TRACE_EVENT(ini_tmf_rsp,
	TP_PROTO(struct rst_conn *rc, u8 func, u8 response, int ended),
	TP_ARGS(rc, func, response, ended),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u8, func)
		__field(u8, response)
		__field(int, ended)
	),
	TP_fast_assign(
		__entry->conn = rst_conn_id(rc);
		__entry->func = func;
		__entry->response = response;
		__entry->ended = ended;
	),
	TP_printk("conn=%u function=%u response=%u keys_invalidated=%d",
		  __entry->conn, __entry->func, __entry->response, __entry->ended)
);

TRACE_EVENT(ini_grow,
	TP_PROTO(struct rst_conn *rc, u32 pages, int made),
	TP_ARGS(rc, pages, made),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, pages)
		__field(int, made)
	),
	TP_fast_assign(
		__entry->conn = rst_conn_id(rc);
		__entry->pages = pages;
		__entry->made = made;
	),
	TP_printk("conn=%u pages=%u made=%d", __entry->conn, __entry->pages,
		  __entry->made)
);

TRACE_EVENT(ini_proto_error,
	TP_PROTO(struct rst_conn *rc, int err, const char *why),
	TP_ARGS(rc, err, why),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(int, err)
		__string(why, why)
	),
	TP_fast_assign(
		__entry->conn = rc ? rst_conn_id(rc) : 0;
		__entry->err = err;
		kc_assign_str(why, why);
	),
	TP_printk("conn=%u iscsi_err=%d %s", __entry->conn, __entry->err,
		  __get_str(why))
);

#endif /* INI_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
