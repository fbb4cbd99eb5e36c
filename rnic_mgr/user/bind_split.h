/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How one process's REVOKE or RECLAIM is divided among its bindings
 * (dev.c): plain C, built into rnic_mgr.ko and the unit tests
 * (tests/unit/test_bind_split.c).
 */
#ifndef RNIC_MGR_BIND_SPLIT_H
#define RNIC_MGR_BIND_SPLIT_H

#include <rdmastor/compat.h>

/**
 * rnic_split_by_held - divide an ask among bindings by what each holds
 * @total: entries (or keys) the process is asked for
 * @held: what each binding's registrations hold
 * @n: how many bindings
 * @out: each binding's part
 *
 * Each binding is asked in proportion to what it holds, rounded down,
 * and what rounding left over goes to the first bindings that still
 * hold more; so a binding is never asked for more than it holds, and
 * together they are asked for @total, or for everything they hold if
 * that is less. Values past 32 bits are scaled down before the product
 * (the result stays within @n units of proportional at that scale).
 *
 * Return: the sum of @out.
 */
static inline u64 rnic_split_by_held(u64 total, const u64 *held, u32 n, u64 *out)
{
	u64 sum = 0, given = 0, ts, ss;
	unsigned int shift = 0;
	u32 i;

	for (i = 0; i < n; i++)
		sum += held[i];
	if (total >= sum) {
		for (i = 0; i < n; i++)
			out[i] = held[i];
		return sum;
	}
	while ((total >> shift) > 0xffffffffULL || (sum >> shift) > 0xffffffffULL)
		shift++;
	ts = total >> shift;
	ss = sum >> shift;
	for (i = 0; i < n; i++) {
		out[i] = ss ? (ts * (held[i] >> shift) / ss) << shift : 0;
		if (out[i] > held[i])
			out[i] = held[i];
		given += out[i];
	}
	for (i = 0; i < n && given < total; i++) {
		u64 more = held[i] - out[i];

		if (more > total - given)
			more = total - given;
		out[i] += more;
		given += more;
	}
	return given;
}

#endif /* RNIC_MGR_BIND_SPLIT_H */
