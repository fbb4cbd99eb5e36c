# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Guest body for the harness self-test: the second of a group, after
# tests/host/guest/fail.sh; it must find the guest as on a fresh boot.
. tests/lib/guest/lib.sh
check "no dummy NIC left" sh -c "! ip link show dummy0 2>/dev/null"
check "no soft-RoCE link left" sh -c "[ -z \"\$(rdma link show 2>/dev/null)\" ]"
check "the earlier body's process is gone" sh -c "! pgrep -f 'sleep 100[0]'"
tap_done
