// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing and lookup of tenants' weights (rnic_mgr/user/tenant_rules.h).
 * Input comes from root (a module parameter) but is parsed as if hostile
 * all the same: bounded lengths, no number overflow, nothing half-applied
 * on an error.
 */
#include "tenant_rules.h"
#include "../rule_list.h"
#include "../rnic_policy.h"

static const char * const rnt_by_names[RNT_NR_BY] = {
	[RNT_BY_CGROUP] = "cgroup",
	[RNT_BY_UID] = "uid",
	[RNT_BY_PROCESS] = "process",
};

/**
 * rnt_by_name - the name of a grouping, as sysfs shows it
 * @by: enum rnt_by
 *
 * Return: "cgroup", "uid", "process", or "?".
 */
const char *rnt_by_name(u32 by)
{
	return by < RNT_NR_BY ? rnt_by_names[by] : "?";
}

/**
 * rnt_by_parse - a grouping from its name
 * @s: the name, optionally followed by one newline (a sysfs write)
 *
 * Return: the enum rnt_by value, or -EINVAL.
 */
int rnt_by_parse(const char *s)
{
	int i;

	for (i = 0; i < RNT_NR_BY; i++) {
		size_t n = strlen(rnt_by_names[i]);

		if (!strncmp(s, rnt_by_names[i], n) &&
		    (s[n] == '\0' || (s[n] == '\n' && s[n + 1] == '\0')))
			return i;
	}
	return -EINVAL;
}

/* A decimal number in [lo, hi] that is the whole of [s, e). */
static int rnt_number(const char *s, const char *e, u32 lo, u32 hi, u32 *out)
{
	u64 v;
	int err = rl_number(s, e, lo, hi, &v);

	if (!err)
		*out = (u32)v;
	return err;
}

/* One rule, [s, e), into @rule. */
static int rnt_rule_parse(const char *s, const char *e, void *rule)
{
	struct rnt_rule *r = rule;
	const char *eq = NULL, *key, *p;
	size_t len;
	int err;

	for (p = e; p > s; p--) {
		if (p[-1] == '=') {
			eq = p - 1;
			break;
		}
	}
	if (!eq)
		return -EINVAL;
	err = rnt_number(eq + 1, e, 1, RNP_MAX_WEIGHT, &r->weight);
	if (err)
		return err;
	memset(r->path, 0, sizeof(r->path));
	r->uid = 0;
	if ((size_t)(eq - s) > 4 && !strncmp(s, "uid:", 4)) {
		r->by = RNT_BY_UID;
		return rnt_number(s + 4, eq, 0, U32_MAX - 1, &r->uid);
	}
	if ((size_t)(eq - s) > 7 && !strncmp(s, "cgroup:", 7)) {
		key = s + 7;
		len = eq - key;
		/* a path from the root, as /proc/PID/cgroup shows it */
		if (key[0] != '/' || len >= sizeof(r->path))
			return -EINVAL;
		for (p = key; p < eq; p++)
			if (*p == '=')
				return -EINVAL;
		r->by = RNT_BY_CGROUP;
		memcpy(r->path, key, len);
		return 0;
	}
	return -EINVAL;
}

/**
 * rnt_rules_parse - parse a rule list
 * @s: the list, NUL-terminated, at most RNT_MAX_LIST - 1 characters
 * @rules: filled in; left untouched when the list is refused
 * @max: room in @rules
 * @nr: set to the number of rules
 *
 * Return: 0, -EINVAL for a malformed rule, -ERANGE for a number out of
 * range, -E2BIG for more than @max rules or a list too long.
 */
int rnt_rules_parse(const char *s, struct rnt_rule *rules, u32 max, u32 *nr)
{
	struct rnt_rule scratch;

	return rl_parse(s, RNT_MAX_LIST, rules, sizeof(*rules), max, nr, &scratch,
			rnt_rule_parse);
}

/**
 * rnt_rules_weight - a tenant's weight
 * @rules: the rules
 * @nr: how many
 * @by: how the tenant was grouped (enum rnt_by)
 * @uid: its uid, for RNT_BY_UID
 * @path: its cgroup's path, for RNT_BY_CGROUP
 * @dflt: the weight when no rule names it
 *
 * Return: the weight of the last rule naming the tenant, else @dflt.
 */
u32 rnt_rules_weight(const struct rnt_rule *rules, u32 nr, u32 by, u32 uid,
		     const char *path, u32 dflt)
{
	u32 w = dflt, i;

	for (i = 0; i < nr; i++) {
		if (rules[i].by != by)
			continue;
		if (by == RNT_BY_UID ? rules[i].uid == uid :
		    !strncmp(rules[i].path, path, sizeof(rules[i].path)))
			w = rules[i].weight;
	}
	return w;
}
