// SPDX-License-Identifier: GPL-2.0
/*
 * bench_policy: what rnic_mgr's policy costs, in user space.
 *
 *   bench_policy [--csv FILE]
 *
 * 1. An uncontended acquire/release pair: the fast path (within the
 *    grant: what rnic_acquire() and rnic_release() do under the
 *    consumer's own lock, here with a pthread spinlock standing in for
 *    it) and the slow path (grant empty: try_acquire and release under
 *    the pool's lock).
 * 2. One rebalance for 10 .. 100,000 consumers with mixed weights and
 *    demands, half of them hungry. Its cost must grow no faster than
 *    n log n: the table shows ns / (n log2 n), and the verdict compares
 *    the largest n with the smallest n >= 1000 (below that, constant
 *    costs dominate).
 *
 * A benchmark, not a test: it prints figures and a verdict, and exits 0
 * unless it could not run.
 */
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <pthread.h>
#include "eval/pool.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define RUNS 7

struct figure {
	double median, lo, hi;
};

static struct figure summarize(double *v, int n)
{
	struct figure f;

	qsort(v, n, sizeof(*v), cmp_double);
	f.median = v[n / 2];
	f.lo = v[0];
	f.hi = v[n - 1];
	return f;
}

/* Results go here so the compiler cannot prove the loops away. */
u64 bench_sink;

static struct figure bench_fast_pair(bool locked)
{
	static struct upool u;
	static struct rnp_cons c;
	pthread_spinlock_t lock;
	const u64 n[RNP_NR_RES] = { 16, 1 };
	const u64 iters = 20000000;
	double v[RUNS];
	int run;

	pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
	upool_init(&u, 1 << 20, 4096, 4);
	if (upool_add(&u, &c, 1, 16, 1, 0) ||
	    upool_acquire(&u, &c, 16, 1, 0) != UP_GRANTED) {
		fprintf(stderr, "bench_policy: cannot set up the pool\n");
		exit(1);
	}
	upool_release(&u, &c, 16, 1, false);
	for (run = 0; run < RUNS; run++) {
		u64 t0 = now_ns(), i, ok = 0;

		for (i = 0; i < iters; i++) {
			if (locked)
				pthread_spin_lock(&lock);
			ok += rnp_take_granted(&c, n);
			if (locked) {
				pthread_spin_unlock(&lock);
				pthread_spin_lock(&lock);
			}
			ok += rnp_release_fast(&c, n);
			if (locked)
				pthread_spin_unlock(&lock);
		}
		v[run] = (double)(now_ns() - t0) / iters;
		if (ok != 2 * iters) {
			fprintf(stderr, "bench_policy: fast path not taken\n");
			exit(1);
		}
		bench_sink += ok;
	}
	upool_del(&u, &c);
	upool_free(&u);
	return summarize(v, RUNS);
}

static struct figure bench_slow_pair(void)
{
	static struct upool u;
	static struct rnp_cons c;
	/* above the minimum, so a contended release hands the rest back */
	const u64 n[RNP_NR_RES] = { 64, 1 };
	const u64 iters = 5000000;
	double v[RUNS];
	int run;

	upool_init(&u, 1 << 20, 4096, 4);
	if (upool_add(&u, &c, 1, 16, 1, 0)) {
		fprintf(stderr, "bench_policy: cannot set up the pool\n");
		exit(1);
	}
	for (run = 0; run < RUNS; run++) {
		u64 t0 = now_ns(), i, ok = 0;

		for (i = 0; i < iters; i++) {
			ok += rnp_try_acquire(&u.p, &c, n);
			rnp_release(&u.p, &c, n, true);
			/* the grant went back: the next acquire is slow again */
			ok += c.r[RNP_ENTRIES].grant < n[RNP_ENTRIES];
		}
		v[run] = (double)(now_ns() - t0) / iters;
		if (ok != 2 * iters) {
			fprintf(stderr, "bench_policy: slow path not taken\n");
			exit(1);
		}
		bench_sink += ok;
	}
	upool_del(&u, &c);
	upool_free(&u);
	return summarize(v, RUNS);
}

/* A small deterministic generator, so runs are comparable. */
static u64 rng_state = 88172645463325252ull;

static u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static struct figure bench_rebalance(u32 nr)
{
	struct upool u;
	struct rnp_cons *cons = calloc(nr, sizeof(*cons));
	u64 budget = (u64)nr * 1024, now = 1000, iters, i;
	double v[RUNS];
	u32 k;
	int run;

	if (!cons) {
		fprintf(stderr, "bench_policy: out of memory\n");
		exit(1);
	}
	upool_init(&u, budget, (u64)nr * 8, nr);
	for (k = 0; k < nr; k++) {
		struct rnp_cons *c = &cons[k];

		if (upool_add(&u, c, 1 + rng() % 8, 16, 1, 0)) {
			fprintf(stderr, "bench_policy: admit failed at %u\n", k);
			exit(1);
		}
		/* demands from 16 to 4096 entries; every other one hungry */
		c->r[RNP_ENTRIES].demand = 16 + rng() % 4081;
		if (k & 1)
			c->r[RNP_ENTRIES].hungry_until_ms = U64_MAX;
		c->r[RNP_ENTRIES].held = min_t(u64, c->r[RNP_ENTRIES].demand, 1024);
		c->r[RNP_ENTRIES].grant = c->r[RNP_ENTRIES].held;
		u.p.r[RNP_ENTRIES].granted += c->r[RNP_ENTRIES].grant;
	}
	/* Aim for about 10 ms a run. */
	iters = 1000000 / nr + 1;
	for (run = 0; run < RUNS; run++) {
		u64 t0 = now_ns();

		for (i = 0; i < iters; i++)
			rnp_rebalance(&u.p, ++now);
		v[run] = (double)(now_ns() - t0) / iters;
	}
	bench_sink += u.p.cons[0]->r[RNP_ENTRIES].share;
	upool_free(&u);
	free(cons);
	return summarize(v, RUNS);
}

int main(int argc, char **argv)
{
	static const u32 sizes[] = { 10, 100, 1000, 10000, 100000 };
	struct figure fast, locked, slow, reb[5];
	double norm[5], base = 0;
	FILE *csv = NULL;
	int i;

	if (argc == 3 && !strcmp(argv[1], "--csv")) {
		csv = fopen(argv[2], "w");
		if (!csv) {
			perror(argv[2]);
			return 1;
		}
	} else if (argc != 1) {
		fprintf(stderr, "usage: bench_policy [--csv FILE]\n");
		return 2;
	}

	fprintf(stderr, "bench_policy: acquire/release pairs...\n");
	fast = bench_fast_pair(false);
	locked = bench_fast_pair(true);
	slow = bench_slow_pair();
	printf("Uncontended acquire/release pair, user space (ns, median of %d runs [min..max])\n",
	       RUNS);
	printf("  %-44s %8s  %s\n", "path", "ns/pair", "spread");
	printf("  %-44s %8.1f  [%.1f..%.1f]\n", "fast: policy only (within grant)",
	       fast.median, fast.lo, fast.hi);
	printf("  %-44s %8.1f  [%.1f..%.1f]\n", "fast: policy + consumer spinlock",
	       locked.median, locked.lo, locked.hi);
	printf("  %-44s %8.1f  [%.1f..%.1f]\n", "slow: try_acquire + release to pool",
	       slow.median, slow.lo, slow.hi);
	if (csv) {
		fprintf(csv, "kind,n,median_ns,min_ns,max_ns\n");
		fprintf(csv, "pair_fast,1,%.1f,%.1f,%.1f\n", fast.median, fast.lo, fast.hi);
		fprintf(csv, "pair_fast_locked,1,%.1f,%.1f,%.1f\n", locked.median,
			locked.lo, locked.hi);
		fprintf(csv, "pair_slow,1,%.1f,%.1f,%.1f\n", slow.median, slow.lo, slow.hi);
	}

	printf("\nOne rebalance (ns, median of %d runs [min..max])\n", RUNS);
	printf("  %8s %14s %24s %16s\n", "consumers", "ns", "spread", "ns/(n log2 n)");
	for (i = 0; i < 5; i++) {
		fprintf(stderr, "bench_policy: rebalance, %u consumers...\n", sizes[i]);
		reb[i] = bench_rebalance(sizes[i]);
		norm[i] = reb[i].median / (sizes[i] * log2(sizes[i]));
		printf("  %8u %14.0f %11.0f..%-12.0f %16.2f\n", sizes[i], reb[i].median,
		       reb[i].lo, reb[i].hi, norm[i]);
		if (csv)
			fprintf(csv, "rebalance,%u,%.0f,%.0f,%.0f\n", sizes[i],
				reb[i].median, reb[i].lo, reb[i].hi);
		if (sizes[i] >= 1000 && (!base || norm[i] < base))
			base = norm[i];
	}
	/*
	 * Growth no faster than n log n means ns/(n log2 n) stays bounded;
	 * allow 2x for caches (100,000 consumers outgrow them).
	 */
	printf("\nGrowth: ns/(n log2 n) at %u is %.2fx the smallest for n >= 1000: %s\n",
	       sizes[4], norm[4] / base, norm[4] / base <= 2.0 ?
	       "within n log n" : "FASTER THAN n log n");
	if (csv)
		fclose(csv);
	return 0;
}
