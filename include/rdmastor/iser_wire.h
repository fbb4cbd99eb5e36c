/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iSER (RFC 7145) message framing as plain C (see compat.h), for both
 * ends: the target decodes what initiators send (iser_wire.c), the
 * initiator checks what targets answer (iser_rsp.c). Both build into the
 * kernel modules and into user-space tests and fuzzers.
 *
 * Every iSER message is one RDMA Send:
 *
 *   iSER header (28 bytes):
 *     flags(1): opcode in the high nibble (ISCSI_CTRL), WSV 0x08, RSV 0x04
 *     reserved(3), write_stag(4), write_va(8), read_stag(4), read_va(8)
 *   iSCSI basic header segment (48 bytes)
 *   data segment (DataSegmentLength bytes, no padding, no digests)
 *
 * "write" is the initiator's buffer the target RDMA READs (SCSI WRITE
 * data); "read" is the one the target RDMA WRITEs (SCSI READ data).
 *
 * The connection's private data (4 bytes each way) carries flags only.
 */
#ifndef RDMASTOR_ISER_WIRE_H
#define RDMASTOR_ISER_WIRE_H

#include "compat.h"

#define ISER_HDR_LEN		28
#define ISER_BHS_LEN		48
#define ISER_HEADERS_LEN	(ISER_HDR_LEN + ISER_BHS_LEN)

/* iSER header flags */
#define ISER_OP_MASK		0xf0
#define ISER_OP_ISCSI_CTRL	0x10
#define ISER_OP_HELLO		0x20
#define ISER_OP_HELLO_REPLY	0x30
#define ISER_FLAG_WSV		0x08
#define ISER_FLAG_RSV		0x04

/* Private data flags: initiator's request, target's reply */
#define ISER_CM_ZBVA_NOT_SUP		0x80
#define ISER_CM_SEND_W_INV_NOT_SUP	0x40
#define ISER_CM_ZBVA_NOT_USED		0x80
#define ISER_CM_SEND_W_INV_NOT_USED	0x40
#define ISER_CM_LEN			4

/* iSCSI opcodes the target receives (RFC 7143 section 11) */
#define ISER_ISCSI_OP_MASK	0x3f
#define ISER_ISCSI_OP_NOOP_OUT	0x00
#define ISER_ISCSI_OP_SCSI_CMD	0x01
#define ISER_ISCSI_OP_TMF	0x02
#define ISER_ISCSI_OP_LOGIN	0x03
#define ISER_ISCSI_OP_TEXT	0x04
#define ISER_ISCSI_OP_DATA_OUT	0x05
#define ISER_ISCSI_OP_LOGOUT	0x06
#define ISER_ISCSI_OP_SNACK	0x10

/* iSCSI opcodes the initiator receives */
#define ISER_ISCSI_OP_NOOP_IN		0x20
#define ISER_ISCSI_OP_SCSI_RSP		0x21
#define ISER_ISCSI_OP_TMF_RSP		0x22
#define ISER_ISCSI_OP_LOGIN_RSP		0x23
#define ISER_ISCSI_OP_TEXT_RSP		0x24
#define ISER_ISCSI_OP_DATA_IN		0x25
#define ISER_ISCSI_OP_LOGOUT_RSP	0x26
#define ISER_ISCSI_OP_R2T		0x31
#define ISER_ISCSI_OP_ASYNC		0x32
#define ISER_ISCSI_OP_REJECT		0x3f

/* SCSI Response flags (BHS byte 1) */
#define ISER_RSP_FINAL			0x80
#define ISER_RSP_BIDI_OVERFLOW		0x10
#define ISER_RSP_BIDI_UNDERFLOW		0x08
#define ISER_RSP_OVERFLOW		0x04
#define ISER_RSP_UNDERFLOW		0x02

/* the reserved Initiator Task Tag: a PDU the target sends unasked */
#define ISER_ITT_RESERVED		0xffffffffu

/* Big-endian fields at any alignment, as they sit in a received buffer. */
static inline u16 iser_get_be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static inline u32 iser_get_be24(const u8 *p)
{
	return (u32)p[0] << 16 | (u32)p[1] << 8 | p[2];
}

static inline u32 iser_get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static inline u64 iser_get_be64(const u8 *p)
{
	return (u64)iser_get_be32(p) << 32 | iser_get_be32(p + 4);
}

static inline void iser_put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void iser_put_be64(u8 *p, u64 v)
{
	iser_put_be32(p, v >> 32);
	iser_put_be32(p + 4, (u32)v);
}

/* Private data of either end: its flag byte, reserved bits refused. */
static inline int iser_cm_flags_decode(const void *pdata, u32 len, u8 allowed,
				       u8 *flags)
{
	const u8 *b = pdata;

	*flags = 0;
	if (!pdata || len < ISER_CM_LEN)
		return 0;
	if (b[0] & ~allowed)
		return -EPROTO;
	*flags = b[0];
	return 0;
}

/**
 * struct iser_pdu - one decoded message; pointers into the buffer
 * @has_write: the iSER header advertises a write buffer (WSV)
 * @has_read: ... a read buffer (RSV)
 * @write_stag: the write buffer's key, valid if @has_write
 * @read_stag: the read buffer's key, valid if @has_read
 * @write_va: the write buffer's address, valid if @has_write
 * @read_va: the read buffer's address, valid if @has_read
 * @bhs: the 48-byte iSCSI header
 * @opcode: its opcode, without the immediate bit
 * @immediate: the I bit
 * @data: the data segment, @data_len bytes
 * @data_len: exactly DataSegmentLength
 */
struct iser_pdu {
	bool has_write, has_read;
	u32 write_stag, read_stag;
	u64 write_va, read_va;
	const u8 *bhs;
	u8 opcode;
	bool immediate;
	const u8 *data;
	u32 data_len;
};

/**
 * struct iser_rsp - what an initiator takes from one target PDU
 * @opcode: one of the target opcodes above
 * @itt: Initiator Task Tag; ISER_ITT_RESERVED for an unsolicited PDU
 * @stat_sn: StatSN
 * @exp_cmd_sn: ExpCmdSN
 * @max_cmd_sn: MaxCmdSN
 * @response: SCSI Response: the iSCSI response code (0: command completed)
 * @status: SCSI Response: the SCSI status
 * @overflow: SCSI Response: O bit, @residual is what did not fit
 * @underflow: SCSI Response: U bit, @residual is what was not moved
 * @residual: SCSI Response: Residual Count, 0 unless O or U
 * @sense: SCSI Response and SCSI Async Event: the sense data, or NULL
 * @sense_len: its length, within the data segment
 */
struct iser_rsp {
	u8 opcode;
	u32 itt;
	u32 stat_sn, exp_cmd_sn, max_cmd_sn;
	u8 response, status;
	bool overflow, underflow;
	u32 residual;
	const u8 *sense;
	u16 sense_len;
};

/* Task management functions (RFC 7143 section 11.5.1) */
#define ISER_TMF_ABORT_TASK		1
#define ISER_TMF_ABORT_TASK_SET		2
#define ISER_TMF_CLEAR_ACA		3
#define ISER_TMF_CLEAR_TASK_SET		4
#define ISER_TMF_LOGICAL_UNIT_RESET	5
#define ISER_TMF_TARGET_WARM_RESET	6
#define ISER_TMF_TARGET_COLD_RESET	7

/* Serial number arithmetic (RFC 1982, 32 bits): is @a after @b? */
static inline bool iser_sn_after(u32 a, u32 b)
{
	return (s32)(a - b) > 0;
}

int iser_pdu_decode(const void *buf, u32 len, struct iser_pdu *p);
int iser_rsp_decode(const struct iser_pdu *p, struct iser_rsp *r);
bool iser_rsp_residual_ok(const struct iser_rsp *r, u32 expected_len);
bool iser_rsp_statsn_fresh(bool seen, u32 newest_at_send, u32 stat_sn);
bool iser_tmf_ends(u8 func, u32 ref_itt, const u8 *tmf_lun, u32 task_itt,
		   const u8 *task_lun);
u32 iser_hdr_encode_keys(void *buf, u32 write_stag, u64 write_va,
			 u32 read_stag, u64 read_va);
void iser_cm_req_encode(void *pdata);
int iser_cm_rep_decode(const void *pdata, u32 len, u8 *flags);
u32 iser_hdr_encode(void *buf);
bool iser_opcode_known(u8 opcode);
int iser_cm_req_decode(const void *pdata, u32 len, u8 *flags);
void iser_cm_rep_encode(void *pdata, bool send_w_inv);

#endif /* RDMASTOR_ISER_WIRE_H */
