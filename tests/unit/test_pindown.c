// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of eval/pindown.c, the pin-down cache simulator (the MRRC paper's
 * baseline): random requests through it and through a naive model (an
 * array of registrations with use stamps, scanned whole; of several
 * containing a request, the one starting closest serves it, the newest
 * among equals), which must agree on every hit and every eviction; then
 * known cases.
 */
#include <stdio.h>
#include <stdlib.h>

#include <rdmastor/compat.h>
#include "eval/pindown.h"
#include "tap.h"

#define MAXR 4096

static struct { uint64_t first, last, stamp, id; } m[MAXR];
static int mn;
static uint64_t mheld, mclock, mid;

/* 1 hit, 0 miss; evicted sizes in ev[], their count in *ne */
static int model(uint64_t cap, uint64_t first, uint64_t last, uint64_t *ev, int *ne)
{
	int i, best = -1;

	*ne = 0;
	mclock++;
	/* the containing one starting closest, the newest among equals */
	for (i = 0; i < mn; i++)
		if (m[i].first <= first && first - m[i].first < PD_SPAN && m[i].last >= last &&
		    (best < 0 || m[i].first > m[best].first ||
		     (m[i].first == m[best].first && m[i].id > m[best].id)))
			best = i;
	if (best >= 0) {
		m[best].stamp = mclock;
		return 1;
	}
	m[mn].first = first;
	m[mn].last = last;
	m[mn].id = ++mid;
	m[mn++].stamp = mclock;
	mheld += last - first + 1;
	while (mheld > cap && mn > 1) {
		int lru = -1;

		for (i = 0; i < mn; i++)
			if (m[i].stamp != mclock && (lru < 0 || m[i].stamp < m[lru].stamp))
				lru = i;
		if (lru < 0)
			break;
		ev[(*ne)++] = m[lru].last - m[lru].first + 1;
		mheld -= m[lru].last - m[lru].first + 1;
		m[lru] = m[--mn];
	}
	return 0;
}

static int run_random(uint64_t cap, unsigned int seed)
{
	struct pindown *pd = pindown_create(cap);
	uint64_t ev1[256], ev2[256];
	int i, j, n1, n2, bad = 0;

	mn = 0;
	mheld = mclock = mid = 0;
	srandom(seed);
	for (i = 0; i < 3000 && !bad; i++) {
		uint64_t first = random() % 300, last = first + random() % 8;
		int h1 = pindown_access(pd, first, last, ev1, 256, &n1);
		int h2 = model(cap, first, last, ev2, &n2);

		if (h1 != h2 || n1 != n2)
			bad = 1;
		for (j = 0; !bad && j < n1; j++)
			if (ev1[j] != ev2[j])
				bad = 1;
		if (bad)
			printf("# request %d [%llu, %llu]: sim %d (%d evicted), model %d (%d)\n", i,
			       (unsigned long long)first, (unsigned long long)last, h1, n1, h2, n2);
	}
	pindown_destroy(pd);
	return !bad;
}

int main(void)
{
	static const uint64_t caps[] = { 8, 32, 100, 400, 5000 };
	struct pindown *pd;
	uint64_t ev[8];
	int r[5], n[5];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(caps); i++)
		tap_ok(run_random(caps[i], 7 + i), "capacity %llu pages: 3000 random requests agree with the model",
		       (unsigned long long)caps[i]);

	pd = pindown_create(6);
	r[0] = pindown_access(pd, 10, 13, ev, 8, &n[0]);	/* miss: 4 pages */
	r[1] = pindown_access(pd, 11, 12, ev, 8, &n[1]);	/* inside: hit */
	r[2] = pindown_access(pd, 20, 21, ev, 8, &n[2]);	/* miss: 6 pages held */
	r[3] = pindown_access(pd, 30, 30, ev, 8, &n[3]);	/* miss: 7 > 6, evicts the LRU: 10-13 */
	r[4] = pindown_access(pd, 10, 10, ev, 8, &n[4]);	/* it was evicted: miss */
	tap_ok(r[0] == 0 && r[1] == 1 && r[2] == 0 && n[2] == 0 && r[3] == 0 && n[3] == 1 &&
	       r[4] == 0, "containment hits, LRU eviction past the capacity (%d %d %d %d %d)",
	       r[0], r[1], r[2], r[3], r[4]);
	pindown_destroy(pd);
	pd = pindown_create(2);
	r[0] = pindown_access(pd, 0, 9, ev, 8, &n[0]);
	tap_ok(r[0] == 0 && n[0] == 0, "a request larger than the capacity is kept (it is in use)");
	r[1] = pindown_access(pd, 100, 100, ev, 8, &n[1]);
	tap_ok(r[1] == 0 && n[1] == 1 && ev[0] == 10, "and goes at the next miss");
	pindown_destroy(pd);
	return tap_done();
}
