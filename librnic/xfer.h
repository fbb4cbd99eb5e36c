/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Declaration decoupled from registration (the Open-MX pinning paper): a large transfer
 * is moved in pieces, each registered through the cache only when it is
 * about to move, and, overlapped, the next piece is registered while the
 * current one is on the wire. The caller supplies how to post a piece
 * and how to wait for the oldest posted one; the library decides when
 * each piece is registered and released.
 */
#ifndef RDMASTOR_LIBRNIC_XFER_H
#define RDMASTOR_LIBRNIC_XFER_H

#include <stddef.h>
#include <stdint.h>
#include "regcache.h"

/**
 * struct rnic_xfer_ops - how the caller moves data
 * @post: start moving @len bytes at @addr, registered as @seg; 0 or a
 *	negative errno
 * @wait: wait until the oldest piece posted and not yet waited for has
 *	completed; 0 or a negative errno
 */
struct rnic_xfer_ops {
	int (*post)(void *ctx, uintptr_t addr, size_t len, const struct rnic_cache_seg *seg);
	int (*wait)(void *ctx);
};

/* how rnic_xfer() registers */
enum rnic_xfer_mode {
	RNIC_XFER_UPFRONT,	/* the whole buffer, before the first piece */
	RNIC_XFER_LAZY,		/* each piece just before it moves */
	RNIC_XFER_OVERLAP,	/* the next piece while the current one moves */
};

/* the functions: kernel-doc at their definitions in xfer.c */
int rnic_xfer(struct rnic_cache *c, uintptr_t addr, size_t len, size_t piece,
	      enum rnic_xfer_mode mode, const struct rnic_xfer_ops *ops, void *ctx);

#endif /* RDMASTOR_LIBRNIC_XFER_H */
