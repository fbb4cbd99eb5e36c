/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the iSER target: trace system rdmastor_isert,
 * events ist_*.
 *
 * A connection is named by the engine's number for it (conn=N, as in
 * the "rst" events underneath), a command by its initiator task tag.
 * Traced: connections accepted, taken by LIO's login thread, dropped
 * and freed (birth and death of struct ist_conn); every PDU received;
 * what was wrong when a peer is cut off; each command's data movement
 * (RDMA READ of WRITE data, RDMA WRITE of READ data) and response.
 *
 *   trace-cmd record -e rdmastor_isert -e rdmastor_transport ...
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdmastor_isert

#if !defined(IST_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define IST_TRACE_H

#include <linux/tracepoint.h>
#include <rdmastor/kcompat.h>
#include "ist.h"

/* Connections */

DECLARE_EVENT_CLASS(ist_conn_class,
	TP_PROTO(const struct ist_conn *ic, int status),
	TP_ARGS(ic, status),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(int, status)
		__field(bool, bound)
		__field(int, outstanding)
	),
	TP_fast_assign(
		__entry->conn = ic->nr;
		__entry->status = status;
		__entry->bound = ic->bound;
		__entry->outstanding = atomic_read(&ic->outstanding);
	),
	TP_printk("conn=%u status=%d %s outstanding=%d", __entry->conn,
		  __entry->status, __entry->bound ? "bound" : "pending",
		  __entry->outstanding)
);

#define DEFINE_IST_CONN_EVENT(name)					\
	DEFINE_EVENT(ist_conn_class, name,				\
		TP_PROTO(const struct ist_conn *ic, int status),	\
		TP_ARGS(ic, status))

/* birth and death of struct ist_conn: every accept has one free */
DEFINE_IST_CONN_EVENT(ist_conn_accept);
DEFINE_IST_CONN_EVENT(ist_conn_free);
/* LIO's login thread took it */
DEFINE_IST_CONN_EVENT(ist_conn_bound);
/* dropped while waiting for login: to make room, or no login request */
DEFINE_IST_CONN_EVENT(ist_conn_evict);
DEFINE_IST_CONN_EVENT(ist_login_timeout);
/* the engine says it is down (status: the reason) */
DEFINE_IST_CONN_EVENT(ist_disconnected);

/* a connect refused: every waiting connection has yet to log in */
TRACE_EVENT(ist_conn_refuse,
	TP_PROTO(unsigned int pending),
	TP_ARGS(pending),
	TP_STRUCT__entry(
		__field(unsigned int, pending)
	),
	TP_fast_assign(
		__entry->pending = pending;
	),
	TP_printk("pending=%u", __entry->pending)
);

/* PDUs */

TRACE_EVENT(ist_pdu_recv,
	TP_PROTO(const struct ist_conn *ic, const struct iser_pdu *p),
	TP_ARGS(ic, p),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u8, opcode)
		__field(u32, itt)
		__field(u32, data_len)
		__field(u32, read_stag)
		__field(u32, write_stag)
	),
	TP_fast_assign(
		__entry->conn = ic->nr;
		__entry->opcode = p->bhs[0] & ISCSI_OPCODE_MASK;
		__entry->itt = get_unaligned_be32(p->bhs + 16);
		__entry->data_len = p->data_len;
		__entry->read_stag = p->has_read ? p->read_stag : 0;
		__entry->write_stag = p->has_write ? p->write_stag : 0;
	),
	TP_printk("conn=%u opcode=0x%02x itt=0x%08x data_len=%u read_stag=0x%08x write_stag=0x%08x",
		  __entry->conn, __entry->opcode, __entry->itt,
		  __entry->data_len, __entry->read_stag, __entry->write_stag)
);

/* the peer is cut off: what was wrong */
TRACE_EVENT(ist_protocol_error,
	TP_PROTO(const struct ist_conn *ic, const char *what),
	TP_ARGS(ic, what),
	TP_STRUCT__entry(
		__field(u32, conn)
		__string(what, what)
	),
	TP_fast_assign(
		__entry->conn = ic->nr;
		kc_assign_str(what, what);
	),
	TP_printk("conn=%u what=\"%s\"", __entry->conn, __get_str(what))
);

/* a PDU answered with a Reject (and the reason code) */
TRACE_EVENT(ist_reject,
	TP_PROTO(const struct ist_conn *ic, u8 reason, const u8 *bhs),
	TP_ARGS(ic, reason, bhs),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u8, reason)
		__field(u8, opcode)
		__field(u32, itt)
	),
	TP_fast_assign(
		__entry->conn = ic->nr;
		__entry->reason = reason;
		__entry->opcode = bhs[0] & ISCSI_OPCODE_MASK;
		__entry->itt = get_unaligned_be32(bhs + 16);
	),
	TP_printk("conn=%u reason=0x%02x opcode=0x%02x itt=0x%08x",
		  __entry->conn, __entry->reason, __entry->opcode,
		  __entry->itt)
);

/* Commands */

DECLARE_EVENT_CLASS(ist_cmd_class,
	TP_PROTO(const struct ist_cmd *icmd, u32 len, int status),
	TP_ARGS(icmd, len, status),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, itt)
		__field(u32, len)
		__field(int, status)
	),
	TP_fast_assign(
		__entry->conn = icmd->ic->nr;
		__entry->itt = be32_to_cpu((__force __be32)icmd->cmd->init_task_tag);
		__entry->len = len;
		__entry->status = status;
	),
	TP_printk("conn=%u itt=0x%08x len=%u status=%d", __entry->conn,
		  __entry->itt, __entry->len, __entry->status)
);

#define DEFINE_IST_CMD_EVENT(name)					\
	DEFINE_EVENT(ist_cmd_class, name,				\
		TP_PROTO(const struct ist_cmd *icmd, u32 len, int status), \
		TP_ARGS(icmd, len, status))

/* RDMA READ of a WRITE's data beyond its immediate data, and its end */
DEFINE_IST_CMD_EVENT(ist_read_start);
DEFINE_IST_CMD_EVENT(ist_read_done);
/* RDMA WRITE of READ data (len: bytes sent), chained with the response */
DEFINE_IST_CMD_EVENT(ist_data_in);
/* a SCSI Response without data */
DEFINE_IST_CMD_EVENT(ist_status);
/* the response's send completed (status: 0 or the failure) */
DEFINE_IST_CMD_EVENT(ist_send_done);
/* LIO aborted the command (TMF, or the connection went) */
DEFINE_IST_CMD_EVENT(ist_aborted);

#endif /* IST_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
