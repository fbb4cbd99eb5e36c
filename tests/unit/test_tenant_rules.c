// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the tenant weight rules (rnic_mgr/user/tenant_rules.c): what
 * an administrator writes to tenant_weights, well-formed or not.
 */
#include <stdio.h>
#include "tap.h"
#include "rnic_mgr/user/tenant_rules.h"
#include "rnic_mgr/rnic_policy.h"

static struct rnt_rule rules[RNT_MAX_RULES];

static int parse(const char *s, u32 *nr)
{
	return rnt_rules_parse(s, rules, RNT_MAX_RULES, nr);
}

static void test_good(void)
{
	u32 nr = 99;
	int err = parse("uid:1000=200, cgroup:/jobs/a=50\tuid:0=3,cgroup:/=7\n", &nr);

	tap_ok(!err && nr == 4, "four rules parse (err %d, nr %u, want 0, 4)", err, nr);
	tap_ok(rules[0].by == RNT_BY_UID && rules[0].uid == 1000 && rules[0].weight == 200,
	       "uid:1000=200 (by %u uid %u weight %u)", rules[0].by, rules[0].uid,
	       rules[0].weight);
	tap_ok(rules[1].by == RNT_BY_CGROUP && !strcmp(rules[1].path, "/jobs/a") &&
	       rules[1].weight == 50, "cgroup:/jobs/a=50 (path '%s' weight %u)",
	       rules[1].path, rules[1].weight);
	tap_ok(rnt_rules_weight(rules, nr, RNT_BY_UID, 1000, "", 1) == 200,
	       "uid 1000 weighs 200");
	tap_ok(rnt_rules_weight(rules, nr, RNT_BY_UID, 1001, "", 9) == 9,
	       "uid 1001, named by no rule, weighs the default");
	tap_ok(rnt_rules_weight(rules, nr, RNT_BY_CGROUP, 0, "/jobs/a", 1) == 50,
	       "cgroup /jobs/a weighs 50");
	tap_ok(rnt_rules_weight(rules, nr, RNT_BY_CGROUP, 0, "/jobs/ab", 1) == 1,
	       "cgroup /jobs/ab is another cgroup");
	tap_ok(rnt_rules_weight(rules, nr, RNT_BY_CGROUP, 0, "/", 1) == 7,
	       "the root cgroup can be named");
	tap_ok(rnt_rules_weight(rules, nr, RNT_BY_UID, 0, "/jobs/a", 1) == 3,
	       "a uid rule does not name a cgroup");
	err = parse("uid:5=1 uid:5=9", &nr);
	tap_ok(!err && rnt_rules_weight(rules, nr, RNT_BY_UID, 5, "", 1) == 9,
	       "the last rule naming a tenant wins");
	err = parse("\t,\n", &nr);
	tap_ok(!err && nr == 0, "an empty list clears (err %d, nr %u)", err, nr);
	err = parse("cgroup:/a=b=3", &nr);
	tap_ok(err == -EINVAL, "a path with '=' is refused (err %d)", err);
}

static void test_bad(void)
{
	static const struct {
		const char *s;
		int err;
	} bad[] = {
		{ "uid:1000", -EINVAL },
		{ "uid:1000=", -EINVAL },
		{ "uid:=5", -EINVAL },
		{ "uid:x=5", -EINVAL },
		{ "uid:1000=0", -ERANGE },
		{ "uid:1000=10001", -ERANGE },
		{ "uid:1000=99999999999999999999", -ERANGE },
		{ "uid:4294967295=1", -ERANGE },
		{ "uid:-1=1", -EINVAL },
		{ "gid:1=1", -EINVAL },
		{ "cgroup:jobs=1", -EINVAL },
		{ "cgroup:=1", -EINVAL },
		{ "=1", -EINVAL },
		{ "uid:1=1 bogus", -EINVAL },
	};
	u32 nr = 1234, i, ok = 0;

	parse("uid:1=2", &nr);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		u32 n = 77;
		int err = parse(bad[i].s, &n);

		if (err == bad[i].err && n == 77)
			ok++;
		else
			printf("# '%s': err %d, want %d (nr %u)\n", bad[i].s, err, bad[i].err, n);
	}
	tap_ok(ok == ARRAY_SIZE(bad), "%u of %zu malformed lists refused as they should be",
	       ok, ARRAY_SIZE(bad));
	tap_ok(rules[0].uid == 1 && rules[0].weight == 2,
	       "a refused list leaves the rules as they were");
}

static void test_limits(void)
{
	char s[RNT_MAX_LIST + 8], path[RNT_MAX_PATH + 16];
	u32 nr, i;
	int err, len = 0;

	for (i = 0; i < RNT_MAX_RULES; i++)
		len += snprintf(s + len, sizeof(s) - len, "uid:%u=1,", i);
	err = parse(s, &nr);
	tap_ok(!err && nr == RNT_MAX_RULES, "%d rules fit (err %d, nr %u)", RNT_MAX_RULES,
	       err, nr);
	snprintf(s + len, sizeof(s) - len, "uid:99=1");
	err = parse(s, &nr);
	tap_ok(err == -E2BIG, "one more is refused (err %d, want %d)", err, -E2BIG);
	memset(s, ' ', sizeof(s) - 1);
	s[sizeof(s) - 1] = '\0';
	err = parse(s, &nr);
	tap_ok(err == -E2BIG, "a list past %d characters is refused (err %d)", RNT_MAX_LIST, err);
	memset(path, 'a', sizeof(path));
	path[0] = '/';
	snprintf(s, sizeof(s), "cgroup:%.*s=1", RNT_MAX_PATH - 1, path);
	err = parse(s, &nr);
	tap_ok(!err && strlen(rules[0].path) == RNT_MAX_PATH - 1,
	       "a path of %d characters fits (err %d)", RNT_MAX_PATH - 1, err);
	snprintf(s, sizeof(s), "cgroup:%.*s=1", RNT_MAX_PATH, path);
	err = parse(s, &nr);
	tap_ok(err == -EINVAL, "a path of %d is refused (err %d)", RNT_MAX_PATH, err);
}

static void test_by(void)
{
	tap_ok(rnt_by_parse("cgroup\n") == RNT_BY_CGROUP && rnt_by_parse("uid") == RNT_BY_UID &&
	       rnt_by_parse("process") == RNT_BY_PROCESS, "groupings parse");
	tap_ok(rnt_by_parse("cgroupx") < 0 && rnt_by_parse("uid\n\n") < 0 && rnt_by_parse("") < 0,
	       "anything else is refused");
	tap_ok(!strcmp(rnt_by_name(RNT_BY_UID), "uid") && !strcmp(rnt_by_name(9), "?"),
	       "names");
}

/*
 * Where a tenant stands (N1): a child cgroup is no new tenant, neither
 * below the administrator's depth nor below a weighted cgroup.
 */
static void test_level(void)
{
	static const struct {
		const char *path;
		u32 depth;
		u32 want;
		size_t prefix;
	} cases[] = {
		{ "/", 2, 0, 1 },
		{ "/body1", 2, 1, 6 },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/x.scope", 2, 2, 27 },
		{ "/user.slice/user-1000.slice/session-4.scope", 2, 2, 27 },
		{ "/body1/syb/c17", 2, 2, 10 },
		{ "/body1/syb/c17", 0, 3, 14 },
		{ "/body1/syb/c17", 9, 3, 14 },
		{ "/jobs/a/step1/task", 3, 2, 7 },	/* below a weighted cgroup */
		{ "/jobs/a", 3, 2, 7 },
		{ "/jobs/ab/x/y", 3, 3, 10 },		/* another cgroup */
		{ "/jobs/a/deep/er/still", 1, 4, 15 },	/* the deepest rule */
		{ "/other/x/y", 1, 1, 6 },		/* the root's rule names "/" only */
	};
	u32 nr, i, got;
	size_t len;

	tap_ok(!parse("cgroup:/jobs/a=1,cgroup:/=5,cgroup:/jobs/a/deep/er=3,uid:7=2", &nr) && nr == 4,
	       "level: the rules parse");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		got = rnt_tenant_level(rules, nr, cases[i].path, cases[i].depth);
		len = rnt_prefix_len(cases[i].path, got);
		tap_ok(got == cases[i].want && len == cases[i].prefix,
		       "level: %s at depth %u: the tenant is '%.*s' (level %u), want level %u, '%.*s'",
		       cases[i].path, cases[i].depth, (int)len, cases[i].path, got,
		       cases[i].want, (int)cases[i].prefix, cases[i].path);
	}
	tap_ok(rnt_tenant_level(rules, 0, "/a/b/c", 0) == 3 && rnt_prefix_len("/a/b/c", 1) == 2,
	       "level: no rules and depth 0 keep the leaf; level 1 of /a/b/c is /a");
}

int main(void)
{
	test_good();
	test_bad();
	test_limits();
	test_by();
	test_level();
	return tap_done();
}
