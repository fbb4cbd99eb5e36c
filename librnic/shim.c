// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librnic_shim.so: puts an unmodified verbs program's registrations on
 * librnic's cache, by LD_PRELOAD:
 *
 *   LD_PRELOAD=librnic_shim.so ib_write_bw ...
 *
 * ibv_reg_mr() (and ibv_reg_mr_iova/iova2 with iova == addr) is served
 * from a region cache per protection domain and access flags: a hit
 * returns at once, a miss registers the region; ibv_dereg_mr() of such
 * a registration only puts it back (deferred deregistration), so the
 * program's idle registrations stay cached, charged, and revocable: the
 * shim binds the process to /dev/rnic_mgr on each device it registers
 * on and a thread answers REVOKE by evicting idle regions and STALE by
 * dropping them. What cannot be cached (a request spanning regions, an
 * iova other than the address, no rnic_mgr) goes straight to libibverbs.
 * Neither does a registration that grants remote access (remote read,
 * write or atomic, memory windows): a peer holds its rkey, so it must
 * cover exactly the program's buffer, and ibv_dereg_mr() must kill the
 * key at once. A cached region would cover whole pages, maybe a larger
 * region, and outlive the deregistration.
 *
 * The program gets its own struct ibv_mr for each registration (its
 * addr and length, the region's keys), so nothing it reads changes.
 *
 * ibv_rereg_mr() of such a registration registers the new buffer, pd or
 * access (from the cache, or straight through when it cannot serve it)
 * and then puts the old one back, in the program's same struct ibv_mr;
 * if the new registration fails the old one stands. In a child of
 * fork() everything passes straight through: the cached regions are the
 * parent's registrations, so the child's deregistration of one it
 * inherited only forgets it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bind.h"
#include "verbs.h"

/* verbs.h makes these macros over inline helpers; the shim defines the calls */
#undef ibv_reg_mr
#undef ibv_reg_mr_iova

#define SHIM_MAGIC	0x72646d6173686d72ULL	/* "rdmashmr" */
#define SHIM_CACHES	16

/*
 * What the program holds: its own view of a cached region, or (after an
 * ibv_rereg_mr() the cache could not serve) of a registration of its own
 * in @real.
 */
struct shim_mr {
	struct ibv_mr mr;
	uint64_t magic;
	struct rnic_cache *cache;
	struct rnic_cache_seg seg;
	struct ibv_mr *real;
	int access;
};

struct shim_cache {
	struct ibv_pd *pd;
	int access;
	struct rnic_cache *cache;
	struct rnic_binding *bind;
	int bound;
};

static pthread_mutex_t shim_lock = PTHREAD_MUTEX_INITIALIZER;
/*
 * Set while this thread is inside the shim: libibverbs' own
 * ibv_reg_mr() calls ibv_reg_mr_iova2() through its PLT, which lands
 * here again; such calls go straight to libibverbs.
 */
static __thread int shim_inside;
static struct shim_cache shim_caches[SHIM_CACHES];
static int shim_nr;
static pthread_t shim_thread;
static int shim_thread_started;

/* in a child of fork(): everything passes through (see the top) */
static int shim_forked;

static struct ibv_mr *(*real_reg_mr_iova2)(struct ibv_pd *, void *, size_t,
					   uint64_t, unsigned int);
static int (*real_dereg_mr)(struct ibv_mr *);
static int (*real_rereg_mr)(struct ibv_mr *, int, struct ibv_pd *, void *,
			    size_t, int);

/* fork() with shim_lock held by no one: the child's copy starts free */
static void shim_prefork(void)
{
	pthread_mutex_lock(&shim_lock);
}

static void shim_postfork_parent(void)
{
	pthread_mutex_unlock(&shim_lock);
}

static void shim_postfork_child(void)
{
	shim_forked = 1;
	pthread_mutex_unlock(&shim_lock);
}

__attribute__((constructor)) static void shim_init(void)
{
	pthread_atfork(shim_prefork, shim_postfork_parent, shim_postfork_child);
}

/* The cache's registrar: libibverbs' registration itself. */
static struct ibv_mr *shim_real_reg(struct ibv_pd *pd, void *addr, size_t length,
				    int access)
{
	return real_reg_mr_iova2(pd, addr, length, (uintptr_t)addr,
				 (unsigned int)access);
}

static void shim_resolve(void)
{
	if (real_dereg_mr)
		return;
	real_reg_mr_iova2 = dlsym(RTLD_NEXT, "ibv_reg_mr_iova2");
	real_rereg_mr = dlsym(RTLD_NEXT, "ibv_rereg_mr");
	real_dereg_mr = dlsym(RTLD_NEXT, "ibv_dereg_mr");
}

/* Serve every binding's events: REVOKE evicts, STALE drops. */
static void *shim_events(void *arg)
{
	struct pollfd pfd[SHIM_CACHES];
	int i, n;

	(void)arg;
	shim_inside = 1;
	for (;;) {
		pthread_mutex_lock(&shim_lock);
		for (i = 0, n = 0; i < shim_nr; i++)
			if (shim_caches[i].bound)
				pfd[n++] = (struct pollfd){ .fd = rnic_bind_fd(shim_caches[i].bind),
							    .events = POLLIN };
		pthread_mutex_unlock(&shim_lock);
		if (poll(pfd, n, 200) <= 0)
			continue;
		pthread_mutex_lock(&shim_lock);
		for (i = 0; i < shim_nr; i++)
			if (shim_caches[i].bound &&
			    rnic_bind_process(shim_caches[i].bind, 0) < 0)
				shim_caches[i].bound = 0;	/* device gone */
		pthread_mutex_unlock(&shim_lock);
	}
	return NULL;
}

/* The cache for (pd, access), made and bound at first use; shim_lock held. */
static struct rnic_cache *shim_cache_of(struct ibv_pd *pd, int access)
{
	struct shim_cache *sc;
	struct rnic_shared sh;
	int i;

	for (i = 0; i < shim_nr; i++)
		if (shim_caches[i].pd == pd && shim_caches[i].access == access)
			return shim_caches[i].cache;
	if (shim_nr == SHIM_CACHES)
		return NULL;
	sc = &shim_caches[shim_nr];
	sc->cache = rnic_verbs_cache(pd, access, UINT64_MAX);
	if (!sc->cache)
		return NULL;
	/* registrations must not come back through the shim */
	rnic_verbs_cache_set_real(sc->cache, shim_real_reg, real_dereg_mr);
	/* for its context: a library of the program may bind the whole process */
	if (rnic_bind_open_context(&sc->bind, ibv_get_device_name(pd->context->device),
				   pd->context->cmd_fd, sc->cache, 0)) {
		/* no rnic_mgr: a cache nobody could revoke is a leak; pass through */
		rnic_verbs_cache_destroy(sc->cache);
		sc->cache = NULL;
		return NULL;
	}
	if (!rnic_shared_read(rnic_bind_shared(sc->bind), &sh))
		rnic_cache_set_capacity(sc->cache, sh.entitlement);
	sc->bound = 1;
	sc->pd = pd;
	sc->access = access;
	shim_nr++;
	if (!shim_thread_started &&
	    !pthread_create(&shim_thread, NULL, shim_events, NULL)) {
		pthread_detach(shim_thread);
		shim_thread_started = 1;
	}
	return sc->cache;
}

/* Straight to libibverbs, which may call back in through its PLT. */
static struct ibv_mr *shim_pass(struct ibv_pd *pd, void *addr, size_t length,
				uint64_t iova, unsigned int access)
{
	int was = shim_inside;
	struct ibv_mr *mr;

	shim_inside = 1;
	mr = real_reg_mr_iova2(pd, addr, length, iova, access);
	shim_inside = was;
	return mr;
}

/* What a peer could use: such a registration is never cached. */
#define SHIM_REMOTE_ACCESS (IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE | \
			    IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_MW_BIND)

static struct ibv_mr *shim_reg(struct ibv_pd *pd, void *addr, size_t length,
			       int access)
{
	struct shim_mr *s;
	struct rnic_cache *c;
	struct ibv_mr *region;

	if (shim_inside || shim_forked || (access & SHIM_REMOTE_ACCESS))
		return shim_pass(pd, addr, length, (uintptr_t)addr, access);
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	pthread_mutex_lock(&shim_lock);
	shim_inside = 1;
	c = length ? shim_cache_of(pd, access) : NULL;
	if (!c || rnic_cache_get(c, (uintptr_t)addr, length, &s->seg, 1) != 1) {
		shim_inside = 0;
		pthread_mutex_unlock(&shim_lock);
		free(s);
		return shim_pass(pd, addr, length, (uintptr_t)addr, access);
	}
	shim_inside = 0;
	pthread_mutex_unlock(&shim_lock);
	region = s->seg.handle;
	s->mr = *region;
	s->mr.addr = addr;
	s->mr.length = length;
	s->magic = SHIM_MAGIC;
	s->cache = c;
	s->access = access;
	return &s->mr;
}

static int shim_is_ours(struct ibv_mr *mr)
{
	/*
	 * Ours carry the magic; a libibverbs MR is a larger verbs_mr whose
	 * next words are small enums, never the magic.
	 */
	return ((struct shim_mr *)mr)->magic == SHIM_MAGIC;
}

/* Give back what @s stands for: put the region back, or deregister. */
static int shim_release(struct shim_mr *s)
{
	int err = 0;

	if (s->real) {
		err = real_dereg_mr(s->real);
	} else if (!shim_forked) {	/* the parent's regions: not the child's to put */
		pthread_mutex_lock(&shim_lock);
		shim_inside = 1;
		rnic_cache_put(s->cache, &s->seg, 1);
		shim_inside = 0;
		pthread_mutex_unlock(&shim_lock);
	}
	return err;
}

/**
 * ibv_reg_mr - libibverbs' call, served from the cache
 * @pd: protection domain
 * @addr: start of the buffer
 * @length: its bytes
 * @access: IBV_ACCESS_* flags
 *
 * Return: the program's own view of a cached region, or what libibverbs
 * returns when the cache cannot serve it.
 */
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	shim_resolve();
	return shim_reg(pd, addr, length, access);
}

/**
 * ibv_reg_mr_iova - libibverbs' call, cached when @iova is @addr
 * @pd: protection domain
 * @addr: start of the buffer
 * @length: its bytes
 * @iova: the address the peer uses
 * @access: IBV_ACCESS_* flags
 *
 * Return: as ibv_reg_mr().
 */
struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length,
			       uint64_t iova, int access)
{
	shim_resolve();
	if (shim_inside || iova != (uintptr_t)addr)
		return shim_pass(pd, addr, length, iova, access);
	return shim_reg(pd, addr, length, access);
}

/**
 * ibv_reg_mr_iova2 - libibverbs' call, cached when @iova is @addr
 * @pd: protection domain
 * @addr: start of the buffer
 * @length: its bytes
 * @iova: the address the peer uses
 * @access: IBV_ACCESS_* flags
 *
 * Return: as ibv_reg_mr().
 */
struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length,
				uint64_t iova, unsigned int access)
{
	shim_resolve();
	if (shim_inside || iova != (uintptr_t)addr || access > (unsigned int)INT32_MAX)
		return shim_pass(pd, addr, length, iova, access);
	return shim_reg(pd, addr, length, (int)access);
}

/**
 * ibv_dereg_mr - libibverbs' call; a cached registration is only put back
 * @mr: what ibv_reg_mr() returned
 *
 * Return: 0, or libibverbs' answer for a registration the shim did not
 * make.
 */
int ibv_dereg_mr(struct ibv_mr *mr)
{
	struct shim_mr *s = (struct shim_mr *)mr;
	int err;

	shim_resolve();
	if (shim_inside || !shim_is_ours(mr))
		return real_dereg_mr(mr);
	err = shim_release(s);
	if (err)
		return err;
	s->magic = 0;
	free(s);
	return 0;
}

/**
 * ibv_rereg_mr - libibverbs' call; a cached registration is replaced
 * @mr: what ibv_reg_mr() returned
 * @flags: IBV_REREG_MR_CHANGE_TRANSLATION, _PD, _ACCESS
 * @pd: the new protection domain (with IBV_REREG_MR_CHANGE_PD)
 * @addr: the new buffer (with IBV_REREG_MR_CHANGE_TRANSLATION)
 * @length: its bytes
 * @access: the new IBV_ACCESS_* flags (with IBV_REREG_MR_CHANGE_ACCESS)
 *
 * The new registration is made first; only when it stands is the old
 * one given back, so a failure leaves @mr as it was.
 *
 * Return: 0, IBV_REREG_MR_ERR_INPUT (unknown flags, or in a child of
 * fork() for an inherited cached registration), IBV_REREG_MR_ERR_CMD
 * (the new registration failed); libibverbs' answer for registrations
 * the shim did not make.
 */
int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr,
		 size_t length, int access)
{
	const int known = IBV_REREG_MR_CHANGE_TRANSLATION | IBV_REREG_MR_CHANGE_PD |
			  IBV_REREG_MR_CHANGE_ACCESS;
	struct shim_mr *s = (struct shim_mr *)mr, *ns;
	struct ibv_mr *n;

	shim_resolve();
	if (shim_inside || !shim_is_ours(mr))
		return real_rereg_mr(mr, flags, pd, addr, length, access);
	if (shim_forked || (flags & ~known))
		return IBV_REREG_MR_ERR_INPUT;
	if (!(flags & IBV_REREG_MR_CHANGE_PD))
		pd = s->mr.pd;
	if (!(flags & IBV_REREG_MR_CHANGE_TRANSLATION)) {
		addr = s->mr.addr;
		length = s->mr.length;
	}
	if (!(flags & IBV_REREG_MR_CHANGE_ACCESS))
		access = s->access;
	n = shim_reg(pd, addr, length, access);
	if (!n)
		return IBV_REREG_MR_ERR_CMD;
	shim_release(s);
	if (shim_is_ours(n)) {
		ns = (struct shim_mr *)n;
		*s = *ns;
		ns->magic = 0;
		free(ns);
	} else {		/* not cacheable: keep the program's struct around it */
		s->mr = *n;
		s->real = n;
		s->cache = NULL;
		s->access = access;
	}
	return 0;
}
