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
	struct rnic_lib *l;
	struct rnic_cache_seg s[4];
	unsigned char ev[64] = { 0 };
	int n;

	n = rnic_cache_get(c, 0x100000, 16384, s, 4);
	rnic_cache_put(c, s, n);
	n = rnic_cache_get(c, 0x101000, 4096, s, 4);
	rnic_cache_put(c, s, n);
	l = rnic_lib_create(c, NULL);
	/* a REVOKE of 4 entries, seq 1, laid out by hand as the ABI says */
	*(unsigned short *)ev = RNIC_EV_REVOKE;
	*(unsigned short *)(ev + 2) = sizeof(struct rnic_ev_revoke);
	*(unsigned int *)(ev + 4) = 1;
	*(unsigned long long *)(ev + 16) = 4;
	n = rnic_lib_events(l, ev, sizeof(struct rnic_ev_revoke));
	printf("regs %d hits %llu events %d deregs %d cached %llu\n", regs,
	       (unsigned long long)rnic_cache_get_stats(c)->hits, n, deregs,
	       (unsigned long long)rnic_cache_cached_pages(c));
	n = n == 1 && rnic_lib_get_stats(l)->revokes == 1;
	rnic_lib_destroy(l);
	rnic_cache_destroy(c);
	return !(regs == 1 && n && deregs == 1);
}
C
# shellcheck disable=SC2086
cc -Wall -Werror -o "$t/prog" "$t/prog.c" $flags > "$t/cc.log" 2>&1
ok $? "a program builds with pkg-config's flags and links the shared library $(head -3 "$t/cc.log")"
out=$(LD_LIBRARY_PATH=$t/root/usr/lib "$t/prog" 2>&1)
ok $? "it registers once, hits, and a REVOKE event frees the idle region ($out)"
exported=$(nm -D --defined-only "$t/root/usr/lib/librnic.so.0" | awk '$3 !~ /^LIBRNIC/ { print $3 }' | sed 's/@.*//' | sort | tr '\n' ' ')
expect_nomatch "only the API is exported ($exported)" "$(tr ' ' '\n' <<< "$exported")" 'rnic_ev_|rnic_cache_evict|idx_'
# every function the installed headers declare is exported: a program
# that calls one links (review: rc_capacity, rnic_lib_refresh did not)
declared=$(cat "$t"/root/usr/include/librnic/*.h | tr -s ' \t\n' ' ' |
	grep -oE '[a-z_0-9 *]+ \**rnic_[a-z_0-9]+\(' | grep -oE 'rnic_[a-z_0-9]+\(' | tr -d '(' | sort -u)
missing=$(comm -23 <(echo "$declared") <(tr ' ' '\n' <<< "$exported" | sort -u) | tr '\n' ' ')
expect_eq "every declared function is exported ($(wc -w <<< "$declared") declared; missing: ${missing:-none})" \
	"$missing" ""
# a man page for every exported function, each rendering without warnings
man3=$t/root/usr/share/man/man3
nopage=$(for f in $exported; do [ -f "$man3/$f.3" ] || echo "$f"; done | tr '\n' ' ')
expect_eq "a man3 page for every exported function (missing: ${nopage:-none})" "$nopage" ""
warn=$(cd "$t/root/usr/share/man" && for f in man3/*.3; do groff -s -man -Tutf8 -ww -z "$f" 2>&1; done | head -3)
expect_eq "the pages render without warnings" "$warn" ""
# the layout of a binding and of its event state is the library's own
expect_nomatch "no installed header lays out struct rnic_binding or struct rnic_lib" \
	"$(cat "$t"/root/usr/include/librnic/*.h)" 'struct rnic_(binding|lib) \{'

tap_done
