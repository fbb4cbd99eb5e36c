# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the tests of kernel ULPs' MRs (rnic_mgr/kulp.c,
# kulp_cap.c) on rxe0: reading a ULP's counts and its cap. Source after
# lib.sh.
D=/sys/kernel/rnic_mgr/devices/rxe0

# ulp NAME FIELD: a field of NAME's line in kernel_ulps (empty: no line)
ulp() {
	awk -v n="$1" -v k="$2" '$1 == n { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' \
		$D/kernel_ulps
}

# cap_field NAME FIELD: a field of NAME's line in kernel_ulp_caps
cap_field() {
	awk -v n="$1" -v k="$2" '$1 == n { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' \
		$D/kernel_ulp_caps
}
