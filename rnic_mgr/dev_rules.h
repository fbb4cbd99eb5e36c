/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Devices' boot configuration as the administrator writes it: plain C,
 * built into rnic_mgr.ko and into the unit tests
 * (tests/unit/test_dev_rules.c).
 *
 * A rule list is the value of rnic_mgr's "devices" parameter (modprobe.d
 * or the kernel command line), applied to each device when rnic_mgr
 * adds it, before any consumer can register, and again when the device
 * is renamed. Rules are separated by commas or white space; each is
 * GLOB:KEY=VALUE[:KEY=VALUE...], where GLOB is a shell pattern (* and
 * ?) on the device's name and KEY is one of
 *
 *   user=off|monitor|on   user registrations: untouched, counted only,
 *                         or charged and governed (Documentation/
 *                         user-level.rst)
 *   policy=arbiter|fcfs|static
 *   entries=N keys=N      the device's budgets (1..2^32-1)
 *   ulps=share|off        stock kernel ULPs' MRs: each capped at its
 *                         share unless it has a cap of its own, or not
 *                         capped (Documentation/rnic_mgr.rst)
 *
 * For each key, the last rule that matches the device and sets it wins;
 * keys no rule sets keep their defaults (user=off, policy=arbiter,
 * default_entries, default_keys, ulps=off). An empty list clears every rule.
 *
 * A weight list is the value of the "consumer_weights" parameter:
 * GLOB=WEIGHT rules, separated by commas or white space, GLOB a shell
 * pattern on a kernel consumer's name (nfs-192.0.2.1.*, iser-ini-*,
 * nfsd-rdma-*), WEIGHT 1..RNP_MAX_WEIGHT. The last rule that matches
 * wins; a consumer no rule matches keeps the weight it registered with.
 */
#ifndef RNIC_DEV_RULES_H
#define RNIC_DEV_RULES_H

#include <rdmastor/compat.h>

/* What rnic_mgr does with a device's user memory registrations. */
enum rdr_user {
	RDR_USER_OFF,		/* untouched: not seen, not counted (the default) */
	RDR_USER_MONITOR,	/* counted and shown, never refused or delayed */
	RDR_USER_ON,		/* charged to a consumer per process, governed */
	RDR_NR_USER,
};

#define RDR_MAX_RULES	32
#define RDR_MAX_GLOB	64
/* longest rule list, with its terminating NUL */
#define RDR_MAX_LIST	1024

/* which keys a rule (or a device's result) sets */
#define RDR_SET_USER	0x1
#define RDR_SET_POLICY	0x2
#define RDR_SET_ENTRIES	0x4
#define RDR_SET_KEYS	0x8
#define RDR_SET_ULPS	0x10

/**
 * struct rdr_conf - what rules set for one device
 * @set: RDR_SET_* of the fields below that a rule set
 * @user: enum rdr_user
 * @policy: an RNP_POL_* value
 * @entries: entry budget
 * @keys: key budget
 * @ulps_share: stock kernel ULPs capped at their share (ulps=share)
 */
struct rdr_conf {
	u32 set;
	u32 user;
	u32 policy;
	u64 entries;
	u64 keys;
	bool ulps_share;
};

/**
 * struct rdr_rule - one GLOB:KEY=VALUE... rule
 * @glob: the device name pattern
 * @conf: what it sets
 */
struct rdr_rule {
	char glob[RDR_MAX_GLOB];
	struct rdr_conf conf;
};

/**
 * struct rdr_wrule - one GLOB=WEIGHT rule
 * @glob: the consumer name pattern
 * @weight: 1..RNP_MAX_WEIGHT
 */
struct rdr_wrule {
	char glob[RDR_MAX_GLOB];
	u32 weight;
};

const char *rdr_user_name(u32 user);
int rdr_user_parse(const char *s);
bool rdr_glob_match(const char *glob, const char *name);
int rdr_rules_parse(const char *s, struct rdr_rule *rules, u32 max, u32 *nr);
void rdr_rules_apply(const struct rdr_rule *rules, u32 nr, const char *name,
		     struct rdr_conf *out);
int rdr_wrules_parse(const char *s, struct rdr_wrule *rules, u32 max, u32 *nr);
u32 rdr_wrules_weight(const struct rdr_wrule *rules, u32 nr, const char *name,
		      u32 dflt);

#endif /* RNIC_DEV_RULES_H */
