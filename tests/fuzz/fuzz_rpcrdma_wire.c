// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the RPC-over-RDMA v1 header and RFC 8797 private
 * data decoders (common/rpcrdma_wire.c) on arbitrary bytes. Whatever decodes
 * must be within the limits and re-encode to exactly the bytes read.
 * The server's call checks (common/rpcrdma_call.c) then run on it: a call
 * they accept must add up (its message fits what arrived plus the
 * chunk, within the chunk limit), and a reply's chunk filled with any
 * length it accepts must hold exactly that length.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <rdmastor/rpcrdma_call.h>

#define MAX_CHUNK (1024 * 1024)

static struct rpcrdma_hdr h;
static struct rpcrdma_call_plan plan;
static struct rpcrdma_chunk used;

static void check_plan(uint32_t size)
{
	uint64_t sum = 0;
	uint32_t i, want;

	if (rpcrdma_plan_call(&h, size, MAX_CHUNK, &plan))
		return;
	if (plan.chunk_len > MAX_CHUNK || plan.inline_len != size - h.len)
		abort();
	switch (plan.kind) {
	case RPCRDMA_CALL_INLINE:
		if (h.nr_read || plan.msg_len != plan.inline_len || !plan.msg_len)
			abort();
		break;
	case RPCRDMA_CALL_LONG:
		if (plan.inline_len || plan.msg_len != plan.chunk_len || !plan.chunk_len)
			abort();
		break;
	case RPCRDMA_CALL_DATA_CHUNK:
		if (plan.position > plan.inline_len || (plan.position & 3) ||
		    plan.msg_len != plan.inline_len + ((plan.chunk_len + 3) & ~3u))
			abort();
		break;
	default:
		abort();
	}
	if (!h.nr_write)
		return;
	want = plan.write_len[0] / 2;
	if (rpcrdma_fill_chunk(&h.write[0], want, &used))
		abort();
	for (i = 0; i < used.nr_segs; i++) {
		if (used.segs[i].length > h.write[0].segs[i].length)
			abort();
		sum += used.segs[i].length;
	}
	if (sum != want)
		abort();
}
static uint8_t again[4096];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpcrdma_cm_pdata p;
	int len;

	if (size > 4096)
		return 0;
	if (!rpcrdma_decode_hdr(data, (u32)size, &h)) {
		if (h.len > size || h.nr_read > RPCRDMA_MAX_READ_SEGS ||
		    h.nr_write > RPCRDMA_MAX_WRITE_CHUNKS)
			abort();
		len = rpcrdma_encode_hdr(again, sizeof(again), &h);
		if (len != (int)h.len || memcmp(again, data, h.len))
			abort();
		check_plan((u32)size);
	}
	if (!rpcrdma_decode_cm_pdata(data, (u32)size, &p) &&
	    (p.send_size < 1024 || p.send_size > 262144 ||
	     p.recv_size < 1024 || p.recv_size > 262144))
		abort();
	return 0;
}
