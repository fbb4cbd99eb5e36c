// SPDX-License-Identifier: GPL-2.0
/*
 * What a hit in librnic's registration cache costs (the goal:
 * at most 90 ns; UCX's model is 50-90 ns): rnic_cache_get() + rnic_cache_put() of a
 * range inside a cached region, with R regions cached, against a
 * registrar that does nothing (only the cache is measured). Also the
 * cost of a miss that the cache itself adds (registrar excluded). One
 * line per R; --csv FILE writes them too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "librnic/regcache.h"

#define PG 4096UL
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BASE 0x100000000UL

static int nop_reg(void *ctx, uintptr_t a, size_t len, void **h)
{
	(void)ctx;
	(void)len;
	*h = (void *)a;
	return 0;
}

static void nop_dereg(void *ctx, void *const *h, size_t n)
{
	(void)ctx;
	(void)h;
	(void)n;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 16, 256, 4096, 65536 };
	const struct rnic_cache_ops ops = { nop_reg, nop_dereg };
	FILE *csv = NULL;
	unsigned int i, k;

	if (argc == 3 && !strcmp(argv[1], "--csv"))
		csv = fopen(argv[2], "w");
	if (csv)
		fprintf(csv, "regions,hit_ns,miss_ns\n");
	printf("%10s %12s %14s\n", "regions", "hit get+put", "miss get+put");
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		int r = sizes[k], iters = 2000000;
		/* every region 8 pages, one page apart: no two merge */
		struct rnic_cache *c = rnic_cache_create(&ops, NULL, PG, (uint64_t)r * 8 * 2);
		uintptr_t *addrs = malloc(iters * sizeof(*addrs));
		struct rnic_cache_seg s[4];
		double t0, hit, miss;
		int n;

		for (i = 0; i < (unsigned int)r; i++) {
			n = rnic_cache_get(c, BASE + i * 9 * PG, 8 * PG, s, 4);
			rnic_cache_put(c, s, n);
		}
		srand(k);
		for (i = 0; i < (unsigned int)iters; i++)
			addrs[i] = BASE + (rand() % r) * 9 * PG + rand() % (4 * PG);
		t0 = now_ns();
		for (i = 0; i < (unsigned int)iters; i++) {
			n = rnic_cache_get(c, addrs[i], 8192, s, 4);
			rnic_cache_put(c, s, n);
		}
		hit = (now_ns() - t0) / iters;
		/* misses: regions beyond the cached ones, then dropped again */
		iters = 200000;
		t0 = now_ns();
		for (i = 0; i < (unsigned int)iters; i++) {
			uintptr_t a = BASE + ((uintptr_t)r + 1 + i % 1024) * 9 * PG;

			n = rnic_cache_get(c, a, 8 * PG, s, 4);
			rnic_cache_put(c, s, n);
			rnic_cache_invalidate(c, a, 8 * PG);
		}
		miss = (now_ns() - t0) / iters;
		printf("%10d %9.1f ns %11.1f ns\n", r, hit, miss);
		if (csv)
			fprintf(csv, "%d,%.1f,%.1f\n", r, hit, miss);
		free(addrs);
		rnic_cache_destroy(c);
	}
	if (csv)
		fclose(csv);
	return 0;
}
