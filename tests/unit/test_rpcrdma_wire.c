// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the RPC-over-RDMA v1 codec (common/rpcrdma_wire.c): known
 * bytes from RFC 8166's XDR by hand, round trips of random headers,
 * truncation at every length, hostile counts, RFC 8797 private data.
 */
#include <stdio.h>
#include <string.h>
#include <rdmastor/rpcrdma_wire.h>
#include "tap.h"

static u32 rng_state = 2463534242u;

static u32 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static void put(u8 *b, int *n, u32 v)
{
	b[(*n)++] = v >> 24;
	b[(*n)++] = v >> 16;
	b[(*n)++] = v >> 8;
	b[(*n)++] = v;
}

/* A call with one read segment, one write chunk of two segments, no reply chunk. */
static void test_known_bytes(void)
{
	static struct rpcrdma_hdr h;
	u8 want[256], got[256];
	int n = 0, len;

	put(want, &n, 0xdeadbeef); put(want, &n, 1); put(want, &n, 32); put(want, &n, RPCRDMA_MSG);
	put(want, &n, 1); put(want, &n, 112); put(want, &n, 0x100); put(want, &n, 8192);
	put(want, &n, 0x1); put(want, &n, 0x2000);		/* offset 0x100002000 */
	put(want, &n, 0);					/* end of read list */
	put(want, &n, 1); put(want, &n, 2);
	put(want, &n, 0x200); put(want, &n, 4096); put(want, &n, 0); put(want, &n, 0x3000);
	put(want, &n, 0x201); put(want, &n, 4096); put(want, &n, 0); put(want, &n, 0x4000);
	put(want, &n, 0);					/* end of write list */
	put(want, &n, 0);					/* no reply chunk */

	tap_ok(rpcrdma_decode_hdr(want, n, &h) == 0, "hand-made call decodes");
	tap_ok(h.xid == 0xdeadbeef && h.credits == 32 && h.proc == RPCRDMA_MSG &&
	       h.nr_read == 1 && h.read[0].position == 112 && h.read[0].seg.handle == 0x100 &&
	       h.read[0].seg.length == 8192 && h.read[0].seg.offset == 0x100002000ULL,
	       "fixed fields and the read segment are right");
	tap_ok(h.nr_write == 1 && h.write[0].nr_segs == 2 && h.write[0].segs[1].handle == 0x201 &&
	       h.write[0].segs[1].offset == 0x4000 && !h.has_reply, "the write chunk is right");
	tap_ok(h.len == (u32)n, "header length is all of it (%u)", h.len);
	len = rpcrdma_encode_hdr(got, sizeof(got), &h);
	tap_ok(len == n && !memcmp(got, want, n), "it re-encodes to the same bytes");
}

static void random_hdr(struct rpcrdma_hdr *h)
{
	u32 i, j;

	memset(h, 0, sizeof(*h));
	h->xid = rnd();
	h->vers = RPCRDMA_WIRE_VERSION;
	h->credits = rnd() % 256;
	if (rnd() % 8 == 0) {
		h->proc = RPCRDMA_ERROR;
		h->err = rnd() % 2 ? RPCRDMA_ERR_VERS : RPCRDMA_ERR_CHUNK;
		h->vers_low = h->err == RPCRDMA_ERR_VERS ? 1 : 0;
		h->vers_high = h->vers_low;
		return;
	}
	h->proc = rnd() % 2 ? RPCRDMA_MSG : RPCRDMA_NOMSG;
	h->nr_read = rnd() % (RPCRDMA_MAX_READ_SEGS + 1);
	for (i = 0; i < h->nr_read; i++) {
		h->read[i].position = rnd();
		h->read[i].seg.handle = rnd();
		h->read[i].seg.length = rnd();
		h->read[i].seg.offset = (u64)rnd() << 32 | rnd();
	}
	h->nr_write = rnd() % (RPCRDMA_MAX_WRITE_CHUNKS + 1);
	for (i = 0; i < h->nr_write; i++) {
		h->write[i].nr_segs = 1 + rnd() % RPCRDMA_MAX_CHUNK_SEGS;
		for (j = 0; j < h->write[i].nr_segs; j++)
			h->write[i].segs[j].offset = (u64)rnd() << 32 | rnd();
	}
	h->has_reply = rnd() % 2;
	if (h->has_reply) {
		h->reply.nr_segs = 1 + rnd() % RPCRDMA_MAX_CHUNK_SEGS;
		for (j = 0; j < h->reply.nr_segs; j++)
			h->reply.segs[j].length = rnd();
	}
}

static void test_round_trips(void)
{
	static struct rpcrdma_hdr a, b;
	static u8 buf[4096], again[4096];
	int i, len, bad = 0, trunc_bad = 0;
	u32 cut;

	for (i = 0; i < 5000; i++) {
		random_hdr(&a);
		len = rpcrdma_encode_hdr(buf, sizeof(buf), &a);
		if (len <= 0 || rpcrdma_decode_hdr(buf, len, &b) || b.len != (u32)len ||
		    rpcrdma_encode_hdr(again, sizeof(again), &b) != len ||
		    memcmp(buf, again, len)) {
			bad++;
			continue;
		}
		/* every strict prefix is truncated */
		for (cut = 0; cut < (u32)len; cut += 4)
			if (rpcrdma_decode_hdr(buf, cut, &b) != -EMSGSIZE)
				trunc_bad++;
		/* and the encoder refuses a buffer one word short */
		if (rpcrdma_encode_hdr(again, len - 4, &a) != -EMSGSIZE)
			trunc_bad++;
	}
	tap_ok(!bad, "5000 random headers round-trip byte for byte (%d failed)", bad);
	tap_ok(!trunc_bad, "every truncation is -EMSGSIZE (%d not)", trunc_bad);
}

static void test_hostile(void)
{
	static struct rpcrdma_hdr h;
	u8 b[1024];
	int n, i;

	n = 0;
	put(b, &n, 1); put(b, &n, 2); put(b, &n, 1); put(b, &n, RPCRDMA_MSG);
	tap_ok(rpcrdma_decode_hdr(b, n, &h) == -EPROTO, "version 2 is -EPROTO (answer ERR_VERS)");
	n = 0;
	put(b, &n, 1); put(b, &n, 1); put(b, &n, 1); put(b, &n, RPCRDMA_MSGP);
	tap_ok(rpcrdma_decode_hdr(b, n, &h) == -EINVAL, "deprecated RDMA_MSGP rejected");
	n = 0;
	put(b, &n, 1); put(b, &n, 1); put(b, &n, 1); put(b, &n, 77);
	tap_ok(rpcrdma_decode_hdr(b, n, &h) == -EINVAL, "unknown procedure rejected");
	n = 0;
	put(b, &n, 1); put(b, &n, 1); put(b, &n, 1); put(b, &n, RPCRDMA_MSG); put(b, &n, 2);
	tap_ok(rpcrdma_decode_hdr(b, n, &h) == -EINVAL, "discriminator 2 rejected");
	/* a write chunk claiming 2^31 segments in a short buffer */
	n = 0;
	put(b, &n, 1); put(b, &n, 1); put(b, &n, 1); put(b, &n, RPCRDMA_MSG);
	put(b, &n, 0); put(b, &n, 1); put(b, &n, 0x80000000u);
	tap_ok(rpcrdma_decode_hdr(b, n, &h) == -E2BIG, "a lying segment count is -E2BIG, not a long loop");
	n = 0;
	put(b, &n, 1); put(b, &n, 1); put(b, &n, 1); put(b, &n, RPCRDMA_MSG);
	put(b, &n, 0); put(b, &n, 1); put(b, &n, 0);
	tap_ok(rpcrdma_decode_hdr(b, n, &h) == -EINVAL, "an empty write chunk rejected");
	/* more read segments than supported */
	n = 0;
	put(b, &n, 1); put(b, &n, 1); put(b, &n, 1); put(b, &n, RPCRDMA_NOMSG);
	for (i = 0; i <= RPCRDMA_MAX_READ_SEGS; i++) {
		put(b, &n, 1); put(b, &n, 0); put(b, &n, 1); put(b, &n, 1); put(b, &n, 0); put(b, &n, 0);
	}
	put(b, &n, 0); put(b, &n, 0); put(b, &n, 0);
	tap_ok(rpcrdma_decode_hdr(b, n, &h) == -E2BIG, "too many read segments is -E2BIG");
	n = 0;
	put(b, &n, 1); put(b, &n, 1); put(b, &n, 1); put(b, &n, RPCRDMA_ERROR); put(b, &n, 9);
	tap_ok(rpcrdma_decode_hdr(b, n, &h) == -EINVAL, "unknown error code rejected");
	n = 0;
	put(b, &n, 1); put(b, &n, 1); put(b, &n, 1); put(b, &n, RPCRDMA_ERROR);
	put(b, &n, RPCRDMA_ERR_VERS); put(b, &n, 1); put(b, &n, 1);
	tap_ok(!rpcrdma_decode_hdr(b, n, &h) && h.err == RPCRDMA_ERR_VERS && h.vers_high == 1,
	       "ERR_VERS decodes with its version range");
}

static void test_cm_pdata(void)
{
	struct rpcrdma_cm_pdata p = { .remote_inv = true, .send_size = 4096, .recv_size = 262144 }, q;
	u8 b[16];

	tap_ok(rpcrdma_encode_cm_pdata(b, sizeof(b), &p) == RPCRDMA_CM_PDATA_LEN,
	       "private data encodes to %d bytes", RPCRDMA_CM_PDATA_LEN);
	tap_ok(b[0] == 0xf6 && b[3] == 0x18 && b[4] == 1 && b[5] == 1 && b[6] == 3 && b[7] == 255,
	       "magic, version, flags and inline sizes as RFC 8797 lays them out");
	tap_ok(!rpcrdma_decode_cm_pdata(b, 8, &q) && q.remote_inv && q.send_size == 4096 &&
	       q.recv_size == 262144, "private data round-trips");
	tap_ok(rpcrdma_decode_cm_pdata(b, 7, &q) == -ENODATA, "short private data means defaults");
	b[0] = 0;
	tap_ok(rpcrdma_decode_cm_pdata(b, 8, &q) == -ENODATA, "no magic means defaults");
	b[0] = 0xf6;
	b[4] = 2;
	tap_ok(rpcrdma_decode_cm_pdata(b, 8, &q) == -EPROTO, "unknown version rejected");
	p.send_size = 512;
	tap_ok(rpcrdma_encode_cm_pdata(b, 8, &p) == -EINVAL, "inline size below 1 KiB refused");
}

int main(void)
{
	test_known_bytes();
	test_round_trips();
	test_hostile();
	test_cm_pdata();
	return tap_done();
}
