#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of the harness's log scanner on canned console logs.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
scan=$tree/scripts/vm/scan-log
fx=$tree/tests/harness/fixtures
n=0
failed=0
expect() {	# expect FIXTURE RC REASON
	local out rc
	out=$("$scan" "$fx/$1.log")
	rc=$?
	n=$((n + 1))
	if [ "$rc" = "$2" ] && { [ -z "$3" ] || grep -q "FAIL: $3 in guest" <<< "$out"; }; then
		echo "ok $n - scan-log $1.log: exit $2${3:+, $3}"
	else
		echo "not ok $n - scan-log $1.log: want exit $2${3:+, $3}; got $rc: $out"
		failed=$((failed + 1))
	fi
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
echo "1..$n"
exit $(( failed != 0 ))
