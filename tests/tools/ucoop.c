// SPDX-License-Identifier: GPL-2.0
/*
 * ucoop: a verbs program that cooperates with rnic_mgr through librnic
 * (bound to /dev/rnic_mgr, registrations through the region cache), for
 * tests/vm/user_mrs.sh.
 *
 *   ucoop DEV coop N PAGES SECONDS
 *	register N separate buffers of PAGES pages through the cache, leave
 *	them idle in it, and serve events for SECONDS; a REVOKE evicts
 *	idle regions at once. Prints the library's counters at the end.
 *   ucoop DEV stale
 *	register a buffer through the cache, munmap it and map new pages at
 *	the same address: waits for the STALE event, then checks the cache
 *	registers the new pages rather than handing out the old MR.
 *
 * Exit status 0 when the scenario went as described, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "librnic/bind.h"
#include "librnic/verbs.h"

#define ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
		IBV_ACCESS_REMOTE_READ)

static struct ibv_pd *open_pd(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int i, n;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	return ctx ? ibv_alloc_pd(ctx) : NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_coop(struct rc_cache *c, struct rnic_binding *b, int n,
		size_t pages, double seconds)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	const struct rnic_lib_stats *s = &b->lib.stats;
	double end;
	int i;

	for (i = 0; i < n; i++) {
		struct rc_seg seg;
		void *buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (buf == MAP_FAILED || rc_get(c, (uintptr_t)buf, len, &seg, 1) != 1) {
			printf("coop reg %d failed\n", i);
			return 1;
		}
		rc_put(c, &seg, 1);
	}
	printf("coop cached %llu pages\n", (unsigned long long)rc_cached_pages(c));
	end = now_s() + seconds;
	while (now_s() < end) {
		int r = rnic_bind_process(b, 100);

		if (r < 0) {
			printf("coop events: %s\n", strerror(-r));
			return 1;
		}
	}
	printf("coop revokes=%llu asked=%llu freed=%llu short=%llu lost=%llu cached=%llu\n",
	       (unsigned long long)s->revokes, (unsigned long long)s->revoke_asked,
	       (unsigned long long)s->revoke_freed, (unsigned long long)s->revoke_short,
	       (unsigned long long)s->lost, (unsigned long long)rc_cached_pages(c));
	return 0;
}

static int run_stale(struct rc_cache *c, struct rnic_binding *b)
{
	size_t len = 8 * (size_t)sysconf(_SC_PAGESIZE);
	struct rc_seg seg;
	uint32_t old, new;
	double end;
	void *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED || rc_get(c, (uintptr_t)buf, len, &seg, 1) != 1)
		return 1;
	old = ((struct ibv_mr *)seg.handle)->lkey;
	rc_put(c, &seg, 1);
	if (mmap(buf, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_POPULATE, -1, 0) != buf)
		return 1;
	end = now_s() + 5;
	while (!b->lib.stats.stale && now_s() < end)
		if (rnic_bind_process(b, 100) < 0)
			return 1;
	if (rc_get(c, (uintptr_t)buf, len, &seg, 1) != 1)
		return 1;
	new = ((struct ibv_mr *)seg.handle)->lkey;
	rc_put(c, &seg, 1);
	printf("stale events=%llu dropped=%llu old=%u new=%u\n",
	       (unsigned long long)b->lib.stats.stale,
	       (unsigned long long)b->lib.stats.stale_dropped, old, new);
	return b->lib.stats.stale == 1 && b->lib.stats.stale_dropped == 1 &&
	       new != old ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct rnic_binding b;
	struct rnic_shared sh;
	struct rc_cache *c;
	struct ibv_pd *pd;
	int err, ret;

	if (argc < 3) {
		fprintf(stderr, "usage: ucoop DEV coop N PAGES SECONDS | ucoop DEV stale\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	pd = open_pd(argv[1]);
	if (!pd) {
		fprintf(stderr, "ucoop: cannot open %s\n", argv[1]);
		return 1;
	}
	c = rnic_verbs_cache(pd, ACCESS, UINT64_MAX);
	if (!c)
		return 1;
	err = rnic_bind_open(&b, argv[1], c, 0);
	if (err) {
		fprintf(stderr, "ucoop: bind: %s\n", strerror(-err));
		return 1;
	}
	if (rnic_shared_read(b.shared, &sh) || sh.abi_version != RNIC_USER_ABI_VERSION) {
		fprintf(stderr, "ucoop: shared page unreadable\n");
		return 1;
	}
	printf("bound consumer %llu grace_ms=%u entitlement=%llu\n",
	       (unsigned long long)b.consumer_id, b.grace_ms,
	       (unsigned long long)sh.entitlement);
	rc_set_capacity(c, sh.entitlement);
	if (!strcmp(argv[2], "coop") && argc == 6)
		ret = run_coop(c, &b, atoi(argv[3]), strtoul(argv[4], NULL, 0),
			   atof(argv[5]));
	else if (!strcmp(argv[2], "stale"))
		ret = run_stale(c, &b);
	else
		ret = 1;
	rnic_bind_close(&b);
	rnic_verbs_cache_destroy(c);
	return ret;
}
