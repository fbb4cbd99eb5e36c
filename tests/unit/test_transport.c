// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the transport's pure parts: the window arithmetic
 * (transport/rst_window.h) and the rtp wire codec
 * (tests/kmod/rtp_wire.c), including hostile input.
 */
#include <stdio.h>
#include <string.h>
#include "transport/rst_window.h"
#include "tap.h"
#include "../kmod/rtp_wire.h"

static void test_window(void)
{
	/* 1 MiB I/Os are 256 pages: a 4096-entry share covers 16 MRs */
	tap_ok(rst_mr_limit_calc(4096, 100, 256, 32) == 16, "share of 4096 entries covers 16 MRs of 256 pages");
	tap_ok(rst_mr_limit_calc(4096, 3, 256, 32) == 3, "keys bind when fewer");
	tap_ok(rst_mr_limit_calc(1 << 30, 1 << 20, 16, 32) == 32, "capped at the most I/Os that can be out");
	tap_ok(rst_mr_limit_calc(100, 100, 256, 32) == 1, "never below one MR (the guaranteed minimum)");
	tap_ok(rst_mr_limit_calc(0, 0, 256, 32) == 1, "zero share still allows one maximum-size I/O");
	tap_ok(rst_window_calc(16, 32, 8) == 8, "MRs bind the window");
	tap_ok(rst_window_calc(4, 32, 8) == 4, "peer credits bind the window");
	tap_ok(rst_window_calc(64, 32, 100) == 32, "our receive ring binds the window");
	tap_ok(rst_window_calc(16, 32, 0) == 16, "a side without MRs: credits and ring only");
	tap_ok(rst_window_calc(0, 32, 8) == 0, "no credit, no I/O");
}

/*
 * The MR pool's decisions (rst_mr_room_calc() and friends) driven the way
 * transport/frwr.c drives them: a share of 600 entries, MRs of 16 and 260
 * pages, the window counting small ones.
 */
static void test_size_classes(void)
{
	const u32 small = 16, large = 260, ents = 600;
	u32 limit = rst_mr_limit_calc(ents, 1000, small, 64);
	u32 total = 0, entries = 0, n;

	tap_ok(limit == 37, "600 entries cover 37 small MRs (the window's bound)");
	tap_ok(rst_mr_small_calc(16, 1) && rst_mr_small_calc(16, 16), "4 KiB and 64 KiB I/Os are small");
	tap_ok(!rst_mr_small_calc(16, 17) && !rst_mr_small_calc(0, 1),
	       "17 pages are large; without a small class everything is");
	for (n = 0; rst_mr_room_calc(total, limit, entries, ents, small); n++) {
		total++;
		entries += small;
	}
	tap_ok(n == 37 && entries == 592, "small MRs fill the share: %u MRs, %u entries", n, entries);
	tap_ok(!rst_mr_room_calc(total, limit, entries, ents, large), "no room for a large MR then");
	total = 0;
	entries = 0;
	for (n = 0; rst_mr_room_calc(total, limit, entries, ents, large); n++) {
		total++;
		entries += large;
	}
	tap_ok(n == 2 && entries == 520, "large MRs: two fit 600 entries");
	tap_ok(rst_mr_room_calc(2, limit, 520, ents, small) && !rst_mr_room_calc(2, limit, 520, ents, 81),
	       "the 80 entries left take a small MR, not more");
	tap_ok(rst_mr_room_calc(0, 1, 0, 100, large), "the first MR is allowed beyond a tiny share");
	tap_ok(!rst_mr_room_calc(1, 1, large, 100, small), "but nothing after it");
	tap_ok(!rst_mr_over_calc(1, 1, large, 100), "one MR over the entries is not over the share");
	tap_ok(rst_mr_over_calc(2, limit, 2 * large, 300), "two that exceed the entries are");
	tap_ok(rst_mr_over_calc(38, limit, 38 * small, ents), "more MRs than the limit are");
	tap_ok(!rst_mr_over_calc(37, limit, 592, ents), "a share filled exactly is not");
	tap_ok(!rst_mr_room_calc(5, 100, 0xfffffff0U, 0xffffffffU, large),
	       "entry sums do not wrap");
}

static struct rtp_msg sample(void)
{
	struct rtp_msg m = {
		.type = RTP_WRITE, .flags = RTP_F_REMOTE_INV, .credits = 0,
		.xid = 0x01000007, .status = 0, .addr = 0xffff888012345000ULL,
		.rkey = 0x1234ab, .len = 65536,
	};
	return m;
}

static void test_codec(void)
{
	unsigned char buf[RTP_HDR_LEN + 8];
	struct rtp_msg in = sample(), out;
	struct rtp_pdata pd;
	u16 credits;
	int i, err, rejected;

	tap_ok(sizeof(struct rtp_hdr) == RTP_HDR_LEN, "header is %d bytes on the wire", RTP_HDR_LEN);
	rtp_encode(buf, &in);
	err = rtp_decode(buf, RTP_HDR_LEN, &out);
	tap_ok(!err && out.type == in.type && out.flags == in.flags && out.xid == in.xid &&
	       out.addr == in.addr && out.rkey == in.rkey && out.len == in.len,
	       "request round-trips");
	tap_ok(buf[0] == 0x52 && buf[3] == 0x31, "magic is big-endian \"RTP1\"");
	tap_ok(rtp_decode(buf, RTP_HDR_LEN - 1, &out) == -EMSGSIZE, "short message rejected");
	tap_ok(rtp_decode(buf, RTP_HDR_LEN + 8, &out) == -EMSGSIZE, "long message rejected");
	buf[0] ^= 1;
	tap_ok(rtp_decode(buf, RTP_HDR_LEN, &out) == -EPROTO, "bad magic rejected");
	buf[0] ^= 1;
	buf[4] = 0;
	tap_ok(rtp_decode(buf, RTP_HDR_LEN, &out) == -EPROTO, "type 0 rejected");
	buf[4] = RTP_TYPE_MAX + 1;
	tap_ok(rtp_decode(buf, RTP_HDR_LEN, &out) == -EPROTO, "unknown type rejected");
	buf[4] = RTP_WRITE;
	buf[5] = 0x80;
	tap_ok(rtp_decode(buf, RTP_HDR_LEN, &out) == -EPROTO, "unknown flag rejected");

	in.len = RTP_MAX_IO + 1;
	rtp_encode(buf, &in);
	tap_ok(rtp_decode(buf, RTP_HDR_LEN, &out) == -EINVAL, "length past the maximum I/O rejected");
	in.len = 0;
	rtp_encode(buf, &in);
	tap_ok(rtp_decode(buf, RTP_HDR_LEN, &out) == -EINVAL, "zero length rejected");
	in = sample();
	in.addr = ~0ULL - 100;
	rtp_encode(buf, &in);
	tap_ok(rtp_decode(buf, RTP_HDR_LEN, &out) == -EINVAL, "address range that wraps rejected");

	in = sample();
	in.type = RTP_REPLY;
	in.credits = 0;
	rtp_encode(buf, &in);
	tap_ok(rtp_decode(buf, RTP_HDR_LEN, &out) == -EINVAL, "reply granting zero credits rejected");
	in.credits = RTP_MAX_CREDITS + 1;
	rtp_encode(buf, &in);
	tap_ok(rtp_decode(buf, RTP_HDR_LEN, &out) == -EINVAL, "reply granting too many credits rejected");
	in.credits = 16;
	rtp_encode(buf, &in);
	tap_ok(!rtp_decode(buf, RTP_HDR_LEN, &out) && out.credits == 16, "reply round-trips");

	rtp_pdata_encode(&pd, 32);
	tap_ok(!rtp_pdata_decode(&pd, sizeof(pd), &credits) && credits == 32, "private data round-trips");
	tap_ok(rtp_pdata_decode(&pd, sizeof(pd) - 1, &credits) == -EMSGSIZE, "short private data rejected");
	tap_ok(rtp_pdata_decode(NULL, 0, &credits) == -EMSGSIZE, "missing private data rejected");

	/* Every single-byte corruption either decodes within limits or is rejected. */
	in = sample();
	rejected = 0;
	for (i = 0; i < RTP_HDR_LEN * 256; i++) {
		rtp_encode(buf, &in);
		buf[i / 256] = (unsigned char)(i % 256);
		if (rtp_decode(buf, RTP_HDR_LEN, &out)) {
			rejected++;
			continue;
		}
		if (out.type == RTP_REPLY ? (out.credits == 0 || out.credits > RTP_MAX_CREDITS) :
		    (out.len == 0 || out.len > RTP_MAX_IO || out.addr + out.len < out.addr))
			break;
	}
	tap_ok(i == RTP_HDR_LEN * 256, "no corrupted header decodes out of limits (%d rejected)", rejected);
}

int main(void)
{
	test_window();
	test_size_classes();
	test_codec();
	return tap_done();
}
