// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the initiator's half of the iSER codec
 * (common/iser_wire_initiator.c): SCSI Responses with and without sense,
 * lying sense lengths, impossible flag combinations and residuals, PDUs
 * a target may not send over iSER (Data-In, R2T, initiator opcodes,
 * advertised buffers), Task Management, Logout, Async and Reject
 * framing; the initiator's header and private data against the target's
 * decoders (round trips).
 */
#include <stdio.h>
#include <string.h>
#include <rdmastor/iser_wire.h>
#include "tap.h"

#define BHS(b)	((b) + ISER_HDR_LEN)

static void be32(u8 *p, u32 v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

static void dsl(u8 *b, u32 len)
{
	BHS(b)[5] = len >> 16; BHS(b)[6] = len >> 8; BHS(b)[7] = len;
}

/* A target PDU: iSER header, BHS with opcode, ITT and sequence numbers. */
static u32 target_pdu(u8 *b, u8 opcode, u32 itt, u32 data_len)
{
	memset(b, 0, ISER_HEADERS_LEN + data_len);
	iser_hdr_encode(b);
	BHS(b)[0] = opcode;
	BHS(b)[1] = ISER_RSP_FINAL;
	dsl(b, data_len);
	be32(BHS(b) + 16, itt);
	be32(BHS(b) + 24, 1000);	/* StatSN */
	be32(BHS(b) + 28, 2000);	/* ExpCmdSN */
	be32(BHS(b) + 32, 2063);	/* MaxCmdSN */
	return ISER_HEADERS_LEN + data_len;
}

static int decode(const u8 *b, u32 len, struct iser_pdu *p, struct iser_rsp *r)
{
	int err = iser_pdu_decode(b, len, p);

	return err ? err : iser_rsp_decode(p, r);
}

/* CHECK CONDITION with 18 bytes of fixed-format sense, as LIO sends it. */
static u32 check_condition(u8 *b)
{
	u32 len = target_pdu(b, ISER_ISCSI_OP_SCSI_RSP, 7, 20);

	BHS(b)[3] = 0x02;		/* CHECK CONDITION */
	b[ISER_HEADERS_LEN] = 0;		/* SenseLength 18 */
	b[ISER_HEADERS_LEN + 1] = 18;
	b[ISER_HEADERS_LEN + 2] = 0x70;	/* fixed format, current */
	return len;
}

static void test_scsi_rsp(void)
{
	u8 b[512];
	struct iser_pdu p;
	struct iser_rsp r;
	u32 len = target_pdu(b, ISER_ISCSI_OP_SCSI_RSP, 0x42, 0);

	tap_ok(decode(b, len, &p, &r) == 0 && r.opcode == ISER_ISCSI_OP_SCSI_RSP &&
	       r.itt == 0x42 && r.stat_sn == 1000 && r.exp_cmd_sn == 2000 &&
	       r.max_cmd_sn == 2063, "GOOD status: ITT and sequence numbers read");
	tap_ok(!r.status && !r.response && !r.sense && !r.sense_len && !r.residual,
	       "GOOD status: no sense, no residual");

	len = check_condition(b);
	tap_ok(decode(b, len, &p, &r) == 0 && r.status == 0x02 && r.sense_len == 18 &&
	       r.sense == b + ISER_HEADERS_LEN + 2 && r.sense[0] == 0x70,
	       "CHECK CONDITION: 18 bytes of sense after SenseLength");

	b[ISER_HEADERS_LEN + 1] = 19;
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "a SenseLength one past the segment is refused");
	b[ISER_HEADERS_LEN] = 0xff;
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "a SenseLength of 65k is refused");
	b[ISER_HEADERS_LEN] = 0;
	b[ISER_HEADERS_LEN + 1] = 10;
	tap_ok(decode(b, len, &p, &r) == 0 && r.sense_len == 10,
	       "sense followed by response data decodes");
	b[ISER_HEADERS_LEN + 1] = 0;
	tap_ok(decode(b, len, &p, &r) == 0 && !r.sense && !r.sense_len,
	       "SenseLength 0 with response data: no sense");

	len = target_pdu(b, ISER_ISCSI_OP_SCSI_RSP, 7, 1);
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "a 1-byte data segment cannot hold SenseLength");
}

static void test_scsi_rsp_flags(void)
{
	u8 b[512];
	struct iser_pdu p;
	struct iser_rsp r;
	u32 len = target_pdu(b, ISER_ISCSI_OP_SCSI_RSP, 1, 0);

	BHS(b)[1] = 0;
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "a SCSI Response without F is refused");
	BHS(b)[1] = ISER_RSP_FINAL | ISER_RSP_OVERFLOW | ISER_RSP_UNDERFLOW;
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "overflow and underflow together are refused");
	BHS(b)[1] = ISER_RSP_FINAL | ISER_RSP_BIDI_UNDERFLOW;
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "a bidirectional residual is refused");

	BHS(b)[1] = ISER_RSP_FINAL | ISER_RSP_UNDERFLOW;
	be32(BHS(b) + 44, 4096);
	tap_ok(decode(b, len, &p, &r) == 0 && r.underflow && !r.overflow && r.residual == 4096,
	       "underflow: residual read");
	tap_ok(iser_rsp_residual_ok(&r, 4096) && iser_rsp_residual_ok(&r, 8192),
	       "an underflow up to the expected length is possible");
	tap_ok(!iser_rsp_residual_ok(&r, 4095), "an underflow beyond the expected length is not");

	BHS(b)[1] = ISER_RSP_FINAL | ISER_RSP_OVERFLOW;
	be32(BHS(b) + 44, 0xffffffff);
	tap_ok(decode(b, len, &p, &r) == 0 && r.overflow && r.residual == 0xffffffff &&
	       iser_rsp_residual_ok(&r, 512), "overflow: any residual");

	BHS(b)[1] = ISER_RSP_FINAL;
	tap_ok(decode(b, len, &p, &r) == 0 && r.residual == 0,
	       "no O or U bit: the residual field is ignored");
}

static void test_not_from_a_target(void)
{
	u8 b[512];
	struct iser_pdu p;
	struct iser_rsp r;
	u32 len, op, wrong = 0, right = 0;

	len = target_pdu(b, ISER_ISCSI_OP_DATA_IN, 1, 64);
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "SCSI Data-In is refused (iSER uses RDMA WRITE)");
	len = target_pdu(b, ISER_ISCSI_OP_R2T, 1, 0);
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "R2T is refused (iSER uses RDMA READ)");

	/* with no data, every target opcode but Data-In and R2T decodes */
	for (op = 0; op < 64; op++) {
		bool target_op = (op >= 0x20 && op <= 0x26 && op != 0x25) ||
				 op == 0x32 || op == 0x3f;

		len = target_pdu(b, op, ISER_ITT_RESERVED, op == 0x3f ? ISER_BHS_LEN : 0);
		if (!decode(b, len, &p, &r))
			target_op ? right++ : wrong++;
	}
	tap_ok(right == 8 && wrong == 0,
	       "the 8 target opcodes decode, initiator and unknown opcodes are refused (%u, %u)",
	       right, wrong);

	len = target_pdu(b, ISER_ISCSI_OP_NOOP_IN, 1, 0);
	BHS(b)[0] |= 0x40;
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "the I bit on a target PDU is refused");
	BHS(b)[0] = ISER_ISCSI_OP_NOOP_IN | 0x80;
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "bit 7 of the opcode byte is refused");

	len = target_pdu(b, ISER_ISCSI_OP_SCSI_RSP, 1, 0);
	iser_hdr_encode_keys(b, 0x1234, 0x1000, 0, 0);
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "a target advertising a write buffer is refused");
	iser_hdr_encode_keys(b, 0, 0, 0x99, 0x2000);
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "a target advertising a read buffer is refused");
}

static void test_other_responses(void)
{
	u8 b[512];
	struct iser_pdu p;
	struct iser_rsp r;
	u32 len;

	len = target_pdu(b, ISER_ISCSI_OP_TMF_RSP, 3, 0);
	tap_ok(decode(b, len, &p, &r) == 0 && r.itt == 3, "Task Management Response decodes");
	len = target_pdu(b, ISER_ISCSI_OP_TMF_RSP, 3, 4);
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "Task Management Response with data is refused");
	len = target_pdu(b, ISER_ISCSI_OP_LOGOUT_RSP, 3, 0);
	tap_ok(decode(b, len, &p, &r) == 0, "Logout Response decodes");
	len = target_pdu(b, ISER_ISCSI_OP_LOGOUT_RSP, 3, 8);
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "Logout Response with data is refused");

	len = target_pdu(b, ISER_ISCSI_OP_LOGIN_RSP, 0, 200);
	tap_ok(decode(b, len, &p, &r) == 0 && p.data_len == 200, "Login Response with text decodes");
	len = target_pdu(b, ISER_ISCSI_OP_TEXT_RSP, 5, 100);
	tap_ok(decode(b, len, &p, &r) == 0, "Text Response decodes");
	len = target_pdu(b, ISER_ISCSI_OP_NOOP_IN, ISER_ITT_RESERVED, 0);
	tap_ok(decode(b, len, &p, &r) == 0 && r.itt == ISER_ITT_RESERVED,
	       "NOP-In ping from the target decodes");

	len = target_pdu(b, ISER_ISCSI_OP_ASYNC, ISER_ITT_RESERVED, 20);
	b[ISER_HEADERS_LEN + 1] = 18;
	tap_ok(decode(b, len, &p, &r) == 0 && r.sense_len == 18,
	       "SCSI asynchronous event with sense decodes");
	b[ISER_HEADERS_LEN + 1] = 30;
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "asynchronous event: lying SenseLength refused");
	BHS(b)[36] = 1;			/* logout request: no sense framing */
	tap_ok(decode(b, len, &p, &r) == 0 && !r.sense, "logout-request event decodes");
	be32(BHS(b) + 16, 9);
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "an Asynchronous Message naming a task is refused");

	len = target_pdu(b, ISER_ISCSI_OP_REJECT, ISER_ITT_RESERVED, ISER_BHS_LEN);
	tap_ok(decode(b, len, &p, &r) == 0, "Reject carrying the rejected header decodes");
	len = target_pdu(b, ISER_ISCSI_OP_REJECT, ISER_ITT_RESERVED, ISER_BHS_LEN - 1);
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "Reject with a partial header is refused");
	len = target_pdu(b, ISER_ISCSI_OP_REJECT, 4, ISER_BHS_LEN);
	tap_ok(decode(b, len, &p, &r) == -EPROTO, "Reject naming a task is refused");
}

/* Every claimed DataSegmentLength of a response with sense: refused, or sense inside. */
static void test_lying_lengths(void)
{
	u8 b[512];
	struct iser_pdu p;
	struct iser_rsp r;
	u32 len = check_condition(b), claim, bad = 0;

	for (claim = 0; claim < 300; claim++) {
		dsl(b, claim);
		if (decode(b, len, &p, &r))
			continue;
		if (claim > len - ISER_HEADERS_LEN ||
		    (r.sense && r.sense + r.sense_len > p.data + p.data_len))
			bad++;
	}
	tap_ok(bad == 0, "no DataSegmentLength claim exposes bytes past the message (%u did)", bad);
}

static void test_encoders(void)
{
	u8 b[ISER_HEADERS_LEN], pd[ISER_CM_LEN], flags = 0xee;
	struct iser_pdu p;

	memset(b, 0, sizeof(b));
	iser_hdr_encode_keys(b, 0xabcd0102, 0x7f00112233445566ull, 0x55667788, 0x1000);
	tap_ok(iser_pdu_decode(b, sizeof(b), &p) == 0 && p.has_write && p.has_read &&
	       p.write_stag == 0xabcd0102 && p.write_va == 0x7f00112233445566ull &&
	       p.read_stag == 0x55667788 && p.read_va == 0x1000,
	       "both keys round-trip through the target's decoder");
	iser_hdr_encode_keys(b, 0, 0, 0x77, 0x2000);
	tap_ok(b[0] == (ISER_OP_ISCSI_CTRL | ISER_FLAG_RSV) && iser_pdu_decode(b, sizeof(b), &p) == 0 &&
	       !p.has_write && p.read_stag == 0x77, "a read-only command advertises one buffer");
	iser_hdr_encode_keys(b, 0, 0, 0, 0);
	tap_ok(b[0] == ISER_OP_ISCSI_CTRL && !b[4] && !b[16], "a control PDU advertises none");

	iser_cm_req_encode(pd);
	tap_ok(iser_cm_req_decode(pd, sizeof(pd), &flags) == 0 && flags == ISER_CM_ZBVA_NOT_SUP,
	       "connect private data: no ZBVA, invalidation welcome (as the target reads it)");
	iser_cm_rep_encode(pd, true);
	tap_ok(iser_cm_rep_decode(pd, sizeof(pd), &flags) == 0 && flags == ISER_CM_ZBVA_NOT_USED,
	       "the target's accept read back: it will invalidate");
	iser_cm_rep_encode(pd, false);
	tap_ok(iser_cm_rep_decode(pd, sizeof(pd), &flags) == 0 &&
	       (flags & ISER_CM_SEND_W_INV_NOT_USED), "the target's accept read back: no invalidation");
	tap_ok(iser_cm_rep_decode(NULL, 0, &flags) == 0 && flags == 0,
	       "no accept private data: RFC 7145 defaults");
	pd[0] = 0x01;
	tap_ok(iser_cm_rep_decode(pd, sizeof(pd), &flags) == -EPROTO,
	       "reserved bits in the accept are refused");
}

static void test_statsn_and_tmf(void)
{
	static const u8 lun0[8], lun1[8] = { 0, 1 };

	tap_ok(iser_rsp_statsn_fresh(false, 0, 0), "StatSN: nothing seen at send, anything goes");
	tap_ok(iser_rsp_statsn_fresh(true, 100, 101), "StatSN: newer than at send");
	tap_ok(!iser_rsp_statsn_fresh(true, 100, 100), "StatSN: the one seen at send is an old answer");
	tap_ok(!iser_rsp_statsn_fresh(true, 100, 40), "StatSN: older is an old answer");
	tap_ok(iser_rsp_statsn_fresh(true, 0xfffffff0, 5), "StatSN: across the wrap");
	tap_ok(!iser_rsp_statsn_fresh(true, 5, 0xfffffff0), "StatSN: behind across the wrap");
	tap_ok(iser_rsp_statsn_fresh(true, 7, 7 + 0x7fffffffu) &&
	       !iser_rsp_statsn_fresh(true, 7, 7 + 0x80000000u),
	       "StatSN: half the space ahead is newer, beyond is older");

	tap_ok(iser_tmf_ends(ISER_TMF_ABORT_TASK, 9, lun0, 9, lun1),
	       "ABORT TASK ends the referenced command");
	tap_ok(!iser_tmf_ends(ISER_TMF_ABORT_TASK, 9, lun0, 10, lun0),
	       "ABORT TASK leaves the others, even on its LUN");
	tap_ok(iser_tmf_ends(ISER_TMF_LOGICAL_UNIT_RESET, 0, lun1, 3, lun1) &&
	       !iser_tmf_ends(ISER_TMF_LOGICAL_UNIT_RESET, 0, lun1, 3, lun0),
	       "LUN RESET ends the commands of its LUN only");
	tap_ok(iser_tmf_ends(ISER_TMF_ABORT_TASK_SET, 0, lun0, 3, lun0) &&
	       iser_tmf_ends(ISER_TMF_CLEAR_TASK_SET, 0, lun0, 3, lun0) &&
	       !iser_tmf_ends(ISER_TMF_CLEAR_TASK_SET, 0, lun0, 3, lun1),
	       "task set functions end the commands of their LUN");
	tap_ok(iser_tmf_ends(ISER_TMF_TARGET_WARM_RESET, 0, lun0, 3, lun1) &&
	       iser_tmf_ends(ISER_TMF_TARGET_COLD_RESET, 0, lun0, 3, lun1),
	       "target resets end every command");
	tap_ok(!iser_tmf_ends(ISER_TMF_CLEAR_ACA, 0, lun0, 3, lun0) &&
	       !iser_tmf_ends(0, 3, lun0, 3, lun0) && !iser_tmf_ends(15, 3, lun0, 3, lun0),
	       "CLEAR ACA and unknown functions end nothing");
}

int main(void)
{
	test_scsi_rsp();
	test_scsi_rsp_flags();
	test_not_from_a_target();
	test_other_responses();
	test_lying_lengths();
	test_encoders();
	test_statsn_and_tmf();
	return tap_done();
}
