// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the rtp message and private-data decoders
 * (tests/kmod/rtp_wire.c) on arbitrary bytes. Whatever decodes must be
 * within the protocol's limits and re-encode to the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../kmod/rtp_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtp_msg m;
	unsigned char again[RTP_HDR_LEN];
	u16 credits;

	if (!rtp_decode(data, (u32)size, &m)) {
		if (m.type == RTP_REPLY) {
			if (!m.credits || m.credits > RTP_MAX_CREDITS)
				abort();
		} else if (!m.len || m.len > RTP_MAX_IO || m.addr + m.len < m.addr) {
			abort();
		}
		rtp_encode(again, &m);
		if (memcmp(again, data, RTP_HDR_LEN))
			abort();
	}
	if (!rtp_pdata_decode(data, (u32)size, &credits) &&
	    (!credits || credits > RTP_MAX_CREDITS))
		abort();
	return 0;
}
