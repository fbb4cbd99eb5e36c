#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest harness tests itself: a kernel WARNING, a failing body and a
# hung body must each fail the run, with the right exit code and reason;
# the bodies of a group run in one guest, reset between them.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree"
. scripts/guest/lib.sh
run() {
	scripts/vm-run --quiet "$@" > /tmp/rdmastor-selftest.out 2>&1
	rc=$?
	sed 's/^/# /' /tmp/rdmastor-selftest.out
}

run --name selftest_warn tests/harness/guest/warn_on_load.sh
ok "$( [ "$rc" = 2 ]; echo $?)" "a module that WARNs fails the run with exit 2 (got $rc)"
ok "$(grep -q 'FAIL: kernel WARNING in guest' /tmp/rdmastor-selftest.out; echo $?)" "the harness says a kernel WARNING was the reason"
ok "$(grep -q 'rdmastor_warn_on_load: deliberate warning' /tmp/rdmastor-selftest.out; echo $?)" "the harness prints the WARNING's log lines"

# a group of two: the first fails and leaves things behind (a process
# holding its output open past the timeout, a NIC, a link); the second
# must find none of them, and each has its own status
run --name selftest_fail --timeout 300 --group tests/harness/guest/fail.sh tests/harness/guest/fresh.sh
ok "$( [ "$rc" = 1 ]; echo $?)" "a failing body fails the run with exit 1 (got $rc)"
ok "$(grep -q 'body exited 1' /tmp/rdmastor-selftest.out; echo $?)" "the harness says the body failed"
results=$(cat build/vm/selftest_fail/single/results 2>/dev/null)
echo "$results" | sed 's/^/# results: /'
ok "$(echo "$results" | awk '$1 ~ /fail.sh$/ && $2 == 1 { f = 1 } $1 ~ /fresh.sh$/ && $2 == 0 { g = 1 } END { exit !(f && g) }'; echo $?)" \
	"a group: each body's status (the first failed, the second, in a reset guest, passed)"

run --name selftest_hang --timeout 40 tests/harness/guest/hang.sh
ok "$( [ "$rc" = 3 ]; echo $?)" "a hung body fails the run with exit 3 (got $rc)"
ok "$(grep -q 'timeout after 40s' /tmp/rdmastor-selftest.out; echo $?)" "the harness says it timed out"

tap_done
