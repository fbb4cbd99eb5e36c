// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of what a user registration is charged
 * (rnic_mgr/user/span.h): spans, edges, implicit and explicit ODP.
 */
#include <stdio.h>
#include "tap.h"
#include "rnic_mgr/user/span.h"

#define PS 12
#define ODP 16384

static void span(u64 start, u64 len, bool odp, u64 want, const char *what)
{
	u64 got = rnic_user_span(start, len, odp, ODP, PS);

	tap_ok(got == want, "%s: start %#llx length %#llx%s: %llu entries (want %llu)", what,
	       (unsigned long long)start, (unsigned long long)len, odp ? " odp" : "",
	       (unsigned long long)got, (unsigned long long)want);
}

int main(void)
{
	span(0x10000, 4096, false, 1, "one aligned page");
	span(0x10000, 1, false, 1, "one byte");
	span(0x10fff, 2, false, 2, "two bytes across a page boundary");
	span(0x10800, 8192, false, 3, "two pages' worth, unaligned");
	span(0x10000, 0, false, 0, "empty");
	span(~0ULL - 4095, 4096, false, 1, "the last page of the address space");
	span(~0ULL - 4095, 4097, false, 0, "a range that wraps");
	span(0x1000, ~0ULL - 0x1000, false, (1ULL << (64 - PS)) - 1, "all but the first page");
	span(0, ~0ULL, true, ODP, "implicit ODP: the documented charge");
	span(0, ~0ULL, false, 1ULL << (64 - PS), "the whole space without ODP: every page");
	span(0x10000, 1 << 20, true, 256, "explicit ODP: its span");
	return tap_done();
}
