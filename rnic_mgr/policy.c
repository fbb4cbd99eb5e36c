// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_mgr policy: fair shares, borrowing, revocation targets, reserve,
 * demand with decay, hysteresis. See rnic_mgr/rnic_policy.h for
 * the model and the locking rules.
 *
 * Invariants P1-P5: rnic_policy.h.
 */
#include "rnic_policy.h"

/**
 * rnp_params_default - defaults for a pool's tunables
 * @params: filled in
 */
void rnp_params_default(struct rnp_params *params)
{
	params->half_life_ms = 1000;
	params->hyst_shift = 4;		/* 6.25% */
	params->reserve_shift = 5;	/* 3.1% of the budget */
	params->starve_ms = 2000;
}

/**
 * rnp_scratch_bytes - size of rnp_rebalance()'s scratch for a capacity
 * @cap: most consumers the pool will hold
 *
 * Return: bytes for rnp_scratch_attach().
 */
size_t rnp_scratch_bytes(u32 cap)
{
	return 2 * (size_t)cap * sizeof(struct rnp_event) +
	       2 * (size_t)cap * sizeof(struct rnp_fill) +
	       (size_t)cap * sizeof(u32);
}

/**
 * rnp_scratch_attach - give a pool its rebalance scratch
 * @p: the pool
 * @mem: rnp_scratch_bytes(@cap) bytes, suitably aligned for u64
 * @cap: most consumers the pool will hold
 *
 * Two events and two fill entries per consumer (a group's entry at the
 * top level and its members' below it never exceed two per consumer),
 * and one index per consumer.
 */
void rnp_scratch_attach(struct rnp_pool *p, void *mem, u32 cap)
{
	p->scratch = mem;
	p->fill = (struct rnp_fill *)(p->scratch + 2 * (size_t)cap);
	p->order = (u32 *)(p->fill + 2 * (size_t)cap);
}

static u64 rnp_reserve_for(const struct rnp_pool *p, u64 budget)
{
	return budget >> p->params.reserve_shift;
}

/**
 * rnp_pool_init - set up an empty pool
 * @p: the pool; its consumer array and scratch are the caller's to attach
 * @entries: budget of translation entries
 * @keys: budget of MR keys
 * @params: tunables, copied
 */
void rnp_pool_init(struct rnp_pool *p, u64 entries, u64 keys,
		   const struct rnp_params *params)
{
	int r;

	p->params = *params;
	p->r[RNP_ENTRIES].budget = entries;
	p->r[RNP_KEYS].budget = keys;
	for (r = 0; r < RNP_NR_RES; r++) {
		p->r[r].granted = 0;
		p->r[r].min_total = 0;
		p->r[r].owed = 0;
		p->r[r].reserve = rnp_reserve_for(p, p->r[r].budget);
	}
	p->nr = 0;
	p->policy = RNP_POL_ARBITER;
}

static const char * const rnp_policy_names[RNP_NR_POL] = {
	[RNP_POL_ARBITER] = "arbiter",
	[RNP_POL_FCFS] = "fcfs",
	[RNP_POL_STATIC] = "static",
};

/**
 * rnp_policy_name - the name of a policy, as sysfs shows it
 * @policy: enum rnp_policy
 *
 * Return: "arbiter", "fcfs", "static", or "?" for anything else.
 */
const char *rnp_policy_name(u32 policy)
{
	return policy < RNP_NR_POL ? rnp_policy_names[policy] : "?";
}

/**
 * rnp_policy_parse - a policy from its name
 * @s: the name, optionally followed by one newline (a sysfs write)
 *
 * Return: the enum rnp_policy value, or -EINVAL.
 */
int rnp_policy_parse(const char *s)
{
	int i;

	for (i = 0; i < RNP_NR_POL; i++) {
		size_t n = strlen(rnp_policy_names[i]);

		if (!strncmp(s, rnp_policy_names[i], n) &&
		    (s[n] == '\0' || (s[n] == '\n' && s[n + 1] == '\0')))
			return i;
	}
	return -EINVAL;
}

/*
 * A consumer counts toward a divided share while it holds or waits, or
 * always if it was promised a minimum (a mount, a session: each cost
 * its maker more than a process does). A user process has no minimum:
 * bound and idle, it divides no one's share.
 */
static bool rnp_demands(const struct rnp_cons *c, enum rnp_res r,
			const struct rnp_cons *self)
{
	return c == self || c->r[r].held || c->r[r].want || c->r[r].min;
}

/*
 * The top-level entities in the pool, in 16-bit fixed point: an
 * ungrouped consumer counts once, and a tenant once however many of its
 * members count (each adds its part of one). Only those that demand @r
 * now when @demanding (@self, or NULL, counts as demanding: it is
 * asking). Each at its weight, or at 1 when !@weighted. A group's
 * @demanding is left counting its members that were counted.
 */
static u64 rnp_entities(const struct rnp_pool *p, enum rnp_res r,
			const struct rnp_cons *self, bool demanding, bool weighted)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < p->nr; i++)
		if (p->cons[i]->group)
			p->cons[i]->group->demanding = 0;
	for (i = 0; i < p->nr; i++)
		if (p->cons[i]->group && (!demanding || rnp_demands(p->cons[i], r, self)))
			p->cons[i]->group->demanding++;
	for (i = 0; i < p->nr; i++) {
		const struct rnp_cons *c = p->cons[i];
		u64 w;

		if (demanding && !rnp_demands(c, r, self))
			continue;
		w = weighted ? (c->group ? c->group->weight : c->weight) : 1;
		sum += c->group ? div64_u64(w << 16, c->group->demanding) : w << 16;
	}
	return sum;
}

/**
 * rnp_static_cap - the most a consumer may hold under RNP_POL_STATIC
 * @p: the pool
 * @c: the consumer, in the pool
 * @r: which resource
 *
 * An equal split of the budget among the top-level entities present
 * now, idle ones included (static never takes entries back, so a part
 * is kept for each); a tenant's part is split equally among its
 * members. So a tenant's processes never shrink anyone else's cap.
 * Never below the consumer's guaranteed minimum. O(consumers).
 *
 * Return: the cap.
 */
u64 rnp_static_cap(const struct rnp_pool *p, const struct rnp_cons *c,
		   enum rnp_res r)
{
	u64 n = rnp_entities(p, r, c, false, false);
	u64 part = c->group && c->group->demanding ?
		   div64_u64(1 << 16, c->group->demanding) : 1 << 16;
	u64 split = n ? mul_u64_u64_div_u64(p->r[r].budget, part, n) : p->r[r].budget;

	return max(split, c->r[r].min);
}

/**
 * rnp_newcomer_share - the share a newcomer would be given now
 * @p: the pool
 * @budget: what is divided (the administrator's budget of a resource)
 * @weight: the newcomer's weight, 1..RNP_MAX_WEIGHT, at the top level
 *
 * What a top-level consumer of @weight joining the pool now would get
 * of @budget once everyone asks for more than their share: @budget
 * times @weight over the weights of the top-level entities that hold
 * or wait for entries or were promised a minimum, its own added. A
 * tenant counts once, at its weight, whatever its members; an idle
 * tenant (processes that only bound, say) not at all. For a kernel ULP that cannot shrink on
 * request, this is the cap it is given from its share (kulp/cap.c).
 *
 * Return: the share, at most @budget.
 */
u64 rnp_newcomer_share(const struct rnp_pool *p, u64 budget, u32 weight)
{
	u64 sum = ((u64)weight << 16) + rnp_entities(p, RNP_ENTRIES, NULL, true, true);

	return mul_u64_u64_div_u64(budget, (u64)weight << 16, sum);
}

/**
 * rnp_set_budget - change a resource's budget
 * @p: the pool
 * @r: which resource
 * @budget: the new budget
 *
 * Lowering the budget below what is granted is allowed: the caller then
 * rebalances and enforces, and consumers shrink. Lowering it below the
 * sum of the guaranteed minimums is not.
 *
 * Return: 0, or -EINVAL if @budget < the sum of the minimums or above
 * RNP_MAX_BUDGET.
 */
int rnp_set_budget(struct rnp_pool *p, enum rnp_res r, u64 budget)
{
	if (budget < p->r[r].min_total || budget > RNP_MAX_BUDGET)
		return -EINVAL;
	p->r[r].budget = budget;
	p->r[r].reserve = rnp_reserve_for(p, budget);
	return 0;
}

/**
 * rnp_free - what is neither granted nor owed
 * @p: the pool
 * @r: which resource
 *
 * Return: budget - granted, or 0 while granted exceeds the budget.
 */
u64 rnp_free(const struct rnp_pool *p, enum rnp_res r)
{
	const struct rnp_pool_res *pr = &p->r[r];

	return pr->budget > pr->granted ? pr->budget - pr->granted : 0;
}

/**
 * rnp_cons_init - set up a consumer before rnp_admit()
 * @c: the consumer
 * @weight: 1..RNP_MAX_WEIGHT
 * @min_entries: entries of one maximum-size I/O, guaranteed
 * @min_keys: keys of one maximum-size I/O, guaranteed
 * @now_ms: current time
 *
 * Return: 0 or -EINVAL for a weight out of range.
 */
int rnp_cons_init(struct rnp_cons *c, u32 weight, u64 min_entries,
		  u64 min_keys, u64 now_ms)
{
	int r;

	if (weight < 1 || weight > RNP_MAX_WEIGHT)
		return -EINVAL;
	c->weight = weight;
	c->group = NULL;
	c->demand_ms = now_ms;
	c->wait_since_ms = 0;
	c->r[RNP_ENTRIES].min = min_entries;
	c->r[RNP_KEYS].min = min_keys;
	for (r = 0; r < RNP_NR_RES; r++) {
		struct rnp_res_state *s = &c->r[r];

		s->held = 0;
		s->grant = 0;
		s->want = 0;
		s->demand = s->min;
		s->hungry_until_ms = 0;
		s->share = s->min;
		s->announced = s->min;
		s->target = RNP_NO_TARGET;
		s->peak = 0;
	}
	return 0;
}

/**
 * rnp_admit - account a new consumer's guaranteed minimum
 * @p: the pool
 * @c: consumer set up by rnp_cons_init(); the caller adds it to p->cons
 *
 * Return: 0, or -ENOSPC if the budget cannot guarantee its minimum.
 */
int rnp_admit(struct rnp_pool *p, struct rnp_cons *c)
{
	int r;

	for (r = 0; r < RNP_NR_RES; r++)
		if (p->r[r].min_total + c->r[r].min > p->r[r].budget)
			return -ENOSPC;
	for (r = 0; r < RNP_NR_RES; r++)
		p->r[r].min_total += c->r[r].min;
	if (c->group) {
		c->group->members++;
		c->group->member_weight += c->weight;
	}
	return 0;
}

/**
 * rnp_set_min - give an admitted consumer its guaranteed minimum later
 * @p: the pool
 * @c: the consumer, in the pool
 * @min: the new minimum of each resource
 *
 * For a consumer admitted before it could be trusted with a minimum (a
 * remote peer's connection, until its first call): the pool guarantees
 * @min from now on if its budget allows. The caller rebalances.
 *
 * Return: 0, or -ENOSPC with nothing changed.
 */
int rnp_set_min(struct rnp_pool *p, struct rnp_cons *c, const u64 *min)
{
	int r;

	for (r = 0; r < RNP_NR_RES; r++)
		if (p->r[r].min_total - c->r[r].min + min[r] > p->r[r].budget)
			return -ENOSPC;
	for (r = 0; r < RNP_NR_RES; r++) {
		struct rnp_res_state *s = &c->r[r];

		p->r[r].min_total = p->r[r].min_total - s->min + min[r];
		s->min = min[r];
		s->demand = max(s->demand, s->min);
	}
	return 0;
}

/**
 * rnp_set_weight - change a consumer's weight
 * @c: the consumer, admitted or not
 * @weight: 1..RNP_MAX_WEIGHT, checked by the caller
 *
 * Keeps its group's sum of member weights right; the caller rebalances.
 */
void rnp_set_weight(struct rnp_cons *c, u32 weight)
{
	if (c->group)
		c->group->member_weight += (u64)weight - c->weight;
	c->weight = weight;
}

/**
 * rnp_leave - give back everything a departing consumer had
 * @p: the pool
 * @c: the consumer; the caller removes it from p->cons
 *
 * Whatever it still held is returned too: on device removal consumers
 * are torn down without releasing one by one.
 */
void rnp_leave(struct rnp_pool *p, struct rnp_cons *c)
{
	int r;

	for (r = 0; r < RNP_NR_RES; r++) {
		struct rnp_res_state *s = &c->r[r];

		p->r[r].granted -= s->grant;
		p->r[r].min_total -= s->min;
		s->grant = 0;
		s->held = 0;
		s->want = 0;
	}
	if (c->group) {
		c->group->members--;
		c->group->member_weight -= c->weight;
		c->group = NULL;
	}
}

static void rnp_take(struct rnp_cons *c, const u64 *n)
{
	int r;

	for (r = 0; r < RNP_NR_RES; r++) {
		struct rnp_res_state *s = &c->r[r];

		s->held += n[r];
		if (s->held > s->peak)
			s->peak = s->held;
	}
}

/**
 * rnp_take_granted - the fast path: take from the consumer's own grant
 * @c: the consumer (its lock held; the pool's lock is not needed)
 * @n: amount per resource
 *
 * Return: true if @n fit in the grant and is now held.
 */
bool rnp_take_granted(struct rnp_cons *c, const u64 *n)
{
	int r;

	for (r = 0; r < RNP_NR_RES; r++)
		if (c->r[r].held + n[r] > c->r[r].grant)
			return false;
	rnp_take(c, n);
	return true;
}

static u64 rnp_entitled(const struct rnp_res_state *s)
{
	return max(s->share, s->min);
}

/**
 * rnp_try_acquire_starving - rnp_try_acquire(), for a starving waiter too
 * @p: the pool
 * @c: the consumer
 * @n: amount per resource
 * @starving: @c has waited longer than starve_ms: it may borrow what
 *	others are owed (not the reserve)
 *
 * Up to its share a consumer may use the whole free pool; beyond it
 * (borrowing) it may not eat into the reserve, nor into what other
 * hungry consumers below their share are owed (its own part of that is
 * its own). A consumer that was asked to shrink may not grow past its
 * target until it has shrunk. Under RNP_POL_FCFS any free entry may be
 * taken; under RNP_POL_STATIC too, up to rnp_static_cap().
 *
 * Why @starving: waiters that each ask for more than their share (a
 * process registering one large buffer) are all owed their shares, and
 * what each is owed would block every other's borrowing for ever; the
 * oldest one, past starve_ms, goes first.
 *
 * Return: true if @n is now held.
 */
bool rnp_try_acquire_starving(struct rnp_pool *p, struct rnp_cons *c,
			      const u64 *n, bool starving)
{
	u64 need[RNP_NR_RES];
	int r;

	for (r = 0; r < RNP_NR_RES; r++) {
		const struct rnp_res_state *s = &c->r[r];
		u64 after = s->held + n[r];
		u64 free = rnp_free(p, r);
		u64 e = rnp_entitled(s);
		u64 owed = p->r[r].owed, own;

		need[r] = after > s->grant ? after - s->grant : 0;
		if (p->policy == RNP_POL_STATIC && after > rnp_static_cap(p, c, r))
			return false;
		if (!need[r])
			continue;
		if (need[r] > free)
			return false;
		if (p->policy != RNP_POL_ARBITER)
			continue;
		if (s->target != RNP_NO_TARGET && after > s->target)
			return false;
		own = (s->want || s->hungry_until_ms) && e > s->grant ? e - s->grant : 0;
		owed = starving ? 0 : owed - min(owed, own);
		if (after > e && free - need[r] < p->r[r].reserve + owed)
			return false;
	}
	for (r = 0; r < RNP_NR_RES; r++) {
		c->r[r].grant += need[r];
		p->r[r].granted += need[r];
	}
	rnp_take(c, n);
	return true;
}

/**
 * rnp_may_hold - what a consumer should size its window or cache to
 * @p: the pool
 * @c: the consumer
 * @r: which resource
 *
 * Its entitled share, capped by a shrink target; with no target, at
 * least what it holds and every free entry (it may borrow, or wait for
 * the arbiter to make room). Under RNP_POL_STATIC, its cap instead:
 * entries beyond the cap are never given however many are free.
 *
 * Why the static case: a bound process sizes its registration cache
 * from this (rnic_may_hold(), its shared page), and under static the
 * page used to carry held plus every free entry; librnic registered past
 * the cap, waited user_wait_ms in REGISTER-WAIT and failed (the tenants
 * experiment's verbs program, every round; Documentation/evaluation.rst).
 * Under the arbiter the free entries stay in: leaving out the reserve
 * and what hungry consumers are owed, which shifts as they come and go,
 * starved a process's cache at BIND (user_mrs), and an over-estimate
 * only costs a wait that the arbiter ends by making room.
 *
 * Return: entries (or keys) of @r.
 */
u64 rnp_may_hold(const struct rnp_pool *p, const struct rnp_cons *c,
		 enum rnp_res r)
{
	const struct rnp_res_state *s = &c->r[r];
	u64 e = rnp_entitled(s);

	if (p->policy == RNP_POL_STATIC)
		return rnp_static_cap(p, c, r);
	if (s->target != RNP_NO_TARGET)
		return min(e, s->target);
	return max(e, s->held + rnp_free(p, r));
}

/**
 * rnp_try_acquire - the slow path: grow the grant from free entries
 * @p: the pool
 * @c: the consumer
 * @n: amount per resource
 *
 * rnp_try_acquire_starving() for a consumer that is not starving.
 *
 * Return: true if @n is now held.
 */
bool rnp_try_acquire(struct rnp_pool *p, struct rnp_cons *c, const u64 *n)
{
	return rnp_try_acquire_starving(p, c, n, false);
}

/**
 * rnp_below_share - would this request keep the consumer within its share?
 * @c: the consumer
 * @n: amount per resource
 *
 * A consumer within its share is owed the entries: if they are not free,
 * others must shrink. Call after rnp_note_demand() and rnp_rebalance().
 */
bool rnp_below_share(const struct rnp_cons *c, const u64 *n)
{
	int r;

	for (r = 0; r < RNP_NR_RES; r++)
		if (n[r] && c->r[r].held + n[r] > rnp_entitled(&c->r[r]))
			return false;
	return true;
}

/**
 * rnp_over_target - would this request take the consumer past its target?
 * @c: the consumer
 * @n: amount per resource
 *
 * Such a request cannot be served before the consumer shrinks
 * (rnp_try_acquire_starving() refuses it). A waiter that may fail is
 * refused rather than left waiting: a process blocked in a registration
 * cannot answer the REVOKE that would let it through (arbiter.c, I6).
 *
 * Return: true if some resource with a target would exceed it.
 */
bool rnp_over_target(const struct rnp_cons *c, const u64 *n)
{
	int r;

	for (r = 0; r < RNP_NR_RES; r++) {
		const struct rnp_res_state *s = &c->r[r];

		if (n[r] && s->target != RNP_NO_TARGET && s->held + n[r] > s->target)
			return true;
	}
	return false;
}

/**
 * rnp_note_demand - a refused request tells us the consumer wants more
 * @p: the pool (for the half-life)
 * @c: the consumer
 * @n: amount per resource asked for and not granted
 * @now_ms: current time
 *
 * What a consumer asks for one request at a time says little about what
 * it would use: a saturating consumer asks for one more chunk however
 * much it could use. So a refusal makes it hungry: until a half-life
 * passes without another refusal, its demand counts as unbounded, and
 * its fair share is the water level.
 */
void rnp_note_demand(struct rnp_pool *p, struct rnp_cons *c, const u64 *n,
		     u64 now_ms)
{
	int r;

	for (r = 0; r < RNP_NR_RES; r++) {
		struct rnp_res_state *s = &c->r[r];
		/* no more than the arithmetic holds (RNP_MAX_BUDGET) */
		u64 d = min(s->held + s->want + min(n[r], RNP_MAX_BUDGET), RNP_MAX_BUDGET);

		if (!n[r])
			continue;
		if (d > s->demand)
			s->demand = d;
		s->hungry_until_ms = now_ms + p->params.half_life_ms;
	}
}

/**
 * rnp_hungry - does this consumer count as wanting without bound?
 * @s: the consumer's state for one resource
 * @now_ms: current time
 */
bool rnp_hungry(const struct rnp_res_state *s, u64 now_ms)
{
	return s->want || now_ms < s->hungry_until_ms;
}

/**
 * rnp_release_fast - give entries back, keeping the grant
 * @c: the consumer (its lock held; the pool's lock is not needed)
 * @n: amount per resource, at most what is held
 *
 * Only for a consumer with no shrink target, when nobody waits and the
 * reserve is intact: then the grant stays for the next fast acquire.
 *
 * Return: false (and nothing done) if the consumer has a target.
 */
bool rnp_release_fast(struct rnp_cons *c, const u64 *n)
{
	int r;

	for (r = 0; r < RNP_NR_RES; r++)
		if (c->r[r].target != RNP_NO_TARGET)
			return false;
	for (r = 0; r < RNP_NR_RES; r++)
		c->r[r].held -= min(n[r], c->r[r].held);
	return true;
}

/**
 * rnp_release - give entries back
 * @p: the pool
 * @c: the consumer
 * @n: amount per resource, at most what is held
 * @contended: someone is waiting or the reserve is short: return unused
 *	grant beyond the share to the pool now
 *
 * Return: RNP_REL_* flags.
 */
unsigned int rnp_release(struct rnp_pool *p, struct rnp_cons *c,
			 const u64 *n, bool contended)
{
	unsigned int flags = 0;
	bool had_target = false, has_target = false;
	int r;

	for (r = 0; r < RNP_NR_RES; r++) {
		struct rnp_res_state *s = &c->r[r];
		u64 keep;

		s->held -= min(n[r], s->held);
		if (s->target != RNP_NO_TARGET) {
			had_target = true;
			if (s->held <= s->target)
				s->target = RNP_NO_TARGET;
			else
				has_target = true;
		}
		keep = s->grant;
		if (contended || s->target != RNP_NO_TARGET || had_target)
			keep = max(s->held, min(s->grant, rnp_entitled(s)));
		if (s->grant > keep) {
			p->r[r].granted -= s->grant - keep;
			s->grant = keep;
			flags |= RNP_REL_RETURNED;
		}
	}
	if (had_target && !has_target)
		flags |= RNP_REL_SHRUNK;
	return flags;
}

/**
 * rnp_decay - let demand above current use fade
 * @p: the pool (for the half-life)
 * @c: the consumer
 * @now_ms: current time
 *
 * Demand never drops below what the consumer holds plus what its waiters
 * want, nor below its minimum.
 */
void rnp_decay(struct rnp_pool *p, struct rnp_cons *c, u64 now_ms)
{
	u64 hl = p->params.half_life_ms ? p->params.half_life_ms : 1;
	u64 periods = now_ms > c->demand_ms ? (now_ms - c->demand_ms) / hl : 0;
	int r;

	for (r = 0; r < RNP_NR_RES; r++) {
		struct rnp_res_state *s = &c->r[r];
		u64 cur = max(s->held + s->want, s->min);

		if (s->demand > cur && periods)
			s->demand = cur + ((s->demand - cur) >> min_t(u64, periods, 63));
		if (s->demand < cur)
			s->demand = cur;
	}
	if (periods)
		c->demand_ms += periods * hl;
}

enum { RNP_EV_ACTIVATE, RNP_EV_SATURATE };

static int rnp_event_cmp(const void *a, const void *b)
{
	const struct rnp_event *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

/*
 * What hungry consumers below their share lack. Kept back from borrowers
 * until the next rebalance: otherwise a consumer that was just made to
 * shrink could borrow back what it gave up before the consumer it was
 * taken for gets there, and revocation would go round in circles.
 */
static void rnp_owed_one(struct rnp_pool *p, enum rnp_res r, u64 now_ms)
{
	u64 owed = 0;
	u32 i;

	for (i = 0; i < p->nr; i++) {
		const struct rnp_res_state *s = &p->cons[i]->r[r];
		u64 e = rnp_entitled(s);

		if (rnp_hungry(s, now_ms) && e > s->grant)
			owed += e - s->grant;
	}
	p->r[r].owed = owed;
}

/* Water level (fixed point) at which a consumer's allocation reaches v. */
static u64 rnp_level(u64 v, u32 weight)
{
	return div64_u64(v << RNP_LEVEL_SHIFT, weight);
}

/*
 * Weighted max-min fairness with floors and caps over @n entities.
 *
 * Entity i gets clamp(L * w_i, min_i, d_i) for the water level L at
 * which the allocations sum to @cap. Each allocation is flat (at min_i)
 * until L = min_i / w_i, grows with slope w_i until L = d_i / w_i, and is
 * flat (at d_i) after, so the sum is piecewise linear in L: sort the 2n
 * breakpoints and sweep them keeping S(L) = F + L * W, where F sums the
 * flat allocations and W the weights of the growing ones. O(n log n) for
 * the sort, O(n) for the sweep. Needs sum(min_i) <= @cap and every
 * d_i <= RNP_MAX_BUDGET.
 */
static void rnp_waterfill(struct rnp_fill *it, u32 n, u64 cap,
			  struct rnp_event *ev)
{
	u64 sum_d = 0, f = 0, w = 0, num, den;
	u32 i, nev = 0;

	for (i = 0; i < n; i++) {
		sum_d += it[i].demand;
		f += it[i].min;
		ev[nev++] = (struct rnp_event){ rnp_level(it[i].min, it[i].weight), i,
						RNP_EV_ACTIVATE };
		ev[nev++] = (struct rnp_event){ rnp_level(it[i].demand, it[i].weight), i,
						RNP_EV_SATURATE };
	}
	if (sum_d <= cap) {
		/* Everyone can have what they want; the rest stays free. */
		for (i = 0; i < n; i++)
			it[i].share = it[i].demand;
		return;
	}

	sort(ev, nev, sizeof(*ev), rnp_event_cmp, NULL);

	/*
	 * Find the segment where S crosses cap. The level is num / den in
	 * units of 2^-RNP_LEVEL_SHIFT; with W == 0 it is the breakpoint.
	 */
	for (i = 0; i < nev; i++) {
		const struct rnp_fill *e = &it[ev[i].idx];
		u64 s_here = f + mul_u64_u64_div_u64(ev[i].key, w, 1ULL << RNP_LEVEL_SHIFT);

		if (s_here >= cap)
			break;
		if (ev[i].kind == RNP_EV_ACTIVATE) {
			f -= e->min;
			w += e->weight;
		} else {
			f += e->demand;
			w -= e->weight;
		}
	}
	if (w) {
		num = (cap - f) << RNP_LEVEL_SHIFT;
		den = w;
	} else {
		num = i < nev ? ev[i].key : 0;
		den = 1;
	}

	for (i = 0; i < n; i++) {
		u64 a = mul_u64_u64_div_u64(num, it[i].weight, den) >> RNP_LEVEL_SHIFT;

		it[i].share = min(it[i].demand, max(it[i].min, a));
	}
}

/*
 * One resource's shares, hierarchically (struct rnp_group): a water fill
 * over the top-level entities, then one inside each group over its
 * members, with the group's share as the capacity. p->order maps each
 * consumer to its fill entry: at the top level if ungrouped, among the
 * members (after the top-level entries) if grouped.
 */
static void rnp_shares_one(struct rnp_pool *p, enum rnp_res r, u64 now_ms)
{
	struct rnp_pool_res *pr = &p->r[r];
	struct rnp_fill *top = p->fill, *sub;
	struct rnp_group *g;
	u32 i, ntop = 0, next = 0;
	u64 cap;

	cap = pr->budget > pr->reserve ? pr->budget - pr->reserve : pr->budget;
	cap = max(cap, pr->min_total);

	for (i = 0; i < p->nr; i++) {
		g = p->cons[i]->group;
		if (g) {
			g->slot = U32_MAX;
			g->base = U32_MAX;
			g->count = 0;
			g->placed = 0;
		}
	}
	/*
	 * Demand for the fill: the decayed estimate, or, for a hungry
	 * consumer, the whole capacity (unbounded for our purposes).
	 */
	for (i = 0; i < p->nr; i++) {
		struct rnp_cons *c = p->cons[i];
		struct rnp_res_state *s = &c->r[r];
		u64 d = rnp_hungry(s, now_ms) ? max(cap, s->min) : max(s->demand, s->min);

		s->eff_demand = d;
		g = c->group;
		if (!g) {
			p->order[i] = ntop;
			top[ntop++] = (struct rnp_fill){ s->min, d, 0, c->weight };
			continue;
		}
		if (g->slot == U32_MAX) {
			g->slot = ntop;
			top[ntop++] = (struct rnp_fill){ 0, 0, 0, g->weight };
		}
		top[g->slot].min += s->min;
		top[g->slot].demand += d;
		g->count++;
	}
	/* a group wants no more than the whole capacity either */
	for (i = 0; i < ntop; i++)
		top[i].demand = min(top[i].demand, max(cap, top[i].min));
	rnp_waterfill(top, ntop, cap, p->scratch);

	sub = top + ntop;
	for (i = 0; i < p->nr; i++) {
		struct rnp_cons *c = p->cons[i];
		struct rnp_res_state *s = &c->r[r];

		g = c->group;
		if (!g)
			continue;
		if (g->base == U32_MAX) {
			g->base = next;
			next += g->count;
		}
		p->order[i] = g->base + g->placed++;
		sub[p->order[i]] = (struct rnp_fill){ s->min, s->eff_demand, 0, c->weight };
	}
	for (i = 0; i < p->nr; i++) {
		g = p->cons[i]->group;
		if (!g || g->slot == U32_MAX)
			continue;
		g->share[r] = top[g->slot].share;
		rnp_waterfill(sub + g->base, g->count, g->share[r], p->scratch);
		g->slot = U32_MAX;	/* filled */
	}
	for (i = 0; i < p->nr; i++) {
		struct rnp_cons *c = p->cons[i];

		c->r[r].share = c->group ? sub[p->order[i]].share : top[p->order[i]].share;
	}
	rnp_owed_one(p, r, now_ms);
}

/**
 * rnp_rebalance - decay demands and recompute every fair share
 * @p: the pool, with scratch attached for at least p->nr consumers
 * @now_ms: current time
 *
 * Only computes shares: rnp_enforce() acts on them, consumer by consumer.
 */
void rnp_rebalance(struct rnp_pool *p, u64 now_ms)
{
	u32 i;
	int r;

	for (i = 0; i < p->nr; i++)
		rnp_decay(p, p->cons[i], now_ms);
	for (r = 0; r < RNP_NR_RES; r++)
		rnp_shares_one(p, r, now_ms);
}

/**
 * rnp_trim - return unused grant to the pool
 * @p: the pool
 * @c: the consumer
 * @to_share: keep unused grant up to the share (else keep only held)
 *
 * Return: entries returned (all resources summed).
 */
u64 rnp_trim(struct rnp_pool *p, struct rnp_cons *c, bool to_share)
{
	u64 total = 0;
	int r;

	for (r = 0; r < RNP_NR_RES; r++) {
		struct rnp_res_state *s = &c->r[r];
		u64 keep = to_share ? max(s->held, min(s->grant, rnp_entitled(s)))
				    : s->held;

		if (s->grant > keep) {
			total += s->grant - keep;
			p->r[r].granted -= s->grant - keep;
			s->grant = keep;
		}
	}
	return total;
}

/**
 * rnp_enforce - apply the last rebalance to one consumer under contention
 * @p: the pool
 * @c: the consumer
 *
 * Returns unused grant beyond the share, and asks the consumer to shrink
 * when it holds more than share + hysteresis, or more than its share
 * while the pool is over its budget or short of its reserve. A target
 * follows the share both ways: it is raised when the share rose above
 * it, and cleared once the consumer holds no more than share +
 * hysteresis, or than its share while the pool is short (the consumers
 * that cut its share left, or it shrank as far as it needs to).
 * Announces share growth beyond hysteresis.
 *
 * Return: RNP_NOTIFY_* flags for the caller to deliver.
 */
unsigned int rnp_enforce(struct rnp_pool *p, struct rnp_cons *c)
{
	unsigned int flags = 0;
	bool had_target = false, has_target = false;
	int r;

	/* The comparison policies never revoke. */
	if (p->policy != RNP_POL_ARBITER)
		return 0;
	rnp_trim(p, c, true);
	for (r = 0; r < RNP_NR_RES; r++) {
		struct rnp_res_state *s = &c->r[r];
		u64 e = rnp_entitled(s);
		/*
		 * Hysteresis spares a consumer a shrink for a share that
		 * moved a little, but never while the pool holds more than
		 * its budget (a budget lowered under what is granted, a
		 * kernel ULP's charge, is reached by shrinking) or has eaten
		 * into its reserve: a consumer shrinking to a cut budget
		 * would otherwise stop within hysteresis, above its share,
		 * with the newcomers' reserve held (transport_faults: 96 of
		 * a budget of 96, share 93).
		 */
		bool short_pool = p->r[r].granted > p->r[r].budget ||
				  rnp_free(p, r) < p->r[r].reserve;
		bool over = s->held > e + (e >> p->params.hyst_shift) ||
			    (short_pool && s->held > e);

		had_target |= s->target != RNP_NO_TARGET;
		if (over && (s->target == RNP_NO_TARGET || s->target > e)) {
			s->target = e;
			flags |= RNP_NOTIFY_SHRINK;
		} else if (!over) {
			s->target = RNP_NO_TARGET;
		} else if (s->target < e) {
			s->target = e;
		}
		has_target |= s->target != RNP_NO_TARGET;
	}
	if (had_target && !has_target)
		flags |= RNP_NOTIFY_CLEARED;
	return flags | rnp_announce(p, c);
}

/**
 * rnp_announce - note a consumer's shares after a rebalance
 * @p: the pool
 * @c: the consumer
 *
 * A share that grew beyond hysteresis over the last one announced is to
 * be announced (the consumer may size up again); one that fell is noted
 * without a word (rnp_enforce() asks for a shrink where it matters).
 * Alone, it never trims or sets a target, so it may run without
 * contention: after a consumer left, those whose shares it had cut are
 * told at once instead of when they next run short.
 *
 * Return: RNP_NOTIFY_GREW or 0.
 */
unsigned int rnp_announce(struct rnp_pool *p, struct rnp_cons *c)
{
	unsigned int flags = 0;
	int r;

	if (p->policy != RNP_POL_ARBITER)
		return 0;
	for (r = 0; r < RNP_NR_RES; r++) {
		struct rnp_res_state *s = &c->r[r];

		if (s->share > s->announced + (s->announced >> p->params.hyst_shift)) {
			s->announced = s->share;
			flags |= RNP_NOTIFY_GREW;
		} else if (s->share < s->announced) {
			s->announced = s->share;
		}
	}
	return flags;
}

/*
 * Entries held per unit of weight. A group's member counts with its part
 * of the group's weight, so a tenant's many processes wait their turn as
 * one consumer of the tenant's weight would.
 */
static u64 rnp_wait_level(const struct rnp_cons *c)
{
	u64 held = c->r[RNP_ENTRIES].held;
	const struct rnp_group *g = c->group;

	if (!g || !g->member_weight)
		return rnp_level(held, c->weight);
	return div64_u64(mul_u64_u64_div_u64(held << RNP_LEVEL_SHIFT,
					     g->member_weight, c->weight), g->weight);
}

static bool rnp_waiting(const struct rnp_cons *c)
{
	int r;

	for (r = 0; r < RNP_NR_RES; r++)
		if (c->r[r].want)
			return true;
	return false;
}

/**
 * rnp_reclaim_offer - one consumer's spare, for an idle reclaim's plan
 * @pl: the plan, zeroed before the first offer
 * @who: the consumer
 * @spare: what it holds idle beyond its minimum and what it was asked
 *
 * Keeps the RNP_RECLAIM_ASK_MAX largest spares in decreasing order, and
 * the total: one pass over n consumers costs O(n), where asking the
 * largest, then scanning again for the next, cost O(n^2) under the
 * device's lock.
 */
void rnp_reclaim_offer(struct rnp_reclaim_plan *pl, void *who, u64 spare)
{
	u32 i;

	if (!spare)
		return;
	pl->total += spare;
	if (pl->n == RNP_RECLAIM_ASK_MAX && spare <= pl->spare[pl->n - 1])
		return;
	if (pl->n < RNP_RECLAIM_ASK_MAX)
		pl->n++;
	/* insertion from the end: ties keep the order offered */
	for (i = pl->n - 1; i > 0 && pl->spare[i - 1] < spare; i--) {
		pl->spare[i] = pl->spare[i - 1];
		pl->who[i] = pl->who[i - 1];
	}
	pl->spare[i] = spare;
	pl->who[i] = who;
}

/**
 * rnp_pick_waiter - whose queued request to serve next
 * @p: the pool
 * @now_ms: current time
 *
 * Across consumers: a waiter older than starve_ms first (oldest of
 * them), else the consumer holding least per unit of weight. Within a
 * consumer, waiters are FIFO (the caller's queue).
 *
 * Return: the consumer, or NULL if nobody waits.
 */
struct rnp_cons *rnp_pick_waiter(const struct rnp_pool *p, u64 now_ms)
{
	struct rnp_cons *starving = NULL, *deprived = NULL;
	u64 best_level = U64_MAX;
	u32 i;

	for (i = 0; i < p->nr; i++) {
		struct rnp_cons *c = p->cons[i];
		u64 lvl;

		if (!rnp_waiting(c))
			continue;
		if (now_ms >= c->wait_since_ms + p->params.starve_ms &&
		    (!starving || c->wait_since_ms < starving->wait_since_ms))
			starving = c;
		lvl = rnp_wait_level(c);
		if (lvl < best_level) {
			best_level = lvl;
			deprived = c;
		}
	}
	return starving ? starving : deprived;
}
