// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the /dev/rnic_mgr event decoder
 * (common/rnic_user_event.c) walking a read() buffer of arbitrary bytes, as
 * librnic does. Every event it accepts must stay inside the buffer, be
 * within the ABI's limits and re-encode to exactly its bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <rdmastor/rnic_user_event.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 0;
	struct rnic_ev ev;
	uint8_t again[4096];
	int n;

	while (off < size) {
		n = rnic_ev_decode(data + off, size - off, &ev);
		if (n == -EAGAIN || n == -EPROTO)
			break;
		if (n <= 0 || n % 8 || (size_t)n > size - off)
			abort();
		if (ev.type >= RNIC_EV_REVOKE && ev.type <= RNIC_EV_RECLAIM) {
			if (ev.type == RNIC_EV_REVOKE && ev.revoke.nvictims > RNIC_REVOKE_MAX_VICTIMS)
				abort();
			if (rnic_ev_encode(again, sizeof(again), &ev) != n ||
			    memcmp(again, data + off, n))
				abort();
		}
		off += n;
	}
	return 0;
}
