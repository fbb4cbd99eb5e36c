# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Guest body for the harness self-test: load a module that WARNs. The
# body itself "passes"; only the harness can see that the kernel did not.
. tests/lib/guest/lib.sh
insmod "$(rdmastor_testmod rdmastor_warn_on_load)"
ok 0 "loaded the warning module"
tap_done
