// SPDX-License-Identifier: GPL-2.0
/*
 * umulti: one process, two libraries, two bindings on one device
 * (review L6), for tests/vm/user_bindings.sh.
 *
 *   umulti DEV NA NB PAGES SECONDS
 *
 * Opens two verbs contexts on DEV, as two libraries of one program
 * would, each with a librnic region cache: cache W on context A bound
 * for the whole process (rnic_bind_open()), cache C on context B bound
 * for its context (rnic_bind_open_context()). Then, printing one TAP
 * line per step:
 *  - a second whole-process binding and a second binding of context B
 *    are refused (EBUSY); a context binding of a file that is not a
 *    verbs context is refused (EINVAL), of no file too (EBADF);
 *  - NA buffers of PAGES pages are cached through W and NB through C:
 *    each binding's page says what its own registrations hold;
 *  - one of B's buffers is unmapped: C hears STALE; then one of A's: W
 *    hears it; every STALE a binding heard dropped a region of its own
 *    cache (one routed to the other binding would drop nothing);
 *  - "multi ready W=HELD C=HELD" (what each page says), then both
 *    bindings serve events for SECONDS (the test makes another process
 *    take the budget meanwhile), and what each binding was asked for
 *    and gave back, by REVOKE or RECLAIM, is printed on one line
 *    "multi asked W=EVENTS:ASKED:FREED C=EVENTS:ASKED:FREED".
 *
 * Exit status 0 if every step went as described, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "librnic/bind.h"
#include "librnic/verbs.h"
#include "open_pd.h"

#define ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
		IBV_ACCESS_REMOTE_READ)

static int step, failed;

static void result(int ok, const char *what, long long got, long long want)
{
	step++;
	printf("%sok %d - %s (got %lld, want %lld)\n", ok ? "" : "not ", step, what,
	       got, want);
	failed |= !ok;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long long page_held(struct rnic_binding *b)
{
	struct rnic_shared sh;

	return rnic_shared_read(rnic_bind_shared(b), &sh) ? -1 : (long long)sh.held;
}

static void serve(struct rnic_binding *w, struct rnic_binding *c, int ms)
{
	rnic_bind_process(w, ms);
	rnic_bind_process(c, 0);
}

/* @n buffers of @len bytes, each cached (registered, then left idle) */
static char **cache_buffers(struct rnic_cache *c, int n, size_t len)
{
	char **buf = calloc(n, sizeof(*buf));
	int i;

	for (i = 0; buf && i < n; i++) {
		struct rnic_cache_seg seg;

		buf[i] = mmap(NULL, len, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (buf[i] == MAP_FAILED)
			return NULL;
		/*
		 * Unmapping part of a transparent huge page splits it, and
		 * the split clears the whole 2 MiB range: every registration
		 * in it would be reported stale, not only the unmapped one.
		 */
		madvise(buf[i], len, MADV_NOHUGEPAGE);
		memset(buf[i], 1, len);
		if (rnic_cache_get(c, (uintptr_t)buf[i], len, &seg, 1) != 1)
			return NULL;
		rnic_cache_put(c, &seg, 1);
	}
	return buf;
}

/*
 * Use each of @n buffers again, as a program would: a region dropped
 * on a STALE is registered anew. Return 0 if every one is cached.
 */
static int reuse_buffers(struct rnic_cache *c, char **buf, int n, size_t len)
{
	int i;

	for (i = 0; i < n; i++) {
		struct rnic_cache_seg seg;

		if (rnic_cache_get(c, (uintptr_t)buf[i], len, &seg, 1) != 1)
			return -1;
		rnic_cache_put(c, &seg, 1);
	}
	return 0;
}

/* Unmap @p and wait up to 5 s for @b to hear of it. */
static void unmap_and_wait(void *p, size_t len, struct rnic_binding *b,
			   struct rnic_binding *w, struct rnic_binding *c)
{
	uint64_t before = rnic_bind_stats(b)->stale;
	double end = now_s() + 5;

	munmap(p, len);
	while (rnic_bind_stats(b)->stale == before && now_s() < end)
		serve(w, c, 50);
	/* and a little longer, for a wrongly routed one to show up */
	serve(w, c, 200);
}

int main(int argc, char **argv)
{
	struct rnic_binding *w, *c, *x;
	struct rnic_cache *cw, *cc;
	struct ibv_pd *pa, *pb;
	size_t len;
	double end;
	char **ba, **bb;
	int na, nb, err, nul;

	if (argc != 6) {
		fprintf(stderr, "usage: umulti DEV NA NB PAGES SECONDS\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	na = atoi(argv[2]);
	nb = atoi(argv[3]);
	len = strtoul(argv[4], NULL, 0) * (size_t)sysconf(_SC_PAGESIZE);
	pa = open_pd(argv[1]);
	pb = open_pd(argv[1]);
	if (!pa || !pb || pa->context == pb->context)
		return 1;
	cw = rnic_verbs_cache(pa, ACCESS, UINT64_MAX);
	cc = rnic_verbs_cache(pb, ACCESS, UINT64_MAX);
	if (!cw || !cc)
		return 1;
	err = rnic_bind_open(&w, argv[1], cw, 0);
	result(!err, "the whole-process binding", err, 0);
	err = rnic_bind_open_context(&c, argv[1], pb->context->cmd_fd, cc, 0);
	result(!err, "a context binding beside it", err, 0);
	if (!w || !c)
		return 1;
	err = rnic_bind_open(&x, argv[1], NULL, 0);
	result(err == -EBUSY, "a second whole-process binding: EBUSY", err, -EBUSY);
	err = rnic_bind_open_context(&x, argv[1], pb->context->cmd_fd, NULL, 0);
	result(err == -EBUSY, "a second binding of context B: EBUSY", err, -EBUSY);
	nul = open("/dev/null", O_RDONLY);
	err = rnic_bind_open_context(&x, argv[1], nul, NULL, 0);
	result(err == -EINVAL, "a context binding of /dev/null: EINVAL", err, -EINVAL);
	err = rnic_bind_open_context(&x, argv[1], -1, NULL, 0);
	result(err == -EBADF, "a context binding of no file: EBADF", err, -EBADF);
	close(nul);

	ba = cache_buffers(cw, na, len);
	bb = cache_buffers(cc, nb, len);
	if (!ba || !bb)
		return 1;
	serve(w, c, 0);
	result(page_held(w) == (long long)(na * (len / 4096)),
	       "W's page holds A's registrations", page_held(w), na * (len / 4096));
	result(page_held(c) == (long long)(nb * (len / 4096)),
	       "C's page holds B's registrations", page_held(c), nb * (len / 4096));

	/*
	 * The kernel also reports registrations whose pages were cleared
	 * for a moment (a migration attempt on a pinned page restores
	 * them after the notifier ran), so more STALEs than the unmapped
	 * buffer's may come, to either binding. What routing promises: a
	 * binding hears of its own registrations only, so each STALE it
	 * hears drops a region of its own cache (stale == stale_dropped);
	 * one of the other binding's would drop nothing.
	 */
	unmap_and_wait(bb[nb - 1], len, c, w, c);
	result(rnic_bind_stats(c)->stale >= 1, "B's buffer unmapped: C heard STALE",
	       rnic_bind_stats(c)->stale, 1);
	unmap_and_wait(ba[na - 1], len, w, w, c);
	result(rnic_bind_stats(w)->stale >= 1, "A's buffer unmapped: W heard STALE",
	       rnic_bind_stats(w)->stale, 1);
	result(rnic_bind_stats(c)->stale == rnic_bind_stats(c)->stale_dropped,
	       "every STALE C heard was for a region of its own (events, dropped)",
	       rnic_bind_stats(c)->stale, rnic_bind_stats(c)->stale_dropped);
	result(rnic_bind_stats(w)->stale == rnic_bind_stats(w)->stale_dropped,
	       "every STALE W heard was for a region of its own (events, dropped)",
	       rnic_bind_stats(w)->stale, rnic_bind_stats(w)->stale_dropped);

	/*
	 * Spurious STALEs may have dropped regions of buffers still
	 * mapped (up to all ten of C's were seen): use them again, so
	 * that both bindings hold what the newcomer's ask is divided by.
	 */
	err = reuse_buffers(cw, ba, na - 1, len) ?: reuse_buffers(cc, bb, nb - 1, len);
	serve(w, c, 0);
	result(!err && page_held(w) == (long long)((na - 1) * (len / 4096)) &&
	       page_held(c) == (long long)((nb - 1) * (len / 4096)),
	       "the buffers still mapped are cached again (W + C)",
	       page_held(w) + page_held(c), (na + nb - 2) * (len / 4096));
	printf("multi ready W=%lld C=%lld\n", page_held(w), page_held(c));
	end = now_s() + atof(argv[5]);
	while (now_s() < end)
		serve(w, c, 50);
	/* asked and given back, by REVOKE or (idle regions first) RECLAIM */
	printf("multi asked W=%llu:%llu:%llu C=%llu:%llu:%llu held W=%lld C=%lld\n",
	       (unsigned long long)(rnic_bind_stats(w)->revokes + rnic_bind_stats(w)->reclaims),
	       (unsigned long long)(rnic_bind_stats(w)->revoke_asked +
				    rnic_bind_stats(w)->reclaim_asked),
	       (unsigned long long)(rnic_bind_stats(w)->revoke_freed +
				    rnic_bind_stats(w)->reclaim_freed),
	       (unsigned long long)(rnic_bind_stats(c)->revokes + rnic_bind_stats(c)->reclaims),
	       (unsigned long long)(rnic_bind_stats(c)->revoke_asked +
				    rnic_bind_stats(c)->reclaim_asked),
	       (unsigned long long)(rnic_bind_stats(c)->revoke_freed +
				    rnic_bind_stats(c)->reclaim_freed),
	       page_held(w), page_held(c));
	rnic_bind_close(c);
	rnic_bind_close(w);
	rnic_verbs_cache_destroy(cc);
	rnic_verbs_cache_destroy(cw);
	return failed;
}
