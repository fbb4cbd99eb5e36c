/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tenants' weights as the administrator writes them: plain C, built into
 * rnic_mgr.ko and into the unit tests (tests/unit/test_tenant_rules.c).
 *
 * A rule list is the value of rnic_mgr's tenant_weights parameter, at
 * boot (modprobe.d, the kernel command line) or at run time (its file in
 * /sys/module/rnic_mgr/parameters/). Rules are separated by commas or
 * white space; each is KIND:KEY=WEIGHT, where
 *
 *   uid:1000=200          the tenant of uid 1000 (tenant_by uid)
 *   cgroup:/jobs/a=50     the tenant of cgroup v2 /jobs/a (tenant_by cgroup)
 *
 * WEIGHT is 1..RNP_MAX_WEIGHT. A tenant no rule names has user_weight.
 * The last rule naming a tenant wins. An empty list clears every rule.
 */
#ifndef RNIC_TENANT_RULES_H
#define RNIC_TENANT_RULES_H

#include <rdmastor/compat.h>

/* How a device groups its user consumers into tenants. */
enum rnt_by {
	RNT_BY_CGROUP,		/* the process's cgroup v2 (the default) */
	RNT_BY_UID,		/* the process's real uid, in the initial namespace */
	RNT_BY_PROCESS,		/* no grouping: each process is a tenant of its own */
	RNT_NR_BY,
};

#define RNT_MAX_RULES	64
#define RNT_MAX_PATH	128
/* longest rule list, with its terminating NUL */
#define RNT_MAX_LIST	1024

/**
 * struct rnt_rule - one tenant's weight
 * @by: RNT_BY_CGROUP or RNT_BY_UID
 * @uid: the uid, for RNT_BY_UID
 * @path: the cgroup's path from the root, for RNT_BY_CGROUP
 * @weight: 1..RNP_MAX_WEIGHT
 */
struct rnt_rule {
	u32 by;
	u32 uid;
	char path[RNT_MAX_PATH];
	u32 weight;
};

const char *rnt_by_name(u32 by);
int rnt_by_parse(const char *s);
int rnt_rules_parse(const char *s, struct rnt_rule *rules, u32 max, u32 *nr);
u32 rnt_rules_weight(const struct rnt_rule *rules, u32 nr, u32 by, u32 uid,
		     const char *path, u32 dflt);
size_t rnt_prefix_len(const char *path, u32 level);
u32 rnt_tenant_level(const struct rnt_rule *rules, u32 nr, const char *path,
		     u32 depth);

#endif /* RNIC_TENANT_RULES_H */
