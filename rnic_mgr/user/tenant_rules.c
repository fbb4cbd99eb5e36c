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

/* Components in the cgroup path [@p, @p + @len): "/" has 0, "/a/b" 2. */
static u32 rnt_components(const char *p, size_t len)
{
	u32 n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] == '/' && i + 1 < len && p[i + 1] != '/')
			n++;
	return n;
}

/**
 * rnt_prefix_len - the length of a cgroup path's first components
 * @path: a cgroup path from the root, "/" or "/a/b/c"
 * @level: how many components
 *
 * Return: the length of the path of @path's ancestor at @level ("/a/b"
 * for 2), 1 for the root, strlen(@path) when @level is its own or more.
 */
size_t rnt_prefix_len(const char *path, u32 level)
{
	size_t i, len = strlen(path);
	u32 n = 0;

	if (!level)
		return len ? 1 : 0;
	for (i = 1; i < len; i++)
		if (path[i] == '/' && ++n == level)
			return i;
	return len;
}

/**
 * rnt_tenant_level - where a process's tenant stands above its cgroup
 * @rules: the weight rules
 * @nr: how many
 * @path: the process's cgroup v2 path from the root ("/" for the root)
 * @depth: the administrator's tenant depth; 0 keeps the leaf
 *
 * A cgroup a rule names is a tenant boundary: its descendants share its
 * weight (the deepest such ancestor wins; the root's rule is not one). Otherwise the tenant is the
 * ancestor at @depth, or the leaf itself when it is not that deep.
 *
 * Return: the tenant's level, the number of components of its path.
 */
u32 rnt_tenant_level(const struct rnt_rule *rules, u32 nr, const char *path,
		     u32 depth)
{
	u32 leaf = rnt_components(path, strlen(path)), best = 0, i;
	bool named = false;

	for (i = 0; i < nr; i++) {
		size_t n = strnlen(rules[i].path, sizeof(rules[i].path));
		u32 level;

		if (rules[i].by != RNT_BY_CGROUP || !n || strncmp(rules[i].path, path, n))
			continue;
		/*
		 * "/a/b" names "/a/b" and "/a/b/c", never "/a/bc"; a rule
		 * for the root names its own processes only
		 */
		if (path[n] != '\0' && (path[n] != '/' || n == 1))
			continue;
		level = rnt_components(rules[i].path, n);
		if (!named || level > best)
			best = level;
		named = true;
	}
	if (named)
		return best;
	return depth && depth < leaf ? depth : leaf;
}
