/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one user registration is charged, in translation entries: plain
 * C, built into rnic_mgr.ko (wrap.c) and the unit tests
 * (tests/unit/test_user_span.c).
 */
#ifndef RNIC_MGR_USER_SPAN_H
#define RNIC_MGR_USER_SPAN_H

#include <rdmastor/compat.h>

/**
 * rnic_user_span - entries a user registration is charged
 * @start: the registered range's first byte (user address or offset)
 * @length: its length in bytes
 * @odp: the registration asks for on-demand paging
 * @odp_entries: what an implicit ODP registration is charged
 * @page_shift: log2 of the page size
 *
 * A registration maps every page its range touches. An implicit ODP
 * registration (ib_uverbs' convention: start 0, length U64_MAX) covers
 * the whole address space and maps pages as the NIC touches them: its
 * use cannot be known at registration, so it is charged a fixed,
 * documented amount (the user_odp_entries parameter) rather than the 0
 * a span computed over 2^64 bytes came to before (review L4). An
 * explicit ODP registration is charged its span, as any other: what it
 * can map at most.
 *
 * Return: entries; 0 for an empty range or one that wraps (the driver
 * refuses both).
 */
static inline u64 rnic_user_span(u64 start, u64 length, bool odp, u64 odp_entries,
				 unsigned int page_shift)
{
	if (odp && !start && length == U64_MAX)
		return odp_entries;
	if (!length || start + length - 1 < start)
		return 0;
	return ((start + length - 1) >> page_shift) - (start >> page_shift) + 1;
}

#endif /* RNIC_MGR_USER_SPAN_H */
