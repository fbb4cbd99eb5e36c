/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rule lists as an administrator writes rnic_mgr's parameters
 * (tenant_weights, devices, consumer_weights): words separated by commas
 * or white space, each one rule that the caller parses. Plain C, built
 * into rnic_mgr.ko and into the unit tests and fuzzers.
 */
#ifndef RNIC_RULE_LIST_H
#define RNIC_RULE_LIST_H

#include <rdmastor/compat.h>

/* Parse the rule [s, e) into @rule; 0 or a negative errno. */
typedef int (*rl_rule_fn)(const char *s, const char *e, void *rule);

int rl_parse(const char *s, size_t max_len, void *rules, size_t size, u32 max,
	     u32 *nr, void *scratch, rl_rule_fn parse);
int rl_number(const char *s, const char *e, u64 lo, u64 hi, u64 *out);

#endif /* RNIC_RULE_LIST_H */
