# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest half of tests/host/insncount.sh: the same fixed work between
# insncount's markers, four times (the plugin writes the counts at each
# marker into the results share), and the kernel's symbols, so that the
# host can split the counts by function.
. tests/lib/guest/lib.sh
mark=$RDMASTOR_TREE/build/insncount/insnmark
check "the marker program runs outside the plugin's view too" "$mark" mark
cat /proc/kallsyms > "$RDMASTOR_OUT/kallsyms"
# the work: 2,000 4 KiB reads of /dev/zero into /dev/null, by one dd
for _ in 1 2 3 4; do
	"$mark" start
	dd if=/dev/zero of=/dev/null bs=4k count=2000 status=none
	"$mark" stop
done
ok 0 "four rounds of the work between markers"
tap_done
