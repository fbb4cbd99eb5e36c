// SPDX-License-Identifier: GPL-2.0
/*
 * A pin-down cache (Tezuka et al., the baseline of the MRRC paper), simulated:
 * see pindown.h. Tested against a naive model in
 * tests/unit/test_pindown.c.
 */
#include <stdlib.h>
#include <string.h>

#include "pindown.h"

/*
 * The pin-down cache's regions: a pool with an LRU list (most recent at
 * the head) and a hash of start pages. A request hits a region that
 * starts at most PD_SPAN pages before it and contains it.
 */
#define PD_BUCKETS	(1 << 18)

struct pd_region {
	uint64_t first, last;	/* pages, inclusive */
	int prev, next;		/* LRU list */
	int hnext;		/* hash chain */
};

struct pindown {
	struct pd_region *reg;
	int nreg, cap, free_list, head, tail;
	int bucket[PD_BUCKETS];
	uint64_t held, capacity;
};

static unsigned int pd_hash(uint64_t first)
{
	return (unsigned int)((first * 0x9e3779b97f4a7c15ULL) >> 46) & (PD_BUCKETS - 1);
}

static int pd_find(struct pindown *pd, uint64_t first, uint64_t last)
{
	uint64_t d;
	int i;

	for (d = 0; d < PD_SPAN && d <= first; d++)
		for (i = pd->bucket[pd_hash(first - d)]; i >= 0; i = pd->reg[i].hnext)
			if (pd->reg[i].first == first - d && pd->reg[i].last >= last)
				return i;
	return -1;
}

static void pd_unlink(struct pindown *pd, int i)
{
	struct pd_region *r = &pd->reg[i];

	if (r->prev >= 0)
		pd->reg[r->prev].next = r->next;
	else
		pd->head = r->next;
	if (r->next >= 0)
		pd->reg[r->next].prev = r->prev;
	else
		pd->tail = r->prev;
}

static void pd_push(struct pindown *pd, int i)
{
	pd->reg[i].prev = -1;
	pd->reg[i].next = pd->head;
	if (pd->head >= 0)
		pd->reg[pd->head].prev = i;
	pd->head = i;
	if (pd->tail < 0)
		pd->tail = i;
}

static void pd_unhash(struct pindown *pd, int i)
{
	int *p = &pd->bucket[pd_hash(pd->reg[i].first)];

	while (*p != i)
		p = &pd->reg[*p].hnext;
	*p = pd->reg[i].hnext;
}

static int pd_new(struct pindown *pd, uint64_t first, uint64_t last)
{
	int i;

	if (pd->free_list >= 0) {
		i = pd->free_list;
		pd->free_list = pd->reg[i].next;
	} else {
		if (pd->nreg == pd->cap) {
			struct pd_region *n = realloc(pd->reg, 2 * (pd->cap + 512) * sizeof(*n));

			if (!n)
				return -1;
			pd->reg = n;
			pd->cap = 2 * (pd->cap + 512);
		}
		i = pd->nreg++;
	}
	pd->reg[i].first = first;
	pd->reg[i].last = last;
	pd->reg[i].hnext = pd->bucket[pd_hash(first)];
	pd->bucket[pd_hash(first)] = i;
	pd_push(pd, i);
	pd->held += last - first + 1;
	return i;
}

/**
 * pindown_create - an empty pin-down cache
 * @capacity: pages it may keep registered
 *
 * Return: the cache, or NULL without memory.
 */
struct pindown *pindown_create(uint64_t capacity)
{
	struct pindown *pd = calloc(1, sizeof(*pd));

	if (!pd)
		return NULL;
	memset(pd->bucket, 0xff, sizeof(pd->bucket));
	pd->free_list = pd->head = pd->tail = -1;
	pd->capacity = capacity;
	return pd;
}

/**
 * pindown_destroy - free the cache (its registrations are not counted)
 * @pd: the cache
 */
void pindown_destroy(struct pindown *pd)
{
	free(pd->reg);
	free(pd);
}

/**
 * pindown_access - one request for pages [@first, @last]
 * @pd: the cache
 * @first: first page
 * @last: last page (inclusive)
 * @evicted: filled with the sizes (pages) of the registrations evicted
 * @max: room in @evicted
 * @nevicted: set to how many were
 *
 * A cached registration starting at most PD_SPAN pages before @first and
 * reaching @last serves it (of several, the one starting closest, the
 * newest among equals) and becomes the most recent; otherwise
 * exactly the request is registered and cached, and the least recently
 * used registrations are evicted (deregistered) while the cache holds
 * more than its capacity, never the new one.
 *
 * Return: 1 hit, 0 miss, -1 without memory.
 */
int pindown_access(struct pindown *pd, uint64_t first, uint64_t last,
		   uint64_t *evicted, int max, int *nevicted)
{
	int k = pd_find(pd, first, last);

	*nevicted = 0;
	if (k >= 0) {
		pd_unlink(pd, k);
		pd_push(pd, k);
		return 1;
	}
	k = pd_new(pd, first, last);
	if (k < 0)
		return -1;
	while (pd->held > pd->capacity && pd->tail != k && *nevicted < max) {
		int v = pd->tail;
		uint64_t pages = pd->reg[v].last - pd->reg[v].first + 1;

		pd->held -= pages;
		evicted[(*nevicted)++] = pages;
		pd_unlink(pd, v);
		pd_unhash(pd, v);
		pd->reg[v].next = pd->free_list;
		pd->free_list = v;
	}
	return 0;
}
