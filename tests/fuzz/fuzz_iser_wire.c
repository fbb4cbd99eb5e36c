// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the iSER message and private-data decoders of both
 * ends (common/iser_wire.c, common/iser_wire_initiator.c) on arbitrary
 * bytes. Whatever decodes must lie within the input, and neither end's
 * receive path reads anything else.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <rdmastor/iser_wire.h>

/* global, so the loop reading every data byte is not optimised away */
u8 iser_fuzz_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iser_pdu p;
	struct iser_rsp r;
	u8 flags;
	u32 i;

	if (!iser_pdu_decode(data, (u32)size, &p)) {
		if (p.bhs != data + ISER_HDR_LEN || p.data != data + ISER_HEADERS_LEN ||
		    ISER_HEADERS_LEN + (size_t)p.data_len > size)
			abort();
		if ((p.has_write && !p.write_stag) || (p.has_read && !p.read_stag))
			abort();
		for (i = 0; i < p.data_len; i++)	/* ASan checks every byte */
			iser_fuzz_sink ^= p.data[i];
		if (!iser_rsp_decode(&p, &r)) {
			/* the initiator's view: sense data inside the segment */
			if (r.sense && (r.sense < p.data + 2 ||
					r.sense + r.sense_len > p.data + p.data_len))
				abort();
			if (r.opcode == ISER_ISCSI_OP_DATA_IN || r.opcode == ISER_ISCSI_OP_R2T ||
			    p.has_write || p.has_read)
				abort();
			if (!r.overflow && !r.underflow && r.residual)
				abort();
			for (i = 0; i < r.sense_len; i++)
				iser_fuzz_sink ^= r.sense[i];
		}
	}
	if (!iser_cm_rep_decode(data, (u32)size, &flags) &&
	    (flags & ~(ISER_CM_ZBVA_NOT_USED | ISER_CM_SEND_W_INV_NOT_USED)))
		abort();
	if (!iser_cm_req_decode(data, (u32)size, &flags) &&
	    (flags & ~(ISER_CM_ZBVA_NOT_SUP | ISER_CM_SEND_W_INV_NOT_SUP)))
		abort();
	return 0;
}
