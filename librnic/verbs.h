/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * librnic's registration cache on verbs: regions are registered with
 * ibv_reg_mr() on one protection domain and deregistered with
 * ibv_dereg_mr(), in the batches the cache decides.
 */
#ifndef RDMASTOR_LIBRNIC_VERBS_H
#define RDMASTOR_LIBRNIC_VERBS_H

#include <infiniband/verbs.h>
#include "regcache.h"

typedef struct ibv_mr *(*rnic_reg_fn)(struct ibv_pd *pd, void *addr,
				      size_t length, int access);
typedef int (*rnic_dereg_fn)(struct ibv_mr *mr);

/* the functions: kernel-doc at their definitions in verbs.c */
struct rnic_cache *rnic_verbs_cache(struct ibv_pd *pd, int access,
				  uint64_t capacity_pages);

void rnic_verbs_cache_set_real(struct rnic_cache *c, rnic_reg_fn reg,
			       rnic_dereg_fn dereg);

void rnic_verbs_cache_destroy(struct rnic_cache *c);

#endif /* RDMASTOR_LIBRNIC_VERBS_H */
