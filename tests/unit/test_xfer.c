// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of librnic/xfer.c (the Open-MX pinning paper: registration decoupled from
 * declaration, overlapped with the transfer), on a cache of capacity 0
 * over a mock registrar, so that what is registered is exactly what is
 * held. Checked for every mode and many sizes: every byte posted once
 * and in order (X1), a piece registered before its post and released
 * after its wait (X2), at most two pieces held when overlapped and the
 * next one registered between the post and the wait of the current one
 * (X3), and on an injected failure of a registration, a post or a wait,
 * nothing left registered and every post waited for (X4).
 */
#include <errno.h>
#include <string.h>

#include "librnic/xfer.h"
#include "tap.h"

#define PG 4096UL
#define BASE 0x40000000UL

static int live, max_live, regs, posts, waits, fail_reg_at, fail_post_at,
	   fail_wait_at, bad;
static uintptr_t next_off;
/* the order of events: R(egister), P(ost), W(ait) */
static char order[4096];
static int norder;

static void note(char ev)
{
	if (norder < (int)sizeof(order) - 1)
		order[norder++] = ev;
}

static int mreg(void *ctx, uintptr_t a, size_t len, void **h)
{
	(void)ctx;
	(void)len;
	if (++regs == fail_reg_at)
		return -ENOMEM;
	*h = (void *)a;
	if (++live > max_live)
		max_live = live;
	note('R');
	return 0;
}

static void mdereg(void *ctx, void *const *h, size_t n)
{
	(void)ctx;
	(void)h;
	live -= n;
}

static int mpost(void *ctx, uintptr_t addr, size_t len, const struct rnic_cache_seg *seg)
{
	(void)ctx;
	/* X1 in order, X2 registered and covering the piece */
	if (addr != BASE + next_off || addr < seg->addr ||
	    addr + len > seg->addr + seg->len || live < 1)
		bad++;
	if (++posts == fail_post_at)
		return -EIO;
	next_off += len;
	note('P');
	return 0;
}

static int mwait(void *ctx)
{
	(void)ctx;
	note('W');
	return ++waits == fail_wait_at ? -ETIMEDOUT : 0;
}

static const struct rnic_cache_ops rops = { mreg, mdereg };
static const struct rnic_xfer_ops xops = { mpost, mwait };

static int run(enum rnic_xfer_mode mode, size_t len, size_t piece)
{
	struct rnic_cache *c = rnic_cache_create(&rops, NULL, PG, 0);
	int err;

	live = max_live = regs = posts = waits = bad = 0;
	next_off = 0;
	norder = 0;
	memset(order, 0, sizeof(order));
	err = rnic_xfer(c, BASE, len, piece, mode, &xops, NULL);
	rnic_cache_destroy(c);
	return err;
}

static const char *const names[] = { "upfront", "lazy", "overlap" };

int main(void)
{
	static const size_t lens[] = { PG, 3 * PG, 64 * PG, 64 * PG + PG, 1000 * PG };
	int m, i, k;

	for (m = 0; m < 3; m++) {
		int ok = 1, held_ok = 1, order_ok = 1;

		fail_reg_at = fail_post_at = fail_wait_at = 0;
		for (i = 0; i < 5; i++) {
			size_t piece = 16 * PG;
			int pieces = (int)((lens[i] + piece - 1) / piece);

			if (run(m, lens[i], piece) || bad || next_off != lens[i] ||
			    live || posts != pieces || waits != pieces)
				ok = 0;
			if ((m == RNIC_XFER_OVERLAP && max_live > 2) ||
			    (m == RNIC_XFER_LAZY && max_live > 1) ||
			    (m == RNIC_XFER_UPFRONT && regs != 1))
				held_ok = 0;
			/* overlapped: each post but the last is followed by a registration */
			if (m == RNIC_XFER_OVERLAP) {
				char *pw = strstr(order, "PW");

				if (pw && pw != order + norder - 2)
					order_ok = 0;
			}
			if (m == RNIC_XFER_LAZY && strstr(order, "PR"))
				order_ok = 0;
		}
		tap_ok(ok, "%s: every byte posted once, in order, each piece waited, nothing left registered",
		       names[m]);
		tap_ok(held_ok, "%s: holds %s", names[m],
		       m == RNIC_XFER_OVERLAP ? "at most two pieces" :
		       m == RNIC_XFER_LAZY ? "one piece at a time" : "one registration of it all");
		if (m != RNIC_XFER_UPFRONT)
			tap_ok(order_ok, "%s: %s", names[m],
			       m == RNIC_XFER_OVERLAP ?
			       "the next piece registers while the current one moves" :
			       "a piece registers only after the last one's wait");
	}
	run(RNIC_XFER_OVERLAP, 64 * PG, 16 * PG);
	tap_ok(!strcmp(order, "RPRWPRWPRWPW"), "overlap: the sequence of 4 pieces is %s", order);

	/* X4: failures at every step of a 4-piece transfer */
	for (m = RNIC_XFER_LAZY; m <= RNIC_XFER_OVERLAP; m++) {
		int clean = 1;

		for (k = 1; k <= 4; k++) {
			int e1, e2, e3;

			fail_reg_at = k;
			fail_post_at = fail_wait_at = 0;
			e1 = run(m, 64 * PG, 16 * PG);
			clean &= e1 == -ENOMEM && !live && posts == waits;
			fail_reg_at = 0;
			fail_post_at = k;
			e2 = run(m, 64 * PG, 16 * PG);
			clean &= e2 == -EIO && !live && posts - 1 == waits;
			fail_post_at = 0;
			fail_wait_at = k;
			e3 = run(m, 64 * PG, 16 * PG);
			clean &= e3 == -ETIMEDOUT && !live && posts == waits;
			fail_wait_at = 0;
		}
		tap_ok(clean, "%s: %s", names[m],
		       "a failed registration, post or wait at any piece returns its error, leaves nothing registered and every post waited for");
	}
	tap_ok(run(RNIC_XFER_LAZY, 0, PG) == -EINVAL && run(RNIC_XFER_LAZY, PG, 0) == -EINVAL,
	       "zero length or piece: -EINVAL");
	return tap_done();
}
