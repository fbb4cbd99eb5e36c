#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest harness tests itself: a kernel WARNING, a failing body and a
# hung body must each fail the run, with the right exit code and reason.
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

run --name selftest_fail tests/harness/guest/fail.sh
ok "$( [ "$rc" = 1 ]; echo $?)" "a failing body fails the run with exit 1 (got $rc)"
ok "$(grep -q 'body exited 1' /tmp/rdmastor-selftest.out; echo $?)" "the harness says the body failed"

run --name selftest_hang --timeout 40 tests/harness/guest/hang.sh
ok "$( [ "$rc" = 3 ]; echo $?)" "a hung body fails the run with exit 3 (got $rc)"
ok "$(grep -q 'timeout after 40s' /tmp/rdmastor-selftest.out; echo $?)" "the harness says it timed out"

tap_done
