// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The registration cache on verbs (verbs.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "verbs.h"

struct rnic_verbs_ctx {
	struct ibv_pd *pd;
	int access;
	rnic_reg_fn reg;
	rnic_dereg_fn dereg;
};

static int rnic_verbs_reg(void *ctx, uintptr_t addr, size_t len, void **handle)
{
	struct rnic_verbs_ctx *v = ctx;
	struct ibv_mr *mr = v->reg(v->pd, (void *)addr, len, v->access);

	if (!mr)
		return -(errno ? errno : ENOMEM);
	*handle = mr;
	return 0;
}

static void rnic_verbs_dereg(void *ctx, void *const *handles, size_t n)
{
	struct rnic_verbs_ctx *v = ctx;
	size_t i;

	for (i = 0; i < n; i++)
		v->dereg(handles[i]);
}

static const struct rnic_cache_ops rnic_verbs_ops = {
	.reg = rnic_verbs_reg,
	.dereg = rnic_verbs_dereg,
};

/**
 * rnic_verbs_cache - a registration cache whose regions are verbs MRs
 * @pd: the protection domain they are registered on
 * @access: IBV_ACCESS_* flags of every registration
 * @capacity_pages: idle pages it may keep (the entitlement, when bound)
 *
 * A segment's handle (struct rnic_cache_seg) is its struct ibv_mr *.
 *
 * Return: the cache, or NULL (errno set).
 */
struct rnic_cache *rnic_verbs_cache(struct ibv_pd *pd, int access,
				  uint64_t capacity_pages)
{
	struct rnic_verbs_ctx *v = calloc(1, sizeof(*v));
	struct rnic_cache *c;

	if (!v)
		return NULL;
	v->pd = pd;
	v->access = access;
	v->reg = ibv_reg_mr;
	v->dereg = ibv_dereg_mr;
	c = rnic_cache_create(&rnic_verbs_ops, v, (size_t)sysconf(_SC_PAGESIZE),
		      capacity_pages);
	if (!c)
		free(v);
	return c;
}

/**
 * rnic_verbs_cache_set_real - register through other functions
 * @c: a cache from rnic_verbs_cache()
 * @reg: called instead of ibv_reg_mr()
 * @dereg: called instead of ibv_dereg_mr()
 *
 * For the LD_PRELOAD shim, whose own ibv_reg_mr() would otherwise be
 * called back. Call before the first rnic_cache_get().
 */
void rnic_verbs_cache_set_real(struct rnic_cache *c, rnic_reg_fn reg,
			       rnic_dereg_fn dereg)
{
	struct rnic_verbs_ctx *v = rnic_cache_ctx(c);

	v->reg = reg;
	v->dereg = dereg;
}

/**
 * rnic_verbs_cache_destroy - deregister everything cached and free it
 * @c: a cache from rnic_verbs_cache()
 */
void rnic_verbs_cache_destroy(struct rnic_cache *c)
{
	void *ctx = rnic_cache_ctx(c);

	rnic_cache_destroy(c);
	free(ctx);
}
