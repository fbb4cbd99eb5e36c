// SPDX-License-Identifier: GPL-2.0
/*
 * regsim: the MRRC paper's experiment, registration caches compared on the
 * paper's workload shapes (Documentation/evaluation.rst).
 *
 *   regsim [--cost RA,RB,DA,DB] [--csv FILE] [WORKLOAD...]
 *
 * Each request registers a buffer for one use and releases it. Three
 * policies serve the requests:
 *
 *   none     register and deregister every time (no cache)
 *   pindown  Tezuka's pin-down cache: a request inside a cached
 *            registration hits; otherwise exactly it is registered and
 *            cached; plain LRU eviction down to the capacity, one
 *            deregistration each
 *   mrrc     librnic's region cache (librnic/regcache.c, the MRRC paper's
 *            MRRC): partial overlaps reuse the cached part, eviction by
 *            size and recency, batched deregistration
 *
 * Cost model (the paper's): a registration of p pages costs RA * p + RB
 * microseconds, a deregistration DA * p + DB (the paper's testbed: 0.77,
 * 7.42, 0.22, 1.1; `make bench B=regcache` fits ours in the guest). A
 * batch of deregistrations pays DB once per region all the same: verbs
 * have no batched deregistration.
 *
 * Workloads (synthetic, after the paper's two traces):
 *   cello    one client's small disk I/O: 1 page (80%) or 2, Zipf 0.9
 *            over 64K two-page blocks
 *   httpd    a web server reading whole files of 1-32 pages (log-uniform
 *            sizes), Zipf 0.8 over 8000 files
 * and FILE: a registration trace, one "ADDR LEN" per line (hex or
 * decimal bytes; further columns ignored), '#' comments: what
 * tests/lib/guest/capture-trace writes as REGS.
 *
 * For each workload and cache size: the hit ratio (requests served
 * wholly from the cache) and the total registration cost of each policy.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmastor/compat.h>
#include "librnic/regcache.h"
#include "pindown.h"

#define PG 4096UL

struct req {
	uint64_t addr;
	uint64_t len;
};

struct cost {
	double ra, rb, da, db;		/* microseconds */
};

struct outcome {
	uint64_t hits;
	uint64_t regs;
	double cost_us;
};

static struct cost model = { 0.77, 7.42, 0.22, 1.1 };

static double reg_cost(uint64_t pages)
{
	return model.ra * pages + model.rb;
}

static double dereg_cost(uint64_t pages)
{
	return model.da * pages + model.db;
}

static uint64_t pages_of(const struct req *r)
{
	return (r->addr % PG + r->len + PG - 1) / PG;
}

/* --- workloads --- */

static double *zipf_cdf(unsigned int n, double alpha)
{
	double *cdf = malloc(n * sizeof(*cdf)), s = 0;
	unsigned int i;

	if (!cdf)
		exit(1);
	for (i = 0; i < n; i++)
		cdf[i] = (s += 1 / pow(i + 1, alpha));
	for (i = 0; i < n; i++)
		cdf[i] /= s;
	return cdf;
}

static unsigned int zipf_draw(const double *cdf, unsigned int n)
{
	double u = (double)random() / RAND_MAX;
	unsigned int lo = 0, hi = n - 1;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* a fixed permutation, so popular blocks are not neighbours */
static uint64_t scatter(uint64_t i, uint64_t n)
{
	return (i * 2654435761ULL) % n;
}

static struct req *gen_cello(size_t *n)
{
	const unsigned int blocks = 65536;
	double *cdf = zipf_cdf(blocks, 0.9);
	struct req *r;
	size_t i;

	*n = 200000;
	r = malloc(*n * sizeof(*r));
	if (!r)
		exit(1);
	srandom(2);
	for (i = 0; i < *n; i++) {
		uint64_t b = scatter(zipf_draw(cdf, blocks), blocks);

		r[i].addr = 0x10000000 + b * 2 * PG;
		r[i].len = random() % 5 ? PG : 2 * PG;
	}
	free(cdf);
	return r;
}

static struct req *gen_httpd(size_t *n)
{
	const unsigned int files = 8000;
	double *cdf = zipf_cdf(files, 0.8);
	uint64_t *base = malloc(files * sizeof(*base)), *size = malloc(files * sizeof(*size));
	uint64_t at = 0x10000000;
	struct req *r;
	unsigned int f;
	size_t i;

	*n = 200000;
	r = malloc(*n * sizeof(*r));
	if (!r || !base || !size)
		exit(1);
	srandom(3);
	for (f = 0; f < files; f++) {
		size[f] = (uint64_t)1 << (random() % 6);	/* 1..32 pages */
		base[f] = at;
		at += size[f] * PG;
	}
	for (i = 0; i < *n; i++) {
		f = (unsigned int)scatter(zipf_draw(cdf, files), files);
		r[i].addr = base[f];
		r[i].len = size[f] * PG;
	}
	free(cdf);
	free(base);
	free(size);
	return r;
}

static struct req *load(const char *path, size_t *n)
{
	struct req *r = NULL;
	size_t cap = 0;
	char line[128];
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return NULL;
	}
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, l;
		char *end;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		/*
		 * strtoull, not sscanf's %lli: a kernel address (0xffff...)
		 * does not fit a signed long long. Columns after the length
		 * (capture-trace's time, context, kind) are not used.
		 */
		errno = 0;
		a = strtoull(line, &end, 0);
		l = end != line ? strtoull(end, &end, 0) : 0;
		if (errno || !l) {
			fprintf(stderr, "%s: malformed line: %s", path, line);
			free(r);
			fclose(f);
			return NULL;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 4096;
			r = realloc(r, cap * sizeof(*r));
			if (!r)
				exit(1);
		}
		r[(*n)++] = (struct req){ a, l };
	}
	fclose(f);
	return r;
}

/* --- policies --- */

static struct outcome run_none(const struct req *r, size_t n)
{
	struct outcome o = { 0, n, 0 };
	size_t i;

	for (i = 0; i < n; i++)
		o.cost_us += reg_cost(pages_of(&r[i])) + dereg_cost(pages_of(&r[i]));
	return o;
}

static struct outcome run_pindown(const struct req *r, size_t n, uint64_t capacity)
{
	struct pindown *pd = pindown_create(capacity);
	struct outcome o = { 0, 0, 0 };
	size_t i;

	if (!pd)
		exit(1);
	for (i = 0; i < n; i++) {
		uint64_t first = r[i].addr / PG, last = (r[i].addr + r[i].len - 1) / PG;
		uint64_t evicted[1024];
		int e, j;

		if (pindown_access(pd, first, last, evicted, 1024, &e) == 1) {
			o.hits++;
			continue;
		}
		o.regs++;
		o.cost_us += reg_cost(last - first + 1);
		for (j = 0; j < e; j++)
			o.cost_us += dereg_cost(evicted[j]);
	}
	pindown_destroy(pd);
	return o;
}

struct mrrc_ctx {
	double cost_us;
};

static int mrrc_reg(void *ctx, uintptr_t addr, size_t len, void **handle)
{
	struct mrrc_ctx *m = ctx;

	(void)addr;
	m->cost_us += reg_cost(len / PG);
	*handle = (void *)(uintptr_t)(len / PG);	/* the pages, for dereg */
	return 0;
}

static void mrrc_dereg(void *ctx, void *const *handles, size_t n)
{
	struct mrrc_ctx *m = ctx;
	size_t i;

	for (i = 0; i < n; i++)
		m->cost_us += dereg_cost((uintptr_t)handles[i]);
}

static const struct rnic_cache_ops mrrc_ops = { mrrc_reg, mrrc_dereg };

static struct outcome run_mrrc(const struct req *r, size_t n, uint64_t capacity)
{
	struct mrrc_ctx m = { 0 };
	struct rnic_cache_seg seg[16];
	struct rnic_cache *c = rnic_cache_create(&mrrc_ops, &m, PG, capacity);
	struct outcome o = { 0, 0, 0 };
	size_t i;

	if (!c)
		exit(1);
	for (i = 0; i < n; i++) {
		int k = rnic_cache_get(c, r[i].addr, r[i].len, seg, 16);

		if (k < 0) {
			fprintf(stderr, "regsim: rnic_cache_get: %d\n", k);
			exit(1);
		}
		rnic_cache_put(c, seg, k);
	}
	o.hits = rnic_cache_get_stats(c)->hits;
	o.regs = rnic_cache_get_stats(c)->regs;
	/* what is still cached at the end is not counted, as for pin-down */
	o.cost_us = m.cost_us;
	rnic_cache_destroy(c);
	return o;
}

static FILE *csv;

static void report(const char *name, const struct req *r, size_t n)
{
	static const uint64_t caps[] = { 1024, 4096, 16384, 65536, 262144 };
	struct outcome none = run_none(r, n);
	unsigned int i;

	printf("%s: %zu requests; cost model reg %.2f us/page + %.2f, dereg %.2f us/page + %.2f\n",
	       name, n, model.ra, model.rb, model.da, model.db);
	printf("  %8s %10s %10s %10s %10s %12s %12s %12s %9s\n", "pages", "hit pin", "hit mrrc",
	       "regs pin", "regs mrrc", "cost none ms", "cost pin ms", "cost mrrc ms", "mrrc/pin");
	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		struct outcome p = run_pindown(r, n, caps[i]), m = run_mrrc(r, n, caps[i]);

		printf("  %8llu %9.1f%% %9.1f%% %10llu %10llu %12.1f %12.1f %12.1f %9.2f\n",
		       (unsigned long long)caps[i], 100.0 * p.hits / n, 100.0 * m.hits / n,
		       (unsigned long long)p.regs, (unsigned long long)m.regs,
		       none.cost_us / 1000, p.cost_us / 1000, m.cost_us / 1000,
		       p.cost_us ? m.cost_us / p.cost_us : 0);
		if (csv)
			fprintf(csv, "%s,%llu,%zu,%llu,%llu,%.1f,%.1f,%.1f\n", name,
				(unsigned long long)caps[i], n, (unsigned long long)p.hits,
				(unsigned long long)m.hits, none.cost_us, p.cost_us, m.cost_us);
	}
	printf("\n");
}

/**
 * main - regsim: the workloads or traces named, each through the three policies
 * @argc: argument count
 * @argv: options and workloads (see the top of this file)
 *
 * Return: 0, 1 when a file cannot be read, 2 for a usage error.
 */
int main(int argc, char **argv)
{
	int i, done = 0;

	for (i = 1; i < argc; i++) {
		struct req *r;
		size_t n;

		if (!strcmp(argv[i], "--cost") && i + 1 < argc) {
			if (sscanf(argv[++i], "%lf,%lf,%lf,%lf", &model.ra, &model.rb,
				   &model.da, &model.db) != 4) {
				fprintf(stderr, "regsim: --cost RA,RB,DA,DB (microseconds)\n");
				return 2;
			}
			continue;
		}
		if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
			csv = fopen(argv[++i], "a");
			if (!csv) {
				perror(argv[i]);
				return 1;
			}
			continue;
		}
		if (!strcmp(argv[i], "cello"))
			r = gen_cello(&n);
		else if (!strcmp(argv[i], "httpd"))
			r = gen_httpd(&n);
		else
			r = load(argv[i], &n);
		if (!r)
			return 1;
		report(argv[i], r, n);
		free(r);
		done++;
	}
	if (!done) {
		fprintf(stderr, "usage: regsim [--cost RA,RB,DA,DB] [--csv FILE] cello|httpd|FILE...\n");
		return 2;
	}
	if (csv)
		fclose(csv);
	return 0;
}
