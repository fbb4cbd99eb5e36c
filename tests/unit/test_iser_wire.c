// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the iSER framing codec (common/iser_wire.c): a SCSI
 * command as ib_iser sends it, byte for byte; every truncation; lying
 * DataSegmentLengths; bad iSER opcodes, reserved bits, zero stags, AHS;
 * connection private data both ways.
 */
#include <stdio.h>
#include <string.h>
#include <rdmastor/iser_wire.h>
#include "tap.h"

static void be32(u8 *p, u32 v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

static void be64(u8 *p, u64 v)
{
	be32(p, v >> 32);
	be32(p + 4, (u32)v);
}

/* A WRITE with 512 bytes of immediate data and a write buffer for the rest. */
static u32 write_cmd(u8 *b)
{
	memset(b, 0, ISER_HEADERS_LEN + 512);
	b[0] = ISER_OP_ISCSI_CTRL | ISER_FLAG_WSV;
	be32(b + 4, 0x1234);
	be64(b + 8, 0x7f0000001200ull);
	b[28] = ISER_ISCSI_OP_SCSI_CMD | 0x40;		/* immediate */
	b[28 + 5] = 0; b[28 + 6] = 0x02; b[28 + 7] = 0x00;	/* DSL 512 */
	memset(b + ISER_HEADERS_LEN, 0xab, 512);
	return ISER_HEADERS_LEN + 512;
}

static void test_write_cmd(void)
{
	u8 b[1024];
	struct iser_pdu p;
	u32 len = write_cmd(b);

	tap_ok(iser_pdu_decode(b, len, &p) == 0, "a WRITE with immediate data decodes");
	tap_ok(p.has_write && !p.has_read && p.write_stag == 0x1234 &&
	       p.write_va == 0x7f0000001200ull, "write stag and address read");
	tap_ok(p.opcode == ISER_ISCSI_OP_SCSI_CMD && p.immediate, "opcode and I bit");
	tap_ok(p.data == b + ISER_HEADERS_LEN && p.data_len == 512 && p.data[511] == 0xab,
	       "data segment is the 512 bytes behind the headers");
	tap_ok(p.bhs == b + ISER_HDR_LEN, "the BHS follows the iSER header");

	b[0] = ISER_OP_ISCSI_CTRL | ISER_FLAG_RSV;
	be32(b + 16, 0x99);
	be64(b + 20, 0x1000);
	tap_ok(iser_pdu_decode(b, len, &p) == 0 && p.has_read && !p.has_write &&
	       p.read_stag == 0x99 && p.read_va == 0x1000, "a read buffer decodes");
}

static void test_truncation(void)
{
	u8 b[1024];
	struct iser_pdu p;
	u32 len = write_cmd(b), n, bad = 0;

	for (n = 0; n < len; n++)
		if (iser_pdu_decode(b, n, &p) != -EPROTO)
			bad++;
	tap_ok(bad == 0, "every truncation of the message is refused (%u accepted)", bad);
	tap_ok(iser_pdu_decode(b, len + 3, &p) == 0 && p.data_len == 512,
	       "trailing bytes beyond the data segment are ignored");
}

static void test_bad_headers(void)
{
	u8 b[1024];
	struct iser_pdu p;
	u32 len;

	len = write_cmd(b);
	b[28 + 5] = 0xff;				/* DSL 16 MiB + 512 */
	tap_ok(iser_pdu_decode(b, len, &p) == -EPROTO, "a DataSegmentLength past the end is refused");

	len = write_cmd(b);
	b[0] = ISER_OP_HELLO;
	tap_ok(iser_pdu_decode(b, len, &p) == -EPROTO, "iSER Hello is refused");
	b[0] = 0x00;
	tap_ok(iser_pdu_decode(b, len, &p) == -EPROTO, "iSER opcode 0 is refused");
	b[0] = ISER_OP_ISCSI_CTRL | 0x01;
	tap_ok(iser_pdu_decode(b, len, &p) == -EPROTO, "reserved flag bits are refused");

	len = write_cmd(b);
	be32(b + 4, 0);
	tap_ok(iser_pdu_decode(b, len, &p) == -EPROTO, "WSV with a zero stag is refused");

	len = write_cmd(b);
	b[0] |= ISER_FLAG_RSV;
	tap_ok(iser_pdu_decode(b, len, &p) == -EPROTO, "RSV with a zero stag is refused");

	len = write_cmd(b);
	b[28 + 4] = 4;					/* 16 bytes of AHS */
	tap_ok(iser_pdu_decode(b, len, &p) == -EPROTO, "AHS is refused");
}

static void test_opcodes(void)
{
	int known = 0, op;

	for (op = 0; op < 64; op++)
		known += iser_opcode_known(op);
	tap_ok(known == 8 && iser_opcode_known(ISER_ISCSI_OP_SNACK) &&
	       !iser_opcode_known(0x20), "exactly the 8 initiator opcodes are known");
}

static void test_cm(void)
{
	u8 req[ISER_CM_LEN] = { ISER_CM_ZBVA_NOT_SUP }, rep[ISER_CM_LEN], flags = 0xff;

	tap_ok(iser_cm_req_decode(req, sizeof(req), &flags) == 0 &&
	       flags == ISER_CM_ZBVA_NOT_SUP, "ib_iser's private data: no ZBVA, invalidation ok");
	tap_ok(iser_cm_req_decode(NULL, 0, &flags) == 0 && flags == 0,
	       "no private data: RFC 7145 defaults");
	req[0] = 0x01;
	tap_ok(iser_cm_req_decode(req, sizeof(req), &flags) == -EPROTO,
	       "reserved private data bits are refused");
	iser_cm_rep_encode(rep, true);
	tap_ok(rep[0] == ISER_CM_ZBVA_NOT_USED && !rep[1] && !rep[2] && !rep[3],
	       "accept: no ZBVA, will invalidate");
	iser_cm_rep_encode(rep, false);
	tap_ok(rep[0] == (ISER_CM_ZBVA_NOT_USED | ISER_CM_SEND_W_INV_NOT_USED),
	       "accept: no ZBVA, no invalidation");
}

static void test_encode(void)
{
	u8 b[ISER_HDR_LEN];

	memset(b, 0xee, sizeof(b));
	tap_ok(iser_hdr_encode(b) == ISER_HDR_LEN && b[0] == ISER_OP_ISCSI_CTRL &&
	       !b[1] && !b[27], "target header: iSCSI control, nothing advertised");
}

int main(void)
{
	test_write_cmd();
	test_truncation();
	test_bad_headers();
	test_opcodes();
	test_cm();
	test_encode();
	return tap_done();
}
