// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the tenant_weights parser (rnic_mgr/user/tenant_rules.c)
 * on arbitrary text, as root may write it. A list it accepts must be
 * within its limits (rule count, weights, path lengths, kinds); a list it
 * refuses must leave the rules as they were; lookups never crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rnic_mgr/user/tenant_rules.h"
#include "rnic_mgr/rnic_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rnt_rule rules[8], before[8];
	char text[RNT_MAX_LIST + 64];
	u32 nr = 12345, i;
	int err;

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(rules, 0x5a, sizeof(rules));
	memcpy(before, rules, sizeof(rules));
	err = rnt_rules_parse(text, rules, 8, &nr);
	if (err) {
		if (nr != 12345 || memcmp(before, rules, sizeof(rules)))
			abort();	/* a refused list changed something */
		return 0;
	}
	if (nr > 8)
		abort();
	for (i = 0; i < nr; i++) {
		const struct rnt_rule *r = &rules[i];

		if (r->weight < 1 || r->weight > RNP_MAX_WEIGHT)
			abort();
		if (r->by == RNT_BY_CGROUP) {
			if (r->path[0] != '/' || memchr(r->path, '\0', sizeof(r->path)) == NULL ||
			    strchr(r->path, '=') || strchr(r->path, ','))
				abort();
		} else if (r->by != RNT_BY_UID || r->uid == UINT32_MAX) {
			abort();
		}
		if (rnt_rules_weight(rules, nr, r->by, r->uid, r->path, 1) < 1)
			abort();
	}
	return 0;
}
