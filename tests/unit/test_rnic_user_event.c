// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the /dev/rnic_mgr event codec (common/rnic_user_event.c):
 * every type round-trips; several events in one buffer decode in turn at
 * any alignment; a short buffer is -EAGAIN at every cut; malformed
 * lengths, victim counts, padding and ranges are -EPROTO; unknown types
 * are skipped whole; sequence gaps and repeats are seen.
 */
#include <rdmastor/rnic_user_event.h>
#include "tap.h"

static struct rnic_ev revoke(u32 nv)
{
	struct rnic_ev ev = { .type = RNIC_EV_REVOKE, .seq = 7, .time_ns = 123456789 };
	u32 i;

	ev.revoke.entries = 4096;
	ev.revoke.deadline_ns = 987654321;
	ev.revoke.keys = 3;
	ev.revoke.nvictims = nv;
	for (i = 0; i < nv; i++)
		ev.revoke.victims[i] = 0x1000 + i;
	return ev;
}

static int same(const struct rnic_ev *a, const struct rnic_ev *b)
{
	return !memcmp(a, b, sizeof(*a));
}

int main(void)
{
	u8 buf[4096], raw[4096];
	struct rnic_ev ev, out, evs[6];
	int n, m, i, bad, total;
	u32 expect;
	s64 lost;

	memset(evs, 0, sizeof(evs));
	evs[0] = revoke(0);
	evs[1] = revoke(3);
	evs[2] = (struct rnic_ev){ .type = RNIC_EV_GROW, .seq = 8, .grow = { 1 << 20, 512 } };
	evs[3] = (struct rnic_ev){ .type = RNIC_EV_GRANT, .seq = 9, .grant = { 42, 777 } };
	evs[4] = (struct rnic_ev){ .type = RNIC_EV_STALE, .seq = 10,
				   .stale = { 0x7f0000001000ull, 8192, 0xabcd } };
	evs[5] = (struct rnic_ev){ .type = RNIC_EV_RECLAIM, .seq = 11, .reclaim = { 1234 } };
	for (i = 0; i < 6; i++) {
		n = rnic_ev_encode(buf, sizeof(buf), &evs[i]);
		m = rnic_ev_decode(buf, sizeof(buf), &out);
		tap_ok(n > 0 && n % 8 == 0 && m == n && same(&out, &evs[i]),
		       "type %u (%d victims): encodes to %d bytes, decodes back", evs[i].type,
		       evs[i].type == RNIC_EV_REVOKE ? evs[i].revoke.nvictims : 0, n);
	}
	ev = revoke(RNIC_REVOKE_MAX_VICTIMS);
	n = rnic_ev_encode(buf, sizeof(buf), &ev);
	tap_ok(n == 40 + 4 * RNIC_REVOKE_MAX_VICTIMS && rnic_ev_decode(buf, n, &out) == n &&
	       same(&out, &ev), "a REVOKE with the most victims round-trips (%d bytes)", n);
	ev.revoke.nvictims = RNIC_REVOKE_MAX_VICTIMS + 1;
	tap_ok(rnic_ev_encode(buf, sizeof(buf), &ev) == -EINVAL, "one victim too many is not encoded");
	ev = revoke(1);
	tap_ok(rnic_ev_encode(buf, 40, &ev) == -ENOSPC, "no room: -ENOSPC");
	ev = (struct rnic_ev){ .type = 99 };
	tap_ok(rnic_ev_encode(buf, sizeof(buf), &ev) == -EINVAL, "an unknown type is not encoded");

	/* a stream of all six, at every alignment */
	bad = 0;
	for (int off = 0; off < 8; off++) {
		total = 0;
		for (i = 0; i < 6; i++)
			total += rnic_ev_encode(raw + off + total, sizeof(raw) - off - total, &evs[i]);
		for (i = 0, n = 0; i < 6; i++) {
			m = rnic_ev_decode(raw + off + n, total - n, &out);
			if (m <= 0 || !same(&out, &evs[i]))
				bad++;
			n += m > 0 ? m : 0;
		}
		if (n != total)
			bad++;
	}
	tap_ok(!bad, "six events in one buffer decode in turn at any of 8 alignments");

	/* every cut of an event is -EAGAIN */
	ev = revoke(5);
	n = rnic_ev_encode(buf, sizeof(buf), &ev);
	for (i = 0, bad = 0; i < n; i++)
		if (rnic_ev_decode(buf, i, &out) != -EAGAIN)
			bad++;
	tap_ok(!bad, "a REVOKE cut at any of its %d bytes is -EAGAIN", n);

	/* malformed */
#define LEN16(b) (*(u16 *)((b) + 2))
	n = rnic_ev_encode(buf, sizeof(buf), &evs[2]);
	LEN16(buf) = 12;
	tap_ok(rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO, "a length not a multiple of 8");
	LEN16(buf) = 8;
	tap_ok(rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO, "a length shorter than the header");
	LEN16(buf) = n - 8;
	tap_ok(rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO, "a GROW shorter than its body");
	LEN16(buf) = n + 8;
	tap_ok(rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO, "a GROW longer than its body");
	n = rnic_ev_encode(buf, sizeof(buf), &evs[2]);
	buf[n - 1] = 1;
	tap_ok(rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO, "GROW's padding not zero");
	ev = revoke(3);
	n = rnic_ev_encode(buf, sizeof(buf), &ev);
	buf[n - 1] = 1;
	tap_ok(rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO, "REVOKE's victim padding not zero");
	n = rnic_ev_encode(buf, sizeof(buf), &ev);
	*(u32 *)(buf + 36) = 5;	/* 3 victims padded to 4 fit; 5 do not */
	tap_ok(rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO,
	       "a victim count the length does not hold");
	*(u32 *)(buf + 36) = 0xffffffff;
	tap_ok(rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO, "a huge victim count");
	n = rnic_ev_encode(buf, sizeof(buf), &evs[4]);
	*(u64 *)(buf + 16) = ~0ull - 100;
	tap_ok(rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO, "a STALE range that wraps");
	n = rnic_ev_encode(buf, sizeof(buf), &evs[4]);
	*(u64 *)(buf + 24) = 0;
	tap_ok(rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO, "a STALE range of 0 bytes");
	n = rnic_ev_encode(buf, sizeof(buf), &evs[5]);
	LEN16(buf) = n + 8;
	tap_ok(n == 24 && rnic_ev_decode(buf, sizeof(buf), &out) == -EPROTO,
	       "a RECLAIM longer than its body (%d bytes)", n);

	/* an unknown type is skipped whole, then the next one decodes */
	memset(buf, 0, 64);
	*(u16 *)buf = 77;
	LEN16(buf) = 24;
	n = rnic_ev_encode(buf + 24, sizeof(buf) - 24, &evs[3]);
	m = rnic_ev_decode(buf, 24 + n, &out);
	tap_ok(m == 24 && out.type == 77, "an unknown type is reported and skipped whole (%d)", m);
	m = rnic_ev_decode(buf + 24, n, &out);
	tap_ok(m == n && same(&out, &evs[3]), "and the event after it decodes");

	/* sequence numbers */
	expect = 1;
	lost = rnic_ev_seq_next(&expect, 1);
	tap_ok(lost == 0 && expect == 2, "seq 1 first: nothing lost");
	lost = rnic_ev_seq_next(&expect, 5);
	tap_ok(lost == 3 && expect == 6, "seq 5 after 1: three lost");
	tap_ok(rnic_ev_seq_next(&expect, 5) == -EPROTO, "a repeated seq is refused");
	tap_ok(rnic_ev_seq_next(&expect, 2) == -EPROTO, "a seq that goes back is refused");
	expect = 0xffffffff;
	tap_ok(rnic_ev_seq_next(&expect, 0xffffffff) == 0 && rnic_ev_seq_next(&expect, 0) == 0 &&
	       expect == 1, "seq wraps around 2^32");
	return tap_done();
}
