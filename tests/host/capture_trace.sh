#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of tests/lib/guest/capture-trace's conversion, on canned kprobe
# output (fixtures/kprobe-rxe-copy.txt): an access crossing a page is one
# record per page with the bytes of each, a receive is side r, the local
# DMA key's copies and empty or malformed lines are left out, and the
# simulator reads the result; registrations (a kernel fast registration,
# a user one) convert to regsim's input, a user address set apart by its
# context, and regsim reads them.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
out=$(mktemp)
tests/lib/guest/capture-trace convert < tests/host/fixtures/kprobe-rxe-copy.txt > "$out"
recs=$(grep -v '^#' "$out")
expect_eq "the header names the format" "$(head -n1 "$out")" '# rdmastor-trace 1'
expect_eq "three records: two pages of one send, one receive ($(tr '\n' '|' <<< "$recs"))" "$(wc -l <<< "$recs")" 3
expect_match "an access from byte 3840 of 512 bytes: 256 in page 0" "$recs" '^61000001000 rxe0 [0-9]* 0x1234 0 s 256$'
expect_match "and 256 in page 1" "$recs" '^61000001000 rxe0 [0-9]* 0x1234 1 s 256$'
expect_match "an RDMA write into the MR is a receive of page 2" "$recs" ' 0x1234 2 r 4096$'
expect_nomatch "the local DMA key and an empty copy are left out" "$recs" ' 0x1 | 0x309 '
make -s -C eval >/dev/null
expect_match "the simulator reads it" "$(build/eval/tlbsim --sizes "$out")" '3 accesses'
tests/lib/guest/capture-trace convert-regs < tests/host/fixtures/kprobe-rxe-copy.txt > "$out"
regs=$(grep -v '^#' "$out")
expect_eq "two registrations; an empty and a malformed one left out ($(tr '\n' '|' <<< "$regs"))" "$(wc -l <<< "$regs")" 2
expect_match "a kernel fast registration keeps its address, length, time and context" \
	"$regs" '^0xffff888011e12800 65536 61000006000 4460289 k$'
# 140000000000000 = 0x7f544a44c000; context 4460288 & 0xffff = 0xf00, above bit 47
expect_match "a user registration's address carries its context above bit 47" \
	"$regs" '^0x7807f544a44c000 8192 61000007000 4460288 u$'
expect_match "regsim reads the registrations" "$(build/eval/regsim "$out")" '2 requests'
# tlbmix: the NFS trace beside a hoarder; at 1024 entries the victim's
# 8 lines fit its share: partitioned it misses as it does alone, shared
# the hoarder costs it misses (CSV: ... solo,shared,partitioned misses)
rm -f "$out.mix"
build/eval/tlbmix --csv "$out.mix" eval/traces/nfs.trace >/dev/null
row=$(awk -F, '$2 == 1024' "$out.mix")
expect_match "tlbmix: the victim's share covers its 8 lines ($row)" "$row" '^nfs.trace,1024,4,1,8,8,'
IFS=, read -r _ _ _ _ _ _ _ _ solo shared part <<< "$row"
expect_eq "tlbmix: partitioned, the victim misses as alone" "$part" "$solo"
check "tlbmix: shared, the hoarder costs the victim misses ($shared against $solo)" [ "$shared" -gt "$solo" ]
rm -f "$out.mix"

rm -f "$out"
tap_done
