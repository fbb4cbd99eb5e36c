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
 *   ucoop DEV inflight N PAGES SECONDS
 *	N pairs of buffers of PAGES pages; for SECONDS, RDMA WRITE from one
 *	of a pair to the other over two connected RC QPs of this process,
 *	each through the cache (held while the write is in flight, put
 *	after its completion), serving events between writes. Prints the
 *	writes done and failed and the library's counters. SIGTERM ends
 *	the run early, as if SECONDS had passed (the test reads the
 *	kernel's counters while the program is alive, then stops it).
 *   ucoop DEV hold N PAGES SECONDS
 *	an active tenant: N buffers of PAGES pages used round and round
 *	through the cache (sized by the entitlement), serving events
 *	between rounds, for SECONDS; prints the pages cached at the end.
 *   ucoop DEV xfer SIZE PIECE ROUNDS
 *	the Open-MX pinning paper: a SIZE-byte buffer written in PIECE-byte RDMA writes,
 *	registered up front, lazily piece by piece, or overlapped (the next
 *	piece while the current one moves), nothing cached; MB/s per mode
 *	and round (needs no binding).
 *   ucoop DEV reserve
 *	reservations ahead of registrations (see run_reserve()); then
 *	closes the binding and waits for end of file on stdin.
 *   ucoop DEV stale
 *	register a buffer through the cache, munmap it and map new pages at
 *	the same address: waits for the STALE event, then checks the cache
 *	registers the new pages rather than handing out the old MR.
 *   ucoop DEV stalenow
 *	the same, but the new pages are looked up at once, with no wait
 *	for the STALE event and no event loop run in between (review M8):
 *	the lookup itself must see the event the kernel posted.
 *   ucoop DEV staleflood
 *	600 regions of 4 pages cached in one mapping, the mapping replaced
 *	at the same address (munmap, then mmap MAP_FIXED): 600 STALEs at
 *	once, more than a file's queue holds. Then, with no event loop
 *	run, each region is looked up and RDMA-written to a buffer of its
 *	own: what arrives must be the new pages' data, never the old.
 *	Prints what it saw; exit 0 if no write carried old data.
 *   ucoop DEV deaf PAGES SECONDS
 *	bound, but deaf: register a PAGES-page buffer with ibv_reg_mr (not
 *	through the cache), print "deaf ok", then sleep SECONDS without
 *	reading a single event: a process that was told and ignored it.
 *   ucoop DEV churn PAGES SECONDS
 *	a churner: registers and deregisters one PAGES-page buffer with
 *	ibv_reg_mr as fast as it can for SECONDS (or until SIGTERM), and
 *	prints the cycles done and the registrations refused.
 *
 * With UCOOP_GREEDY set in the environment the cache starts unbounded
 * instead of at the entitlement, and coop keeps what it got when a
 * registration is refused (a greedy tenant, tests/lib/guest/tenants.sh).
 *
 * Exit status 0 when the scenario went as described, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "librnic/bind.h"
#include "librnic/verbs.h"
#include "librnic/xfer.h"
#include "open_pd.h"
#include "qp_pair.h"

#define ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
		IBV_ACCESS_REMOTE_READ)

/* the signal that asked a timed run to end early (SIGTERM), or 0 */
static int stop_requested;

static void request_stop(int sig)
{
	__atomic_store_n(&stop_requested, sig, __ATOMIC_RELAXED);
}

static int stop_asked(void)
{
	return __atomic_load_n(&stop_requested, __ATOMIC_RELAXED);
}

/* events served for up to @ms; SIGTERM's interruption is not an error */
static int serve_events(struct rnic_binding *b, int ms)
{
	int r = rnic_bind_process(b, ms);

	return r == -EINTR ? 0 : r;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_coop(struct rnic_cache *c, struct rnic_binding *b, int n,
		size_t pages, double seconds)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	const struct rnic_lib_stats *s = rnic_bind_stats(b);
	double end;
	int i;

	for (i = 0; i < n; i++) {
		struct rnic_cache_seg seg;
		void *buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (buf == MAP_FAILED || rnic_cache_get(c, (uintptr_t)buf, len, &seg, 1) != 1) {
			printf("coop reg %d failed\n", i);
			if (!getenv("UCOOP_GREEDY"))
				return 1;
			break;	/* greedy: keep what it got */
		}
		rnic_cache_put(c, &seg, 1);
	}
	printf("coop cached %llu pages\n", (unsigned long long)rnic_cache_cached_pages(c));
	end = now_s() + seconds;
	while (now_s() < end && !stop_asked()) {
		int r = serve_events(b, 100);

		if (r < 0) {
			printf("coop events: %s\n", strerror(-r));
			return 1;
		}
	}
	printf("coop revokes=%llu asked=%llu freed=%llu short=%llu lost=%llu cached=%llu reclaims=%llu reclaim_freed=%llu\n",
	       (unsigned long long)s->revokes, (unsigned long long)s->revoke_asked,
	       (unsigned long long)s->revoke_freed, (unsigned long long)s->revoke_short,
	       (unsigned long long)s->lost, (unsigned long long)rnic_cache_cached_pages(c),
	       (unsigned long long)s->reclaims, (unsigned long long)s->reclaim_freed);
	return 0;
}

/*
 * hold: an active tenant. N buffers of PAGES pages used round and round
 * through the cache (a miss registers, within the cache's capacity,
 * which follows the entitlement), events served between rounds, for
 * SECONDS; prints the pages cached at the end.
 */
static int run_hold(struct rnic_cache *c, struct rnic_binding *b, int n,
		    size_t pages, double seconds)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	unsigned long refused = 0;
	char **buf;
	double end;
	int i;

	buf = calloc(n, sizeof(*buf));
	if (!buf)
		return 1;
	for (i = 0; i < n; i++) {
		buf[i] = mmap(NULL, len, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (buf[i] == MAP_FAILED)
			return 1;
	}
	printf("hold started\n");
	end = now_s() + seconds;
	while (now_s() < end && !stop_asked()) {
		for (i = 0; i < n; i++) {
			struct rnic_cache_seg seg;

			if (rnic_cache_get(c, (uintptr_t)buf[i], len, &seg, 1) != 1) {
				refused++;
				break;	/* no room now: serve events, try again */
			}
			rnic_cache_put(c, &seg, 1);
		}
		if (serve_events(b, 50) < 0)
			return 1;
	}
	printf("hold cached %llu refused %lu\n",
	       (unsigned long long)rnic_cache_cached_pages(c), refused);
	return 0;
}

static int run_inflight(struct rnic_cache *c, struct rnic_binding *b,
			struct ibv_pd *pd, int n, size_t pages, double seconds)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	unsigned long writes = 0, failed = 0;
	struct ibv_qp *qp[2];
	struct ibv_cq *cq;
	char **buf;
	double end;
	int i;

	buf = calloc(2 * n, sizeof(*buf));
	if (!buf || connect_pair(pd, &cq, qp))
		return 1;
	for (i = 0; i < 2 * n; i++) {
		struct rnic_cache_seg seg;

		buf[i] = mmap(NULL, len, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (buf[i] == MAP_FAILED || rnic_cache_get(c, (uintptr_t)buf[i], len, &seg, 1) != 1)
			return 1;
		rnic_cache_put(c, &seg, 1);
	}
	printf("inflight cached %llu pages\n", (unsigned long long)rnic_cache_cached_pages(c));
	end = now_s() + seconds;
	for (i = 0; now_s() < end && !stop_asked(); i = (i + 1) % n) {
		struct rnic_cache_seg src, dst;
		struct ibv_send_wr *bad, wr = { .opcode = IBV_WR_RDMA_WRITE,
						.send_flags = IBV_SEND_SIGNALED,
						.num_sge = 1 };
		struct ibv_sge sge;
		struct ibv_wc wc;
		int got;

		got = rnic_cache_get(c, (uintptr_t)buf[2 * i], len, &src, 1);
		if (got == 1) {
			got = rnic_cache_get(c, (uintptr_t)buf[2 * i + 1], len, &dst, 1);
			if (got != 1)
				rnic_cache_put(c, &src, 1);
		}
		if (got != 1) {
			/* a tenant that gives up says why (tenants.sh counts it) */
			printf("inflight: registration refused after %lu writes: %s\n", writes,
			       strerror(got < 0 ? -got : EIO));
			return 1;
		}
		buf[2 * i][0] = (char)writes;
		sge.addr = (uintptr_t)buf[2 * i];
		sge.length = len;
		sge.lkey = ((struct ibv_mr *)src.handle)->lkey;
		wr.sg_list = &sge;
		wr.wr.rdma.remote_addr = (uintptr_t)buf[2 * i + 1];
		wr.wr.rdma.rkey = ((struct ibv_mr *)dst.handle)->rkey;
		if (ibv_post_send(qp[i % 2], &wr, &bad))
			return 1;
		/* events are served while the write is in flight */
		if (serve_events(b, 0) < 0)
			return 1;
		do {
			got = ibv_poll_cq(cq, 1, &wc);
		} while (!got);
		writes++;
		if (got < 0 || wc.status != IBV_WC_SUCCESS ||
		    buf[2 * i + 1][0] != (char)(writes - 1)) {
			if (!failed++)
				printf("inflight: write %lu failed: %s\n", writes,
				       got < 0 ? "poll" : ibv_wc_status_str(wc.status));
		}
		rnic_cache_put(c, &src, 1);
		rnic_cache_put(c, &dst, 1);
	}
	printf("inflight writes=%lu failed=%lu revokes=%llu regrows=%llu asked=%llu freed=%llu short=%llu\n",
	       writes, failed, (unsigned long long)rnic_bind_stats(b)->revokes,
	       (unsigned long long)rnic_bind_stats(b)->regrows,
	       (unsigned long long)rnic_bind_stats(b)->revoke_asked,
	       (unsigned long long)rnic_bind_stats(b)->revoke_freed,
	       (unsigned long long)rnic_bind_stats(b)->revoke_short);
	ibv_destroy_qp(qp[0]);
	ibv_destroy_qp(qp[1]);
	ibv_destroy_cq(cq);
	return failed ? 1 : 0;
}

struct xfer_ctx {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_mr *dst;
	uintptr_t src0;
	int outstanding;
};

static int xfer_post(void *ctx, uintptr_t addr, size_t len, const struct rnic_cache_seg *seg)
{
	struct xfer_ctx *x = ctx;
	struct ibv_sge sge = {
		.addr = addr, .length = len,
		.lkey = ((struct ibv_mr *)seg->handle)->lkey,
	};
	struct ibv_send_wr *bad, wr = {
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.sg_list = &sge, .num_sge = 1,
	};

	wr.wr.rdma.remote_addr = (uintptr_t)x->dst->addr + (addr - x->src0);
	wr.wr.rdma.rkey = x->dst->rkey;
	if (ibv_post_send(x->qp, &wr, &bad))
		return -EIO;
	x->outstanding++;
	return 0;
}

static int xfer_wait(void *ctx)
{
	struct xfer_ctx *x = ctx;
	struct ibv_wc wc;
	int got;

	do {
		got = ibv_poll_cq(x->cq, 1, &wc);
	} while (!got);
	x->outstanding--;
	return got < 0 || wc.status != IBV_WC_SUCCESS ? -EIO : 0;
}

/*
 * The Open-MX pinning paper's experiment: move a SIZE-byte buffer in PIECE-byte writes,
 * registering it up front, piece by piece, or piece by piece overlapped
 * with the previous write; nothing is cached (capacity 0), so every
 * round pays its registrations. Prints MB/s per mode, modes interleaved.
 */
static int run_xfer(struct ibv_pd *pd, size_t size, size_t piece, int rounds)
{
	static const char *const mode[] = { "upfront", "lazy", "overlap" };
	static const struct rnic_xfer_ops ops = { xfer_post, xfer_wait };
	struct xfer_ctx x = {};
	struct rnic_cache *c;
	struct ibv_qp *qp[2];
	char *src, *dst;
	int r, m;

	src = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	dst = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	c = rnic_verbs_cache(pd, ACCESS, 0);
	if (src == MAP_FAILED || dst == MAP_FAILED || !c || connect_pair(pd, &x.cq, qp))
		return 1;
	/* the receiver's buffer stays registered, as a peer's would */
	x.dst = ibv_reg_mr(pd, dst, size, ACCESS);
	if (!x.dst)
		return 1;
	x.qp = qp[0];
	x.src0 = (uintptr_t)src;
	for (r = 0; r < rounds; r++) {
		for (m = 0; m < 3; m++) {
			int mm = (m + r) % 3;
			double t0 = now_s(), dt;
			int err = rnic_xfer(c, (uintptr_t)src, size, piece, mm, &ops, &x);

			dt = now_s() - t0;
			if (err) {
				printf("xfer %s failed: %s\n", mode[mm], strerror(-err));
				return 1;
			}
			printf("xfer round=%d mode=%s size=%zu piece=%zu MBps=%.0f\n", r + 1,
			       mode[mm], size, piece, size / dt / 1e6);
		}
	}
	ibv_dereg_mr(x.dst);
	rnic_verbs_cache_destroy(c);
	return 0;
}

static uint64_t shared_held(struct rnic_binding *b)
{
	struct rnic_shared sh;

	return rnic_shared_read(rnic_bind_shared(b), &sh) ? ~0ULL : sh.held;
}

/*
 * RNIC_IOC_RESERVE: reserve 500 entries and 5 keys, then 5 registrations
 * of 50 pages draw from it (held stays 500), a sixth of 300 is charged
 * on top; NOWAIT beyond the budget is -EAGAIN; ASYNC of 100 answers a
 * ticket at once and a GRANT of 100 later (held 900), ASYNC beyond the
 * budget a GRANT of 0. The unused 350 go back when the binding closes
 * (checked by the test from sysfs while this waits on stdin).
 */
static int run_reserve(struct rnic_cache *c, struct rnic_binding **bp, struct ibv_pd *pd)
{
	struct rnic_binding *b = *bp;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct rnic_reserve r = { .entries = 500, .keys = 5, .mode = RNIC_RESERVE_WAIT };
	uint64_t h0, h1 = 0, h2, h3, t1, t2;
	char buf[64];
	double end;
	int i, e1, e2;

	(void)c;
	if (ioctl(rnic_bind_fd(b), RNIC_IOC_RESERVE, &r))
		return 1;
	h0 = shared_held(b);
	for (i = 0; i < 6; i++) {
		size_t len = (i < 5 ? 50 : 300) * pg;
		void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (p == MAP_FAILED || !ibv_reg_mr(pd, p, len, ACCESS))
			return 1;
		if (i == 4)
			h1 = shared_held(b);
	}
	h2 = shared_held(b);
	r.entries = 1ULL << 30;
	r.mode = RNIC_RESERVE_NOWAIT;
	e1 = ioctl(rnic_bind_fd(b), RNIC_IOC_RESERVE, &r) ? errno : 0;
	r.entries = 100;
	r.keys = 0;
	r.mode = RNIC_RESERVE_ASYNC;
	e2 = ioctl(rnic_bind_fd(b), RNIC_IOC_RESERVE, &r) ? errno : 0;
	t1 = r.ticket;
	r.entries = 1ULL << 31;		/* beyond any budget here */
	if (!e2)
		e2 = ioctl(rnic_bind_fd(b), RNIC_IOC_RESERVE, &r) ? errno : 0;
	t2 = r.ticket;
	end = now_s() + 10;
	while (!e2 && rnic_bind_stats(b)->grants < 2 && now_s() < end)
		if (serve_events(b, 100) < 0)
			break;
	h3 = shared_held(b);
	printf("reserve held=%llu after5=%llu after6=%llu nowait_big=%s ",
	       (unsigned long long)h0, (unsigned long long)h1, (unsigned long long)h2,
	       e1 == EAGAIN ? "EAGAIN" : e1 == ENOMEM ? "ENOMEM" : strerror(e1));
	printf("tickets=%s async_granted=%llu async_refused=%llu after_async=%llu\n",
	       e2 ? strerror(e2) : t2 > t1 && t1 ? "ok" : "bad",
	       (unsigned long long)rnic_bind_stats(b)->granted,
	       (unsigned long long)rnic_bind_stats(b)->grants_refused, (unsigned long long)h3);
	rnic_bind_close(b);
	*bp = NULL;
	printf("closed\n");
	while (read(0, buf, sizeof(buf)) > 0)
		;
	return h0 == 500 && h1 == 500 && h2 == 800 && !e2 && t1 && t2 > t1 &&
	       rnic_bind_stats(b)->granted == 100 && rnic_bind_stats(b)->grants_refused == 1 &&
	       h3 == 900 && (e1 == EAGAIN || e1 == ENOMEM) ? 0 : 1;
}

static int run_stale(struct rnic_cache *c, struct rnic_binding *b, int at_once)
{
	size_t len = 8 * (size_t)sysconf(_SC_PAGESIZE);
	struct rnic_cache_seg seg;
	uint32_t old, new;
	double end;
	void *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED || rnic_cache_get(c, (uintptr_t)buf, len, &seg, 1) != 1)
		return 1;
	old = ((struct ibv_mr *)seg.handle)->lkey;
	rnic_cache_put(c, &seg, 1);
	if (mmap(buf, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_POPULATE, -1, 0) != buf)
		return 1;
	/* at once: no waiting for the event, the lookup must see it (M8) */
	end = now_s() + 5;
	while (!at_once && !rnic_bind_stats(b)->stale && now_s() < end)
		if (serve_events(b, 100) < 0)
			return 1;
	if (rnic_cache_get(c, (uintptr_t)buf, len, &seg, 1) != 1)
		return 1;
	new = ((struct ibv_mr *)seg.handle)->lkey;
	rnic_cache_put(c, &seg, 1);
	printf("stale events=%llu dropped=%llu old=%u new=%u\n",
	       (unsigned long long)rnic_bind_stats(b)->stale,
	       (unsigned long long)rnic_bind_stats(b)->stale_dropped, old, new);
	return rnic_bind_stats(b)->stale == 1 && rnic_bind_stats(b)->stale_dropped == 1 &&
	       new != old ? 0 : 1;
}

#define FLOOD_REGIONS	600
#define FLOOD_PAGES	4	/* each region; 6 pages apart */

/* RDMA-write @len bytes of @src (an MR of the cache) into @dst; 0 if done */
static int write_to(struct ibv_qp *qp, struct ibv_cq *cq, void *src, uint32_t lkey,
		    struct ibv_mr *dst, size_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)src, .length = len, .lkey = lkey };
	struct ibv_send_wr *bad, wr = { .opcode = IBV_WR_RDMA_WRITE, .sg_list = &sge,
					.num_sge = 1, .send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc;
	int got;

	wr.wr.rdma.remote_addr = (uintptr_t)dst->addr;
	wr.wr.rdma.rkey = dst->rkey;
	if (ibv_post_send(qp, &wr, &bad))
		return -1;
	do {
		got = ibv_poll_cq(cq, 1, &wc);
	} while (!got);
	return got < 0 || wc.status != IBV_WC_SUCCESS ? -1 : 0;
}

static int run_staleflood(struct rnic_cache *c, struct rnic_binding *b, struct ibv_pd *pd)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), rlen = FLOOD_PAGES * pg;
	size_t len = FLOOD_REGIONS * 6 * pg;
	unsigned int same_key = 0, old_data = 0, failed = 0, i;
	static uint32_t old[FLOOD_REGIONS];
	unsigned long long cached;
	struct ibv_qp *qp[2];
	struct ibv_mr *dst;
	struct ibv_cq *cq;
	char *area, *sink;

	area = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	sink = malloc(rlen);
	dst = sink ? ibv_reg_mr(pd, sink, rlen, ACCESS) : NULL;
	if (area == MAP_FAILED || !dst || connect_pair(pd, &cq, qp))
		return 1;
	memset(area, 'o', len);
	for (i = 0; i < FLOOD_REGIONS; i++) {
		struct rnic_cache_seg seg;

		if (rnic_cache_get(c, (uintptr_t)area + i * 6 * pg, rlen, &seg, 1) != 1)
			return 1;
		old[i] = ((struct ibv_mr *)seg.handle)->lkey;
		rnic_cache_put(c, &seg, 1);
	}
	cached = rnic_cache_cached_pages(c);
	/* one munmap: a STALE for each of the 600, posted within it */
	if (mmap(area, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_POPULATE, -1, 0) != area)
		return 1;
	memset(area, 'n', len);
	for (i = 0; i < FLOOD_REGIONS; i++) {
		char *r = area + i * 6 * pg;
		struct rnic_cache_seg seg;
		uint32_t lkey;

		if (rnic_cache_get(c, (uintptr_t)r, rlen, &seg, 1) != 1)
			return 1;
		lkey = ((struct ibv_mr *)seg.handle)->lkey;
		same_key += lkey == old[i];
		memset(sink, 0, rlen);
		if (write_to(qp[0], cq, r, lkey, dst, rlen))
			failed++;
		else if (sink[0] != 'n' || sink[rlen - 1] != 'n')
			old_data++;
		rnic_cache_put(c, &seg, 1);
	}
	printf("staleflood regions=%u cached=%llu stale=%llu lost=%llu flushes=%llu same_key=%u old_data=%u failed=%u\n",
	       FLOOD_REGIONS, cached, (unsigned long long)rnic_bind_stats(b)->stale,
	       (unsigned long long)rnic_bind_stats(b)->lost,
	       (unsigned long long)rnic_bind_stats(b)->flushes, same_key, old_data, failed);
	ibv_destroy_qp(qp[0]);
	ibv_destroy_qp(qp[1]);
	ibv_destroy_cq(cq);
	ibv_dereg_mr(dst);
	free(sink);
	return old_data || failed ? 1 : 0;
}

static int run_deaf(struct ibv_pd *pd, size_t pages, double seconds)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	struct ibv_mr *mr;
	void *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	mr = ibv_reg_mr(pd, buf, len, ACCESS);
	if (!mr) {
		printf("deaf reg %zu fail %s\n", pages, strerror(errno));
		return 1;
	}
	printf("deaf ok lkey %u\n", mr->lkey);
	usleep((useconds_t)(seconds * 1e6));
	ibv_dereg_mr(mr);
	return 0;
}

static int run_churn(struct rnic_binding *b, struct ibv_pd *pd, size_t pages, double seconds)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	unsigned long cycles = 0, refused = 0;
	double end = now_s() + seconds;
	void *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	while (now_s() < end && !stop_asked()) {
		struct ibv_mr *mr = ibv_reg_mr(pd, buf, len, ACCESS);

		if (mr)
			ibv_dereg_mr(mr);
		else
			refused++;
		/* events now and then: it holds nothing to give back anyway */
		if (!(++cycles % 64) && serve_events(b, 0) < 0)
			return 1;
	}
	printf("churn cycles=%lu refused=%lu\n", cycles, refused);
	return 0;
}

int main(int argc, char **argv)
{
	struct rnic_binding *b;
	struct rnic_shared sh;
	struct rnic_cache *c;
	struct ibv_pd *pd;
	int err, ret;

	if (argc < 3) {
		fprintf(stderr, "usage: ucoop DEV coop N PAGES SECONDS | ucoop DEV stale\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGTERM, request_stop);
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
	if (rnic_shared_read(rnic_bind_shared(b), &sh) ||
	    sh.abi_version != RNIC_USER_ABI_VERSION) {
		fprintf(stderr, "ucoop: shared page unreadable\n");
		return 1;
	}
	printf("bound consumer %llu grace_ms=%u entitlement=%llu\n",
	       (unsigned long long)rnic_bind_consumer_id(b), rnic_bind_grace_ms(b),
	       (unsigned long long)sh.entitlement);
	/*
	 * UCOOP_GREEDY: cache all it asks for, entitled or not (a greedy
	 * tenant); REVOKEs still lower the capacity and are answered
	 */
	rnic_cache_set_capacity(c, getenv("UCOOP_GREEDY") ? UINT64_MAX : sh.entitlement);
	if (!strcmp(argv[2], "coop") && argc == 6)
		ret = run_coop(c, b, atoi(argv[3]), strtoul(argv[4], NULL, 0),
			   atof(argv[5]));
	else if (!strcmp(argv[2], "hold") && argc == 6)
		ret = run_hold(c, b, atoi(argv[3]), strtoul(argv[4], NULL, 0), atof(argv[5]));
	else if (!strcmp(argv[2], "inflight") && argc == 6)
		ret = run_inflight(c, b, pd, atoi(argv[3]), strtoul(argv[4], NULL, 0),
				   atof(argv[5]));
	else if (!strcmp(argv[2], "xfer") && argc == 6)
		ret = run_xfer(pd, strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0),
			       atoi(argv[5]));
	else if (!strcmp(argv[2], "reserve"))
		ret = run_reserve(c, &b, pd);
	else if (!strcmp(argv[2], "stale"))
		ret = run_stale(c, b, 0);
	else if (!strcmp(argv[2], "stalenow"))
		ret = run_stale(c, b, 1);
	else if (!strcmp(argv[2], "staleflood"))
		ret = run_staleflood(c, b, pd);
	else if (!strcmp(argv[2], "deaf") && argc == 5)
		ret = run_deaf(pd, strtoul(argv[3], NULL, 0), atof(argv[4]));
	else if (!strcmp(argv[2], "churn") && argc == 5)
		ret = run_churn(b, pd, strtoul(argv[3], NULL, 0), atof(argv[4]));
	else
		ret = 1;
	rnic_bind_close(b);
	rnic_verbs_cache_destroy(c);
	return ret;
}
