// SPDX-License-Identifier: GPL-2.0
/*
 * iSER message framing: decoder and encoder (include/rdmastor/iser_wire.h).
 * Plain C, no allocation. Nothing from the wire is trusted: every length
 * is checked against what was received before anything is read.
 */
#include <rdmastor/iser_wire.h>

/**
 * iser_opcode_known - an iSCSI opcode an initiator may send
 * @opcode: without the immediate bit
 */
bool iser_opcode_known(u8 opcode)
{
	switch (opcode) {
	case ISER_ISCSI_OP_NOOP_OUT:
	case ISER_ISCSI_OP_SCSI_CMD:
	case ISER_ISCSI_OP_TMF:
	case ISER_ISCSI_OP_LOGIN:
	case ISER_ISCSI_OP_TEXT:
	case ISER_ISCSI_OP_DATA_OUT:
	case ISER_ISCSI_OP_LOGOUT:
	case ISER_ISCSI_OP_SNACK:
		return true;
	}
	return false;
}

/**
 * iser_pdu_decode - check and split one received message
 * @buf: the message
 * @len: bytes received
 * @p: out: the decoded message
 *
 * Return: 0; -EPROTO for a message shorter than its headers, an iSER
 * opcode other than iSCSI control (Hello is for iSER-assisted modes we
 * do not offer), reserved bits set, a stag flag with a zero stag, AHS
 * (extended CDBs and bidirectional commands are not supported over
 * this transport), or a DataSegmentLength past the end of what arrived.
 */
int iser_pdu_decode(const void *buf, u32 len, struct iser_pdu *p)
{
	const u8 *b = buf;
	u8 flags;
	u32 dlen;

	if (len < ISER_HEADERS_LEN)
		return -EPROTO;
	flags = b[0];
	if ((flags & ISER_OP_MASK) != ISER_OP_ISCSI_CTRL)
		return -EPROTO;
	if (flags & ~(ISER_OP_MASK | ISER_FLAG_WSV | ISER_FLAG_RSV))
		return -EPROTO;
	memset(p, 0, sizeof(*p));
	p->has_write = flags & ISER_FLAG_WSV;
	p->has_read = flags & ISER_FLAG_RSV;
	if (p->has_write) {
		p->write_stag = iser_get_be32(b + 4);
		p->write_va = iser_get_be64(b + 8);
		if (!p->write_stag)
			return -EPROTO;
	}
	if (p->has_read) {
		p->read_stag = iser_get_be32(b + 16);
		p->read_va = iser_get_be64(b + 20);
		if (!p->read_stag)
			return -EPROTO;
	}
	p->bhs = b + ISER_HDR_LEN;
	p->opcode = p->bhs[0] & ISER_ISCSI_OP_MASK;
	p->immediate = p->bhs[0] & 0x40;
	if (p->bhs[4])		/* TotalAHSLength */
		return -EPROTO;
	dlen = iser_get_be24(p->bhs + 5);
	if (dlen > len - ISER_HEADERS_LEN)
		return -EPROTO;
	p->data = b + ISER_HEADERS_LEN;
	p->data_len = dlen;
	return 0;
}

/**
 * iser_hdr_encode - the iSER header of a message the target sends
 * @buf: at least ISER_HDR_LEN bytes
 *
 * Target messages advertise no buffers: only the opcode is set.
 *
 * Return: ISER_HDR_LEN.
 */
u32 iser_hdr_encode(void *buf)
{
	u8 *b = buf;

	memset(b, 0, ISER_HDR_LEN);
	b[0] = ISER_OP_ISCSI_CTRL;
	return ISER_HDR_LEN;
}

/**
 * iser_cm_req_decode - the initiator's connection private data
 * @pdata: as received (rdma_cm pads it with zeroes)
 * @len: its length
 * @flags: out: the initiator's flags; 0 if it sent none (an initiator
 *	older than RFC 7145's private data: ZBVA and invalidation then
 *	count as supported, as that RFC's default)
 *
 * Return: 0, or -EPROTO if reserved bits are set.
 */
int iser_cm_req_decode(const void *pdata, u32 len, u8 *flags)
{
	return iser_cm_flags_decode(pdata, len, ISER_CM_ZBVA_NOT_SUP |
				    ISER_CM_SEND_W_INV_NOT_SUP, flags);
}

/**
 * iser_cm_rep_encode - the target's accept private data
 * @pdata: ISER_CM_LEN bytes
 * @send_w_inv: the target will Send-with-Invalidate the initiator's keys
 *
 * The target never uses zero-based virtual addresses.
 */
void iser_cm_rep_encode(void *pdata, bool send_w_inv)
{
	u8 *b = pdata;

	memset(b, 0, ISER_CM_LEN);
	b[0] = ISER_CM_ZBVA_NOT_USED;
	if (!send_w_inv)
		b[0] |= ISER_CM_SEND_W_INV_NOT_USED;
}
