// SPDX-License-Identifier: GPL-2.0
/*
 * iSER framing, the initiator's half (include/rdmastor/iser_wire.h): what
 * an initiator sends (iSER header with its buffer keys, connection
 * private data) and the checks on what a target answers. Plain C, no
 * allocation.
 *
 * The target is untrusted. iser_pdu_decode() has already bounded the
 * data segment by what arrived; iser_rsp_decode() then refuses whatever
 * a target may not send over iSER and every length inside the data
 * segment that points past it, so the initiator's receive path (and
 * libiscsi behind it) only ever reads bytes that were received.
 */
#include <rdmastor/iser_wire.h>

/* BHS offsets common to every target PDU (RFC 7143 section 11) */
#define BHS_FLAGS	1
#define BHS_ITT		16
#define BHS_STATSN	24
#define BHS_EXPCMDSN	28
#define BHS_MAXCMDSN	32
/* SCSI Response */
#define BHS_RSP_RESPONSE	2
#define BHS_RSP_STATUS		3
#define BHS_RSP_RESIDUAL	44
/* Asynchronous Message */
#define BHS_ASYNC_EVENT		36
#define ASYNC_EVENT_SCSI	0

/*
 * A data segment that starts with SenseLength (SCSI Response, SCSI
 * asynchronous event): the sense data must lie inside the segment.
 */
static int iser_rsp_sense(const struct iser_pdu *p, struct iser_rsp *r)
{
	u16 len;

	if (!p->data_len)
		return 0;
	if (p->data_len < 2)
		return -EPROTO;
	len = iser_get_be16(p->data);
	if (len > p->data_len - 2)
		return -EPROTO;
	r->sense = len ? p->data + 2 : NULL;
	r->sense_len = len;
	return 0;
}

static int iser_rsp_scsi(const struct iser_pdu *p, struct iser_rsp *r)
{
	u8 flags = p->bhs[BHS_FLAGS];

	if (!(flags & ISER_RSP_FINAL))
		return -EPROTO;
	/* no bidirectional commands over this transport: no bidi residual */
	if (flags & (ISER_RSP_BIDI_OVERFLOW | ISER_RSP_BIDI_UNDERFLOW))
		return -EPROTO;
	if ((flags & ISER_RSP_OVERFLOW) && (flags & ISER_RSP_UNDERFLOW))
		return -EPROTO;
	r->response = p->bhs[BHS_RSP_RESPONSE];
	r->status = p->bhs[BHS_RSP_STATUS];
	r->overflow = flags & ISER_RSP_OVERFLOW;
	r->underflow = flags & ISER_RSP_UNDERFLOW;
	if (r->overflow || r->underflow)
		r->residual = iser_get_be32(p->bhs + BHS_RSP_RESIDUAL);
	return iser_rsp_sense(p, r);
}

/**
 * iser_rsp_decode - check one PDU a target sent an initiator
 * @p: the message, from iser_pdu_decode()
 * @r: out: what the initiator needs of it
 *
 * Return: 0; -EPROTO if the iSER header advertises buffers (a target has
 * none to offer), the PDU's reserved opcode bits are set, the opcode is
 * not one a target sends, it is SCSI Data-In or R2T (over iSER the target
 * moves data with RDMA WRITE and READ, never with these PDUs), a SCSI
 * Response is not final, claims both overflow and underflow, or a
 * bidirectional residual, a sense length points past the data segment,
 * a Task Management or Logout Response carries data, an Asynchronous
 * Message or Reject names a task, or a Reject does not carry the whole
 * header it rejects.
 */
int iser_rsp_decode(const struct iser_pdu *p, struct iser_rsp *r)
{
	memset(r, 0, sizeof(*r));
	if (p->has_write || p->has_read)
		return -EPROTO;
	if (p->bhs[0] & ~ISER_ISCSI_OP_MASK)
		return -EPROTO;
	r->opcode = p->opcode;
	r->itt = iser_get_be32(p->bhs + BHS_ITT);
	r->stat_sn = iser_get_be32(p->bhs + BHS_STATSN);
	r->exp_cmd_sn = iser_get_be32(p->bhs + BHS_EXPCMDSN);
	r->max_cmd_sn = iser_get_be32(p->bhs + BHS_MAXCMDSN);

	switch (p->opcode) {
	case ISER_ISCSI_OP_SCSI_RSP:
		return iser_rsp_scsi(p, r);
	case ISER_ISCSI_OP_NOOP_IN:
	case ISER_ISCSI_OP_LOGIN_RSP:
	case ISER_ISCSI_OP_TEXT_RSP:
		return 0;
	case ISER_ISCSI_OP_TMF_RSP:
	case ISER_ISCSI_OP_LOGOUT_RSP:
		return p->data_len ? -EPROTO : 0;
	case ISER_ISCSI_OP_ASYNC:
		if (r->itt != ISER_ITT_RESERVED)
			return -EPROTO;
		if (p->bhs[BHS_ASYNC_EVENT] == ASYNC_EVENT_SCSI)
			return iser_rsp_sense(p, r);
		return 0;
	case ISER_ISCSI_OP_REJECT:
		if (r->itt != ISER_ITT_RESERVED || p->data_len < ISER_BHS_LEN)
			return -EPROTO;
		return 0;
	}
	return -EPROTO;		/* Data-In, R2T, and what no target sends */
}

/**
 * iser_rsp_residual_ok - a SCSI Response's residual fits its command
 * @r: a decoded SCSI Response
 * @expected_len: the command's Expected Data Transfer Length
 *
 * An underflow cannot leave more untransferred than was asked for; an
 * overflow may name any amount (what the target had beyond the buffer).
 *
 * Return: whether the residual is possible for this command.
 */
bool iser_rsp_residual_ok(const struct iser_rsp *r, u32 expected_len)
{
	return !r->underflow || r->residual <= expected_len;
}

/**
 * iser_rsp_statsn_fresh - may this StatSN answer a command sent then?
 * @seen: the connection had seen a response when the command was sent
 * @newest_at_send: the newest StatSN of a response seen then
 * @stat_sn: the StatSN of the response that names the command
 *
 * The target numbers a response after it got the command, so after
 * every response the initiator had seen when it sent it. An old answer
 * to the tag's previous command (a response sent twice, the tag reused
 * since) is not. Targets may send responses out of StatSN order, so
 * nothing stricter holds.
 *
 * Return: true if @stat_sn is after @newest_at_send (or none was seen).
 */
bool iser_rsp_statsn_fresh(bool seen, u32 newest_at_send, u32 stat_sn)
{
	return !seen || iser_sn_after(stat_sn, newest_at_send);
}

/**
 * iser_tmf_ends - does a task management function end this command?
 * @func: the function (ISER_TMF_*)
 * @ref_itt: its Referenced Task Tag (ABORT TASK)
 * @tmf_lun: its 8-byte LUN
 * @task_itt: the command's tag
 * @task_lun: the command's 8-byte LUN
 *
 * Return: true for the referenced command of ABORT TASK, every command
 * of the LUN for the task set functions and a LUN reset, every command
 * for a target reset; false for CLEAR ACA and what is unknown.
 */
bool iser_tmf_ends(u8 func, u32 ref_itt, const u8 *tmf_lun, u32 task_itt,
		   const u8 *task_lun)
{
	switch (func) {
	case ISER_TMF_ABORT_TASK:
		return task_itt == ref_itt;
	case ISER_TMF_ABORT_TASK_SET:
	case ISER_TMF_CLEAR_TASK_SET:
	case ISER_TMF_LOGICAL_UNIT_RESET:
		return !memcmp(tmf_lun, task_lun, 8);
	case ISER_TMF_TARGET_WARM_RESET:
	case ISER_TMF_TARGET_COLD_RESET:
		return true;
	default:
		return false;
	}
}

/**
 * iser_hdr_encode_keys - the iSER header of a message an initiator sends
 * @buf: at least ISER_HDR_LEN bytes
 * @write_stag: key of the buffer the target may RDMA READ, or 0 for none
 * @write_va: its address
 * @read_stag: key of the buffer the target may RDMA WRITE, or 0 for none
 * @read_va: its address
 *
 * Return: ISER_HDR_LEN.
 */
u32 iser_hdr_encode_keys(void *buf, u32 write_stag, u64 write_va,
			 u32 read_stag, u64 read_va)
{
	u8 *b = buf;

	memset(b, 0, ISER_HDR_LEN);
	b[0] = ISER_OP_ISCSI_CTRL;
	if (write_stag) {
		b[0] |= ISER_FLAG_WSV;
		iser_put_be32(b + 4, write_stag);
		iser_put_be64(b + 8, write_va);
	}
	if (read_stag) {
		b[0] |= ISER_FLAG_RSV;
		iser_put_be32(b + 16, read_stag);
		iser_put_be64(b + 20, read_va);
	}
	return ISER_HDR_LEN;
}

/**
 * iser_cm_req_encode - the initiator's connection private data
 * @pdata: ISER_CM_LEN bytes
 *
 * The initiator advertises real virtual addresses (it does not support
 * zero-based ones) and accepts Send-with-Invalidate of its keys.
 */
void iser_cm_req_encode(void *pdata)
{
	u8 *b = pdata;

	memset(b, 0, ISER_CM_LEN);
	b[0] = ISER_CM_ZBVA_NOT_SUP;
}

/**
 * iser_cm_rep_decode - the target's accept private data
 * @pdata: as received (rdma_cm pads it with zeroes)
 * @len: its length
 * @flags: out: the target's flags; 0 if it sent none (RFC 7145's defaults)
 *
 * Return: 0, or -EPROTO if reserved bits are set.
 */
int iser_cm_rep_decode(const void *pdata, u32 len, u8 *flags)
{
	return iser_cm_flags_decode(pdata, len, ISER_CM_ZBVA_NOT_USED |
				    ISER_CM_SEND_W_INV_NOT_USED, flags);
}
