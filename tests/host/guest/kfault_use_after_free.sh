# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Guest body for tests/host/debug_lane.sh: the use_after_free fault.
. tests/host/guest/kernel_fault.sh use_after_free
