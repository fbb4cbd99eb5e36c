// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rnic_mgr's policy (rnic_mgr/policy.c), built in user
 * space. The clever part, the O(n log n) water-filling, is checked
 * against a dumb model (bisection on the water level) on random input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "eval/pool.h"

#define E RNP_ENTRIES
#define K RNP_KEYS

static struct rnp_cons cons[64];

/* Fill a lone consumer chunk by chunk, as a saturating user would. */
static u64 fill(struct upool *u, struct rnp_cons *c, u64 chunk, u64 now)
{
	while (upool_acquire(u, c, chunk, 1, now) == UP_GRANTED)
		;
	return c->r[E].held;
}

static void test_lone_consumer(void)
{
	struct upool u;
	u64 got;

	upool_init(&u, 10000, 1000, 8);
	tap_ok(upool_add(&u, &cons[0], 1, 64, 1, 0) == 0, "lone: admitted");
	got = fill(&u, &cons[0], 16, 0);
	tap_ok(got * 100 >= 95 * 10000, "lone: gets %llu of 10000 entries (>= 95%%)",
	       (unsigned long long)got);
	tap_ok(rnp_free(&u.p, E) >= u.p.r[E].reserve,
	       "lone: borrowing leaves the reserve (%llu) free",
	       (unsigned long long)u.p.r[E].reserve);
	tap_ok(!upool_check(&u), "lone: invariants hold");
	upool_release(&u, &cons[0], got, cons[0].r[K].held, false);
	tap_ok(cons[0].r[E].held == 0 && cons[0].r[E].grant == got,
	       "lone: uncontended release keeps the grant for the fast path");
	upool_release(&u, &cons[0], 0, 0, true);
	tap_ok(cons[0].r[E].grant <= cons[0].r[E].share,
	       "lone: contended release returns grant beyond the share");
	upool_del(&u, &cons[0]);
	tap_ok(u.p.r[E].granted == 0 && u.p.r[E].min_total == 0, "lone: leave returns all");
	upool_free(&u);
}

/* Saturate n consumers round-robin, releasing under revocation targets. */
static void saturate(struct upool *u, unsigned int n, u64 chunk, int rounds)
{
	int round;
	unsigned int i;

	for (round = 0; round < rounds; round++) {
		for (i = 0; i < n; i++) {
			struct rnp_cons *c = u->p.cons[i];
			struct rnp_res_state *s = &c->r[E];

			upool_acquire(u, c, chunk, 0, (u64)round * 10);
			if (s->target != RNP_NO_TARGET && s->held > s->target)
				upool_release(u, c, s->held - s->target, 0, true);
		}
	}
}

static double jain(const u64 *x, const u32 *w, unsigned int n)
{
	double s = 0, s2 = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		double v = (double)x[i] / w[i];

		s += v;
		s2 += v * v;
	}
	return s * s / (n * s2);
}

static void test_equal_weights(void)
{
	struct upool u;
	u64 held[4];
	u32 w[4] = { 1, 1, 1, 1 };
	unsigned int i;

	upool_init(&u, 100000, 100000, 8);
	for (i = 0; i < 4; i++)
		upool_add(&u, &cons[i], 1, 64, 0, 0);
	/* The first one borrows nearly everything before the others come. */
	fill(&u, &cons[0], 256, 0);
	saturate(&u, 4, 256, 400);
	for (i = 0; i < 4; i++)
		held[i] = cons[i].r[E].held;
	tap_ok(jain(held, w, 4) >= 0.99, "equal: Jain index %.4f >= 0.99 (%llu %llu %llu %llu)",
	       jain(held, w, 4), (unsigned long long)held[0], (unsigned long long)held[1],
	       (unsigned long long)held[2], (unsigned long long)held[3]);
	tap_ok(cons[0].r[E].share == cons[3].r[E].share, "equal: equal shares (%llu)",
	       (unsigned long long)cons[0].r[E].share);
	tap_ok(u.shrink_requests > 0, "equal: the early borrower was asked to shrink");
	tap_ok(!upool_check(&u), "equal: invariants hold");
	upool_free(&u);
}

static void test_weights(void)
{
	struct upool u;
	u32 w[3] = { 1, 2, 4 };
	unsigned int i;
	bool prop = true;
	u64 total = 0;

	upool_init(&u, 70000, 1000, 8);
	for (i = 0; i < 3; i++)
		upool_add(&u, &cons[i], w[i], 64, 0, 0);
	saturate(&u, 3, 128, 800);
	for (i = 0; i < 3; i++)
		total += cons[i].r[E].held;
	for (i = 0; i < 3; i++) {
		double want = (double)total * w[i] / 7;
		double got = (double)cons[i].r[E].held;

		if (fabs(got - want) > 0.05 * want)
			prop = false;
		printf("# weight %u: held %llu, proportional %.0f, share %llu\n", w[i],
		       (unsigned long long)cons[i].r[E].held, want,
		       (unsigned long long)cons[i].r[E].share);
	}
	tap_ok(prop, "weights 1:2:4: held proportional within 5%%");
	tap_ok(!upool_check(&u), "weights: invariants hold");
	upool_free(&u);
}

static void test_low_demand(void)
{
	struct upool u;

	upool_init(&u, 10000, 1000, 8);
	upool_add(&u, &cons[0], 1, 10, 0, 0);
	upool_add(&u, &cons[1], 1, 10, 0, 0);
	/* cons[0] only ever wants 500; cons[1] wants everything. */
	upool_acquire(&u, &cons[0], 500, 0, 0);
	fill(&u, &cons[1], 100, 0);
	rnp_rebalance(&u.p, 0);
	tap_ok(cons[0].r[E].share == 500, "low demand: share is the demand (%llu)",
	       (unsigned long long)cons[0].r[E].share);
	tap_ok(cons[1].r[E].share >= 10000 - u.p.r[E].reserve - 500,
	       "low demand: the rest goes to the other (%llu)",
	       (unsigned long long)cons[1].r[E].share);
	upool_free(&u);
}

static void test_arrive_leave_budget(void)
{
	struct upool u;
	unsigned int flags;
	u64 n[RNP_NR_RES] = { 100, 0 };

	upool_init(&u, 1000, 100, 8);
	tap_ok(upool_add(&u, &cons[0], 1, 600, 1, 0) == 0, "admit: a minimum within budget");
	tap_ok(upool_add(&u, &cons[1], 1, 600, 1, 0) == -ENOSPC,
	       "admit: minimums beyond the budget are refused");
	tap_ok(upool_add(&u, &cons[1], 0, 1, 1, 0) == -EINVAL, "admit: weight 0 refused");
	tap_ok(upool_add(&u, &cons[1], 1, 100, 1, 0) == 0, "admit: second consumer");
	tap_ok(rnp_set_budget(&u.p, E, 699) == -EINVAL,
	       "budget: below the sum of minimums refused");
	fill(&u, &cons[0], 50, 0);
	tap_ok(rnp_set_budget(&u.p, E, 800) == 0, "budget: lowered below what is held");
	tap_ok(rnp_free(&u.p, E) == 0, "budget: nothing free after lowering");
	rnp_rebalance(&u.p, 0);
	upool_enforce_all(&u);
	tap_ok(cons[0].r[E].target != RNP_NO_TARGET, "budget: holder asked to shrink to %llu",
	       (unsigned long long)cons[0].r[E].target);
	{
		u64 one[RNP_NR_RES] = { 1, 0 }, keys_only[RNP_NR_RES] = { 0, 1 };

		tap_ok(rnp_over_target(&cons[0], one),
		       "over target: growing by 1 while holding %llu of target %llu cannot be served first",
		       (unsigned long long)cons[0].r[E].held,
		       (unsigned long long)cons[0].r[E].target);
		tap_ok(!rnp_over_target(&cons[0], keys_only),
		       "over target: a request of keys only, which have no target, is not");
		tap_ok(!rnp_over_target(&cons[1], one),
		       "over target: a consumer with no target never is");
	}
	flags = upool_release(&u, &cons[0], cons[0].r[E].held - cons[0].r[E].target, 0, true);
	tap_ok(flags & RNP_REL_SHRUNK, "budget: reaching the target completes the shrink");
	{
		u64 one[RNP_NR_RES] = { 1, 0 };

		tap_ok(!rnp_over_target(&cons[0], one),
		       "over target: once shrunk (target cleared), growing is not over it");
	}
	tap_ok(u.p.r[E].granted <= u.p.r[E].budget, "budget: granted within the new budget");
	tap_ok(rnp_below_share(&cons[1], n), "zero free: a newcomer below its share is owed entries");
	upool_del(&u, &cons[0]);
	tap_ok(rnp_free(&u.p, E) == 800 - cons[1].r[E].grant, "leave: everything returned");
	tap_ok(!upool_check(&u), "arrive/leave/budget: invariants hold");
	upool_free(&u);
}

static void test_zero_free(void)
{
	struct upool u;
	int v;

	upool_init(&u, 1000, 100, 8);
	upool_add(&u, &cons[0], 1, 10, 0, 0);
	fill(&u, &cons[0], 10, 0);
	upool_add(&u, &cons[1], 1, 10, 0, 0);
	v = upool_acquire(&u, &cons[1], 200, 0, 0);
	tap_ok(v == UP_GRANTED || v == UP_REVOKING, "zero free: newcomer within share is not denied");
	tap_ok(cons[0].r[E].target != RNP_NO_TARGET, "zero free: the hog is asked to shrink");
	upool_release(&u, &cons[0], cons[0].r[E].held - cons[0].r[E].target, 0, true);
	tap_ok(upool_acquire(&u, &cons[1], 200, 0, 1) == UP_GRANTED || cons[1].r[E].held >= 200,
	       "zero free: newcomer granted once the hog shrank");
	v = upool_acquire(&u, &cons[0], 400, 0, 1);
	tap_ok(v == UP_DENIED, "zero free: the hog cannot grow back past its share");
	upool_free(&u);
}

static void test_decay_hysteresis_waiters(void)
{
	struct upool u;
	struct rnp_cons *pick;

	upool_init(&u, 10000, 100, 8);
	upool_add(&u, &cons[0], 1, 10, 0, 0);
	cons[0].r[E].demand = 4010;
	rnp_decay(&u.p, &cons[0], 1000);
	tap_ok(cons[0].r[E].demand == 2010, "decay: excess demand halves per half-life (%llu)",
	       (unsigned long long)cons[0].r[E].demand);
	rnp_decay(&u.p, &cons[0], 3000);
	tap_ok(cons[0].r[E].demand == 510, "decay: two more half-lives (%llu)",
	       (unsigned long long)cons[0].r[E].demand);
	rnp_decay(&u.p, &cons[0], 100000);
	tap_ok(cons[0].r[E].demand == 10, "decay: never below the minimum");

	cons[0].r[E].share = 1000;
	cons[0].r[E].held = 1050;
	cons[0].r[E].grant = 1050;
	u.p.r[E].granted = 1050;
	tap_ok(!(rnp_enforce(&u.p, &cons[0]) & RNP_NOTIFY_SHRINK),
	       "hysteresis: 5%% over the share is tolerated");
	cons[0].r[E].held = 1100;
	cons[0].r[E].grant = 1100;
	u.p.r[E].granted = 1100;
	tap_ok(rnp_enforce(&u.p, &cons[0]) & RNP_NOTIFY_SHRINK,
	       "hysteresis: 10%% over the share is not");
	tap_ok(!(rnp_enforce(&u.p, &cons[0]) & RNP_NOTIFY_SHRINK),
	       "hysteresis: the same target is not asked twice");

	upool_add(&u, &cons[1], 1, 10, 0, 0);
	upool_add(&u, &cons[2], 4, 10, 0, 0);
	cons[1].r[E].want = 10;
	cons[1].wait_since_ms = 100;
	cons[1].r[E].held = 500;
	cons[2].r[E].want = 10;
	cons[2].wait_since_ms = 200;
	cons[2].r[E].held = 1000;
	pick = rnp_pick_waiter(&u.p, 300);
	tap_ok(pick == &cons[2], "waiters: least held per weight served first");
	pick = rnp_pick_waiter(&u.p, 2150);
	tap_ok(pick == &cons[1], "waiters: a starving waiter goes first");
	cons[1].r[E].want = 0;
	cons[2].r[E].want = 0;
	tap_ok(rnp_pick_waiter(&u.p, 300) == NULL, "waiters: none");
	upool_free(&u);
}

/* Dumb model: bisection on the (real) water level. */
static void model_shares(const struct upool *u, int r, double *out)
{
	const struct rnp_pool_res *pr = &u->p.r[r];
	double lo = 0, hi = 1e18, cap, sum_d = 0;
	unsigned int i;
	int it;

	cap = pr->budget > pr->reserve ? (double)(pr->budget - pr->reserve) : (double)pr->budget;
	if (cap < (double)pr->min_total)
		cap = (double)pr->min_total;
	for (i = 0; i < u->p.nr; i++)
		sum_d += (double)u->p.cons[i]->r[r].eff_demand;
	for (it = 0; it < 200; it++) {
		double mid = (lo + hi) / 2, s = 0;

		for (i = 0; i < u->p.nr; i++) {
			const struct rnp_res_state *st = &u->p.cons[i]->r[r];
			double d = (double)st->eff_demand;

			s += fmin(d, fmax((double)st->min, mid * u->p.cons[i]->weight));
		}
		if (s > cap)
			hi = mid;
		else
			lo = mid;
	}
	for (i = 0; i < u->p.nr; i++) {
		const struct rnp_res_state *st = &u->p.cons[i]->r[r];
		double d = (double)st->eff_demand;

		out[i] = sum_d <= cap ? d : fmin(d, fmax((double)st->min, lo * u->p.cons[i]->weight));
	}
}

static void test_model(void)
{
	static struct rnp_cons mc[200];
	double model[200];
	unsigned int trial, bad = 0, over = 0;

	srandom(42);
	for (trial = 0; trial < 2000; trial++) {
		struct upool u;
		unsigned int n = 1 + random() % 200, i;
		u64 budget = 1000 + random() % 1000000, sum_share = 0, cap;

		upool_init(&u, budget, 1000, n);
		for (i = 0; i < n; i++) {
			u64 m = random() % (budget / n / 2 + 1);

			upool_add(&u, &mc[i], 1 + random() % 50, m, 0, 0);
			mc[i].r[E].demand = m + (random() % 4 ? random() % (budget / 4 + 1) : 0);
			if (random() % 5 == 0)
				mc[i].r[E].hungry_until_ms = 1000;
		}
		rnp_rebalance(&u.p, 0);
		model_shares(&u, E, model);
		for (i = 0; i < n; i++) {
			sum_share += mc[i].r[E].share;
			/* integer floors: within 1 entry per consumer of the model */
			if (fabs((double)mc[i].r[E].share - model[i]) > 1.0 + 1e-9 * model[i])
				bad++;
			if (mc[i].r[E].share < mc[i].r[E].min)
				bad++;
		}
		cap = max(budget - u.p.r[E].reserve, u.p.r[E].min_total);
		if (sum_share > cap)
			over++;
		upool_free(&u);
	}
	tap_ok(bad == 0, "model: water-filling matches bisection on 2000 random pools (%u off)", bad);
	tap_ok(over == 0, "model: shares never sum past the capacity (%u over)", over);
}

/* Random operations; invariants after each, accounting exact at rest. */
static void test_random_ops(void)
{
	struct upool u;
	unsigned int step, n = 8, broken = 0, i;
	const char *why = NULL;
	u64 held_total = 0;

	srandom(7);
	upool_init(&u, 50000, 5000, 16);
	for (i = 0; i < n; i++)
		upool_add(&u, &cons[i], 1 + random() % 8, 32, 1, 0);
	for (step = 0; step < 200000; step++) {
		struct rnp_cons *c = &cons[random() % n];
		u64 now = step / 100;

		if (random() % 2) {
			upool_acquire(&u, c, 1 + random() % 300, random() % 3, now);
		} else {
			u64 e = c->r[E].held ? random() % (c->r[E].held + 1) : 0;
			u64 k = c->r[K].held ? random() % (c->r[K].held + 1) : 0;

			upool_release(&u, c, e, k, random() % 2);
		}
		if (!why) {
			why = upool_check(&u);
			if (why)
				broken = step;
		}
	}
	tap_ok(!why, "random ops: invariants hold over 200000 steps%s%s", why ? ": " : "",
	       why ? why : "");
	(void)broken;
	for (i = 0; i < n; i++) {
		upool_release(&u, &cons[i], cons[i].r[E].held, cons[i].r[K].held, true);
		rnp_trim(&u.p, &cons[i], false);
		held_total += cons[i].r[E].held;
	}
	tap_ok(held_total == 0 && u.p.r[E].granted == 0 && rnp_free(&u.p, E) == 50000,
	       "random ops: no drift at rest (free %llu of 50000)",
	       (unsigned long long)rnp_free(&u.p, E));
	upool_free(&u);
}

/*
 * Budgets near the top of the range: water levels are amounts shifted
 * by RNP_LEVEL_SHIFT, so a budget of 2^48 or more would wrap and give
 * shares above the budget. Such budgets are refused; at the largest
 * accepted one, hungry consumers' shares stay within it and keep their
 * weights.
 */
static void test_huge_budget(void)
{
	struct upool u;
	u64 sum = 0;
	unsigned int i;

	upool_init(&u, 1000, 100, 8);
	tap_ok(rnp_set_budget(&u.p, E, 1ULL << 48) == -EINVAL,
	       "huge budget: 2^48 entries refused");
	tap_ok(rnp_set_budget(&u.p, E, RNP_MAX_BUDGET + 1) == -EINVAL,
	       "huge budget: one above RNP_MAX_BUDGET refused");
	tap_ok(rnp_set_budget(&u.p, E, RNP_MAX_BUDGET) == 0,
	       "huge budget: RNP_MAX_BUDGET accepted");
	for (i = 0; i < 3; i++)
		upool_add(&u, &cons[i], 1u << i, 64, 1, 0);
	/* each asks for more than the budget: all hungry */
	for (i = 0; i < 3; i++)
		upool_acquire(&u, &cons[i], U64_MAX / 2, 0, 0);
	upool_acquire(&u, &cons[0], U64_MAX / 2, 0, 0);
	rnp_rebalance(&u.p, 0);
	for (i = 0; i < 3; i++)
		sum += cons[i].r[E].share;
	tap_ok(sum <= RNP_MAX_BUDGET, "huge budget: shares sum to %llu, within the budget",
	       (unsigned long long)sum);
	tap_ok(cons[2].r[E].share / 4 - cons[0].r[E].share < cons[0].r[E].share / 1000 + 1 ||
	       cons[0].r[E].share - cons[2].r[E].share / 4 < cons[0].r[E].share / 1000 + 1,
	       "huge budget: weights 1:4 hold (%llu vs %llu)",
	       (unsigned long long)cons[0].r[E].share, (unsigned long long)cons[2].r[E].share);
	tap_ok(!upool_check(&u), "huge budget: invariants hold");
	upool_free(&u);
}

/*
 * The comparison policies: first come first served lets the first
 * consumer take everything free and never revokes; static caps everyone
 * at budget / consumers and never revokes; the arbiter, on the same
 * sequence, gets the late consumer its share back.
 */
static void test_policies(void)
{
	static const char * const names[] = { "arbiter", "fcfs", "static" };
	u32 pol;

	for (pol = 0; pol < RNP_NR_POL; pol++) {
		struct upool u;
		u64 first, late;
		unsigned int flags = 0;
		int i;

		upool_init(&u, 1000, 100, 4);
		u.p.policy = pol;
		upool_add(&u, &cons[0], 1, 10, 1, 0);
		upool_add(&u, &cons[1], 1, 10, 1, 0);
		first = fill(&u, &cons[0], 10, 0);
		for (i = 0; i < 60; i++)
			upool_acquire(&u, &cons[1], 10, 0, 100 + i);
		late = cons[1].r[E].held;
		rnp_rebalance(&u.p, 200);
		flags |= rnp_enforce(&u.p, &cons[0]);
		switch (pol) {
		case RNP_POL_ARBITER:
			tap_ok(first > 900 && cons[0].r[E].target <= 550,
			       "policy arbiter: first took %llu, is asked to shrink to %llu",
			       (unsigned long long)first,
			       (unsigned long long)cons[0].r[E].target);
			break;
		case RNP_POL_FCFS:
			tap_ok(first == 1000 && late == 0 && !flags &&
			       cons[0].r[E].target == RNP_NO_TARGET,
			       "policy fcfs: first took all %llu, late got %llu, nobody revoked",
			       (unsigned long long)first, (unsigned long long)late);
			break;
		default:
			tap_ok(first == 500 && late == 500 && !flags &&
			       rnp_static_cap(&u.p, &cons[0], E) == 500,
			       "policy static: each capped at 500 (first %llu, late %llu)",
			       (unsigned long long)first, (unsigned long long)late);
			break;
		}
		tap_ok(!strcmp(rnp_policy_name(pol), names[pol]) &&
		       rnp_policy_parse(names[pol]) == (int)pol,
		       "policy %s: name round trip", names[pol]);
		tap_ok(!upool_check(&u), "policy %s: invariants hold", names[pol]);
		upool_del(&u, &cons[1]);
		upool_del(&u, &cons[0]);
		upool_free(&u);
	}
	tap_ok(rnp_policy_parse("fcfs\n") == RNP_POL_FCFS &&
	       rnp_policy_parse("fcfs\n\n") < 0 && rnp_policy_parse("arb") < 0 &&
	       rnp_policy_parse("") < 0 && !strcmp(rnp_policy_name(7), "?"),
	       "policy names: a sysfs newline is accepted, nothing else");
}

/*
 * Waiters that each want more than their share: what each is owed
 * blocked the others' borrowing for ever (seen with perftest processes
 * registering one buffer each); a starving waiter may borrow it.
 */
static void test_large_waiters(void)
{
	struct upool u;
	u64 n[RNP_NR_RES] = { 32, 1 };
	int i;

	upool_init(&u, 176, 100, 8);
	for (i = 0; i < 8; i++)
		upool_add(&u, &cons[i], 1, 0, 0, 0);
	for (i = 0; i < 5; i++)
		tap_ok(upool_acquire(&u, &cons[i], 32, 1, 0) == UP_GRANTED,
		       "large waiters: holder %d gets 32", i);
	for (i = 5; i < 8; i++) {
		upool_acquire(&u, &cons[i], 32, 1, 10);
		cons[i].r[E].want = 32;	/* queued, as the kernel does */
		cons[i].r[K].want = 1;
	}
	/* one holder leaves: room for one waiter beyond the reserve */
	upool_release(&u, &cons[0], 32, 1, true);
	rnp_trim(&u.p, &cons[0], false);
	rnp_rebalance(&u.p, 20);
	tap_ok(rnp_free(&u.p, E) == 48 && u.p.r[E].owed >= 3 * 20,
	       "large waiters: %llu free, %llu owed to the waiters",
	       (unsigned long long)rnp_free(&u.p, E), (unsigned long long)u.p.r[E].owed);
	tap_ok(!rnp_try_acquire(&u.p, &cons[5], n),
	       "large waiters: a young waiter may not borrow what the others are owed");
	tap_ok(rnp_try_acquire_starving(&u.p, &cons[5], n, true) &&
	       cons[5].r[E].held == 32,
	       "large waiters: a starving one may, and gets its 32");
	tap_ok(!upool_check(&u), "large waiters: invariants hold");
	for (i = 0; i < 8; i++)
		upool_del(&u, &cons[i]);
	upool_free(&u);
}

/*
 * rnp_may_hold(), what a bound process sizes its cache to. Under static
 * it was held plus every free entry, and a verbs program that trusted it
 * registered past its cap, waited and failed: now it is the cap, all of
 * it given and not one more. Under the arbiter and fcfs: every free
 * entry counts, and under the arbiter a shrink target caps it.
 */
static void test_may_hold(void)
{
	struct upool u;
	u64 m, one[RNP_NR_RES] = { 1, 0 }, n[RNP_NR_RES] = { 0, 0 };
	u32 pol;
	int i;

	for (pol = 0; pol < RNP_NR_POL; pol++) {
		upool_init(&u, 1000, 100, 4);
		u.p.policy = pol;
		upool_add(&u, &cons[0], 1, 10, 1, 0);
		upool_add(&u, &cons[1], 1, 10, 1, 0);
		m = rnp_may_hold(&u.p, &cons[0], E);
		if (pol == RNP_POL_STATIC) {
			n[E] = m;
			tap_ok(m == 500 && rnp_try_acquire(&u.p, &cons[0], n) &&
			       !rnp_try_acquire(&u.p, &cons[0], one),
			       "may hold, static: %llu (the cap), all of it granted, not one more",
			       (unsigned long long)m);
		} else {
			tap_ok(m == 1000, "may hold, %s: every free entry (%llu)",
			       rnp_policy_name(pol), (unsigned long long)m);
		}
		upool_del(&u, &cons[1]);
		upool_del(&u, &cons[0]);
		upool_free(&u);
	}

	/* the arbiter: a consumer asked to shrink may hold its target */
	upool_init(&u, 1000, 100, 4);
	upool_add(&u, &cons[0], 1, 10, 1, 0);
	fill(&u, &cons[0], 10, 0);
	upool_add(&u, &cons[1], 1, 10, 1, 0);
	for (i = 0; i < 60; i++)
		upool_acquire(&u, &cons[1], 10, 0, 100 + i);
	rnp_rebalance(&u.p, 200);
	rnp_enforce(&u.p, &cons[0]);
	m = rnp_may_hold(&u.p, &cons[0], E);
	tap_ok(cons[0].r[E].target != RNP_NO_TARGET && m == cons[0].r[E].target &&
	       m < cons[0].r[E].held,
	       "may hold, arbiter: its shrink target (%llu) while it holds %llu",
	       (unsigned long long)m, (unsigned long long)cons[0].r[E].held);
	upool_del(&u, &cons[1]);
	upool_del(&u, &cons[0]);
	upool_free(&u);
}

/*
 * A shrink target follows the share both ways: 16 newcomers (a fork
 * storm) cut a holder's share and set its target; as half of them leave
 * the target rises with the share, and once all are gone and the holder
 * is within its share again the target is cleared. A target that only
 * ever went down would keep the holder refused and counted late after
 * the newcomers died.
 */
static void test_target_follows_share(void)
{
	struct upool u;
	u64 t_cut, t_half;
	int i;

	upool_init(&u, 1000, 100, 32);
	upool_add(&u, &cons[0], 1, 10, 0, 0);
	fill(&u, &cons[0], 50, 0);
	for (i = 1; i <= 16; i++) {
		upool_add(&u, &cons[i], 1, 10, 0, 0);
		upool_acquire(&u, &cons[i], 100, 0, 1);
	}
	rnp_rebalance(&u.p, 1);
	upool_enforce_all(&u);
	t_cut = cons[0].r[E].target;
	tap_ok(t_cut == cons[0].r[E].share && t_cut < 100,
	       "follows share: 16 newcomers set the holder's target to its share (%llu, want %llu < 100)",
	       (unsigned long long)t_cut, (unsigned long long)cons[0].r[E].share);
	for (i = 9; i <= 16; i++)
		upool_del(&u, &cons[i]);
	rnp_rebalance(&u.p, 2);
	upool_enforce_all(&u);
	t_half = cons[0].r[E].target;
	tap_ok(t_half == cons[0].r[E].share && t_half > t_cut,
	       "follows share: half of them gone, the target rises to the share (%llu, want %llu > %llu)",
	       (unsigned long long)t_half, (unsigned long long)cons[0].r[E].share,
	       (unsigned long long)t_cut);
	for (i = 1; i <= 8; i++)
		upool_del(&u, &cons[i]);
	rnp_rebalance(&u.p, 3);
	upool_enforce_all(&u);
	tap_ok(cons[0].r[E].target == RNP_NO_TARGET,
	       "follows share: all gone, the holder within its share has no target (got %llu)",
	       (unsigned long long)cons[0].r[E].target);
	tap_ok(!upool_check(&u), "follows share: invariants hold");
	upool_del(&u, &cons[0]);
	upool_free(&u);
}

/*
 * A budget lowered under what a lone consumer holds, but to where that
 * holding is within its new share plus hysteresis (rnic_mgr_kulp saw
 * it: a kernel ULP's charge cut the budget to 75984 while a consumer
 * held 76800, and no shrink was asked): the pool is over its budget,
 * so the consumer is asked to shrink to its share all the same.
 */
static void test_budget_below_held(void)
{
	unsigned int flags;
	struct upool u;
	u64 b = 75984;

	upool_init(&u, 150000, 65536, 2);
	upool_add(&u, &cons[0], 1, 64, 0, 0);
	fill(&u, &cons[0], 1024, 0);
	while (cons[0].r[E].held > 76800)
		upool_release(&u, &cons[0], 1024, 0, false);
	rnp_trim(&u.p, &cons[0], true);
	assert(!rnp_set_budget(&u.p, E, b));
	rnp_rebalance(&u.p, 1);
	flags = rnp_enforce(&u.p, &cons[0]);
	tap_ok(cons[0].r[E].held > b &&
	       cons[0].r[E].held <= cons[0].r[E].share + (cons[0].r[E].share >> 4),
	       "budget below held: the setting (held %llu, budget %llu, share %llu)",
	       (unsigned long long)cons[0].r[E].held, (unsigned long long)b,
	       (unsigned long long)cons[0].r[E].share);
	tap_ok((flags & RNP_NOTIFY_SHRINK) && cons[0].r[E].target <= b,
	       "budget below held: asked to shrink within the budget (flags %#x, target %llu, want <= %llu)",
	       flags, (unsigned long long)cons[0].r[E].target, (unsigned long long)b);
	flags = upool_release(&u, &cons[0], cons[0].r[E].held - cons[0].r[E].target, 0, true);
	rnp_rebalance(&u.p, 2);
	rnp_enforce(&u.p, &cons[0]);
	tap_ok((flags & RNP_REL_SHRUNK) && cons[0].r[E].target == RNP_NO_TARGET &&
	       u.p.r[E].granted <= b,
	       "budget below held: it shrinks to its target, which then stays clear (release %#x, granted %llu)",
	       flags, (unsigned long long)u.p.r[E].granted);
	tap_ok(!upool_check(&u), "budget below held: invariants hold");
	upool_del(&u, &cons[0]);
	upool_free(&u);
}

/*
 * transport_faults failed once at 7d097be: a lone consumer holding 16
 * MRs of 16 entries saw its budget cut to 96 (share 93, the reserve 3)
 * and shrank MR by MR; at 96 it was within share + hysteresis, so its
 * target was cleared and it stayed there, the whole budget held and the
 * newcomers' reserve with it. Short of the reserve, hysteresis spares
 * nobody above its share.
 */
static void test_reserve_kept_when_shrinking(void)
{
	unsigned int flags, i;
	struct upool u;
	u64 share;

	upool_init(&u, 262144, 65536, 2);
	upool_add(&u, &cons[0], 1, 16, 0, 0);
	for (i = 0; i < 16; i++)
		assert(upool_acquire(&u, &cons[0], 16, 1, 0) == UP_GRANTED);
	assert(!rnp_set_budget(&u.p, E, 96));
	rnp_rebalance(&u.p, 1);
	flags = rnp_enforce(&u.p, &cons[0]);
	share = cons[0].r[E].share;
	tap_ok((flags & RNP_NOTIFY_SHRINK) && cons[0].r[E].target == share &&
	       share == 96 - (96 >> 5),
	       "reserve kept: asked down to its share (flags %#x, target %llu, share %llu, want 93)",
	       flags, (unsigned long long)cons[0].r[E].target, (unsigned long long)share);
	/* MR by MR, the arbiter looking again after each, as under load */
	while (cons[0].r[E].target != RNP_NO_TARGET &&
	       cons[0].r[E].held > cons[0].r[E].target) {
		upool_release(&u, &cons[0], 16, 1, true);
		rnp_rebalance(&u.p, 2);
		rnp_enforce(&u.p, &cons[0]);
	}
	tap_ok(cons[0].r[E].held <= share && rnp_free(&u.p, E) >= u.p.r[E].reserve,
	       "reserve kept: it shrinks to its share, not to share + hysteresis (held %llu, want <= %llu; free %llu, reserve %llu)",
	       (unsigned long long)cons[0].r[E].held, (unsigned long long)share,
	       (unsigned long long)rnp_free(&u.p, E), (unsigned long long)u.p.r[E].reserve);
	tap_ok(cons[0].r[E].target == RNP_NO_TARGET,
	       "reserve kept: then its target is clear (target %llu)",
	       (unsigned long long)cons[0].r[E].target);
	tap_ok(!upool_check(&u), "reserve kept: invariants hold");
	upool_del(&u, &cons[0]);
	upool_free(&u);
}

/*
 * I7's policy half: after the consumers a holder shrank for have left,
 * rnp_announce() tells it its share grew, once (hysteresis), and does
 * nothing else: no trim, no target, no shrink. Under the comparison
 * policies it never announces.
 */
static void test_announce_relief(void)
{
	struct upool u;
	u64 grant, first, again;
	int i;

	upool_init(&u, 1000, 100, 32);
	upool_add(&u, &cons[0], 1, 10, 0, 0);
	fill(&u, &cons[0], 50, 0);
	for (i = 1; i <= 3; i++) {
		upool_add(&u, &cons[i], 1, 10, 0, 0);
		upool_acquire(&u, &cons[i], 200, 0, 1);
	}
	rnp_rebalance(&u.p, 1);
	upool_enforce_all(&u);
	tap_ok(rnp_announce(&u.p, &cons[0]) == 0,
	       "announce: a holder whose share was cut is told nothing (share %llu)",
	       (unsigned long long)cons[0].r[E].share);
	/* it shrinks to its target */
	upool_release(&u, &cons[0], cons[0].r[E].held - cons[0].r[E].target, 0, true);
	rnp_rebalance(&u.p, 2);
	upool_enforce_all(&u);
	for (i = 1; i <= 3; i++) {
		upool_release(&u, &cons[i], cons[i].r[E].held, cons[i].r[K].held, false);
		upool_del(&u, &cons[i]);
	}
	rnp_rebalance(&u.p, 3);
	grant = cons[0].r[E].grant;
	first = rnp_announce(&u.p, &cons[0]);
	tap_ok(first == RNP_NOTIFY_GREW,
	       "announce: the others gone, the holder is told its share grew (flags %llu, want %d; share %llu)",
	       (unsigned long long)first, RNP_NOTIFY_GREW, (unsigned long long)cons[0].r[E].share);
	again = rnp_announce(&u.p, &cons[0]);
	tap_ok(again == 0, "announce: told once, not again (flags %llu)", (unsigned long long)again);
	tap_ok(cons[0].r[E].grant == grant && cons[0].r[E].target == RNP_NO_TARGET,
	       "announce: no trim, no target (grant %llu, want %llu; target %llu)",
	       (unsigned long long)cons[0].r[E].grant, (unsigned long long)grant,
	       (unsigned long long)cons[0].r[E].target);
	u.p.policy = RNP_POL_FCFS;
	cons[0].r[E].announced = 0;
	tap_ok(rnp_announce(&u.p, &cons[0]) == 0, "announce: never under fcfs");
	u.p.policy = RNP_POL_ARBITER;
	tap_ok(!upool_check(&u), "announce: invariants hold");
	upool_release(&u, &cons[0], cons[0].r[E].held, cons[0].r[K].held, false);
	upool_del(&u, &cons[0]);
	upool_free(&u);
}

/* Dumb model of one water fill: bisection on the (real) level. */
static void model_fill(unsigned int n, const double *mn, const double *d,
		       const double *w, double cap, double *out)
{
	double lo = 0, hi = 1e18, sum_d = 0;
	unsigned int i;
	int it;

	for (i = 0; i < n; i++)
		sum_d += d[i];
	for (it = 0; it < 200; it++) {
		double mid = (lo + hi) / 2, s = 0;

		for (i = 0; i < n; i++)
			s += fmin(d[i], fmax(mn[i], mid * w[i]));
		if (s > cap)
			hi = mid;
		else
			lo = mid;
	}
	for (i = 0; i < n; i++)
		out[i] = sum_d <= cap ? d[i] : fmin(d[i], fmax(mn[i], lo * w[i]));
}

#define NG 6	/* groups in test_groups_model(); group NG means none */

/*
 * Hierarchical shares against the model applied twice: over the
 * top-level entities, then inside each group. Invariants P4 and P5.
 */
static void test_groups_model(void)
{
	static struct rnp_cons mc[120];
	static struct rnp_group grp[NG];
	static double mn[120], d[120], w[120], out[120], gshare[NG + 120];
	unsigned int trial, bad = 0, over = 0, gover = 0;

	srandom(7);
	for (trial = 0; trial < 1000; trial++) {
		struct upool u;
		unsigned int n = 1 + random() % 120, i, g, ntop = 0, k;
		u64 budget = 1000 + random() % 1000000, cap, sum_share = 0;
		int slot[NG];
		unsigned int gof[120];
		double topmin[NG + 120], topd[NG + 120], topw[NG + 120], topout[NG + 120];

		upool_init(&u, budget, 1000, n);
		for (g = 0; g < NG; g++) {
			grp[g] = (struct rnp_group){ .weight = 1 + random() % 20 };
			slot[g] = -1;
		}
		for (i = 0; i < n; i++) {
			u64 m = random() % (budget / n / 2 + 1);

			gof[i] = random() % (NG + 1);
			rnp_cons_init(&mc[i], 1 + random() % 10, m, 0, 0);
			mc[i].group = gof[i] < NG ? &grp[gof[i]] : NULL;
			assert(!rnp_admit(&u.p, &mc[i]));
			u.p.cons[u.p.nr++] = &mc[i];
			mc[i].r[E].demand = m + (random() % 4 ? random() % (budget / 4 + 1) : 0);
			if (random() % 5 == 0)
				mc[i].r[E].hungry_until_ms = 1000;
		}
		rnp_rebalance(&u.p, 0);
		cap = max(budget - u.p.r[E].reserve, u.p.r[E].min_total);
		/* the model: top level */
		for (i = 0; i < n; i++) {
			const struct rnp_res_state *s = &mc[i].r[E];

			if (gof[i] == NG) {
				topmin[ntop] = (double)s->min;
				topd[ntop] = (double)s->eff_demand;
				topw[ntop] = mc[i].weight;
				gof[i] = NG + ntop++;	/* its own slot */
				continue;
			}
			if (slot[gof[i]] < 0) {
				slot[gof[i]] = ntop;
				topmin[ntop] = topd[ntop] = 0;
				topw[ntop++] = grp[gof[i]].weight;
			}
			topmin[slot[gof[i]]] += (double)s->min;
			topd[slot[gof[i]]] += (double)s->eff_demand;
		}
		for (k = 0; k < ntop; k++)
			topd[k] = fmin(topd[k], fmax((double)cap, topmin[k]));
		model_fill(ntop, topmin, topd, topw, (double)cap, topout);
		/* then inside each group, with its (integer) share as capacity */
		for (g = 0; g < NG; g++) {
			unsigned int m = 0, idx[120];

			if (slot[g] < 0)
				continue;
			gshare[g] = (double)grp[g].share[E];
			if (fabs(gshare[g] - topout[slot[g]]) > 1.0 + 1e-9 * topout[slot[g]])
				bad++;
			for (i = 0; i < n; i++) {
				if (gof[i] != g)
					continue;
				idx[m] = i;
				mn[m] = (double)mc[i].r[E].min;
				d[m] = (double)mc[i].r[E].eff_demand;
				w[m++] = mc[i].weight;
			}
			model_fill(m, mn, d, w, gshare[g], out);
			for (k = 0; k < m; k++)
				if (fabs((double)mc[idx[k]].r[E].share - out[k]) > 1.0 + 1e-9 * out[k])
					bad++;
		}
		for (i = 0; i < n; i++) {
			if (gof[i] >= NG &&
			    fabs((double)mc[i].r[E].share - topout[gof[i] - NG]) >
			    1.0 + 1e-9 * topout[gof[i] - NG])
				bad++;
			if (mc[i].r[E].share < mc[i].r[E].min)
				bad++;
			sum_share += mc[i].r[E].share;
		}
		for (g = 0; g < NG; g++) {
			u64 sum = 0;

			for (i = 0; i < n; i++)
				if (mc[i].group == &grp[g])
					sum += mc[i].r[E].share;
			if (slot[g] >= 0 && sum > grp[g].share[E])
				gover++;
		}
		if (sum_share > cap)
			over++;
		for (i = 0; i < n; i++)
			rnp_leave(&u.p, &mc[i]);
		for (g = 0; g < NG; g++)
			if (grp[g].members || grp[g].member_weight)
				gover++;
		upool_free(&u);
	}
	tap_ok(bad == 0, "groups: hierarchical fill matches the model twice over on 1000 random pools (%u off)",
	       bad);
	tap_ok(over == 0, "groups: shares never sum past the capacity (%u over)", over);
	tap_ok(gover == 0, "groups: members' shares never sum past their group's, and leaving empties it (%u bad)",
	       gover);
}

/* Saturate the pool's consumers until every one holds its share. */
static void tenants_run(struct upool *u, unsigned int rounds)
{
	saturate(u, u->p.nr, 64, rounds);
}

static u64 group_held(const struct upool *u, const struct rnp_group *g)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < u->p.nr; i++)
		if (u->p.cons[i]->group == g)
			sum += u->p.cons[i]->r[E].held;
	return sum;
}

/*
 * A tenant of one process against a tenant of 16, all saturating: the
 * tenants, not the processes, are equal; then weights 1:2 are honoured.
 * And a kernel consumer (no group) of weight 1 against the 16: half each.
 */
static void test_tenants(void)
{
	static struct rnp_cons tc[17], nc;
	struct rnp_group a = { .weight = 1 }, b = { .weight = 1 };
	u64 held[2], share;
	u32 w[2] = { 1, 1 };
	double ratio;
	unsigned int i;
	struct upool u;

	upool_init(&u, 100000, 100000, 18);
	for (i = 0; i < 17; i++) {
		rnp_cons_init(&tc[i], 1, 16, 0, 0);
		tc[i].group = i ? &b : &a;
		assert(!rnp_admit(&u.p, &tc[i]));
		u.p.cons[u.p.nr++] = &tc[i];
	}
	tenants_run(&u, 1500);
	held[0] = group_held(&u, &a);
	held[1] = group_held(&u, &b);
	tap_ok(jain(held, w, 2) >= 0.99,
	       "tenants: 1 process against 16, Jain %.4f >= 0.99 over tenants (held %llu, %llu)",
	       jain(held, w, 2), (unsigned long long)held[0], (unsigned long long)held[1]);
	tap_ok(tc[1].r[E].share * 15 <= tc[0].r[E].share && tc[1].r[E].share * 17 >= tc[0].r[E].share,
	       "tenants: each of the 16 gets 1/16 of its tenant's share (%llu against %llu)",
	       (unsigned long long)tc[1].r[E].share, (unsigned long long)tc[0].r[E].share);
	tap_ok(!upool_check(&u), "tenants: invariants hold");

	b.weight = 2;
	tenants_run(&u, 1500);
	held[0] = group_held(&u, &a);
	held[1] = group_held(&u, &b);
	ratio = (double)held[1] / (double)held[0];
	tap_ok(ratio >= 1.9 && ratio <= 2.1,
	       "tenants: weights 1:2 honoured within 5%% (held %llu, %llu: %.3f, want 2)",
	       (unsigned long long)held[0], (unsigned long long)held[1], ratio);

	/* tenant a's process becomes a kernel consumer of weight 1 */
	b.weight = 1;
	upool_del(&u, &tc[0]);
	rnp_cons_init(&tc[0], 1, 16, 0, 0);
	assert(!rnp_admit(&u.p, &tc[0]));
	u.p.cons[u.p.nr++] = &tc[0];
	tenants_run(&u, 1500);
	ratio = (double)group_held(&u, &b) / (double)tc[0].r[E].held;
	tap_ok(ratio >= 0.95 && ratio <= 1.05,
	       "tenants: a kernel consumer of weight 1 and a tenant of 16 hold alike (%.3f, want 1)",
	       ratio);
	tap_ok(!upool_check(&u), "tenants: invariants hold after weights change");

	/*
	 * A newcomer of weight 2 beside them (1 + 1 at the top level) is
	 * told half of the budget, and then given it, less the pool's
	 * reserve (1/32): the cap kulp/cap.c gives a stock ULP.
	 */
	share = rnp_newcomer_share(&u.p, 100000, 2);
	tap_ok(share == 50000, "newcomer share: weight 2 against a tenant of 16 and a consumer: %llu, want 50000",
	       (unsigned long long)share);
	assert(!upool_add(&u, &nc, 2, 16, 0, 0));
	tenants_run(&u, 1500);
	ratio = (double)nc.r[E].held / (double)share;
	tap_ok(ratio >= 0.95 && ratio <= 1.0,
	       "newcomer share: the newcomer then holds %llu, %.3f of it (want 0.95..1)",
	       (unsigned long long)nc.r[E].held, ratio);
	upool_del(&u, &nc);
	tap_ok(rnp_newcomer_share(&u.p, 1000, 1) == 333 &&
	       rnp_newcomer_share(&u.p, 1ULL << 40, RNP_MAX_WEIGHT) ==
	       (u64)(((__uint128_t)1 << 40) * RNP_MAX_WEIGHT / (RNP_MAX_WEIGHT + 2)),
	       "newcomer share: rounds down, and holds at the largest budget and weight");
	for (i = 0; i < 17; i++)
		upool_del(&u, &tc[i]);
	tap_ok(rnp_newcomer_share(&u.p, 1000, 3) == 1000,
	       "newcomer share: alone in the pool, the whole budget");
	tap_ok(!a.members && !b.members, "tenants: leaving empties the groups (%u, %u)",
	       a.members, b.members);
	upool_free(&u);
}

/*
 * What divides a share (N1): 32 consumers that only joined (a tenant
 * of BIND-only processes, or 32 of them alone) are no one's rivals,
 * unless they were promised a minimum (a mount, a session); 32
 * that hold entries in one tenant count once; under policy=static the
 * budget is split among tenants (present ones: static never takes
 * back), then among a tenant's processes.
 */
static void test_demanding_entities(void)
{
	static struct rnp_cons sy[32], k;
	struct rnp_group g = { .weight = 1 };
	unsigned int i;
	struct upool u;
	u64 share, cap_k, cap_s;

	upool_init(&u, 1000, 1000, 40);
	assert(!upool_add(&u, &k, 1, 0, 0, 0));
	assert(upool_acquire(&u, &k, 100, 0, 1) == UP_GRANTED);
	for (i = 0; i < 32; i++)
		assert(!upool_add(&u, &sy[i], 1, 0, 0, 0));
	share = rnp_newcomer_share(&u.p, 1000, 1);
	tap_ok(share == 500, "entities: 32 idle consumers do not divide a share: %llu, want 500",
	       (unsigned long long)share);
	for (i = 0; i < 32; i++)
		upool_del(&u, &sy[i]);
	for (i = 0; i < 2; i++)
		assert(!upool_add(&u, &sy[i], 1, 8, 1, 0));
	share = rnp_newcomer_share(&u.p, 1000, 1);
	tap_ok(share == 250, "entities: 2 idle consumers with a minimum count: %llu, want 250",
	       (unsigned long long)share);
	for (i = 0; i < 2; i++)
		upool_del(&u, &sy[i]);
	for (i = 0; i < 32; i++) {
		rnp_cons_init(&sy[i], 1, 0, 0, 0);
		sy[i].group = &g;
		assert(!rnp_admit(&u.p, &sy[i]));
		u.p.cons[u.p.nr++] = &sy[i];
	}
	share = rnp_newcomer_share(&u.p, 1000, 1);
	tap_ok(share == 500, "entities: an idle tenant of 32 does not divide a share: %llu, want 500",
	       (unsigned long long)share);
	for (i = 0; i < 32; i++)
		assert(upool_acquire(&u, &sy[i], 1, 0, 2) == UP_GRANTED);
	share = rnp_newcomer_share(&u.p, 1000, 1);
	tap_ok(share == 333, "entities: a tenant of 32 holding counts once: %llu, want 333",
	       (unsigned long long)share);
	g.weight = 2;
	share = rnp_newcomer_share(&u.p, 1000, 1);
	tap_ok(share == 250, "entities: at its weight (2): %llu, want 250",
	       (unsigned long long)share);
	g.weight = 1;
	u.p.policy = RNP_POL_STATIC;
	cap_k = rnp_static_cap(&u.p, &k, E);
	cap_s = rnp_static_cap(&u.p, &sy[0], E);
	tap_ok(cap_k == 500 && cap_s == 15,
	       "entities: static splits by tenant, then by process: %llu and %llu, want 500 and 15",
	       (unsigned long long)cap_k, (unsigned long long)cap_s);
	for (i = 1; i < 32; i++)
		upool_release(&u, &sy[i], 1, 0, false);
	cap_k = rnp_static_cap(&u.p, &k, E);
	cap_s = rnp_static_cap(&u.p, &sy[0], E);
	tap_ok(cap_k == 500 && cap_s == 15,
	       "entities: static keeps a part for idle processes: %llu and %llu, want 500 and 15",
	       (unsigned long long)cap_k, (unsigned long long)cap_s);
	tap_ok(!upool_check(&u), "entities: invariants hold");
	for (i = 0; i < 32; i++)
		upool_del(&u, &sy[i]);
	upool_del(&u, &k);
	upool_free(&u);
}

/*
 * A minimum given later (N5): 250 connections admitted without one
 * cost the pool nothing, so a newcomer with a minimum is admitted; a
 * connection that then claims its minimum gets it while the budget
 * allows, and -ENOSPC with nothing changed once it does not.
 */
static void test_min_later(void)
{
	static struct rnp_cons peer[250], mount;
	u64 min[RNP_NR_RES] = { 257, 1 };
	unsigned int i, claimed = 0;
	int err = 0;
	struct upool u;

	upool_init(&u, 10000, 4096, 260);
	for (i = 0; i < 250; i++)
		assert(!upool_add(&u, &peer[i], 1, 0, 0, 0));
	tap_ok(!upool_add(&u, &mount, 1, 257, 1, 0),
	       "min later: 250 connections without a minimum leave room for a mount's");
	for (i = 0; i < 250 && !err; i++) {
		err = rnp_set_min(&u.p, &peer[i], min);
		claimed += !err;
	}
	tap_ok(err == -ENOSPC && claimed == 37 && peer[37].r[E].min == 0 &&
	       u.p.r[E].min_total == 38 * 257,
	       "min later: 37 claims fit beside the mount's, the 38th is refused whole (%u, err %d, min_total %llu)",
	       claimed, err, (unsigned long long)u.p.r[E].min_total);
	tap_ok(!upool_check(&u), "min later: invariants hold");
	for (i = 0; i < 250; i++)
		upool_del(&u, &peer[i]);
	upool_del(&u, &mount);
	tap_ok(!u.p.r[E].min_total && !u.p.r[K].min_total, "min later: leaving gives the minimums back");
	upool_free(&u);
}

/*
 * An idle reclaim's plan (N7): one pass keeps the largest spares in
 * order and the total, whatever the number of consumers; equal to
 * sorting all of them.
 */
static int desc_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void test_reclaim_plan(void)
{
	static u64 spare[2000], sorted[2000];
	struct rnp_reclaim_plan pl;
	unsigned int seed = 7, i, k, bad = 0, zeros = 0;
	u64 total = 0;

	for (k = 0; k < 20; k++) {
		memset(&pl, 0, sizeof(pl));
		total = 0;
		zeros = 0;
		for (i = 0; i < 2000; i++) {
			seed = seed * 1103515245 + 12345;
			/* many ties and zeros: small values, a third idle-free */
			spare[i] = (seed >> 16) % 3 ? (seed >> 8) % (k ? 50 * k : 3) : 0;
			zeros += !spare[i];
			total += spare[i];
			rnp_reclaim_offer(&pl, &spare[i], spare[i]);
		}
		memcpy(sorted, spare, sizeof(spare));
		qsort(sorted, 2000, sizeof(u64), desc_u64);
		for (i = 0; i < pl.n; i++)
			bad += pl.spare[i] != sorted[i] || *(u64 *)pl.who[i] != pl.spare[i];
		bad += pl.total != total;
		bad += pl.n != (2000 - zeros < RNP_RECLAIM_ASK_MAX ? 2000 - zeros : RNP_RECLAIM_ASK_MAX);
	}
	tap_ok(!bad, "reclaim plan: the %d largest spares of 2000, in order, and the total, 20 draws (%u wrong)",
	       RNP_RECLAIM_ASK_MAX, bad);
	memset(&pl, 0, sizeof(pl));
	rnp_reclaim_offer(&pl, &spare[0], 0);
	rnp_reclaim_offer(&pl, &spare[1], 5);
	rnp_reclaim_offer(&pl, &spare[2], 9);
	tap_ok(pl.n == 2 && pl.total == 14 && pl.spare[0] == 9 && pl.who[0] == &spare[2] &&
	       pl.spare[1] == 5, "reclaim plan: no spare is not asked; fewer than %d, all in order (n %u, total %llu)",
	       RNP_RECLAIM_ASK_MAX, pl.n, (unsigned long long)pl.total);
}

int main(void)
{
	test_lone_consumer();
	test_equal_weights();
	test_weights();
	test_low_demand();
	test_arrive_leave_budget();
	test_zero_free();
	test_decay_hysteresis_waiters();
	test_model();
	test_random_ops();
	test_huge_budget();
	test_policies();
	test_large_waiters();
	test_may_hold();
	test_target_follows_share();
	test_budget_below_held();
	test_reserve_kept_when_shrinking();
	test_announce_relief();
	test_groups_model();
	test_tenants();
	test_demanding_entities();
	test_min_later();
	test_reclaim_plan();
	return tap_done();
}
