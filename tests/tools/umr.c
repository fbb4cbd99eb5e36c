// SPDX-License-Identifier: GPL-2.0
/*
 * umr: a plain verbs program that registers user memory, for the guest
 * tests of rnic_mgr's user-registration charging (tests/vm/user_mrs.sh).
 * It uses libibverbs only, as any unmodified program would.
 *
 *   umr DEV STEP...
 *
 * Steps run in order, each printing one line:
 *   reg:PAGES        register a new PAGES-page buffer (pushed on a stack)
 *   dereg            deregister the newest registration (pop)
 *   release          deregister it but keep its buffer mapped (pop)
 *   sleep:MS         sleep
 *   wait             print "waiting", block until stdin reaches end of file
 *   until:PATH       print "waiting", poll until PATH exists (at most 60 s;
 *                    fails past that): a start line that no process can
 *                    miss, as a late reader of a closed fifo would
 *   many:N:PAGES     register N buffers of PAGES pages each, slices of one
 *                    mapping, and keep them until exit: "many N ok" or
 *                    "many N fail at I ERRNO" (exit 2)
 *   lat:N:PAGES      N timed register/deregister pairs of one buffer;
 *                    prints the median and p99 of each in microseconds
 *   loop:N:PAGES     N register/deregister pairs of one buffer; prints
 *                    the mean time of each in ns
 *   fork             fork; the child exits at once, the parent waits
 *   remap            munmap and mmap again (MAP_FIXED) the newest
 *                    registration's buffer, then register it again
 *   rereg:PAGES      ibv_rereg_mr() the newest registration onto a new
 *                    PAGES-page buffer (the old buffer stays mapped)
 *   forkreg          fork; the child registers and deregisters a
 *                    4-page buffer through the inherited context, then
 *                    deregisters every registration it inherited; the
 *                    parent prints the child's exit status
 *   deadkey          register a page for remote write, RDMA WRITE to it
 *                    with its rkey over two connected QPs of this
 *                    process, deregister it, and write again with the
 *                    old rkey: "deadkey dead" if the NIC refused (the
 *                    key died with the registration), "deadkey alive"
 *                    (exit 2) if the write still landed
 *
 * reg and rereg ask for local write and remote read and write access;
 * with UMR_ACCESS=local in the environment, local write only.
 *
 * Exit status: 0 if every registration succeeded, 2 if one failed (its
 * errno is printed as "reg PAGES fail ENOMEM ms=..."), 1 on other errors.
 * Registrations still held at exit are left to the kernel's cleanup.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qp_pair.h"

#define MAX_MRS 256

static struct ibv_mr *mrs[MAX_MRS];
static void *bufs[MAX_MRS];
static size_t lens[MAX_MRS];
static int nr_mrs;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char *errname(int e)
{
	switch (e) {
	case ENOMEM: return "ENOMEM";
	case EINTR: return "EINTR";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	default: return strerror(e);
	}
}

/* reg's and rereg's access flags (UMR_ACCESS=local: local write only) */
static int umr_access(void)
{
	const char *a = getenv("UMR_ACCESS");

	if (a && !strcmp(a, "local"))
		return IBV_ACCESS_LOCAL_WRITE;
	return IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
}

static int step_reg(struct ibv_pd *pd, size_t pages)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	double t0 = now_ms();
	struct ibv_mr *mr;
	void *buf;

	if (nr_mrs == MAX_MRS)
		return 1;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	memset(buf, 0x5a, len);
	mr = ibv_reg_mr(pd, buf, len, umr_access());
	if (!mr) {
		int e = errno;

		printf("reg %zu fail %s ms=%.0f\n", pages, errname(e), now_ms() - t0);
		munmap(buf, len);
		return 2;
	}
	printf("reg %zu ok lkey=%u ms=%.0f\n", pages, mr->lkey, now_ms() - t0);
	mrs[nr_mrs] = mr;
	bufs[nr_mrs] = buf;
	lens[nr_mrs++] = len;
	return 0;
}

static int step_many(struct ibv_pd *pd, long n, size_t pages)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	double t0 = now_ms();
	struct ibv_mr **many;
	char *buf;
	long i;

	if (n <= 0 || !pages)
		return 1;
	many = calloc(n, sizeof(*many));
	buf = mmap(NULL, len * n, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!many || buf == MAP_FAILED)
		return 1;
	memset(buf, 0x5a, len * n);
	for (i = 0; i < n; i++) {
		many[i] = ibv_reg_mr(pd, buf + i * len, len, umr_access());
		if (!many[i]) {
			printf("many %ld fail at %ld %s ms=%.0f\n", n, i, errname(errno),
			       now_ms() - t0);
			return 2;
		}
	}
	/* kept until exit: the kernel deregisters them with the context */
	printf("many %ld ok ms=%.0f\n", n, now_ms() - t0);
	return 0;
}

static int step_dereg(int keep_mapped)
{
	int err;

	if (!nr_mrs)
		return 1;
	nr_mrs--;
	err = ibv_dereg_mr(mrs[nr_mrs]);
	printf("%s %s\n", keep_mapped ? "release" : "dereg", err ? errname(err) : "ok");
	if (!keep_mapped)
		munmap(bufs[nr_mrs], lens[nr_mrs]);
	return err ? 1 : 0;
}

/* The newest registration moved onto a new buffer, in the same struct. */
static int step_rereg(size_t pages)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	struct ibv_mr *mr;
	void *buf;
	int err;

	if (!nr_mrs)
		return 1;
	mr = mrs[nr_mrs - 1];
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	err = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL, buf, len,
			   umr_access());
	if (err) {
		printf("rereg %zu fail %d\n", pages, err);
		munmap(buf, len);
		return 2;
	}
	printf("rereg %zu %s lkey=%u\n", pages,
	       mr->addr == buf && mr->length == len ? "ok" : "wrong", mr->lkey);
	bufs[nr_mrs - 1] = buf;	/* the old buffer is left mapped */
	lens[nr_mrs - 1] = len;
	return mr->addr == buf && mr->length == len ? 0 : 2;
}

/* A child uses the inherited context, and drops what it inherited. */
static int step_forkreg(struct ibv_pd *pd)
{
	int status = 0, i;
	pid_t pid = fork();

	if (!pid) {
		int bad = 0;

		if (step_reg(pd, 4) || step_dereg(0))
			bad = 1;
		for (i = nr_mrs - 1; i >= 0; i--)
			if (ibv_dereg_mr(mrs[i]))
				bad = 1;
		_exit(bad);
	}
	waitpid(pid, &status, 0);
	printf("forkreg child %s\n", WIFEXITED(status) && !WEXITSTATUS(status) ? "ok" : "failed");
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 2;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the q-quantile of @v (sorted in place) */
static double quantile(double *v, long n, double q)
{
	long i = (long)(q * (double)n);

	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[i < n ? i : n - 1];
}

/*
 * lat:N:PAGES: N timed register/deregister pairs of one buffer; prints
 * the median and 99th percentile of each, in microseconds.
 */
static int step_lat(struct ibv_pd *pd, long n, size_t pages)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	double *reg, *dereg;
	struct timespec a, b, c;
	void *buf;
	long i;

	if (n <= 0)
		return 1;
	reg = calloc((size_t)n, sizeof(*reg));
	dereg = calloc((size_t)n, sizeof(*dereg));
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (!reg || !dereg || buf == MAP_FAILED)
		return 1;
	for (i = 0; i < n; i++) {
		struct ibv_mr *mr;

		clock_gettime(CLOCK_MONOTONIC, &a);
		mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (!mr) {
			printf("lat reg fail %s at %ld\n", errname(errno), i);
			return 2;
		}
		if (ibv_dereg_mr(mr))
			return 1;
		clock_gettime(CLOCK_MONOTONIC, &c);
		reg[i] = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3;
		dereg[i] = ((c.tv_sec - b.tv_sec) * 1e9 + (c.tv_nsec - b.tv_nsec)) / 1e3;
	}
	printf("lat %ld %zu reg_p50_us=%.1f reg_p99_us=%.1f dereg_p50_us=%.1f dereg_p99_us=%.1f\n",
	       n, pages, quantile(reg, n, 0.5), quantile(reg, n, 0.99),
	       quantile(dereg, n, 0.5), quantile(dereg, n, 0.99));
	munmap(buf, len);
	free(reg);
	free(dereg);
	return 0;
}

static int step_loop(struct ibv_pd *pd, long n, size_t pages)
{
	size_t len = pages * (size_t)sysconf(_SC_PAGESIZE);
	struct timespec a, b;
	double reg_ns = 0, dereg_ns = 0;
	void *buf;
	long i;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	for (i = 0; i < n; i++) {
		struct ibv_mr *mr;

		clock_gettime(CLOCK_MONOTONIC, &a);
		mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (!mr) {
			printf("loop reg fail %s at %ld\n", errname(errno), i);
			return 2;
		}
		reg_ns += (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (ibv_dereg_mr(mr))
			return 1;
		clock_gettime(CLOCK_MONOTONIC, &b);
		dereg_ns += (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
	}
	printf("loop %ld %zu reg_ns=%.0f dereg_ns=%.0f\n", n, pages,
	       reg_ns / n, dereg_ns / n);
	munmap(buf, len);
	return 0;
}

/* The buffer's pages are replaced behind the registration, then registered anew. */
static int step_remap(struct ibv_pd *pd)
{
	struct ibv_mr *mr;
	void *buf, *again;
	size_t len;

	if (!nr_mrs)
		return 1;
	buf = bufs[nr_mrs - 1];
	len = lens[nr_mrs - 1];
	munmap(buf, len);
	again = mmap(buf, len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (again != buf)
		return 1;
	memset(buf, 0xa5, len);
	mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		printf("remap reg fail %s\n", errname(errno));
		return 2;
	}
	printf("remap ok lkey=%u old=%u\n", mr->lkey, mrs[nr_mrs - 1]->lkey);
	if (nr_mrs == MAX_MRS)
		return 1;
	mrs[nr_mrs] = mr;
	bufs[nr_mrs] = NULL;	/* the same pages: unmapped once, by the older */
	lens[nr_mrs++] = 0;
	return 0;
}

/* One signaled RDMA WRITE of @smr's page to @raddr/@rkey: its status, or -1. */
static int write_once(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *smr,
		      uint64_t raddr, uint32_t rkey)
{
	struct ibv_sge sge = { .addr = (uintptr_t)smr->addr, .length = (uint32_t)smr->length,
			       .lkey = smr->lkey };
	struct ibv_send_wr *bad, wr = { .opcode = IBV_WR_RDMA_WRITE, .sg_list = &sge,
					.num_sge = 1, .send_flags = IBV_SEND_SIGNALED };
	double end = now_ms() + 20000;
	struct ibv_wc wc;

	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	if (ibv_post_send(qp, &wr, &bad))
		return -1;
	while (now_ms() < end) {
		int n = ibv_poll_cq(cq, 1, &wc);

		if (n < 0)
			return -1;
		if (n && wc.qp_num == qp->qp_num)
			return wc.status;
	}
	return -1;
}

/* After ibv_dereg_mr() a peer holding the old rkey can write no more. */
static int step_deadkey(struct ibv_pd *pd)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	struct ibv_mr *smr, *dmr;
	struct ibv_qp *qp[2];
	struct ibv_cq *cq;
	char *src, *dst;
	uint32_t rkey;
	int st;

	src = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	dst = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (src == MAP_FAILED || dst == MAP_FAILED || connect_pair(pd, &cq, qp))
		return 1;
	/*
	 * The remote-access one first: under a shim that cached it, it
	 * would get the process's binding on the device (one per process)
	 */
	dmr = ibv_reg_mr(pd, dst, len, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	smr = ibv_reg_mr(pd, src, len, IBV_ACCESS_LOCAL_WRITE);
	if (!smr || !dmr)
		return 1;
	rkey = dmr->rkey;
	memset(src, 0x11, len);
	st = write_once(qp[0], cq, smr, (uintptr_t)dst, rkey);
	if (st || dst[0] != 0x11) {
		printf("deadkey first write failed: status %d\n", st);
		return 1;
	}
	if (ibv_dereg_mr(dmr))
		return 1;
	memset(src, 0x22, len);
	st = write_once(qp[0], cq, smr, (uintptr_t)dst, rkey);
	if (st < 0) {
		printf("deadkey second write: no completion\n");
		return 1;
	}
	printf("deadkey %s status=%d byte=0x%02x\n", st ? "dead" : "alive", st,
	       (unsigned char)dst[0]);
	return st ? 0 : 2;
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_pd *pd;
	int i, n, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: umr DEV STEP...\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			ctx = ibv_open_device(list[i]);
	if (!ctx) {
		fprintf(stderr, "umr: cannot open %s\n", argv[1]);
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		return 1;
	for (i = 2; i < argc; i++) {
		const char *s = argv[i];
		int r = 0;

		if (!strncmp(s, "reg:", 4)) {
			r = step_reg(pd, strtoul(s + 4, NULL, 0));
		} else if (!strcmp(s, "dereg")) {
			r = step_dereg(0);
		} else if (!strcmp(s, "release")) {
			r = step_dereg(1);
		} else if (!strncmp(s, "sleep:", 6)) {
			usleep(strtoul(s + 6, NULL, 0) * 1000);
		} else if (!strncmp(s, "until:", 6)) {
			int ms;

			printf("waiting\n");
			for (ms = 0; access(s + 6, F_OK) && ms < 60000; ms += 10)
				usleep(10000);
			r = access(s + 6, F_OK) ? 1 : 0;
		} else if (!strcmp(s, "wait")) {
			char b[64];

			printf("waiting\n");
			while (read(0, b, sizeof(b)) > 0)
				;
		} else if (!strncmp(s, "many:", 5)) {
			char *end;
			long cnt = strtol(s + 5, &end, 0);

			r = step_many(pd, cnt, *end ? strtoul(end + 1, NULL, 0) : 1);
		} else if (!strncmp(s, "loop:", 5)) {
			char *end;
			long cnt = strtol(s + 5, &end, 0);

			r = step_loop(pd, cnt, strtoul(end + 1, NULL, 0));
		} else if (!strncmp(s, "lat:", 4)) {
			char *end;
			long cnt = strtol(s + 4, &end, 0);

			r = step_lat(pd, cnt, *end ? strtoul(end + 1, NULL, 0) : 1);
		} else if (!strcmp(s, "fork")) {
			pid_t pid = fork();

			if (!pid)
				_exit(0);
			waitpid(pid, NULL, 0);
			printf("fork ok\n");
		} else if (!strcmp(s, "remap")) {
			r = step_remap(pd);
		} else if (!strncmp(s, "rereg:", 6)) {
			r = step_rereg(strtoul(s + 6, NULL, 0));
		} else if (!strcmp(s, "forkreg")) {
			r = step_forkreg(pd);
		} else if (!strcmp(s, "deadkey")) {
			r = step_deadkey(pd);
		} else {
			fprintf(stderr, "umr: unknown step %s\n", s);
			return 1;
		}
		if (r == 1) {
			fprintf(stderr, "umr: step %s failed\n", s);
			return 1;
		}
		if (r == 2)
			status = 2;
	}
	return status;
}
