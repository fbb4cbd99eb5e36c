// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the responder's call checks (common/rpcrdma_call.c): the
 * three shapes a call may take, every way a call can lie about them,
 * chunk lists of a reply, remote-invalidation keys and backchannel
 * replies.
 */
#include <stdio.h>
#include <string.h>
#include <rdmastor/rpcrdma_call.h>
#include "tap.h"

#define MAX_CHUNK (1024 * 1024 + 8192)

static struct rpcrdma_hdr h;
static struct rpcrdma_call_plan p;

/* A header as the decoder leaves it: @len bytes of it, @proc. */
static void hdr(u32 proc, u32 len)
{
	memset(&h, 0, sizeof(h));
	h.vers = 1;
	h.proc = proc;
	h.len = len;
}

static void read_seg(u32 pos, u32 handle, u32 len)
{
	h.read[h.nr_read].position = pos;
	h.read[h.nr_read].seg.handle = handle;
	h.read[h.nr_read].seg.length = len;
	h.nr_read++;
}

static void test_shapes(void)
{
	hdr(RPCRDMA_MSG, 28);
	tap_ok(!rpcrdma_plan_call(&h, 28 + 120, MAX_CHUNK, &p) &&
	       p.kind == RPCRDMA_CALL_INLINE && p.inline_len == 120 && p.msg_len == 120,
	       "an inline call is its inline bytes");

	hdr(RPCRDMA_MSG, 52);
	read_seg(112, 7, 8190);
	tap_ok(!rpcrdma_plan_call(&h, 52 + 140, MAX_CHUNK, &p) &&
	       p.kind == RPCRDMA_CALL_DATA_CHUNK && p.position == 112 &&
	       p.chunk_len == 8190 && p.msg_len == 140 + 8192,
	       "a data chunk: inline around it, its XDR pad counted");

	hdr(RPCRDMA_MSG, 76);
	read_seg(112, 7, 4096);
	read_seg(112, 8, 100);
	tap_ok(!rpcrdma_plan_call(&h, 76 + 112, MAX_CHUNK, &p) && p.chunk_len == 4196 &&
	       p.position == 112 && p.inline_len == 112,
	       "two segments at one position are one chunk; position at the end of the message");

	hdr(RPCRDMA_NOMSG, 52);
	read_seg(0, 9, 70000);
	tap_ok(!rpcrdma_plan_call(&h, 52, MAX_CHUNK, &p) && p.kind == RPCRDMA_CALL_LONG &&
	       p.msg_len == 70000 && p.inline_len == 0,
	       "a long call is its position-zero chunk");

	hdr(RPCRDMA_MSG, 48);
	h.nr_write = 1;
	h.write[0].nr_segs = 2;
	h.write[0].segs[0].length = 4096;
	h.write[0].segs[1].length = 0xfffff000u;
	h.has_reply = 1;
	h.reply.nr_segs = 1;
	h.reply.segs[0].length = 3000;
	tap_ok(!rpcrdma_plan_call(&h, 48 + 100, MAX_CHUNK, &p) &&
	       p.write_len[0] == 0xffffffffu && p.reply_len == 3000,
	       "chunk room is summed without wrapping");
}

static void test_lies(void)
{
	hdr(RPCRDMA_NOMSG, 28);
	tap_ok(rpcrdma_plan_call(&h, 28, MAX_CHUNK, &p) == -EINVAL,
	       "RDMA_NOMSG without a Read chunk");
	hdr(RPCRDMA_MSG, 28);
	tap_ok(rpcrdma_plan_call(&h, 28, MAX_CHUNK, &p) == -EINVAL,
	       "RDMA_MSG with no message");
	hdr(RPCRDMA_MSG, 40);
	tap_ok(rpcrdma_plan_call(&h, 28, MAX_CHUNK, &p) == -EPROTO,
	       "a header longer than what arrived");
	hdr(RPCRDMA_ERROR, 20);
	tap_ok(rpcrdma_plan_call(&h, 20, MAX_CHUNK, &p) == -EPROTO,
	       "RDMA_ERROR is not a call");

	hdr(RPCRDMA_MSG, 52);
	read_seg(200, 7, 4096);
	tap_ok(rpcrdma_plan_call(&h, 52 + 100, MAX_CHUNK, &p) == -EINVAL,
	       "a position past the inline message");
	hdr(RPCRDMA_MSG, 52);
	read_seg(98, 7, 4096);
	tap_ok(rpcrdma_plan_call(&h, 52 + 100, MAX_CHUNK, &p) == -EINVAL,
	       "a position off an XDR word");
	hdr(RPCRDMA_MSG, 52);
	read_seg(0, 7, 4096);
	tap_ok(rpcrdma_plan_call(&h, 52 + 100, MAX_CHUNK, &p) == -EINVAL,
	       "a position-zero chunk in RDMA_MSG");
	hdr(RPCRDMA_NOMSG, 52);
	read_seg(0, 7, 4096);
	tap_ok(rpcrdma_plan_call(&h, 52 + 8, MAX_CHUNK, &p) == -EINVAL,
	       "a long call with inline bytes too");
	hdr(RPCRDMA_NOMSG, 52);
	read_seg(8, 7, 4096);
	tap_ok(rpcrdma_plan_call(&h, 52, MAX_CHUNK, &p) == -EINVAL,
	       "RDMA_NOMSG with a data chunk only");
	hdr(RPCRDMA_MSG, 76);
	read_seg(8, 7, 4096);
	read_seg(16, 8, 4096);
	tap_ok(rpcrdma_plan_call(&h, 76 + 100, MAX_CHUNK, &p) == -E2BIG,
	       "two Read chunks are not served");
	hdr(RPCRDMA_MSG, 52);
	read_seg(8, 7, 0);
	tap_ok(rpcrdma_plan_call(&h, 52 + 100, MAX_CHUNK, &p) == -EINVAL,
	       "an empty Read chunk");
	hdr(RPCRDMA_NOMSG, 100);
	read_seg(0, 7, 0x80000000u);
	read_seg(0, 8, 0x80000000u);
	read_seg(0, 9, 0x100);
	tap_ok(rpcrdma_plan_call(&h, 100, MAX_CHUNK, &p) == -E2BIG,
	       "segment lengths that wrap 32 bits are too big, not small");
	hdr(RPCRDMA_NOMSG, 52);
	read_seg(0, 7, MAX_CHUNK + 1);
	tap_ok(rpcrdma_plan_call(&h, 52, MAX_CHUNK, &p) == -E2BIG,
	       "a chunk past the limit");
}

static void test_fill(void)
{
	struct rpcrdma_chunk c = { .nr_segs = 3 }, u;

	c.segs[0].length = 1000;
	c.segs[1].length = 2000;
	c.segs[2].length = 3000;
	c.segs[1].handle = 42;
	tap_ok(!rpcrdma_fill_chunk(&c, 2500, &u) && u.nr_segs == 3 &&
	       u.segs[0].length == 1000 && u.segs[1].length == 1500 &&
	       u.segs[2].length == 0 && u.segs[1].handle == 42,
	       "a reply's chunk: segments filled in order, the rest zero");
	tap_ok(!rpcrdma_fill_chunk(&c, 0, &u) && u.segs[0].length == 0,
	       "nothing written: every segment zero");
	tap_ok(rpcrdma_fill_chunk(&c, 6001, &u) == -E2BIG, "more than the chunk holds");
}

static void test_handles(void)
{
	u32 k = 0;

	hdr(RPCRDMA_MSG, 28);
	tap_ok(!rpcrdma_call_one_handle(&h, &k), "no chunks: nothing to invalidate");
	h.nr_write = 1;
	h.write[0].nr_segs = 2;
	h.write[0].segs[0].handle = 5;
	h.write[0].segs[1].handle = 5;
	tap_ok(rpcrdma_call_one_handle(&h, &k) && k == 5, "one key in two segments");
	read_seg(8, 6, 10);
	tap_ok(!rpcrdma_call_one_handle(&h, &k), "two keys: no remote invalidation");
}

static void test_bc_reply(void)
{
	u8 reply[12] = { 0, 0, 0, 9, 0, 0, 0, 1 };
	u8 call[12] = { 0, 0, 0, 9, 0, 0, 0, 0 };

	hdr(RPCRDMA_MSG, 28);
	tap_ok(rpcrdma_is_bc_reply(&h, reply, sizeof(reply)), "an inline REPLY is a backchannel reply");
	tap_ok(!rpcrdma_is_bc_reply(&h, call, sizeof(call)), "a CALL is not");
	tap_ok(!rpcrdma_is_bc_reply(&h, reply, 7), "nor 7 bytes");
	h.has_reply = 1;
	tap_ok(!rpcrdma_is_bc_reply(&h, reply, sizeof(reply)), "nor a message with chunks");
}

int main(void)
{
	test_shapes();
	test_lies();
	test_fill();
	test_handles();
	test_bc_reply();
	return tap_done();
}
