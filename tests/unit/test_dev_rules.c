// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the devices' boot configuration (rnic_mgr/dev_rules.c):
 * what an administrator writes to rnic_mgr's "devices" parameter,
 * well-formed or not, and which device each rule reaches.
 */
#include <stdio.h>
#include "tap.h"
#include "rnic_mgr/dev_rules.h"
#include "rnic_mgr/rnic_policy.h"

static struct rdr_rule rules[RDR_MAX_RULES];

static int parse(const char *s, u32 *nr)
{
	return rdr_rules_parse(s, rules, RDR_MAX_RULES, nr);
}

static void test_glob(void)
{
	static const struct { const char *glob, *name; bool want; } cases[] = {
		{ "rxe0", "rxe0", true }, { "rxe0", "rxe01", false },
		{ "rxe*", "rxe0", true }, { "rxe*", "rxe", true },
		{ "rxe*", "mlx5_0", false }, { "*", "anything", true },
		{ "mlx5_?", "mlx5_1", true }, { "mlx5_?", "mlx5_10", false },
		{ "*_0", "mlx5_0", true }, { "*_0", "mlx5_01", false },
		{ "a*b*c", "aXXbYYc", true }, { "a*b*c", "aXXbYY", false },
		{ "*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false },
		{ "", "", true }, { "", "x", false },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool got = rdr_glob_match(cases[i].glob, cases[i].name);

		tap_ok(got == cases[i].want, "glob '%s' on '%s': got %d, want %d",
		       cases[i].glob, cases[i].name, got, cases[i].want);
	}
}

static void test_good(void)
{
	struct rdr_conf c;
	u32 nr = 99;
	int err = parse("rxe*:user=on:policy=fcfs, mlx5_*:entries=2097152:keys=65536\n"
			"mlx5_1:user=monitor\trxe1:user=off", &nr);

	tap_ok(!err && nr == 4, "four rules parse (err %d, nr %u, want 0, 4)", err, nr);
	rdr_rules_apply(rules, nr, "rxe0", &c);
	tap_ok(c.set == (RDR_SET_USER | RDR_SET_POLICY) && c.user == RDR_USER_ON &&
	       c.policy == RNP_POL_FCFS, "rxe0: user on, fcfs (set %#x user %u policy %u)",
	       c.set, c.user, c.policy);
	rdr_rules_apply(rules, nr, "rxe1", &c);
	tap_ok(c.user == RDR_USER_OFF && c.policy == RNP_POL_FCFS,
	       "rxe1: the later rule wins for user, the earlier one's policy stays (user %u policy %u)",
	       c.user, c.policy);
	rdr_rules_apply(rules, nr, "mlx5_1", &c);
	tap_ok(c.set == (RDR_SET_USER | RDR_SET_ENTRIES | RDR_SET_KEYS) &&
	       c.entries == 2097152 && c.keys == 65536 && c.user == RDR_USER_MONITOR,
	       "mlx5_1: budgets and monitor (set %#x entries %llu keys %llu user %u)",
	       c.set, (unsigned long long)c.entries, (unsigned long long)c.keys, c.user);
	rdr_rules_apply(rules, nr, "bnxt_re0", &c);
	tap_ok(c.set == 0, "a device no rule matches gets nothing set (set %#x)", c.set);
	err = parse("mlx5_*:ulps=share mlx5_1:ulps=off", &nr);
	rdr_rules_apply(rules, nr, "mlx5_0", &c);
	tap_ok(!err && c.set == RDR_SET_ULPS && c.ulps_share,
	       "mlx5_0: ulps=share (err %d set %#x share %d)", err, c.set, c.ulps_share);
	rdr_rules_apply(rules, nr, "mlx5_1", &c);
	tap_ok(c.set == RDR_SET_ULPS && !c.ulps_share,
	       "mlx5_1: the later ulps=off wins (set %#x share %d)", c.set, c.ulps_share);
	err = parse("", &nr);
	tap_ok(!err && nr == 0, "an empty list clears the rules (err %d nr %u)", err, nr);
}

static void test_bad(void)
{
	static const char * const bad[] = {
		"rxe0", "rxe0:", ":user=on", "rxe0:user", "rxe0:user=maybe",
		"rxe0:policy=lru", "rxe0:entries=0", "rxe0:entries=4294967296",
		"rxe0:entries=12a", "rxe0:colour=red", "rxe0:user=on:",
		"rxe0:user=onmonitoroffonmonitoroff", "rxe0:ulps=on", "rxe0:ulps=",
		"a_glob_of_sixty_four_characters_is_one_too_long_for_the_buffer__:user=on",
	};
	unsigned int i;
	u32 nr = 7;

	parse("rxe0:user=on", &nr);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int err = parse(bad[i], &nr);

		tap_ok(err < 0 && nr == 1 && rules[0].conf.user == RDR_USER_ON,
		       "'%s' is refused and changes nothing (err %d, nr %u)", bad[i], err, nr);
	}
}

static void test_limits(void)
{
	char list[RDR_MAX_LIST + 8];
	size_t len = 0;
	u32 nr = 0, i;
	int err;

	for (i = 0; i <= RDR_MAX_RULES; i++)
		len += snprintf(list + len, sizeof(list) - len, "r%u:user=on,", i);
	err = parse(list, &nr);
	tap_ok(err == -E2BIG, "%u rules: -E2BIG (got %d)", RDR_MAX_RULES + 1, err);
	memset(list, 'x', sizeof(list) - 1);
	list[sizeof(list) - 1] = '\0';
	err = parse(list, &nr);
	tap_ok(err == -E2BIG, "a list past %u characters: -E2BIG (got %d)", RDR_MAX_LIST, err);
	tap_ok(rdr_user_parse("monitor\n") == RDR_USER_MONITOR && rdr_user_parse("on\n\n") < 0,
	       "a sysfs write may end in one newline");
}

static void test_weights(void)
{
	static struct rdr_wrule w[RDR_MAX_RULES];
	static const char * const bad[] = {
		"nfs-*", "=3", "nfs-*=0", "nfs-*=10001", "nfs-*=x", "nfs-*=",
		"a_glob_of_sixty_four_characters_is_one_too_long_for_the_buffer__=2",
	};
	unsigned int i;
	u32 nr = 9;
	int err = rdr_wrules_parse("nfs-*=4, iser-ini-*=2\tnfs-2001*=8", w, RDR_MAX_RULES, &nr);

	tap_ok(!err && nr == 3, "three weight rules parse (err %d, nr %u)", err, nr);
	tap_ok(rdr_wrules_weight(w, nr, "nfs-192.0.2.1", 1) == 4, "nfs-192.0.2.1 weighs 4");
	tap_ok(rdr_wrules_weight(w, nr, "nfs-2001:db8::1", 1) == 8,
	       "the later, narrower rule wins for nfs-2001:db8::1");
	tap_ok(rdr_wrules_weight(w, nr, "iser-ini-3", 1) == 2, "iser-ini-3 weighs 2");
	tap_ok(rdr_wrules_weight(w, nr, "nfsd-rdma-7", 5) == 5,
	       "a consumer no rule matches keeps its own weight");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err = rdr_wrules_parse(bad[i], w, RDR_MAX_RULES, &nr);
		tap_ok(err < 0 && nr == 3 && w[0].weight == 4,
		       "weights '%s' are refused and change nothing (err %d)", bad[i], err);
	}
	err = rdr_wrules_parse("", w, RDR_MAX_RULES, &nr);
	tap_ok(!err && nr == 0, "an empty weight list clears the rules");
}

int main(void)
{
	test_glob();
	test_good();
	test_bad();
	test_limits();
	test_weights();
	return tap_done();
}
