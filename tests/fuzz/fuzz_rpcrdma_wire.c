// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the RPC-over-RDMA v1 header and RFC 8797 private
 * data decoders (fs/rpcrdma_wire.c) on arbitrary bytes. Whatever decodes
 * must be within the limits and re-encode to exactly the bytes read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <rdmastor/rpcrdma_wire.h>

static struct rpcrdma_hdr h;
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
	}
	if (!rpcrdma_decode_cm_pdata(data, (u32)size, &p) &&
	    (p.send_size < 1024 || p.send_size > 262144 ||
	     p.recv_size < 1024 || p.recv_size > 262144))
		abort();
	return 0;
}
