#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of scripts/guest/capture-trace's conversion, on canned kprobe
# output (fixtures/kprobe-rxe-copy.txt): an access crossing a page is one
# record per page with the bytes of each, a receive is side r, the local
# DMA key's copies and empty or malformed lines are left out, and the
# simulator reads the result; registrations (a kernel fast registration,
# a user one) convert to regsim's input, a user address set apart by its
# context, and regsim reads them.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree"
. scripts/guest/lib.sh
out=$(mktemp)
scripts/guest/capture-trace convert < tests/harness/fixtures/kprobe-rxe-copy.txt > "$out"
recs=$(grep -v '^#' "$out")
ok "$(head -n1 "$out" | grep -qx '# rdmastor-trace 1'; echo $?)" "the header names the format"
ok "$([ "$(wc -l <<< "$recs")" = 3 ]; echo $?)" "three records: two pages of one send, one receive ($(tr '\n' '|' <<< "$recs"))"
ok "$(grep -q '^61000001000 rxe0 [0-9]* 0x1234 0 s 256$' <<< "$recs" &&
	grep -q '^61000001000 rxe0 [0-9]* 0x1234 1 s 256$' <<< "$recs"; echo $?)" \
	"an access from byte 3840 of 512 bytes: 256 in page 0, 256 in page 1"
ok "$(grep -q ' 0x1234 2 r 4096$' <<< "$recs"; echo $?)" "an RDMA write into the MR is a receive of page 2"
ok "$(! grep -q ' 0x1 \| 0x309 ' <<< "$recs"; echo $?)" "the local DMA key and an empty copy are left out"
ok "$(make -s -C eval >/dev/null && build/eval/tlbsim --sizes "$out" | grep -q '3 accesses'; echo $?)" \
	"the simulator reads it"
scripts/guest/capture-trace convert-regs < tests/harness/fixtures/kprobe-rxe-copy.txt > "$out"
regs=$(grep -v '^#' "$out")
ok "$([ "$(wc -l <<< "$regs")" = 2 ]; echo $?)" "two registrations; an empty and a malformed one left out ($(tr '\n' '|' <<< "$regs"))"
ok "$(grep -qx '0xffff888011e12800 65536 61000006000 4460289 k' <<< "$regs"; echo $?)" \
	"a kernel fast registration keeps its address, length, time and context"
# 140000000000000 = 0x7f544a44c000; context 4460288 & 0xffff = 0xf00, above bit 47
ok "$(grep -qx '0x7807f544a44c000 8192 61000007000 4460288 u' <<< "$regs"; echo $?)" \
	"a user registration's address carries its context above bit 47"
ok "$(build/eval/regsim "$out" | grep -q '2 requests'; echo $?)" "regsim reads the registrations"
rm -f "$out"
tap_done
