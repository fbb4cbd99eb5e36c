#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of tests/lib/vm/boot-oops, which tells vm-run that a guest's
# kernel failed while booting, before its body and with no module of
# this tree loaded (the one case vm-run boots again).
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
bo=$tree/tests/lib/vm/boot-oops
fx=$tree/tests/harness/fixtures
. "$tree/tests/lib/guest/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect() {	# expect LOG RC WHAT
	local rc
	"$bo" "$1"
	rc=$?
	expect_eq "boot-oops: $3" "$rc" "$2"
}
int3=$fx/boot-oops-int3.log
expect "$int3" 0 "6.12's int3 Oops at 1.85 s, nothing loaded: a boot failure"
sed 's/Modules linked in:.*/Modules linked in: rnic_mgr(OE) overlay 9p/' "$int3" > "$tmp/ours.log"
expect "$tmp/ours.log" 1 "the same Oops with rnic_mgr loaded: a failure of ours"
sed 's/Modules linked in:.*/Modules linked in: rdma_rxe ib_core overlay 9p/' "$int3" > "$tmp/rxe.log"
expect "$tmp/rxe.log" 1 "the same Oops with rdma_rxe loaded: a failure of the test"
{ echo "# guest single: running tests/vm/x.sh"; cat "$int3"; } > "$tmp/body.log"
expect "$tmp/body.log" 1 "the same Oops after the body started: a failure of the test"
expect "$fx/warn.log" 1 "a WARN with no module list: not known to be a boot failure"
expect "$fx/oops.log" 1 "an Oops with no module list: not known to be a boot failure"
expect "$fx/clean.log" 1 "a clean log: no failure at all"
expect "$tmp/none.log" 1 "no log"
tap_done
