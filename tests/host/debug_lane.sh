#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-kernels: debug
#
# The debug lane tests itself (make check-debug only): on the KASAN,
# lockdep and kmemleak kernel, a body that commits each kind of defect
# (tests/kmod/rdmastor_kernel_faults) fails, is named, and has the
# report's kind as its reason, while a clean body in the same guest
# passes. One guest runs them as a group, the use after free last: KASAN
# under panic_on_warn ends the guest.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
g=tests/host/guest
tests/lib/vm-run --quiet --kernel debug --name debug_lane --timeout 200 --group \
	$g/kfault_lock_order.sh $g/fresh.sh $g/kfault_leak.sh $g/kfault_sleep_atomic.sh \
	$g/kfault_use_after_free.sh > /tmp/rdmastor-debug-lane.out 2>&1
rc=$?
sed 's/^/# /' /tmp/rdmastor-debug-lane.out
results=$(cat build/vm/debug_lane/single/results 2>/dev/null)
echo "$results" | sed 's/^/# results: /'
# result BODY: its line in the group's results, less its seconds
result() { awk -v b="$g/$1.sh" '$1 == b { $1 = ""; $3 = ""; print }' <<< "$results" | tr -s ' ' | sed 's/^ //; s/ $//'; }

expect_eq "the run fails as a kernel that misbehaved (exit 2)" "$rc" 2
expect_eq "lock_order: lockdep's report fails the body that made it" \
	"$(result kfault_lock_order)" "2 kernel: lockdep report in guest (dmesg0.log)"
expect_eq "a clean body after it, in the same guest, passes" "$(result fresh)" "0"
expect_match "leak: kmemleak's report fails the body that made it" \
	"$(result kfault_leak)" "^2 kernel: kmemleak: [0-9]+ suspected leaks"
# (its backtrace's addresses in the module stay unnamed: the body
# unloaded it, as every body does, before the scan)
expect_match "and kmemleak.log shows the object leaked, filled with 0x5a" \
	"$(cat build/vm/debug_lane/single/kmemleak.log 2>/dev/null)" \
	"^ *5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a "
expect_eq "sleep_atomic: the atomic-sleep report fails the body that made it" \
	"$(result kfault_sleep_atomic)" "2 kernel: sleep in atomic context in guest (dmesg3.log)"
expect_eq "use_after_free: KASAN ended the guest in that body (no result)" \
	"$(result kfault_use_after_free)" ""
expect_match "the harness names KASAN's report as that body's reason" \
	"$(cat /tmp/rdmastor-debug-lane.out)" "failed in $g/kfault_use_after_free.sh: KASAN report in guest"
tap_done
