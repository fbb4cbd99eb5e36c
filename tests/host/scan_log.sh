#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of the harness's log scanner on canned console logs.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
scan=$tree/tests/lib/vm/scan-log
fx=$tree/tests/host/fixtures
. "$tree/tests/lib/guest/lib.sh"
expect() {	# expect FIXTURE RC REASON
	local out rc
	out=$("$scan" "$fx/$1.log")
	rc=$?
	expect_eq "scan-log $1.log: exit $2" "$rc" "$2"
	[ -z "$3" ] || expect_match "scan-log $1.log: $3" "$out" "FAIL: $3 in guest"

	[ "$rc" = "$2" ] || diag "$out"
}
expect clean 0 ""
expect warn 1 "kernel WARNING"
expect oops 1 "kernel Oops"
expect hung 1 "hung task"
expect lockup 1 "soft lockup"
expect panic 1 "kernel panic"
expect panic_on_warn 1 "kernel WARNING"
expect stack_dump 1 "kernel stack dump"
expect slab 1 "slab corruption"
# the debug kernel's reports (make check-debug), before the WARNING or
# BUG line each comes with
expect lockdep 1 "lockdep report"
expect kasan 1 "KASAN report"
expect atomic_sleep 1 "sleep in atomic context"
expect kmemleak 1 "kmemleak report"
tap_done
