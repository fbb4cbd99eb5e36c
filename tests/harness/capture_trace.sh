#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of scripts/guest/capture-trace's conversion, on canned kprobe
# output (fixtures/kprobe-rxe-copy.txt): an access crossing a page is one
# record per page with the bytes of each, a receive is side r, the local
# DMA key's copies and empty or malformed lines are left out, and the
# simulator reads the result.
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
rm -f "$out"
tap_done
