// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the sanitiser of user-chosen names (rnic_mgr/user/name.h):
 * what stays, what becomes '_', and every byte value once.
 */
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "rnic_mgr/user/name.h"

/* @in as C escapes, so that the test's own output stays plain */
static const char *shown(const char *in)
{
	static char out[256];
	size_t o = 0;

	for (; *in && o < sizeof(out) - 5; in++)
		o += snprintf(out + o, sizeof(out) - o,
			      *in >= 0x20 && *in < 0x7f ? "%c" : "\\x%02x",
			      (unsigned char)*in);
	out[o] = 0;
	return out;
}

static void check(const char *in, bool slash, const char *want, unsigned int nwant)
{
	char buf[64];
	unsigned int n;

	snprintf(buf, sizeof(buf), "%s", in);
	n = rnic_name_sanitize(buf, slash);
	tap_ok(!strcmp(buf, want) && n == nwant, "'%s' (slash %d): got '%s' (%u replaced), want '%s' (%u)",
	       shown(in), slash, buf, n, want, nwant);
}

int main(void)
{
	unsigned int c, bad = 0;

	check("umr", false, "umr", 0);
	check("kworker/0:1", false, "kworker_0_1", 2);
	check("\033[2Jx", false, "__2Jx", 2);
	check("a b\tc\n", false, "a_b_c_", 3);
	check("my.app-2+x@y=z,~", false, "my.app-2+x@y=z,~", 0);
	check("/user.slice/a b/\033", true, "/user.slice/a_b/_", 2);
	check("", false, "", 0);
	/* every byte: kept exactly when it is one of the allowed */
	for (c = 1; c < 256; c++) {
		char s[2] = { (char)c, 0 };
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || strchr("._-+@=,~", (int)c);

		rnic_name_sanitize(s, false);
		if ((s[0] == (char)c) != ok || (!ok && s[0] != '_'))
			bad++;
	}
	tap_ok(bad == 0, "each of the 255 byte values kept or replaced as the rule says (%u wrong)", bad);
	return tap_done();
}
