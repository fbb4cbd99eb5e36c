# SPDX-License-Identifier: GPL-2.0
# Guest body for the harness self-test: one check fails.
. scripts/guest/lib.sh
check "false is true" false
tap_done
