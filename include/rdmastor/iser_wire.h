/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iSER (RFC 7145) message framing as the target sees it, as plain C
 * (see compat.h): the decoder builds into the iSER target and into
 * user-space tests and fuzzers.
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

int iser_pdu_decode(const void *buf, u32 len, struct iser_pdu *p);
u32 iser_hdr_encode(void *buf);
bool iser_opcode_known(u8 opcode);
int iser_cm_req_decode(const void *pdata, u32 len, u8 *flags);
void iser_cm_rep_encode(void *pdata, bool send_w_inv);

#endif /* RDMASTOR_ISER_WIRE_H */
