/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rnic_mgr's policy: who gets how many of a device's translation entries
 * and MR keys. Plain C with no kernel dependency (see compat.h): it builds
 * into rnic_mgr.ko, the user-space unit tests and the simulator.
 *
 * Model. A pool has a budget per resource (RNP_ENTRIES: pages that MRs
 * can map; RNP_KEYS: MRs). Each consumer has a weight and a guaranteed
 * minimum (enough for one maximum-size I/O). Per resource a consumer has:
 *
 *   held   what it uses now;
 *   grant  what is set aside for it (held <= grant): acquiring within the
 *          grant is the fast path and needs no pool-wide lock;
 *   share  its weighted max-min fair share of the budget given everyone's
 *          recent demand;
 *   target what it was asked to shrink to, or RNP_NO_TARGET.
 *
 * free = budget - sum(grant). Beyond its share a consumer may borrow free
 * entries as long as the reserve stays free (work conserving, yet
 * arrivals rarely wait). When a consumer below its share cannot be
 * served, shares are recomputed and consumers holding more than their
 * share (plus hysteresis) are asked to shrink to it.
 *
 * Locking is the caller's: every function here runs under the pool's
 * lock; functions that take a consumer also need that consumer's lock
 * (the kernel's fast path takes only that one). rnp_rebalance() reads
 * other consumers' held without their locks: a stale value only skews an
 * estimate.
 */

/*
 * Invariants of the policy (tests/unit/test_policy.c asserts them; its
 * random pools after every step):
 *  P1. held <= grant for every consumer and resource, except while a
 *      consumer above a lowered budget still has to release.
 *      Asserted: upool_check() (eval/pool.h).
 *  P2. pool granted == sum of the consumers' grants.
 *      Asserted: upool_check().
 *  P3. pool min_total == sum of the consumers' minimums <= budget.
 *      Asserted: upool_check().
 *  P4. after rnp_rebalance(), sum of shares <= max(budget - reserve,
 *      min_total), and min <= share for every consumer.
 *      Asserted: test_model() and test_groups_model() on random pools.
 *  P5. after rnp_rebalance(), the shares of a group's members sum to no
 *      more than the group's share: a tenant's processes, however many,
 *      divide one share (struct rnp_group).
 *      Asserted: test_groups_model() on 1000 random pools.
 */
#ifndef RDMASTOR_RNIC_POLICY_H
#define RDMASTOR_RNIC_POLICY_H

#include <rdmastor/compat.h>

/**
 * enum rnp_policy - how a pool grants what is not already granted
 * @RNP_POL_ARBITER: weighted max-min fair shares with revocation (the
 *	rules above, Documentation/rnic_mgr.rst)
 * @RNP_POL_FCFS: first come, first served: any free entry goes to
 *	whoever asks first and nobody is ever asked to shrink; what a NIC
 *	does by itself when its table fills
 * @RNP_POL_STATIC: a fixed equal partition: each consumer may hold at
 *	most max(min, budget / consumers) and nobody is asked to shrink;
 *	what a per-process memlock or rdma cgroup limit gives
 * @RNP_NR_POL: how many policies there are
 *
 * FCFS and STATIC exist to be compared against the arbiter (the
 * user-level admission experiment); a device's policy is chosen in sysfs.
 */
enum rnp_policy {
	RNP_POL_ARBITER,
	RNP_POL_FCFS,
	RNP_POL_STATIC,
	RNP_NR_POL,
};

enum rnp_res {
	RNP_ENTRIES,
	RNP_KEYS,
	RNP_NR_RES,
};

#define RNP_NO_TARGET		U64_MAX
#define RNP_MAX_WEIGHT		10000
/* Fixed-point scale of the water level in rnp_rebalance(). */
#define RNP_LEVEL_SHIFT		16
/*
 * Largest budget (and demand) the fair-share arithmetic holds: water
 * levels are amounts shifted left by RNP_LEVEL_SHIFT, and sums run over
 * up to 2^20 consumers, all in 64 bits. 2^40 entries map 4 PiB in 4 KiB
 * pages, far beyond any NIC's translation table.
 */
#define RNP_MAX_BUDGET		(1ULL << 40)

/**
 * struct rnp_params - tunables of a pool
 * @half_life_ms: demand above current use halves every @half_life_ms
 * @hyst_shift: a consumer is asked to shrink only when it holds more than
 *	share + (share >> @hyst_shift); share growth is announced likewise
 * @reserve_shift: the reserve is budget >> @reserve_shift
 * @starve_ms: a waiter older than this is served before fairness order
 */
struct rnp_params {
	u32 half_life_ms;
	u32 hyst_shift;
	u32 reserve_shift;
	u32 starve_ms;
};

/**
 * struct rnp_res_state - one consumer's state for one resource
 * @min: guaranteed amount (one maximum-size I/O)
 * @held: in use
 * @grant: set aside for this consumer, held <= grant
 * @want: still needed by this consumer's queued waiters
 * @demand: decayed estimate of what it would use, >= @min
 * @hungry_until_ms: a request was refused recently: until then (or while
 *	@want is non-zero) the consumer counts as wanting without bound
 * @eff_demand: demand as the last rebalance used it
 * @share: fair share from the last rebalance
 * @announced: share last announced as growth (hysteresis)
 * @target: asked to shrink to this, or RNP_NO_TARGET
 * @peak: largest @held seen
 */
struct rnp_res_state {
	u64 min;
	u64 held;
	u64 grant;
	u64 want;
	u64 demand;
	u64 hungry_until_ms;
	u64 eff_demand;
	u64 share;
	u64 announced;
	u64 target;
	u64 peak;
};

/**
 * struct rnp_group - a tenant: consumers that share one fair share
 * @weight: the tenant's weight against the pool's other top-level
 *	entities (ungrouped consumers and other tenants), 1..RNP_MAX_WEIGHT
 * @members: consumers of the pool in this group
 * @member_weight: sum of the members' weights
 * @share: the group's share of each resource at the last rebalance
 * @slot: rnp_rebalance()'s scratch
 * @count: rnp_rebalance()'s scratch
 * @base: rnp_rebalance()'s scratch
 * @placed: rnp_rebalance()'s scratch
 * @demanding: rnp_entities()'s scratch: its members that demand
 *
 * Shares are hierarchical, as the CPU and I/O controllers' are: the
 * pool's capacity is divided among the top-level entities by weight,
 * with a group standing as one entity whose minimum and demand are its
 * members' sums; a group's share is then divided among its members by
 * their own weights. So N consumers in one group get what one consumer
 * of the group's weight would, however large N is.
 */
struct rnp_group {
	u32 weight;
	u32 members;
	u64 member_weight;
	u64 share[RNP_NR_RES];
	u32 slot;
	u32 count;
	u32 base;
	u32 placed;
	u32 demanding;
};

/**
 * struct rnp_cons - a consumer as the policy sees it
 * @weight: 1..RNP_MAX_WEIGHT (within its group, if it has one)
 * @group: the tenant it belongs to, or NULL for a top-level consumer;
 *	set before rnp_admit(), cleared by rnp_leave()
 * @demand_ms: time of the last demand decay
 * @wait_since_ms: when its oldest queued waiter arrived (valid if any
 *	@r[].want is non-zero)
 * @r: per-resource state
 */
struct rnp_cons {
	u32 weight;
	struct rnp_group *group;
	u64 demand_ms;
	u64 wait_since_ms;
	struct rnp_res_state r[RNP_NR_RES];
};

/**
 * struct rnp_pool_res - a pool's accounting of one resource
 * @budget: total the pool may hand out
 * @granted: sum of the consumers' grants (may exceed @budget right after
 *	the budget was lowered, until revocation completes)
 * @min_total: sum of the consumers' minimums, <= @budget
 * @reserve: free amount borrowing may not consume
 * @owed: what hungry consumers below their share still lack, as of the
 *	last rebalance; borrowing may not consume it either, so entries a
 *	revoked consumer gives back go to those they were taken for
 */
struct rnp_pool_res {
	u64 budget;
	u64 granted;
	u64 min_total;
	u64 reserve;
	u64 owed;
};

/* Scratch for rnp_rebalance(): see rnp_scratch_attach(). */
struct rnp_event {
	u64 key;
	u32 idx;
	u32 kind;
};

/* One entity of a water fill (a consumer, or a group at the top level). */
struct rnp_fill {
	u64 min;
	u64 demand;
	u64 share;
	u32 weight;
};

/**
 * struct rnp_pool - the policy's view of one device
 * @r: per-resource accounting
 * @params: tunables
 * @cons: the consumers; the caller owns the array and keeps @nr right
 * @nr: number of consumers in @cons
 * @policy: enum rnp_policy
 * @scratch: rnp_rebalance()'s scratch, owned by the caller, sized by
 *	rnp_scratch_bytes() and carved by rnp_scratch_attach(); it starts
 *	with the events, so freeing @scratch frees it all
 * @fill: 2 * capacity fill entries inside @scratch
 * @order: capacity indexes inside @scratch
 */
struct rnp_pool {
	struct rnp_pool_res r[RNP_NR_RES];
	struct rnp_params params;
	struct rnp_cons **cons;
	u32 nr;
	u32 policy;
	struct rnp_event *scratch;
	struct rnp_fill *fill;
	u32 *order;
};

/* Notifications a consumer is due, returned by rnp_enforce(). */
#define RNP_NOTIFY_SHRINK	0x1
#define RNP_NOTIFY_GREW		0x2
/* a target it had is gone: it is within its share (plus hysteresis) again */
#define RNP_NOTIFY_CLEARED	0x4

/* What rnp_release() did. */
#define RNP_REL_RETURNED	0x1	/* grant went back to the pool */
#define RNP_REL_SHRUNK		0x2	/* the consumer reached its target */

void rnp_params_default(struct rnp_params *params);
/* most consumers one idle reclaim asks, largest spare first */
#define RNP_RECLAIM_ASK_MAX	8

/**
 * struct rnp_reclaim_plan - whom an idle reclaim asks, gathered in one
 *	pass over the consumers (rnp_reclaim_offer())
 * @n: how many of @who hold a spare
 * @total: the spare of every consumer offered
 * @spare: the largest spares offered, in decreasing order
 * @who: whose they are
 */
struct rnp_reclaim_plan {
	u32 n;
	u64 total;
	u64 spare[RNP_RECLAIM_ASK_MAX];
	void *who[RNP_RECLAIM_ASK_MAX];
};

void rnp_reclaim_offer(struct rnp_reclaim_plan *pl, void *who, u64 spare);
size_t rnp_scratch_bytes(u32 cap);
void rnp_scratch_attach(struct rnp_pool *p, void *mem, u32 cap);
void rnp_set_weight(struct rnp_cons *c, u32 weight);
void rnp_pool_init(struct rnp_pool *p, u64 entries, u64 keys,
		   const struct rnp_params *params);
int rnp_set_budget(struct rnp_pool *p, enum rnp_res r, u64 budget);
u64 rnp_free(const struct rnp_pool *p, enum rnp_res r);
const char *rnp_policy_name(u32 policy);
int rnp_policy_parse(const char *s);
u64 rnp_static_cap(const struct rnp_pool *p, const struct rnp_cons *c,
		   enum rnp_res r);
u64 rnp_newcomer_share(const struct rnp_pool *p, u64 budget, u32 weight);

int rnp_cons_init(struct rnp_cons *c, u32 weight, u64 min_entries,
		  u64 min_keys, u64 now_ms);
int rnp_admit(struct rnp_pool *p, struct rnp_cons *c);
int rnp_set_min(struct rnp_pool *p, struct rnp_cons *c, const u64 *min);
void rnp_leave(struct rnp_pool *p, struct rnp_cons *c);

bool rnp_take_granted(struct rnp_cons *c, const u64 *n);
bool rnp_try_acquire(struct rnp_pool *p, struct rnp_cons *c, const u64 *n);
bool rnp_try_acquire_starving(struct rnp_pool *p, struct rnp_cons *c,
			      const u64 *n, bool starving);
u64 rnp_may_hold(const struct rnp_pool *p, const struct rnp_cons *c,
		 enum rnp_res r);
bool rnp_below_share(const struct rnp_cons *c, const u64 *n);
bool rnp_over_target(const struct rnp_cons *c, const u64 *n);
void rnp_note_demand(struct rnp_pool *p, struct rnp_cons *c, const u64 *n,
		     u64 now_ms);
bool rnp_release_fast(struct rnp_cons *c, const u64 *n);
unsigned int rnp_release(struct rnp_pool *p, struct rnp_cons *c,
			 const u64 *n, bool contended);

void rnp_decay(struct rnp_pool *p, struct rnp_cons *c, u64 now_ms);
void rnp_rebalance(struct rnp_pool *p, u64 now_ms);
bool rnp_hungry(const struct rnp_res_state *s, u64 now_ms);
unsigned int rnp_enforce(struct rnp_pool *p, struct rnp_cons *c);
unsigned int rnp_announce(struct rnp_pool *p, struct rnp_cons *c);
u64 rnp_trim(struct rnp_pool *p, struct rnp_cons *c, bool to_share);
struct rnp_cons *rnp_pick_waiter(const struct rnp_pool *p, u64 now_ms);

#endif /* RDMASTOR_RNIC_POLICY_H */
