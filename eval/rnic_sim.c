// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_sim: replay a scripted workload through rnic_mgr's policy
 * (rnic_mgr/policy.c, the same object the module runs) in simulated time
 * and report, for each phase between two script events, Jain's fairness
 * index, utilization and convergence time.
 *
 *   rnic_sim [--csv FILE] SCENARIO...   print a table per scenario
 *   rnic_sim --tap SCENARIO...          check each scenario's "expect"
 *
 * The simulated arbiter is the kernel's procedure (see pool.h and
 * rnic_mgr/arbiter.c): fast path, slow path that first lends out others'
 * idle grants, then rebalance and revocation; a reaper every 100 ms.
 * Consumers answer a shrink request after their own delay.
 *
 * Scenario format, one command a line, '#' starts a comment:
 *
 *   budget N                   entry budget at time 0 (keys are plenty)
 *   expect jain X              every phase's steady-state Jain index >= X
 *   expect util X              ... utilization >= X
 *   expect converge MS         ... converges within MS of the phase start
 *   end MS                     the run lasts MS
 *   at MS add NAME W MIN CHUNK DEMAND DELAY
 *                              a consumer arrives: weight, guaranteed
 *                              minimum, entries per acquire, demand
 *                              ("inf" saturates), shrink delay in ms
 *   at MS demand NAME DEMAND   its demand changes
 *   at MS del NAME             it leaves
 *   at MS budget N             the budget changes
 *
 * Fairness is measured against an independent computation of the ideal
 * weighted max-min allocation (bisection on the water level, floors at
 * the minimums, caps at the demands, capacity budget - reserve): Jain's
 * index of held_i / ideal_i over the consumers. Utilization is the sum
 * held over min(capacity, sum of demands). A phase has converged when
 * every consumer is within max(5%, one chunk) of its ideal and stays so
 * to the end of the phase; the steady state is the phase's second half.
 */
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "pool.h"

#define SIM_MAX_CONS	1024
#define SIM_MAX_EVENTS	1024
#define SIM_MAX_PHASES	256
#define SIM_REAP_MS	100
#define SIM_RATE	8	/* acquires a consumer tries per ms */
#define SIM_INF		U64_MAX

struct sim_cons {
	char name[32];
	struct rnp_cons pol;
	bool active;
	u32 weight;
	u64 min, chunk, demand, delay;
	u64 shrink_at;		/* when it will answer a shrink, or 0 */
	double ideal;
};

enum sim_ev_kind { EV_ADD, EV_DEMAND, EV_DEL, EV_BUDGET };

struct sim_event {
	u64 at;
	enum sim_ev_kind kind;
	char name[32];
	u32 weight;
	u64 min, chunk, demand, delay, budget;
};

struct sim_phase {
	u64 start, end;
	u32 consumers;
	double jain, util;	/* steady-state means */
	s64 converge;		/* ms after start, or -1 */
};

struct sim {
	const char *file;
	u64 budget, end;
	double want_jain, want_util;
	s64 want_converge;
	struct sim_event ev[SIM_MAX_EVENTS];
	u32 nev;
	struct sim_cons cons[SIM_MAX_CONS];
	u32 ncons;
	struct upool u;
	struct sim_phase ph[SIM_MAX_PHASES];
	u32 nph;
	u64 reserve0;		/* the reserve at the initial budget */
	FILE *csv;
};

static int sim_parse_demand(const char *s, u64 *d)
{
	char *end;

	if (!strcmp(s, "inf")) {
		*d = SIM_INF;
		return 0;
	}
	*d = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

static int sim_load(struct sim *s, const char *file)
{
	char line[256], a[32], b[32], dem[32];
	unsigned int ln = 0;
	FILE *f = fopen(file, "r");

	if (!f) {
		perror(file);
		return -1;
	}
	memset(s, 0, sizeof(*s));
	s->file = file;
	s->want_converge = -1;
	while (fgets(line, sizeof(line), f)) {
		struct sim_event *e = &s->ev[s->nev];
		unsigned long long at, x, y, z;
		double v;
		char *hash = strchr(line, '#');
		int n;

		ln++;
		if (hash)
			*hash = '\0';
		if (sscanf(line, " %31s", a) != 1)
			continue;
		if (sscanf(line, " budget %llu", &x) == 1) {
			s->budget = x;
		} else if (sscanf(line, " expect %31s %lf", b, &v) == 2) {
			if (!strcmp(b, "jain"))
				s->want_jain = v;
			else if (!strcmp(b, "util"))
				s->want_util = v;
			else if (!strcmp(b, "converge"))
				s->want_converge = (s64)v;
			else
				goto bad;
		} else if (sscanf(line, " end %llu", &x) == 1) {
			s->end = x;
		} else if (sscanf(line, " at %llu %31s", &at, a) == 2) {
			if (s->nev == SIM_MAX_EVENTS)
				goto bad;
			memset(e, 0, sizeof(*e));
			e->at = at;
			if (!strcmp(a, "add")) {
				unsigned int w;

				n = sscanf(line, " at %*u add %31s %u %llu %llu %31s %llu",
					   e->name, &w, &x, &y, dem, &z);
				if (n != 6 || sim_parse_demand(dem, &e->demand) || !y)
					goto bad;
				e->kind = EV_ADD;
				e->weight = w;
				e->min = x;
				e->chunk = y;
				e->delay = z;
			} else if (!strcmp(a, "demand")) {
				if (sscanf(line, " at %*u demand %31s %31s", e->name, dem) != 2 ||
				    sim_parse_demand(dem, &e->demand))
					goto bad;
				e->kind = EV_DEMAND;
			} else if (!strcmp(a, "del")) {
				if (sscanf(line, " at %*u del %31s", e->name) != 1)
					goto bad;
				e->kind = EV_DEL;
			} else if (!strcmp(a, "budget")) {
				if (sscanf(line, " at %*u budget %llu", &x) != 1)
					goto bad;
				e->kind = EV_BUDGET;
				e->budget = x;
			} else {
				goto bad;
			}
			if (s->nev && e->at < s->ev[s->nev - 1].at)
				goto bad;
			s->nev++;
		} else {
			goto bad;
		}
	}
	fclose(f);
	if (!s->budget || !s->end) {
		fprintf(stderr, "%s: needs budget and end\n", file);
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "%s:%u: cannot parse: %s", file, ln, line);
	fclose(f);
	return -1;
}

static struct sim_cons *sim_find(struct sim *s, const char *name)
{
	u32 i;

	for (i = 0; i < s->ncons; i++)
		if (s->cons[i].active && !strcmp(s->cons[i].name, name))
			return &s->cons[i];
	return NULL;
}

/* Ideal weighted max-min allocation, by bisection on the water level. */
static void sim_ideal(struct sim *s)
{
	const struct rnp_pool_res *pr = &s->u.p.r[RNP_ENTRIES];
	double cap = pr->budget > pr->reserve ? pr->budget - pr->reserve : pr->budget;
	double lo = 0, hi = 0, sum = 0;
	int it;
	u32 i;

	cap = fmax(cap, (double)pr->min_total);
	for (i = 0; i < s->ncons; i++) {
		struct sim_cons *c = &s->cons[i];

		if (c->active)
			hi = fmax(hi, cap / c->weight);
	}
	for (it = 0; it < 200; it++) {
		double mid = (lo + hi) / 2;

		sum = 0;
		for (i = 0; i < s->ncons; i++) {
			struct sim_cons *c = &s->cons[i];

			if (c->active)
				sum += fmin(fmax(mid * c->weight, (double)c->min),
					    fmin((double)c->demand, cap));
		}
		if (sum > cap)
			hi = mid;
		else
			lo = mid;
	}
	for (i = 0; i < s->ncons; i++) {
		struct sim_cons *c = &s->cons[i];

		if (c->active)
			c->ideal = fmin(fmax(lo * c->weight, (double)c->min),
					fmin((double)c->demand, cap));
	}
}

static bool sim_short(struct sim *s)
{
	return rnp_free(&s->u.p, RNP_ENTRIES) < s->u.p.r[RNP_ENTRIES].reserve;
}

/* Consumers newly asked to shrink will answer after their delay. */
static void sim_enforce_all(struct sim *s, u64 now)
{
	u32 i;

	upool_enforce_all(&s->u);
	for (i = 0; i < s->ncons; i++) {
		struct sim_cons *c = &s->cons[i];

		if (c->active && c->pol.r[RNP_ENTRIES].target != RNP_NO_TARGET &&
		    !c->shrink_at)
			c->shrink_at = now + c->delay;
	}
}

static void sim_trim_all(struct sim *s, struct sim_cons *self)
{
	u32 i;

	for (i = 0; i < s->ncons; i++)
		if (s->cons[i].active && &s->cons[i] != self)
			rnp_trim(&s->u.p, &s->cons[i].pol, false);
}

/* The kernel's acquire procedure (arbiter.c), minus waiting. */
static bool sim_acquire(struct sim *s, struct sim_cons *c, u64 now)
{
	u64 n[RNP_NR_RES] = { c->chunk, 0 };

	if (rnp_take_granted(&c->pol, n) || rnp_try_acquire(&s->u.p, &c->pol, n))
		return true;
	sim_trim_all(s, c);
	if (rnp_try_acquire(&s->u.p, &c->pol, n))
		return true;
	rnp_note_demand(&s->u.p, &c->pol, n, now);
	rnp_rebalance(&s->u.p, now);
	if (rnp_below_share(&c->pol, n))
		sim_enforce_all(s, now);
	return rnp_try_acquire(&s->u.p, &c->pol, n);
}

static void sim_release(struct sim *s, struct sim_cons *c, u64 n)
{
	u64 v[RNP_NR_RES] = { n, 0 };
	bool contended = sim_short(s);

	if (!contended && rnp_release_fast(&c->pol, v))
		return;
	rnp_release(&s->u.p, &c->pol, v, contended);
}

static void sim_step_cons(struct sim *s, struct sim_cons *c, u64 now)
{
	struct rnp_res_state *e = &c->pol.r[RNP_ENTRIES];
	int i;

	if (c->shrink_at && now >= c->shrink_at) {
		while (e->target != RNP_NO_TARGET && e->held > e->target)
			sim_release(s, c, min(c->chunk, e->held));
		c->shrink_at = 0;
		e->target = RNP_NO_TARGET;
	}
	while (e->held > c->demand)
		sim_release(s, c, min(c->chunk, e->held - c->demand));
	for (i = 0; i < SIM_RATE; i++) {
		if (c->demand != SIM_INF && e->held + c->chunk > c->demand)
			break;
		if (!sim_acquire(s, c, now))
			break;
	}
}

static void sim_reap(struct sim *s, u64 now)
{
	if (!sim_short(s))
		return;
	sim_trim_all(s, NULL);
	rnp_rebalance(&s->u.p, now);
	if (sim_short(s))
		sim_enforce_all(s, now);
}

static int sim_apply(struct sim *s, const struct sim_event *e, u64 now)
{
	struct sim_cons *c;

	switch (e->kind) {
	case EV_ADD:
		if (s->ncons == SIM_MAX_CONS || sim_find(s, e->name))
			return -1;
		c = &s->cons[s->ncons++];
		memset(c, 0, sizeof(*c));
		snprintf(c->name, sizeof(c->name), "%s", e->name);
		c->weight = e->weight;
		c->min = e->min;
		c->chunk = e->chunk;
		c->demand = e->demand;
		c->delay = e->delay;
		if (upool_add(&s->u, &c->pol, c->weight, c->min, 0, now))
			return -1;
		c->active = true;
		return 0;
	case EV_DEMAND:
		c = sim_find(s, e->name);
		if (!c)
			return -1;
		c->demand = e->demand;
		return 0;
	case EV_DEL:
		c = sim_find(s, e->name);
		if (!c)
			return -1;
		upool_del(&s->u, &c->pol);
		c->active = false;
		return 0;
	case EV_BUDGET:
		if (rnp_set_budget(&s->u.p, RNP_ENTRIES, e->budget))
			return -1;
		sim_trim_all(s, NULL);
		rnp_rebalance(&s->u.p, now);
		sim_enforce_all(s, now);
		return 0;
	}
	return -1;
}

struct sim_sample {
	double jain, util;
	bool close;
};

static struct sim_sample sim_measure(struct sim *s)
{
	const struct rnp_pool_res *pr = &s->u.p.r[RNP_ENTRIES];
	double cap = pr->budget > pr->reserve ? pr->budget - pr->reserve : pr->budget;
	double sx = 0, sx2 = 0, held = 0, dem = 0;
	struct sim_sample m = { 1, 1, true };
	u32 i, n = 0;

	for (i = 0; i < s->ncons; i++) {
		struct sim_cons *c = &s->cons[i];
		double h = (double)c->pol.r[RNP_ENTRIES].held;
		double x = c->ideal > 0 ? h / c->ideal : 1;

		if (!c->active)
			continue;
		n++;
		sx += x;
		sx2 += x * x;
		held += h;
		dem += fmin((double)c->demand, cap);
		if (fabs(h - c->ideal) > fmax(0.05 * c->ideal, (double)c->chunk))
			m.close = false;
	}
	if (n) {
		m.jain = sx2 > 0 ? sx * sx / (n * sx2) : 0;
		dem = fmin(dem, fmax(cap, (double)pr->min_total));
		m.util = dem > 0 ? fmin(held / dem, 1.0) : 1;
	}
	return m;
}

static int sim_run(struct sim *s)
{
	struct sim_phase *ph = NULL;
	u64 now, jn = 0;
	s64 last_far = -1;
	u32 next = 0, i;
	int err = 0;

	upool_init(&s->u, s->budget, U32_MAX, SIM_MAX_CONS);
	s->reserve0 = s->u.p.r[RNP_ENTRIES].reserve;
	if (s->csv)
		fprintf(s->csv, "# %s\nt_ms,consumer,held,ideal\n", s->file);
	for (now = 0; now <= s->end; now++) {
		bool changed = false;

		while (next < s->nev && s->ev[next].at == now) {
			if (sim_apply(s, &s->ev[next], now)) {
				fprintf(stderr, "%s: event %u at %llu ms failed\n", s->file,
					next, (unsigned long long)now);
				err = -1;
				goto out;
			}
			next++;
			changed = true;
		}
		if (changed || now == s->end) {
			if (ph) {
				ph->end = now;
				ph->converge = last_far < 0 ? 0 :
					(last_far + 1 < (s64)now ? last_far + 1 - (s64)ph->start : -1);
				ph->jain /= jn ? jn : 1;
				ph->util /= jn ? jn : 1;
			}
			if (now == s->end || s->nph == SIM_MAX_PHASES)
				break;
			ph = &s->ph[s->nph++];
			memset(ph, 0, sizeof(*ph));
			ph->start = now;
			last_far = -1;
			jn = 0;
			sim_ideal(s);
			for (i = 0; i < s->ncons; i++)
				ph->consumers += s->cons[i].active;
		}
		for (i = 0; i < s->ncons; i++)
			if (s->cons[i].active)
				sim_step_cons(s, &s->cons[i], now);
		if (now % SIM_REAP_MS == 0)
			sim_reap(s, now);
		if (upool_check(&s->u)) {
			fprintf(stderr, "%s: at %llu ms: %s\n", s->file,
				(unsigned long long)now, upool_check(&s->u));
			err = -1;
			goto out;
		}
		{
			struct sim_sample m = sim_measure(s);
			u64 next_at = next < s->nev ? s->ev[next].at : s->end;

			if (!m.close)
				last_far = now;
			if (now >= ph->start + (next_at - ph->start) / 2) {
				ph->jain += m.jain;
				ph->util += m.util;
				jn++;
			}
		}
		if (s->csv && now % 10 == 0)
			for (i = 0; i < s->ncons; i++)
				if (s->cons[i].active)
					fprintf(s->csv, "%llu,%s,%llu,%.0f\n",
						(unsigned long long)now, s->cons[i].name,
						(unsigned long long)s->cons[i].pol.r[RNP_ENTRIES].held,
						s->cons[i].ideal);
	}
out:
	upool_free(&s->u);
	return err;
}

static void sim_print(const struct sim *s)
{
	u32 i;

	printf("%s (budget %llu, reserve %llu)\n", s->file,
	       (unsigned long long)s->budget,
	       (unsigned long long)s->reserve0);
	printf("  %8s %8s %9s %7s %7s %12s\n", "from_ms", "to_ms", "consumers",
	       "jain", "util", "converge_ms");
	for (i = 0; i < s->nph; i++) {
		const struct sim_phase *p = &s->ph[i];
		char conv[24];

		if (p->converge < 0)
			snprintf(conv, sizeof(conv), "never");
		else
			snprintf(conv, sizeof(conv), "%lld", (long long)p->converge);
		printf("  %8llu %8llu %9u %7.4f %7.4f %12s\n",
		       (unsigned long long)p->start, (unsigned long long)p->end,
		       p->consumers, p->jain, p->util, conv);
	}
}

/* TAP: one result per scenario and bound, naming the worst phase. */
static unsigned int sim_tap(const struct sim *s, unsigned int n, unsigned int *failed)
{
	double worst_j = 2, worst_u = 2;
	s64 worst_c = 0;
	u32 i;

	for (i = 0; i < s->nph; i++) {
		const struct sim_phase *p = &s->ph[i];

		if (!p->consumers)
			continue;
		worst_j = fmin(worst_j, p->jain);
		worst_u = fmin(worst_u, p->util);
		if (p->converge < 0 || worst_c < 0)
			worst_c = -1;
		else if (p->converge > worst_c)
			worst_c = p->converge;
	}
	if (s->want_jain > 0) {
		bool ok = worst_j >= s->want_jain;

		printf("%sok %u - %s: Jain index %.4f >= %.2f in every phase\n",
		       ok ? "" : "not ", ++n, s->file, worst_j, s->want_jain);
		*failed += !ok;
	}
	if (s->want_util > 0) {
		bool ok = worst_u >= s->want_util;

		printf("%sok %u - %s: utilization %.4f >= %.2f in every phase\n",
		       ok ? "" : "not ", ++n, s->file, worst_u, s->want_util);
		*failed += !ok;
	}
	if (s->want_converge >= 0) {
		bool ok = worst_c >= 0 && worst_c <= s->want_converge;

		printf("%sok %u - %s: converges within %lld ms in every phase (worst %lld)\n",
		       ok ? "" : "not ", ++n, s->file, (long long)s->want_converge,
		       (long long)worst_c);
		*failed += !ok;
	}
	return n;
}

int main(int argc, char **argv)
{
	static struct sim s;
	unsigned int n = 0, failed = 0;
	const char *csv = NULL;
	bool tap = false;
	FILE *csvf = NULL;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--tap"))
			tap = true;
		else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
			csv = argv[++i];
		else
			break;
	}
	if (i == argc) {
		fprintf(stderr, "usage: %s [--tap] [--csv FILE] SCENARIO...\n", argv[0]);
		return 2;
	}
	if (csv) {
		csvf = fopen(csv, "w");
		if (!csvf) {
			perror(csv);
			return 2;
		}
	}
	for (; i < argc; i++) {
		int err = sim_load(&s, argv[i]);

		s.csv = csvf;
		if (!err)
			err = sim_run(&s);
		if (tap) {
			printf("%sok %u - %s: runs, invariants hold\n", err ? "not " : "",
			       ++n, argv[i]);
			failed += !!err;
			if (!err)
				n = sim_tap(&s, n, &failed);
		} else if (err) {
			failed++;
		} else {
			sim_print(&s);
		}
	}
	if (csvf)
		fclose(csvf);
	if (tap)
		printf("1..%u\n", n);
	return failed ? 1 : 0;
}
