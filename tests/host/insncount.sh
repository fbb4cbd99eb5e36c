#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# insncount (bench/insncount), the TCG plugin that counts guest
# instructions, loads into this QEMU (its plugin API version checked),
# counts, and repeats: one guest on one TCG thread runs the same work
# four times between markers; every marker wrote the counts; each round
# executed instructions; rounds 2 to 4 agree within 2% (the first warms
# the page cache and the translations).
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
out=build/vm/insncount
make -s -C bench/insncount || { ok 1 "the plugin builds"; tap_done; }
rm -rf "$out"
VM_PLUGIN="$tree/build/insncount/libinsncount.so,out=$tree/$out/count" \
	tests/lib/vm-run --quiet --name insncount --timeout 300 tests/host/guest/insncount.sh \
	> /tmp/rdmastor-insncount.out 2>&1
ok $? "a guest runs with the plugin loaded" "$(tail -5 /tmp/rdmastor-insncount.out)"
# count.SEQ.CODE: markers 1 (start) and 2 (stop), four rounds
files=$(cd "$out" && ls count.*.[12] 2>/dev/null | sort -t. -k2 -n | paste -sd' ')
expect_eq "each marker wrote the counts (8 files)" "$(echo "$files" | wc -w)" 8
total() { sed -n 's/^total //p' "$out/$1"; }
rounds=()
set -- $files
while [ $# -ge 2 ]; do
	rounds+=($(( $(total "$2") - $(total "$1") )))
	shift 2
done
diag "instructions a round: ${rounds[*]}"
expect_gt "a round executed instructions" "${rounds[1]:-0}" 0
spread=$(printf '%s\n' "${rounds[@]:1}" | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (lo) printf "%.2f", 100 * (hi - lo) / lo }')
diag "rounds 2-4 spread ${spread}%"
check "rounds 2 to 4 agree within 2% (${spread}%)" awk -v s="$spread" 'BEGIN { exit !(s != "" && s < 2) }'
expect_match "QEMU's exit wrote the final counts" "$(tail -n1 "$out/count.exit" 2>/dev/null)" '^total [1-9]'
tap_done
