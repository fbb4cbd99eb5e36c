// SPDX-License-Identifier: GPL-2.0
/*
 * urogue: a hostile client of /dev/rnic_mgr, for tests/vm/user_mrs.sh.
 * The device is mode 0666, so any local process may send it anything;
 * each call below is one a careless or malicious program could make.
 * Every one must end in an error code (or a harmless answer), never a
 * crash, a hang, or an effect on another process's consumer.
 *
 *   urogue DEV checks
 *	the fixed cases, one TAP-like line each ("ok N - what" or
 *	"not ok N - what: got X"); exit status 1 if any failed.
 *   urogue DEV fuzz ITERATIONS SEED
 *	random ioctls of the device's magic (any number, size and
 *	direction), random argument bytes and pointers, random read and
 *	mmap sizes, on bound and unbound files; exits 0 when it ran them
 *	all (the guest test then looks for oopses and leaks).
 *   urogue DEV planspin SECONDS
 *	bind, register 256 one-page buffers, print "spinning", then send
 *	RELEASE_PLANs of their lkeys (1024 a call) as fast as it can until
 *	SECONDS pass (ended=N, the entries the last plan covered) or the
 *	device goes (ended=-ENOTCONN or -ENODEV); prints the plans sent
 *	and how it ended, exits 0 either way. Races the device's removal
 *	(the guest test deletes it).
 *   urogue DEV noaccess
 *	for a user who may not open DEV's uverbs node: bind the
 *	whole process showing no verbs file, then showing /dev/null; if
 *	either is taken, RESERVE 4096 entries (WAIT) five times. Prints one line per call; exits 0 only if every bind was
 *	refused.
 *   urogue DEV rebind
 *	bind, print "bound", wait (60 s at most) for the device's removal
 *	to end the binding (POLLHUP), print "detached", then BIND the same
 *	file again until the device is back (60 s at most): the file must
 *	serve the new binding, neither HUP nor end of file. Prints what
 *	poll and read said; exit 0 if they said so.
 *
 * The process may pass weight W > 0 in the environment variable
 * UROGUE_WEIGHT: checks then binds with it and verifies sysfs shows it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include "uapi/rdmastor/rnic_user.h"
#include "open_pd.h"

#define NODE "/dev/rnic_mgr"
#define SYSDEV "/sys/kernel/rnic_mgr/devices/"

static const char *dev;
static int nr, failed;

static void result(int ok, const char *what, long got)
{
	nr++;
	if (ok) {
		printf("ok %d - %s\n", nr, what);
	} else {
		printf("not ok %d - %s: got %ld (%s)\n", nr, what, got,
		       got < 0 ? strerror((int)-got) : "-");
		failed++;
	}
}

/* -errno of a failed call, or its non-negative result */
static long rc(long r)
{
	return r < 0 ? -errno : r;
}

static void expect(long got, long want, const char *what)
{
	result(got == want, what, got);
}

static int open_node(void)
{
	int fd = open(NODE, O_RDWR | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0) {
		perror(NODE);
		exit(1);
	}
	return fd;
}

/* A whole-process bind, showing @name's verbs node (U16) */
static long bind_to(int fd, const char *name, uint32_t weight)
{
	struct rnic_bind b;
	long r;

	memset(&b, 0, sizeof(b));
	snprintf(b.ibdev, sizeof(b.ibdev), "%s", name);
	b.weight = weight;
	b.abi_version = RNIC_USER_ABI_VERSION;
	b.verbs_fd = open_uverbs(name);	/* -1 for no such device: ENODEV first */
	r = rc(ioctl(fd, RNIC_IOC_BIND, &b));
	if (b.verbs_fd >= 0)
		close(b.verbs_fd);
	return r;
}

static long plan(int fd, const uint32_t *lkeys, uint32_t n)
{
	struct rnic_release_plan p = { .lkeys = (uintptr_t)lkeys, .nlkeys = n };

	return rc(ioctl(fd, RNIC_IOC_RELEASE_PLAN, &p));
}

static long reserve(int fd, uint64_t entries, uint32_t keys, uint32_t mode)
{
	struct rnic_reserve r = { .entries = entries, .keys = keys, .mode = mode };

	return rc(ioctl(fd, RNIC_IOC_RESERVE, &r));
}

/* an attribute of process @pid's consumer (named user:urogue:PID.ID) */
static long sysfs_value(pid_t pid, const char *attr)
{
	char pattern[256];
	long v = -EINVAL;
	glob_t g;
	FILE *f;

	snprintf(pattern, sizeof(pattern), SYSDEV "%s/consumers/user:urogue:%d.*/%s",
		 dev, (int)pid, attr);
	if (glob(pattern, 0, NULL, &g))
		return -ENOENT;
	f = fopen(g.gl_pathv[0], "r");
	globfree(&g);
	if (!f)
		return -ENOENT;
	if (fscanf(f, "%ld", &v) != 1)
		v = -EINVAL;
	fclose(f);
	return v;
}

/*
 * Another process registers a buffer and sends its lkey: naming it in a
 * release plan of ours must cover nothing, since a plan only counts the
 * planner's own registrations.
 */
static void check_foreign_plan(int fd)
{
	int to_parent[2], to_child[2];
	uint32_t lkey = 0;
	char c = 0;
	pid_t pid;

	if (pipe(to_parent) || pipe(to_child))
		exit(1);
	pid = fork();
	if (pid == 0) {
		struct ibv_pd *pd = open_pd(dev);
		size_t len = 64 * (size_t)sysconf(_SC_PAGESIZE);
		void *buf = aligned_alloc(4096, len);
		struct ibv_mr *mr = pd && buf ?
			ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE) : NULL;
		uint32_t k = mr ? mr->lkey : 0;

		if (write(to_parent[1], &k, sizeof(k)) != sizeof(k))
			_exit(1);
		if (read(to_child[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	if (read(to_parent[0], &lkey, sizeof(lkey)) != sizeof(lkey) || !lkey) {
		result(0, "another process registered a buffer", 0);
	} else {
		expect(plan(fd, &lkey, 1), 0,
		       "a plan naming another process's lkey covers nothing");
	}
	if (write(to_child[1], &c, 1) != 1)
		exit(1);
	waitpid(pid, NULL, 0);
	close(to_parent[0]);
	close(to_parent[1]);
	close(to_child[0]);
	close(to_child[1]);
}

static long dev_budget(void)
{
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), SYSDEV "%s/budget", dev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * This process holds 64 entries by a plain registration it never gives
 * back; a child asks to reserve nearly the whole budget and waits
 * (REGISTER-WAIT, bounded by user_wait_ms, which the test sets long).
 * The child must die at once on SIGKILL, the wait being killable, and
 * leave nothing charged (the test checks sysfs afterwards).
 */
static void check_killable_reserve(void)
{
	size_t len = 64 * (size_t)sysconf(_SC_PAGESIZE);
	long budget = dev_budget();
	struct ibv_pd *pd = open_pd(dev);
	void *buf = aligned_alloc(4096, len);
	struct ibv_mr *mr = pd && buf ? ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE) : NULL;
	struct timespec t0, t1;
	int status, sync[2];
	pid_t pid;
	char c;

	if (!mr || budget < 128 || pipe(sync)) {
		result(0, "a registration held while another process waits", budget);
		return;
	}
	pid = fork();
	if (pid == 0) {
		int fd = open_node();

		if (bind_to(fd, dev, 0))
			_exit(2);
		close(sync[0]);
		close(sync[1]);	/* the parent's read returns: about to wait */
		reserve(fd, budget - 32, 1, RNIC_RESERVE_WAIT);
		_exit(3);
	}
	close(sync[1]);
	if (read(sync[0], &c, 1) < 0)
		exit(1);
	close(sync[0]);
	usleep(300000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	result(WIFSIGNALED(status) && t1.tv_sec - t0.tv_sec < 3,
	       "a process waiting in RESERVE dies at once on SIGKILL",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -(long)(t1.tv_sec - t0.tv_sec));
	ibv_dereg_mr(mr);
}

static int run_checks(void)
{
	char *weight_env = getenv("UROGUE_WEIGHT");
	uint32_t weight = weight_env ? (uint32_t)atoi(weight_env) : 0;
	uint32_t lkeys[RNIC_PLAN_MAX + 1];
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct rnic_bind b;
	char buf[4096];
	void *p;
	int fd, fd2;

	memset(lkeys, 0xa5, sizeof(lkeys));
	fd = open_node();
	/* unbound */
	expect(plan(fd, lkeys, 1), -ENOTCONN, "plan before bind: ENOTCONN");
	expect(reserve(fd, 1, 0, RNIC_RESERVE_NOWAIT), -ENOTCONN,
	       "reserve before bind: ENOTCONN");
	expect(rc(read(fd, buf, sizeof(buf))), -ENOTCONN, "read before bind: ENOTCONN");
	expect(rc(ioctl(fd, _IO(RNIC_IOC_MAGIC, 99))), -ENOTTY, "unknown ioctl: ENOTTY");
	expect(rc(ioctl(fd, _IOWR('X', 1, struct rnic_bind), buf)), -ENOTTY,
	       "foreign magic: ENOTTY");
	/* malformed binds */
	memset(&b, 0, sizeof(b));
	snprintf(b.ibdev, sizeof(b.ibdev), "%s", dev);
	b.abi_version = RNIC_USER_ABI_VERSION;
	b.flags = 0x80;
	expect(rc(ioctl(fd, RNIC_IOC_BIND, &b)), -EINVAL, "bind with unknown flags: EINVAL");
	b.flags = 0;
	b.reserved = 1;
	expect(rc(ioctl(fd, RNIC_IOC_BIND, &b)), -EINVAL, "bind with reserved set: EINVAL");
	b.reserved = 0;
	b.flags = RNIC_BIND_CONTEXT;
	b.verbs_fd = fd;
	expect(rc(ioctl(fd, RNIC_IOC_BIND, &b)), -EINVAL,
	       "context bind naming /dev/rnic_mgr, not a verbs context: EINVAL");
	b.verbs_fd = 1000000;
	expect(rc(ioctl(fd, RNIC_IOC_BIND, &b)), -EBADF,
	       "context bind naming no open file: EBADF");
	b.flags = 0;
	b.verbs_fd = -1;
	expect(rc(ioctl(fd, RNIC_IOC_BIND, &b)), -EBADF,
	       "whole-process bind showing no verbs file: EBADF");
	b.verbs_fd = fd;
	expect(rc(ioctl(fd, RNIC_IOC_BIND, &b)), -EINVAL,
	       "whole-process bind showing /dev/rnic_mgr: EINVAL");
	/* version 2's BIND was 8 bytes shorter: another ioctl number */
	b.abi_version = 2;
	expect(rc(ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, RNIC_IOC_MAGIC, 0x20,
				 offsetof(struct rnic_bind, verbs_fd)), &b)), -EPROTO,
	       "a version-2 library's bind: EPROTO, not ENOTTY");
	expect(b.abi_version, RNIC_USER_ABI_VERSION,
	       "and the kernel's version is written back to it");
	b.abi_version = 1;
	expect(rc(ioctl(fd, RNIC_IOC_BIND, &b)), -EPROTO,
	       "bind from a library of ABI version 1: EPROTO");
	expect(b.abi_version, RNIC_USER_ABI_VERSION,
	       "and the kernel's version is written back");
	expect(rc(ioctl(fd, _IOWR('R', 1, struct rnic_bind), &b)), -ENOTTY,
	       "the old magic ('R', random.h's range): ENOTTY");
	memset(&b, 'x', sizeof(b));
	b.flags = 0;
	b.reserved = 0;
	b.weight = 0;
	b.abi_version = RNIC_USER_ABI_VERSION;
	expect(rc(ioctl(fd, RNIC_IOC_BIND, &b)), -EINVAL,
	       "bind with an unterminated device name: EINVAL");
	expect(bind_to(fd, "nosuchdev9", 0), -ENODEV, "bind to an unknown device: ENODEV");
	expect(bind_to(fd, dev, 1u << 30), -EINVAL,
	       "bind asking more than user_weight: EINVAL");
	expect(rc(ioctl(fd, RNIC_IOC_BIND, (void *)16)), -EFAULT, "bind from a bad pointer: EFAULT");
	/* mappings */
	expect(mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED ?
	       -errno : 0, -EINVAL, "writable mapping: EINVAL");
	expect(mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED ?
	       -errno : 0, -EINVAL, "two-page mapping: EINVAL");
	expect(mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, pg) == MAP_FAILED ?
	       -errno : 0, -EINVAL, "mapping at offset 1: EINVAL");
	/* an open file is only its struct until it binds: no page to map yet */
	expect(mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED ?
	       -errno : 0, -ENOTCONN, "a file never bound has no page to map: ENOTCONN");

	/* bound */
	expect(bind_to(fd, dev, weight), 0, "bind");
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	result(p != MAP_FAILED, "the shared page maps read-only", p == MAP_FAILED ? -errno : 0);
	if (p != MAP_FAILED) {
		expect(rc(mprotect(p, pg, PROT_READ | PROT_WRITE)), -EACCES,
		       "the shared page cannot be made writable: EACCES");
		munmap(p, pg);
	}
	if (weight)
		expect(sysfs_value(getpid(), "weight"), weight,
		       "the weight asked at bind is the consumer's");
	expect(bind_to(fd, dev, 0), -EBUSY, "bind twice: EBUSY");
	fd2 = open_node();
	expect(bind_to(fd2, dev, 0), -EBUSY, "a second binding of the process: EBUSY");
	close(fd2);
	expect(rc(read(fd, buf, 8)), -EINVAL, "read shorter than an event header: EINVAL");
	expect(rc(read(fd, buf, sizeof(buf))), -EAGAIN, "read with nothing queued: EAGAIN");
	expect(plan(fd, lkeys, RNIC_PLAN_MAX + 1), -EINVAL, "plan over 1024 lkeys: EINVAL");
	expect(plan(fd, lkeys, 0xffffffffu), -EINVAL, "plan of 2^32-1 lkeys: EINVAL");
	expect(plan(fd, (void *)16, 4), -EFAULT, "plan from a bad pointer: EFAULT");
	expect(plan(fd, lkeys, RNIC_PLAN_MAX), 0, "plan of 1024 unknown lkeys covers nothing");
	expect(rc(ioctl(fd, RNIC_IOC_RELEASE_PLAN, (void *)16)), -EFAULT,
	       "plan header at a bad pointer: EFAULT");
	check_foreign_plan(fd);
	expect(reserve(fd, 1, 0, 77), -EINVAL, "reserve with an unknown mode: EINVAL");
	{
		long r = reserve(fd, ~0ULL, ~0U, RNIC_RESERVE_NOWAIT);

		result(r == -EAGAIN || r == -ENOMEM, "reserve of 2^64-1 entries: refused", r);
		r = reserve(fd, 1ULL << 40, 0, RNIC_RESERVE_WAIT);
		result(r == -ENOMEM, "waiting reserve above the budget: ENOMEM", r);
	}
	expect(sysfs_value(getpid(), "held"), 0, "after all that, nothing charged");
	close(fd);
	check_killable_reserve();
	return failed ? 1 : 0;
}

static uint64_t rnd(void)
{
	return ((uint64_t)random() << 33) ^ ((uint64_t)random() << 11) ^ random();
}

/* Pointers a fuzzer would try: valid, NULL, unmapped, kernel, unaligned. */
static void *fuzz_ptr(uint8_t *arena, size_t size)
{
	switch (random() % 6) {
	case 0: return NULL;
	case 1: return (void *)16;
	case 2: return (void *)0xffff888000000000ULL;
	case 3: return arena + random() % size;
	default: return arena;
	}
}

/* @size bytes, page aligned, followed by an inaccessible page. */
static uint8_t *arena_with_guard(size_t size, size_t pg)
{
	size_t len = (size + pg - 1) / pg * pg;
	uint8_t *p = mmap(NULL, len + pg, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + len, pg, PROT_NONE)) {
		perror("urogue: arena");
		exit(2);
	}
	return p + len - size;
}

static int run_fuzz(long iterations, unsigned int seed)
{
	static const uint32_t valid[] = {
		RNIC_IOC_BIND, RNIC_IOC_RESERVE, RNIC_IOC_RELEASE_PLAN,
	};
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	const size_t arena_size = 8192;
	long i, errs = 0, oks = 0;
	uint8_t *arena;
	int fd = open_node();

	/*
	 * The kernel writes results back through pointers that may sit near
	 * the arena's end, and read() asks for more than the arena holds:
	 * a guard page after it turns such writes into EFAULT from the kernel
	 * instead of corrupting this program's own stack.
	 */
	arena = arena_with_guard(arena_size, pg);
	srandom(seed);
	for (i = 0; i < iterations; i++) {
		unsigned long cmd;
		size_t k, len;
		void *p;

		for (k = 0; k < arena_size; k += 8) {
			uint64_t v = rnd();

			memcpy(arena + k, &v, 8);
		}
		/* small lkey lists and counts, so plans are sometimes walked */
		if (random() % 2)
			((struct rnic_release_plan *)arena)->nlkeys = random() % 1100;
		if (random() % 2) {
			struct rnic_release_plan *pl = (void *)arena;

			pl->lkeys = (uintptr_t)(arena + 64);
		}
		if (random() % 3 == 0)
			((struct rnic_reserve *)arena)->mode = random() % 3;
		if (random() % 4 == 0)
			((struct rnic_reserve *)arena)->entries = random() % 4096;
		if (random() % 4 == 0) {
			memset(arena, 0, sizeof(struct rnic_bind));
			snprintf((char *)arena, RNIC_IBDEV_NAME_MAX, "%s", dev);
			((struct rnic_bind *)arena)->weight = random() % 3;
			((struct rnic_bind *)arena)->abi_version = random() % 4 ?
				RNIC_USER_ABI_VERSION : random() % 4;
		}
		if (random() % 4)
			cmd = valid[random() % 3];
		else
			cmd = _IOC(random() % 4, RNIC_IOC_MAGIC, 0x1c + random() % 12,
				   random() % 512);
		/* RESERVE WAIT would sleep user_wait_ms: keep the fuzzer moving */
		if (cmd == RNIC_IOC_RESERVE &&
		    ((struct rnic_reserve *)arena)->mode == RNIC_RESERVE_WAIT)
			((struct rnic_reserve *)arena)->mode = RNIC_RESERVE_NOWAIT;
		if (ioctl(fd, cmd, fuzz_ptr(arena, arena_size)) < 0)
			errs++;
		else
			oks++;
		switch (random() % 8) {
		case 0:
			if (read(fd, fuzz_ptr(arena, arena_size), random() % 9000) < 0)
				errs++;
			break;
		case 1:
			len = pg * (1 + random() % 2);
			p = mmap(NULL, len, PROT_READ |
				 (random() % 2 ? PROT_WRITE : 0), MAP_SHARED, fd,
				 pg * (random() % 2));
			if (p != MAP_FAILED)
				munmap(p, len);
			break;
		case 2:
			if (random() % 16 == 0) {	/* start over, bound or not */
				close(fd);
				fd = open_node();
			}
			break;
		}
		if (i % 2000 == 0) {
			fprintf(stderr, "fuzz %ld/%ld\n", i, iterations);
			fflush(stderr);
		}
	}
	close(fd);
	printf("fuzz iterations=%ld ok=%ld errors=%ld\n", iterations, oks, errs);
	return 0;
}

static int run_planspin(double seconds)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	static uint32_t lkeys[RNIC_PLAN_MAX];
	struct ibv_pd *pd = open_pd(dev);
	int fd = open_node(), i, n = 0;
	struct timespec t0, t;
	long plans = 0, r = 0;
	char *buf;

	buf = aligned_alloc(pg, 256 * pg);
	if (!pd || fd < 0 || !buf || bind_to(fd, dev, 0)) {
		printf("planspin: no binding\n");
		return 1;
	}
	for (i = 0; i < 256; i++) {
		struct ibv_mr *mr = ibv_reg_mr(pd, buf + i * pg, pg, IBV_ACCESS_LOCAL_WRITE);

		if (mr)
			lkeys[n++] = mr->lkey;
	}
	for (i = n; i < RNIC_PLAN_MAX && n; i++)
		lkeys[i] = lkeys[i % n];
	printf("spinning with %d registrations\n", n);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		r = plan(fd, lkeys, RNIC_PLAN_MAX);
		plans++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (r >= 0 && (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
	printf("planspin plans=%ld ended=%ld\n", plans, r);
	return 0;
}

/* A BIND from a process that cannot use the device: refused (U16). */
static int run_noaccess(void)
{
	int fd = open_node(), null = open("/dev/null", O_RDWR | O_CLOEXEC);
	int shows[2] = { -1, null }, bound = 0, i, j;
	struct rnic_bind b;

	for (i = 0; i < 2; i++) {
		long r;

		memset(&b, 0, sizeof(b));
		snprintf(b.ibdev, sizeof(b.ibdev), "%s", dev);
		b.abi_version = RNIC_USER_ABI_VERSION;
		b.verbs_fd = shows[i];
		r = rc(ioctl(fd, RNIC_IOC_BIND, &b));
		printf("bind showing %s: %ld\n", i ? "/dev/null" : "no verbs file", r);
		if (r)
			continue;
		bound++;
		for (j = 0; j < 5; j++)
			printf("reserve: %ld\n", reserve(fd, 4096, 0, RNIC_RESERVE_WAIT));
		close(fd);
		fd = open_node();
	}
	close(fd);
	close(null);
	return bound ? 1 : 0;
}

/* A file bound again after its device went and came back (N10). */
static int run_rebind(void)
{
	struct pollfd p = { .fd = open_node(), .events = POLLIN };
	char ev[4096];
	long r = -1, n;
	int i;

	if (bind_to(p.fd, dev, 0))
		return 1;
	printf("bound\n");
	for (i = 0; i < 600; i++)
		if (poll(&p, 1, 100) > 0 && (p.revents & POLLHUP))
			break;
	if (i == 600) {
		printf("never detached\n");
		return 1;
	}
	printf("detached\n");
	for (i = 0; i < 600 && (r = bind_to(p.fd, dev, 0)); i++)
		usleep(100000);
	if (r) {
		printf("bind again: %ld\n", r);
		return 1;
	}
	p.revents = 0;
	r = poll(&p, 1, 0);
	n = rc(read(p.fd, ev, sizeof(ev)));
	printf("bound again: poll %ld revents %#x, read %ld\n", r, p.revents, n);
	return (p.revents & POLLHUP) || n != -EAGAIN ? 1 : 0;
}

/*
 * One process of a Sybil (N1): bound, it asks for one entry more every
 * 10 ms for @secs or until SIGTERM (the test ends it once it has
 * sampled), never giving any back, so that it is always hungry: as many
 * such processes in as many cgroups or uids as a user can make must
 * weigh as one tenant. Prints what it was given.
 */
static int run_sybil(double secs)
{
	const struct timespec tick = { .tv_nsec = 10000000 };
	int fd = open_node(), ok = 0, refused = 0, sig = -1;
	struct timespec t0, t;
	sigset_t term;
	long r;

	r = bind_to(fd, dev, 0);
	if (r) {
		printf("sybil bind: %ld\n", r);
		return 1;
	}
	/* SIGTERM ends it early: taken between reservations, not handled */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
	printf("sybil bound\n");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (reserve(fd, 1, 0, RNIC_RESERVE_NOWAIT))
			refused++;
		else
			ok++;
		sig = sigtimedwait(&term, NULL, &tick);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (sig != SIGTERM &&
		 (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	printf("sybil done: %d granted, %d refused\n", ok, refused);
	close(fd);
	return 0;
}

/*
 * A bound file that outlives its process (N10, U18): the parent binds
 * and reserves 10 entries, forks, and exits; the child, holding the
 * inherited file, waits for @go to exist, then expects RESERVE to
 * fail with @want (ESRCH: this call found the binder gone; ENOTCONN:
 * something unbound it before), a read to say end of file, and a BIND
 * of its own to work.
 */
static int run_orphan(const char *go, long want)
{
	int fd = open_node(), i;
	pid_t parent = getpid();
	char ev[4096];
	long r, n, b;

	r = bind_to(fd, dev, 0);
	if (!r)
		r = reserve(fd, 10, 0, RNIC_RESERVE_NOWAIT);
	if (r) {
		printf("orphan parent: %ld\n", r);
		return 1;
	}
	if (fork())
		return 0;
	while (getppid() == parent)
		usleep(10000);
	printf("orphan child holds the file of %d\n", (int)parent);
	for (i = 0; i < 6000 && access(go, F_OK); i++)
		usleep(10000);
	r = reserve(fd, 1, 0, RNIC_RESERVE_NOWAIT);
	n = rc(read(fd, ev, sizeof(ev)));
	b = bind_to(fd, dev, 0);
	printf("orphan child: reserve %ld (want %ld), read %ld (want 0), bind %ld (want 0)\n",
	       r, want, n, b);
	return r == want && n == 0 && b == 0 ? 0 : 1;
}

/* Bound, and then nothing for @secs: a consumer that demands nothing. */
static int run_bindidle(double secs)
{
	int fd = open_node();
	long r = bind_to(fd, dev, 0);

	printf("bindidle bind: %ld\n", r);
	if (r)
		return 1;
	usleep((useconds_t)(secs * 1e6));
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: urogue DEV checks | urogue DEV fuzz N SEED\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	dev = argv[1];
	if (!strcmp(argv[2], "checks"))
		return run_checks();
	if (!strcmp(argv[2], "fuzz") && argc == 5)
		return run_fuzz(atol(argv[3]), (unsigned int)atoi(argv[4]));
	if (!strcmp(argv[2], "planspin") && argc == 4)
		return run_planspin(atof(argv[3]));
	if (!strcmp(argv[2], "noaccess"))
		return run_noaccess();
	if (!strcmp(argv[2], "rebind"))
		return run_rebind();
	if (!strcmp(argv[2], "orphan") && argc == 5)
		return run_orphan(argv[3], -(long)atoi(argv[4]));
	if (!strcmp(argv[2], "bindidle") && argc == 4)
		return run_bindidle(atof(argv[3]));
	if (!strcmp(argv[2], "sybil") && argc == 4)
		return run_sybil(atof(argv[3]));
	return 2;
}
