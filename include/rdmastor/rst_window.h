/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transport engine's window arithmetic, plain C (see compat.h) so
 * that user-space tests check it.
 *
 * An I/O needs one receive buffer for its reply, one peer credit and
 * one MR. Every MR is allocated with the capacity of the largest I/O
 * and rnic_mgr charges that capacity until the MR is freed, so the MRs
 * a share covers are entries / mr_pages whatever the current I/O size.
 */
#ifndef RDMASTOR_RST_WINDOW_H
#define RDMASTOR_RST_WINDOW_H

#include "compat.h"

/**
 * rst_mr_limit_calc - MRs a share covers
 * @entries: entries the consumer may hold (rnic_entitlement())
 * @keys: keys it may hold
 * @mr_pages: entries charged per MR
 * @cap: never more than this (the most I/Os that can be outstanding)
 *
 * Return: at least 1: the guaranteed minimum is one maximum-size I/O.
 */
static inline u32 rst_mr_limit_calc(u64 entries, u64 keys, u32 mr_pages, u32 cap)
{
	u64 n = mr_pages ? div64_u64(entries, mr_pages) : cap;

	n = min(n, keys);
	n = min_t(u64, n, cap);
	return n ? (u32)n : 1;
}

/**
 * rst_window_calc - how many I/Os may be outstanding
 * @peer_credits: receive buffers the peer granted us
 * @ring: our receive ring (each outstanding I/O has its reply land there)
 * @mr_limit: MRs the share covers (rst_mr_limit_calc()), or 0 for a side
 *	that registers no memory
 *
 * Return: the window, 0 only when the peer granted no credit.
 */
static inline u32 rst_window_calc(u32 peer_credits, u32 ring, u32 mr_limit)
{
	u32 w = min(peer_credits, ring);

	if (mr_limit)
		w = min(w, mr_limit);
	return w;
}

#endif /* RDMASTOR_RST_WINDOW_H */
