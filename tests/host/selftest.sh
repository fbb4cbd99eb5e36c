#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest harness tests itself: a kernel WARNING, a failing body, a
# task the kernel reports blocked and a hung body must each fail the
# run, with the right exit code and reason (a blocked task's stacks are
# saved to hung.log);
# the bodies of a group run in one guest, reset between them.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
run() {
	tests/lib/vm-run --quiet "$@" > /tmp/rdmastor-selftest.out 2>&1
	rc=$?
	sed 's/^/# /' /tmp/rdmastor-selftest.out
}

run --name selftest_warn tests/host/guest/warn_on_load.sh
expect_eq "a module that WARNs fails the run with exit 2" "$rc" 2
expect_match "the harness says a kernel WARNING was the reason" "$(cat /tmp/rdmastor-selftest.out)" 'FAIL: kernel WARNING in guest'
expect_match "the harness prints the WARNING's log lines" "$(cat /tmp/rdmastor-selftest.out)" 'rdmastor_warn_on_load: deliberate warning'

# a group of two: the first fails and leaves things behind (a process
# holding its output open past the timeout, a NIC, a link); the second
# must find none of them, and each has its own status
run --name selftest_fail --timeout 300 --group tests/host/guest/fail.sh tests/host/guest/fresh.sh
expect_eq "a failing body fails the run with exit 1" "$rc" 1
expect_match "the harness says the body failed" "$(cat /tmp/rdmastor-selftest.out)" 'body exited 1'
expect_match "and names its first failed check with what it got and wanted" \
	"$(cat /tmp/rdmastor-selftest.out)" "body exited 1 at \"not ok 1 - one and one make three: got '2', want '3'\""
expect_eq "vm-run leaves that reason for tests/lib/check" "$(cat build/vm/selftest_fail/reason 2>/dev/null)" \
	"single: body exited 1 at \"not ok 1 - one and one make three: got '2', want '3'\""
results=$(cat build/vm/selftest_fail/single/results 2>/dev/null)
echo "$results" | sed 's/^/# results: /'
expect_match "a group: the first body failed, at its first failed check" "$results" \
	"fail\.sh 1 [0-9]+ not ok 1 - one and one make three: got '2', want '3'$"
expect_match "a group: the second, in a reset guest, passed" "$results" 'fresh\.sh 0 [0-9]+ ?$'

# a task the kernel says is blocked: the run fails, and the guest saved
# the blocked tasks' stacks and its kernel log by itself (hung.log)
run --name selftest_blocked --timeout 120 tests/host/guest/blocked.sh
expect_eq "a task reported blocked fails the run with exit 2" "$rc" 2
expect_match "the harness says a task hung" "$(cat /tmp/rdmastor-selftest.out)" 'FAIL: hung task in guest'
expect_match "the guest saved its kernel log in hung.log" \
	"$(cat build/vm/selftest_blocked/single/hung.log 2>/dev/null)" 'task selftest:1 blocked for more than'

# (15 s: the guest boots in about 10; a timeout still in the boot is a
# timeout all the same)
run --name selftest_hang --timeout 15 tests/host/guest/hang.sh
expect_eq "a hung body fails the run with exit 3" "$rc" 3
expect_match "the harness says it timed out" "$(cat /tmp/rdmastor-selftest.out)" 'timeout after 15s'


tap_done
