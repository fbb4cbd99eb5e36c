# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Guest body for the harness self-test: the kernel says a task is
# blocked (a line written to the kernel log as the hung-task check
# writes it); the guest's hang watch must save hung.log by itself.
. tests/lib/guest/lib.sh
echo "INFO: task selftest:1 blocked for more than 30 seconds." > /dev/kmsg
check "the guest saved hung.log" wait_for 30 grep -q '^== dmesg' "$RDMASTOR_OUT/hung.log"
tap_done
