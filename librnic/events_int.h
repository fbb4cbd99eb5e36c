/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Inside librnic: the layout of struct rnic_lib, which programs see only
 * as a handle (events.h), so that the library can grow it without
 * breaking them. Not installed.
 */
#ifndef RDMASTOR_LIBRNIC_EVENTS_INT_H
#define RDMASTOR_LIBRNIC_EVENTS_INT_H

#include "events.h"

/**
 * struct rnic_lib - one binding: a cache and where it stands
 * @cache: the registration cache, sized by the entitlement
 * @shared: the mapped page, or NULL (tests without one)
 * @expect_seq: the next event's sequence number
 * @page_seq: the shared page's seq when rnic_lib_refresh() last read it
 * @stats: counters
 */
struct rnic_lib {
	struct rnic_cache *cache;
	const struct rnic_shared *shared;
	uint32_t expect_seq;
	uint64_t page_seq;
	struct rnic_lib_stats stats;
};

void rnic_lib_init(struct rnic_lib *l, struct rnic_cache *cache,
		   const struct rnic_shared *shared);
void rnic_lib_drained(struct rnic_lib *l, uint64_t posted);

#endif /* RDMASTOR_LIBRNIC_EVENTS_INT_H */
