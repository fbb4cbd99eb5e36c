# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Guest body for tests/host/debug_lane.sh: the lock_order fault.
. tests/host/guest/kernel_fault.sh lock_order
