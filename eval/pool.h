/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for rnic_mgr's glue around the policy: a pool with
 * its consumer array and scratch, and the same acquire procedure the
 * kernel follows (rnic_mgr/arbiter.c), minus locks and sleeping. Shared
 * by the unit tests, the simulator and the benchmarks.
 */
#ifndef RDMASTOR_TEST_POOL_H
#define RDMASTOR_TEST_POOL_H

#include <assert.h>
#include <string.h>
#include "rnic_mgr/rnic_policy.h"

struct upool {
	struct rnp_pool p;
	unsigned int cap;
	unsigned int shrink_requests;
};

static inline void upool_init(struct upool *u, u64 entries, u64 keys,
			      unsigned int cap)
{
	struct rnp_params params;

	rnp_params_default(&params);
	rnp_pool_init(&u->p, entries, keys, &params);
	u->cap = cap;
	u->p.cons = calloc(cap, sizeof(*u->p.cons));
	rnp_scratch_attach(&u->p, calloc(1, rnp_scratch_bytes(cap)), cap);
	u->shrink_requests = 0;
	assert(u->p.cons && u->p.scratch);
}

static inline void upool_free(struct upool *u)
{
	free(u->p.cons);
	free(u->p.scratch);
}

static inline int upool_add(struct upool *u, struct rnp_cons *c, u32 weight,
			    u64 min_entries, u64 min_keys, u64 now)
{
	int err = rnp_cons_init(c, weight, min_entries, min_keys, now);

	if (err)
		return err;
	if (u->p.nr >= u->cap)
		return -ENOMEM;
	err = rnp_admit(&u->p, c);
	if (err)
		return err;
	u->p.cons[u->p.nr++] = c;
	return 0;
}

static inline void upool_del(struct upool *u, struct rnp_cons *c)
{
	unsigned int i;

	rnp_leave(&u->p, c);
	for (i = 0; i < u->p.nr; i++) {
		if (u->p.cons[i] == c) {
			u->p.cons[i] = u->p.cons[--u->p.nr];
			return;
		}
	}
}

/* Contention: ask every consumer over its share to shrink. */
static inline unsigned int upool_enforce_all(struct upool *u)
{
	unsigned int i, n = 0;

	for (i = 0; i < u->p.nr; i++)
		if (rnp_enforce(&u->p, u->p.cons[i]) & RNP_NOTIFY_SHRINK)
			n++;
	u->shrink_requests += n;
	return n;
}

enum { UP_GRANTED, UP_REVOKING, UP_DENIED };

/*
 * One acquire attempt, as the kernel makes it: fast path, slow path,
 * then, for a consumer owed the entries, rebalance and revocation.
 */
static inline int upool_acquire(struct upool *u, struct rnp_cons *c,
				u64 entries, u64 keys, u64 now)
{
	u64 n[RNP_NR_RES] = { entries, keys };

	if (rnp_take_granted(c, n) || rnp_try_acquire(&u->p, c, n))
		return UP_GRANTED;
	rnp_note_demand(&u->p, c, n, now);
	rnp_rebalance(&u->p, now);
	if (!rnp_below_share(c, n))
		return rnp_try_acquire(&u->p, c, n) ? UP_GRANTED : UP_DENIED;
	upool_enforce_all(u);
	return rnp_try_acquire(&u->p, c, n) ? UP_GRANTED : UP_REVOKING;
}

static inline unsigned int upool_release(struct upool *u, struct rnp_cons *c,
					 u64 entries, u64 keys, bool contended)
{
	u64 n[RNP_NR_RES] = { entries, keys };

	return rnp_release(&u->p, c, n, contended);
}

/* Invariants P1-P3 (rnic_policy.h); returns a description of the first broken. */
static inline const char *upool_check(const struct upool *u)
{
	u64 granted[RNP_NR_RES] = { 0 }, mins[RNP_NR_RES] = { 0 };
	unsigned int i;
	int r;

	for (i = 0; i < u->p.nr; i++) {
		for (r = 0; r < RNP_NR_RES; r++) {
			const struct rnp_res_state *s = &u->p.cons[i]->r[r];

			granted[r] += s->grant;
			mins[r] += s->min;
			if (s->held > s->grant)
				return "held > grant";
		}
	}
	for (r = 0; r < RNP_NR_RES; r++) {
		if (granted[r] != u->p.r[r].granted)
			return "pool granted != sum of grants";
		if (mins[r] != u->p.r[r].min_total)
			return "pool min_total != sum of minimums";
		if (u->p.r[r].min_total > u->p.r[r].budget)
			return "minimums exceed budget";
	}
	return NULL;
}

#endif
