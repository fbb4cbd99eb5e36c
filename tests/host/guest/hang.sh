# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Guest body for the harness self-test: never finishes.
. tests/lib/guest/lib.sh
diag "sleeping until the harness gives up"
sleep 100000
