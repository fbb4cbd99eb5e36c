# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the tests of kernel ULPs' MRs (rnic_mgr/kulp.c,
# kulp_cap.c) on rxe0: reading a ULP's counts and its cap. Source after
# lib.sh.
D=/sys/kernel/rnic_mgr/devices/rxe0

# line_field FILE NAME FIELD: the value after FIELD on NAME's line of
# FILE (lines of NAME KEY VALUE KEY VALUE ...; empty: no such line)
line_field() {
	awk -v n="$2" -v k="$3" '$1 == n { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' "$1"
}

# ulp NAME FIELD: a field of NAME's line in kernel_ulps
ulp() { line_field $D/kernel_ulps "$1" "$2"; }

# cap_field NAME FIELD: a field of NAME's line in kernel_ulp_caps
cap_field() { line_field $D/kernel_ulp_caps "$1" "$2"; }

# ulp_zero NAME: NAME holds no MR (its line says mrs 0)
ulp_zero() { [ "$(ulp "$1" mrs)" = 0 ]; }
