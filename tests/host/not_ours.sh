#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of tests/lib/vm/not-ours, which tells vm-run that a guest's
# kernel failed with no out-of-tree module ever loaded in it (the one
# case vm-run boots again), on two real console logs of QEMU's TCG
# failing a 6.12 guest and on variants of them.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
no=$tree/tests/lib/vm/not-ours
fx=$tree/tests/host/fixtures
. "$tree/tests/lib/guest/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect() {	# expect LOG RC WHAT
	local rc
	"$no" "$1"
	rc=$?
	expect_eq "not-ours: $3" "$rc" "$2"
}
int3=$fx/tcg-int3-boot.log
dbg=$fx/tcg-debug-trap.log
expect "$int3" 0 "an int3 Oops 1.85 s into the boot, not tainted"
expect "$dbg" 0 "a #DB WARNING under a running body, stock modules only, not tainted"
tainted() {	# tainted LOG FLAGS: LOG with its first report's taint made FLAGS
	awk -v f="$2" '!done && /CPU: [0-9]+ .*Not tainted/ { sub(/Not tainted/, "Tainted: " f); done = 1 } 1' "$1"
}
tainted "$int3" "G           OE     " > "$tmp/oe.log"
expect "$tmp/oe.log" 1 "the same Oops once an out-of-tree module was loaded (OE)"
tainted "$dbg" "G           O      " > "$tmp/o.log"
expect "$tmp/o.log" 1 "the same WARNING with an out-of-tree module loaded (O)"
tainted "$dbg" "G        W         " > "$tmp/w.log"
expect "$tmp/w.log" 0 "the same WARNING after an earlier warning, nothing of ours (W)"
expect "$fx/stack_dump.log" 1 "a stack dump from modprobe, tainted OE"
expect "$fx/slab.log" 1 "slab corruption, tainted OE"
expect "$fx/oops.log" 1 "an Oops without its taint line: not known to be foreign"
expect "$fx/clean.log" 1 "a clean log: no failure at all"
expect "$tmp/none.log" 1 "no log"
tap_done
