// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing and matching of devices' boot configuration
 * (rnic_mgr/dev_rules.h). Input comes from root (a module parameter) but
 * is parsed as if hostile all the same: bounded lengths, no number
 * overflow, nothing half-applied on an error.
 */
#include "dev_rules.h"
#include "rule_list.h"
#include "rnic_policy.h"

static const char * const rdr_user_names[RDR_NR_USER] = {
	[RDR_USER_OFF] = "off",
	[RDR_USER_MONITOR] = "monitor",
	[RDR_USER_ON] = "on",
};

/**
 * rdr_user_name - the name of a user-registration mode, as sysfs shows it
 * @user: enum rdr_user
 *
 * Return: "off", "monitor", "on", or "?".
 */
const char *rdr_user_name(u32 user)
{
	return user < RDR_NR_USER ? rdr_user_names[user] : "?";
}

/* @s is exactly @word, or @word and one newline (a sysfs write) */
static bool rdr_is(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	if (len && s[len - 1] == '\n')
		len--;
	return len == n && !strncmp(s, word, n);
}

/**
 * rdr_user_parse - a user-registration mode from its name
 * @s: the name, optionally followed by one newline
 *
 * Return: the enum rdr_user value, or -EINVAL.
 */
int rdr_user_parse(const char *s)
{
	int i;

	for (i = 0; i < RDR_NR_USER; i++)
		if (rdr_is(s, strlen(s), rdr_user_names[i]))
			return i;
	return -EINVAL;
}

/**
 * rdr_glob_match - match a device name against a shell pattern
 * @glob: the pattern: '*' matches any run of characters, '?' any one
 * @name: the device's name
 *
 * Iterative, with one backtrack point: time is O(len(glob) * len(name))
 * at worst, whatever the pattern.
 *
 * Return: true if @name matches @glob as a whole.
 */
bool rdr_glob_match(const char *glob, const char *name)
{
	const char *star = NULL, *back = NULL;

	while (*name) {
		if (*glob == '*') {
			star = ++glob;
			back = name;
		} else if (*glob == '?' || *glob == *name) {
			glob++;
			name++;
		} else if (star) {
			glob = star;
			name = ++back;
		} else {
			return false;
		}
	}
	while (*glob == '*')
		glob++;
	return !*glob;
}

/* A decimal number in [1, U32_MAX] that is the whole of [s, e). */
static int rdr_number(const char *s, const char *e, u64 *out)
{
	return rl_number(s, e, 1, U32_MAX, out);
}

/* One KEY=VALUE, [s, e), into @c. */
static int rdr_setting_parse(const char *s, const char *e, struct rdr_conf *c)
{
	const char *eq = memchr(s, '=', e - s);
	char word[16];
	size_t klen, vlen;
	int v;

	if (!eq)
		return -EINVAL;
	klen = eq - s;
	vlen = e - eq - 1;
	if (klen == 7 && !strncmp(s, "entries", 7)) {
		c->set |= RDR_SET_ENTRIES;
		return rdr_number(eq + 1, e, &c->entries);
	}
	if (klen == 4 && !strncmp(s, "keys", 4)) {
		c->set |= RDR_SET_KEYS;
		return rdr_number(eq + 1, e, &c->keys);
	}
	if (vlen >= sizeof(word))
		return -EINVAL;
	memcpy(word, eq + 1, vlen);
	word[vlen] = '\0';
	if (klen == 4 && !strncmp(s, "user", 4)) {
		v = rdr_user_parse(word);
		if (v < 0)
			return v;
		c->set |= RDR_SET_USER;
		c->user = v;
		return 0;
	}
	if (klen == 6 && !strncmp(s, "policy", 6)) {
		v = rnp_policy_parse(word);
		if (v < 0)
			return v;
		c->set |= RDR_SET_POLICY;
		c->policy = v;
		return 0;
	}
	if (klen == 4 && !strncmp(s, "ulps", 4) &&
	    (!strcmp(word, "share") || !strcmp(word, "off"))) {
		c->set |= RDR_SET_ULPS;
		c->ulps_share = !strcmp(word, "share");
		return 0;
	}
	return -EINVAL;
}

/* One rule, [s, e), into @rule. */
static int rdr_rule_parse(const char *s, const char *e, void *rule)
{
	struct rdr_rule *r = rule;
	const char *colon = memchr(s, ':', e - s), *p;
	int err;

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(r->glob))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	memcpy(r->glob, s, colon - s);
	for (p = colon; p < e; ) {
		const char *q = p + 1, *end;

		end = memchr(q, ':', e - q);
		if (!end)
			end = e;
		err = rdr_setting_parse(q, end, &r->conf);
		if (err)
			return err;
		p = end;
	}
	return 0;
}

/**
 * rdr_rules_parse - parse a rule list
 * @s: the list, NUL-terminated, at most RDR_MAX_LIST - 1 characters
 * @rules: filled in; left untouched when the list is refused
 * @max: room in @rules
 * @nr: set to the number of rules
 *
 * Return: 0, -EINVAL for a malformed rule, -ERANGE for a number out of
 * range, -E2BIG for more than @max rules or a list too long.
 */
int rdr_rules_parse(const char *s, struct rdr_rule *rules, u32 max, u32 *nr)
{
	struct rdr_rule scratch;

	return rl_parse(s, RDR_MAX_LIST, rules, sizeof(*rules), max, nr, &scratch,
			rdr_rule_parse);
}

/**
 * rdr_rules_apply - what the rules set for one device
 * @rules: the rules
 * @nr: how many
 * @name: the device's current name
 * @out: filled in: for each key, the value of the last matching rule
 *	that sets it; @out->set says which keys any rule set
 */
void rdr_rules_apply(const struct rdr_rule *rules, u32 nr, const char *name,
		     struct rdr_conf *out)
{
	u32 i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nr; i++) {
		const struct rdr_conf *c = &rules[i].conf;

		if (!rdr_glob_match(rules[i].glob, name))
			continue;
		if (c->set & RDR_SET_USER)
			out->user = c->user;
		if (c->set & RDR_SET_POLICY)
			out->policy = c->policy;
		if (c->set & RDR_SET_ENTRIES)
			out->entries = c->entries;
		if (c->set & RDR_SET_KEYS)
			out->keys = c->keys;
		if (c->set & RDR_SET_ULPS)
			out->ulps_share = c->ulps_share;
		out->set |= c->set;
	}
}

/* One GLOB=WEIGHT, [s, e), into @rule. */
static int rdr_wrule_parse(const char *s, const char *e, void *rule)
{
	struct rdr_wrule *r = rule;
	const char *eq = NULL, *p;
	u64 w;
	int err;

	for (p = e; p > s; p--) {
		if (p[-1] == '=') {
			eq = p - 1;
			break;
		}
	}
	if (!eq || eq == s || (size_t)(eq - s) >= sizeof(r->glob))
		return -EINVAL;
	err = rdr_number(eq + 1, e, &w);
	if (err)
		return err;
	if (w > RNP_MAX_WEIGHT)
		return -ERANGE;
	memset(r, 0, sizeof(*r));
	memcpy(r->glob, s, eq - s);
	r->weight = (u32)w;
	return 0;
}

/**
 * rdr_wrules_parse - parse a consumer weight list
 * @s: the list, NUL-terminated, at most RDR_MAX_LIST - 1 characters
 * @rules: filled in; left untouched when the list is refused
 * @max: room in @rules
 * @nr: set to the number of rules
 *
 * Return: 0, -EINVAL for a malformed rule, -ERANGE for a weight out of
 * range, -E2BIG for more than @max rules or a list too long.
 */
int rdr_wrules_parse(const char *s, struct rdr_wrule *rules, u32 max, u32 *nr)
{
	struct rdr_wrule scratch;

	return rl_parse(s, RDR_MAX_LIST, rules, sizeof(*rules), max, nr, &scratch,
			rdr_wrule_parse);
}

/**
 * rdr_wrules_weight - a consumer's weight
 * @rules: the rules
 * @nr: how many
 * @name: the consumer's name
 * @dflt: its weight when no rule matches
 *
 * Return: the weight of the last rule matching @name, else @dflt.
 */
u32 rdr_wrules_weight(const struct rdr_wrule *rules, u32 nr, const char *name,
		      u32 dflt)
{
	u32 w = dflt, i;

	for (i = 0; i < nr; i++)
		if (rdr_glob_match(rules[i].glob, name))
			w = rules[i].weight;
	return w;
}
