#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# librnic as a program would use it: `make -C librnic install` into a
# scratch root, then a small program built only with what pkg-config
# says, linked against the shared library, that registers through the
# cache, hits, gets a REVOKE event and shrinks. The library exports its
# API and nothing else.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

make -s -C librnic install DESTDIR="$t/root" PREFIX=/usr > "$t/make.log" 2>&1
ok $? "make -C librnic install into a scratch root"
export PKG_CONFIG_PATH=$t/root/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$t/root
flags=$(pkg-config --cflags --libs librnic 2>&1)
ok $? "pkg-config knows librnic ($flags)"
cat > "$t/prog.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <librnic/events.h>
#include <uapi/rdmastor/rnic_user.h>

static int regs, deregs;
static int reg(void *c, uintptr_t a, size_t l, void **h) { (void)c; (void)l; *h = (void *)a; regs++; return 0; }
static void dereg(void *c, void *const *h, size_t n) { (void)c; (void)h; deregs += n; }

int main(void)
{
	const struct rnic_cache_ops ops = { reg, dereg };
	struct rnic_cache *c = rnic_cache_create(&ops, NULL, 4096, 64);
	struct rnic_lib l;
	struct rnic_cache_seg s[4];
	unsigned char ev[64] = { 0 };
	int n;

	n = rnic_cache_get(c, 0x100000, 16384, s, 4);
	rnic_cache_put(c, s, n);
	n = rnic_cache_get(c, 0x101000, 4096, s, 4);
	rnic_cache_put(c, s, n);
	rnic_lib_init(&l, c, NULL);
	/* a REVOKE of 4 entries, seq 1, laid out by hand as the ABI says */
	*(unsigned short *)ev = RNIC_EV_REVOKE;
	*(unsigned short *)(ev + 2) = sizeof(struct rnic_ev_revoke);
	*(unsigned int *)(ev + 4) = 1;
	*(unsigned long long *)(ev + 16) = 4;
	n = rnic_lib_events(&l, ev, sizeof(struct rnic_ev_revoke));
	printf("regs %d hits %llu events %d deregs %d cached %llu\n", regs,
	       (unsigned long long)rnic_cache_get_stats(c)->hits, n, deregs,
	       (unsigned long long)rnic_cache_cached_pages(c));
	rnic_cache_destroy(c);
	return !(regs == 1 && n == 1 && deregs == 1);
}
C
# shellcheck disable=SC2086
cc -Wall -Werror -o "$t/prog" "$t/prog.c" $flags > "$t/cc.log" 2>&1
ok $? "a program builds with pkg-config's flags and links the shared library $(head -3 "$t/cc.log")"
out=$(LD_LIBRARY_PATH=$t/root/usr/lib "$t/prog" 2>&1)
ok $? "it registers once, hits, and a REVOKE event frees the idle region ($out)"
exported=$(nm -D --defined-only "$t/root/usr/lib/librnic.so.0" | awk '$3 !~ /^LIBRNIC/ { print $3 }' | sed 's/@.*//' | sort | tr '\n' ' ')
expect_nomatch "only the API is exported ($exported)" "$(tr ' ' '\n' <<< "$exported")" 'rnic_ev_|rnic_cache_evict|idx_'

tap_done
