/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * librnic's answer to rnic_mgr: what the library does with the events of
 * /dev/rnic_mgr and the shared page, on top of its registration cache.
 * Kept apart from the file descriptor so that it is tested on encoded
 * event streams (tests/unit/test_librnic_events.c); the library's I/O
 * loop only reads the device and hands the bytes here.
 *
 *   REVOKE  evict idle cached regions covering the entries asked, in one
 *           batch, at once (the Magoutis paper: cached idle registrations are the
 *           ones to give back first); what is held cannot go now, so the
 *           capacity drops by what was asked and the rest goes as its
 *           holders put it
 *   GROW    the capacity follows the new entitlement
 *   STALE   every region overlapping the range leaves the cache
 *   GRANT   an asynchronous reservation's outcome: the entries granted
 *           counted, a refusal (0 entries) counted apart
 *   RECLAIM evict idle cached regions covering the entries asked, none
 *           in use; the capacity stands (capacity on loan, seed 000's
 *           alternative victim: another tenant's active registration
 *           waits for them)
 *   nothing, but the page says more is free: the capacity grows back
 *           to the entitlement (rnic_lib_refresh()): after a REVOKE the
 *           cache would otherwise stay small after the others left, as
 *           GROW announces only growth of the fair share, not entries
 *           that became free to borrow
 *   a gap in the sequence numbers (the kernel's queue overflowed) or an
 *   unknown type: the shared page is read again and the capacity and
 *   any pending target are taken from it
 */
#ifndef RDMASTOR_LIBRNIC_EVENTS_H
#define RDMASTOR_LIBRNIC_EVENTS_H

#include <stdint.h>
#include <stddef.h>
#include <uapi/rdmastor/rnic_user.h>

#include "regcache.h"

/**
 * struct rnic_lib_stats - what the library did
 * @events: events handled
 * @revokes: REVOKEs
 * @revoke_asked: entries they asked for
 * @revoke_freed: entries freed at once by evicting idle regions
 * @revoke_short: REVOKEs that held regions kept from being met at once
 * @grows: GROWs
 * @grants: GRANTs
 * @granted: entries they granted
 * @grants_refused: GRANTs that granted nothing (the reservation was refused)
 * @stale: STALEs
 * @stale_dropped: regions they dropped
 * @lost: events lost (sequence gaps)
 * @resyncs: times the shared page was read again
 * @regrows: times the capacity grew back to the page's entitlement
 * @unknown: events of types this library does not know
 * @reclaims: RECLAIMs (another tenant waits while this cache keeps idle
 *	registrations)
 * @reclaim_asked: entries they asked for
 * @reclaim_freed: entries freed by evicting idle regions
 * @flushes: times every cached region was dropped because events were
 *	lost (any of them may have been a STALE)
 *
 * Returned by pointer; new counters are added at the end.
 */
struct rnic_lib_stats {
	uint64_t events, revokes, revoke_asked, revoke_freed, revoke_short;
	uint64_t grows, grants, stale, stale_dropped, lost, resyncs, unknown;
	uint64_t regrows, granted, grants_refused;
	uint64_t reclaims, reclaim_asked, reclaim_freed;
	uint64_t flushes;
};

/* one binding's event handling: opaque (events_int.h inside the library) */
struct rnic_lib;

/* the functions: kernel-doc at their definitions in events.c */
struct rnic_lib *rnic_lib_create(struct rnic_cache *cache,
				 const struct rnic_shared *shared);

void rnic_lib_destroy(struct rnic_lib *l);

int rnic_lib_events(struct rnic_lib *l, const void *buf, size_t len);

int rnic_lib_refresh(struct rnic_lib *l);

const struct rnic_lib_stats *rnic_lib_get_stats(const struct rnic_lib *l);

int rnic_shared_read(const struct rnic_shared *sh, struct rnic_shared *out);

#endif /* RDMASTOR_LIBRNIC_EVENTS_H */
