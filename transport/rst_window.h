/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transport engine's window arithmetic, plain C (see compat.h) so
 * that user-space tests check it.
 *
 * An I/O needs one receive buffer for its reply, one peer credit and
 * one MR. rnic_mgr charges an MR its capacity until it is freed. With
 * one size class, every MR has the capacity of the largest I/O and the
 * MRs a share covers are entries / mr_pages whatever the I/O size; with
 * two, the window counts small MRs and a large one also needs room in
 * the entries (rst_mr_room_calc()).
 */
#ifndef RDMASTOR_RST_WINDOW_H
#define RDMASTOR_RST_WINDOW_H

#include <rdmastor/compat.h>

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

/**
 * rst_mr_room_calc - may a connection allocate one more MR?
 * @total: MRs it has (lent out or idle)
 * @limit: MRs the share covers, counted in the smallest size class
 * @entries: entries those MRs are charged
 * @ent_limit: entries the share covers
 * @pages: entries the new MR would be charged
 *
 * The first MR is always allowed, whatever its size: rnic_mgr guarantees
 * every consumer one maximum-size I/O.
 */
static inline bool rst_mr_room_calc(u32 total, u32 limit, u32 entries,
				    u32 ent_limit, u32 pages)
{
	return total < limit && (!total || (u64)entries + pages <= ent_limit);
}

/**
 * rst_mr_over_calc - does a connection hold more than its share?
 * @total: MRs it has
 * @limit: see rst_mr_room_calc()
 * @entries: see rst_mr_room_calc()
 * @ent_limit: see rst_mr_room_calc()
 *
 * Return: true if an MR put back should be freed, not kept idle.
 */
static inline bool rst_mr_over_calc(u32 total, u32 limit, u32 entries,
				    u32 ent_limit)
{
	return total > limit || (total > 1 && entries > ent_limit);
}

/**
 * rst_mr_small_calc - does an I/O of @pages fit the small size class?
 * @small: pages of a small MR, 0 when there is one class only
 * @pages: pages the I/O maps
 */
static inline bool rst_mr_small_calc(u32 small, u32 pages)
{
	return small && pages <= small;
}

#endif /* RDMASTOR_RST_WINDOW_H */
