// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of how a REVOKE is divided among a process's bindings
 * (rnic_mgr/user/bind_split.h): exact cases, edges, and 20000 random ones
 * checked against the three properties the kernel relies on.
 */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "rnic_mgr/user/bind_split.h"

static void one(u64 total, const u64 *held, u32 n, const u64 *want, const char *what)
{
	u64 out[16];
	int ok = 1;
	u32 i;

	rnic_split_by_held(total, held, n, out);
	for (i = 0; i < n; i++)
		ok &= out[i] == want[i];
	tap_ok(ok, "%s: got %llu %llu %llu, want %llu %llu %llu", what,
	       (unsigned long long)out[0], (unsigned long long)(n > 1 ? out[1] : 0),
	       (unsigned long long)(n > 2 ? out[2] : 0), (unsigned long long)want[0],
	       (unsigned long long)(n > 1 ? want[1] : 0), (unsigned long long)(n > 2 ? want[2] : 0));
}

static u64 rnd64(void)
{
	return ((u64)random() << 33) ^ ((u64)random() << 11) ^ (u64)random();
}

int main(void)
{
	u64 a[] = { 300, 100 }, b[] = { 0, 500 }, c[] = { 1, 1, 1 };
	u64 d[] = { 1ULL << 40, 3ULL << 40 };
	long bad_sum = 0, bad_cap = 0, bad_prop = 0, i;

	one(100, a, 2, (u64[]){ 75, 25 }, "by held, 3:1");
	one(1000, a, 2, a, "more than they hold: all of it");
	one(50, b, 2, (u64[]){ 0, 50 }, "a binding holding nothing is asked nothing");
	one(2, c, 3, (u64[]){ 1, 1, 0 }, "rounding goes to the first that hold more");
	one(0, a, 2, (u64[]){ 0, 0 }, "nothing asked");
	one(1ULL << 40, d, 2, (u64[]){ 1ULL << 38, 3ULL << 38 }, "past 32 bits, scaled");

	srandom(7);
	for (i = 0; i < 20000; i++) {
		u64 held[16], out[16], sum = 0, got = 0, total, want;
		u32 n = 1 + random() % 16, k;
		int big = random() % 4 == 0;

		for (k = 0; k < n; k++) {
			held[k] = random() % 3 == 0 ? 0 : big ? rnd64() >> 8 : (u64)(random() % 100000);
			sum += held[k];
		}
		total = random() % 2 ? rnd64() % (sum + 1) : rnd64() >> (big ? 4 : 40);
		want = total < sum ? total : sum;
		if (rnic_split_by_held(total, held, n, out) != want)
			bad_sum++;
		for (k = 0; k < n; k++) {
			got += out[k];
			if (out[k] > held[k])
				bad_cap++;
			/* unscaled: within n of the proportional part */
			if (!big && sum && total < sum &&
			    (out[k] + n < (__uint128_t)total * held[k] / sum ||
			     out[k] > (__uint128_t)total * held[k] / sum + n))
				bad_prop++;
		}
		if (got != want)
			bad_sum++;
	}
	tap_ok(!bad_sum, "random: the parts add up to min(asked, held) (%ld off, want 0)", bad_sum);
	tap_ok(!bad_cap, "random: no binding is asked more than it holds (%ld off, want 0)", bad_cap);
	tap_ok(!bad_prop, "random: each part within n of proportional (%ld off, want 0)", bad_prop);
	return tap_done();
}
