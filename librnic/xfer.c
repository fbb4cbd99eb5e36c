// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Lazy and overlapped registration of a large transfer (xfer.h).
 *
 * Rules, checked by tests/unit/test_xfer.c:
 *  X1. Every byte of [addr, addr + len) is posted exactly once, in order.
 *  X2. A piece's registration is held from before its post until after
 *      the wait that covers it, and released then (the cache keeps it
 *      idle, revocable, or drops it).
 *  X3. OVERLAP holds at most two pieces at a time; the registration of
 *      piece i + 1 happens after piece i is posted and before it is
 *      waited for. LAZY holds one. UPFRONT holds the whole buffer.
 *  X4. On an error everything held is released and the error returned;
 *      what was posted is waited for first.
 */
#include <errno.h>

#include "xfer.h"

/* One piece as one segment: the cache may split a range it partly has. */
static int rnic_xfer_get(struct rnic_cache *c, uintptr_t addr, size_t len,
			 struct rnic_cache_seg *seg)
{
	int n = rnic_cache_get(c, addr, len, seg, 1);

	if (n == 1)
		return 0;
	return n < 0 ? n : -E2BIG;
}

static int rnic_xfer_upfront(struct rnic_cache *c, uintptr_t addr, size_t len,
			     size_t piece, const struct rnic_xfer_ops *ops, void *ctx)
{
	struct rnic_cache_seg all;
	size_t off;
	int err;

	err = rnic_xfer_get(c, addr, len, &all);
	if (err)
		return err;
	for (off = 0; off < len && !err; off += piece) {
		size_t n = len - off < piece ? len - off : piece;

		err = ops->post(ctx, addr + off, n, &all);
		if (!err)
			err = ops->wait(ctx);
	}
	rnic_cache_put(c, &all, 1);
	return err;
}

/**
 * rnic_xfer - move a buffer in pieces, registering as @mode says
 * @c: the registration cache
 * @addr: the buffer
 * @len: its bytes
 * @piece: bytes per post (the last one may be shorter)
 * @mode: RNIC_XFER_UPFRONT, RNIC_XFER_LAZY or RNIC_XFER_OVERLAP
 * @ops: how to post a piece and wait for the oldest
 * @ctx: for @ops
 *
 * Return: 0, -EINVAL for a zero @len or @piece, -E2BIG if the cache
 * cannot give a piece as one registration, or the first error of a
 * registration, a post or a wait.
 */
int rnic_xfer(struct rnic_cache *c, uintptr_t addr, size_t len, size_t piece,
	      enum rnic_xfer_mode mode, const struct rnic_xfer_ops *ops, void *ctx)
{
	struct rnic_cache_seg held[2];
	size_t off, next;
	int cur = 0, err = 0, posted = 0;

	if (!len || !piece)
		return -EINVAL;
	if (mode == RNIC_XFER_UPFRONT)
		return rnic_xfer_upfront(c, addr, len, piece, ops, ctx);

	off = 0;
	next = len < piece ? len : piece;
	err = rnic_xfer_get(c, addr, next, &held[cur]);
	if (err)
		return err;
	while (!err) {
		size_t n = next;

		err = ops->post(ctx, addr + off, n, &held[cur]);
		if (err)
			break;
		posted = 1;
		off += n;
		next = len - off < piece ? len - off : piece;
		/* overlapped: the next piece registers while this one moves */
		if (mode == RNIC_XFER_OVERLAP && off < len) {
			err = rnic_xfer_get(c, addr + off, next, &held[!cur]);
			if (err)
				break;
		}
		err = ops->wait(ctx);
		posted = 0;
		rnic_cache_put(c, &held[cur], 1);
		if (mode == RNIC_XFER_OVERLAP && off < len) {
			cur = !cur;
			if (err)
				rnic_cache_put(c, &held[cur], 1);
		} else if (!err && off < len) {
			err = rnic_xfer_get(c, addr + off, next, &held[cur]);
			if (err)
				return err;
		}
		if (err || off >= len)
			return err;
	}
	/* a registration or post failed: wait for what moves, release all */
	if (posted)
		ops->wait(ctx);
	rnic_cache_put(c, &held[cur], 1);
	return err;
}
