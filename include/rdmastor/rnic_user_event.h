/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The events of /dev/rnic_mgr (include/uapi/rdmastor/rnic_user.h) as
 * plain values, with the encoder the kernel uses to queue them and the
 * decoder librnic reads them with. Pure C (common/rnic_user_event.c): it
 * builds into the module, the library, the unit tests and the fuzzer.
 *
 * The decoder trusts nothing about the buffer: a short read, a length
 * that is not a multiple of 8, a body shorter than its type needs, a
 * victim count the length does not hold, non-zero padding or a range
 * that wraps is refused, never read past.
 */
#ifndef RDMASTOR_RNIC_USER_EVENT_H
#define RDMASTOR_RNIC_USER_EVENT_H

#include <rdmastor/compat.h>
#include <uapi/rdmastor/rnic_user.h>

/**
 * struct rnic_ev - one event, decoded
 * @type: RNIC_EV_*; another value is a type this code does not know
 *	(a newer kernel): skip it
 * @seq: the file's event number
 * @time_ns: when posted
 * @revoke: RNIC_EV_REVOKE's body
 * @grow: RNIC_EV_GROW's
 * @grant: RNIC_EV_GRANT's
 * @stale: RNIC_EV_STALE's
 * @reclaim: RNIC_EV_RECLAIM's
 */
struct rnic_ev {
	u16 type;
	u32 seq;
	u64 time_ns;
	union {
		struct {
			u64 entries;
			u64 deadline_ns;
			u32 keys;
			u32 nvictims;
			u32 victims[RNIC_REVOKE_MAX_VICTIMS];
		} revoke;
		struct {
			u64 entitlement;
			u32 key_entitlement;
		} grow;
		struct {
			u64 ticket;
			u64 entries;
		} grant;
		struct {
			u64 addr;
			u64 len;
			u32 lkey;
		} stale;
		struct {
			u64 entries;
		} reclaim;
	};
};

/* rnic_ev_size(): see common/rnic_user_event.c */
size_t rnic_ev_size(const struct rnic_ev *ev);

/* rnic_ev_encode(): see common/rnic_user_event.c */
int rnic_ev_encode(void *buf, size_t room, const struct rnic_ev *ev);

/* rnic_ev_decode(): see common/rnic_user_event.c */
int rnic_ev_decode(const void *buf, size_t len, struct rnic_ev *ev);

/* rnic_ev_seq_next(): see common/rnic_user_event.c */
s64 rnic_ev_seq_next(u32 *expect, u32 seq);

#endif /* RDMASTOR_RNIC_USER_EVENT_H */
