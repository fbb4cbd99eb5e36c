// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the "devices" and "consumer_weights" parsers
 * (rnic_mgr/dev_rules.c) on
 * arbitrary text, as root may write it. A list it accepts must be
 * within its limits (rule count, globs, values, modes); a list it
 * refuses must leave the rules as they were; matching every rule's
 * glob against a name of the input never crashes and terminates.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rnic_mgr/dev_rules.h"
#include "rnic_mgr/rnic_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rdr_rule rules[8], before[8];
	char text[RDR_MAX_LIST + 64];
	struct rdr_conf c;
	u32 nr = 12345, i;
	int err;

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(rules, 0x5a, sizeof(rules));
	memcpy(before, rules, sizeof(rules));
	{
		static struct rdr_wrule w[8], wbefore[8];
		u32 wn = 77;

		memset(w, 0x5a, sizeof(w));
		memcpy(wbefore, w, sizeof(w));
		if (rdr_wrules_parse(text, w, 8, &wn)) {
			if (wn != 77 || memcmp(w, wbefore, sizeof(w)))
				abort();
		} else {
			if (wn > 8)
				abort();
			for (i = 0; i < wn; i++)
				if (w[i].weight < 1 || w[i].weight > RNP_MAX_WEIGHT ||
				    !memchr(w[i].glob, '\0', sizeof(w[i].glob)))
					abort();
			if (rdr_wrules_weight(w, wn, text, 1) < 1)
				abort();
		}
	}
	err = rdr_rules_parse(text, rules, 8, &nr);
	if (err) {
		if (nr != 12345 || memcmp(before, rules, sizeof(rules)))
			abort();	/* a refused list changed something */
		return 0;
	}
	if (nr > 8)
		abort();
	for (i = 0; i < nr; i++) {
		const struct rdr_rule *r = &rules[i];

		if (!r->glob[0] || !memchr(r->glob, '\0', sizeof(r->glob)))
			abort();
		if (r->conf.user >= RDR_NR_USER || r->conf.policy >= RNP_NR_POL)
			abort();
		if ((r->conf.set & RDR_SET_ENTRIES) &&
		    (r->conf.entries < 1 || r->conf.entries > UINT32_MAX))
			abort();
		if ((r->conf.set & RDR_SET_KEYS) &&
		    (r->conf.keys < 1 || r->conf.keys > UINT32_MAX))
			abort();
		/* the input itself as a device name: any glob against it */
		rdr_rules_apply(rules, nr, text, &c);
		if (c.set & ~(RDR_SET_USER | RDR_SET_POLICY | RDR_SET_ENTRIES | RDR_SET_KEYS |
			      RDR_SET_ULPS))
			abort();
		/* ulps=share is the one value that sets it */
		if (c.ulps_share && !(c.set & RDR_SET_ULPS))
			abort();
	}
	return 0;
}
