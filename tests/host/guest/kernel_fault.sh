# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Guest body for tests/host/debug_lane.sh, sourced with the fault as
# its argument by kfault_*.sh: load tests/kmod/rdmastor_kernel_faults
# with that fault. The body itself passes; only the debug kernel's
# report can fail it.
. tests/lib/guest/lib.sh
check "rdmastor_kernel_faults loads with fault=$1" \
	insmod "$(rdmastor_testmod rdmastor_kernel_faults)" "fault=$1"
check "and unloads" rmmod rdmastor_kernel_faults
tap_done
