# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the tests of kernel ULPs' MRs (rnic_mgr/kulp/count.c,
# kulp/cap.c) on rxe0: reading a ULP's counts and its cap. Source after
# lib.sh.
D=/sys/kernel/rnic_mgr/devices/rxe0
P=/sys/module/rnic_mgr/parameters
TR=/sys/kernel/tracing

# line_field FILE NAME FIELD: the value after FIELD on NAME's line of
# FILE (lines of NAME KEY VALUE KEY VALUE ...; empty: no such line)
line_field() {
	awk -v n="$2" -v k="$3" '$1 == n { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' "$1"
}

# ulp NAME FIELD: a field of NAME's line in kernel_ulps
ulp() { line_field $D/kernel_ulps "$1" "$2"; }

# cap_field NAME FIELD: a field of NAME's line in kernel_ulp_caps
cap_field() { line_field $D/kernel_ulp_caps "$1" "$2"; }

# ulp_zero NAME: NAME holds no MR: its line says mrs 0, or it has no
# line, having never held one (a ULP refused its first MR)
ulp_zero() {
	local mrs
	mrs=$(ulp "$1" mrs)
	[ "${mrs:-0}" = 0 ]
}

# kulp_only NAME: NAME's MRs are counted, and no other ULP's (the stock
# targets allocate none on RoCE: rdma_rw uses the local key)
kulp_only() {
	local mrs
	mrs=$(ulp "$1" mrs)
	diag "kernel_ulps: $(paste -sd'|' $D/kernel_ulps)"
	expect_gt "$1's MRs are counted" "${mrs:-0}" 0
	expect_eq "the stock target allocates none on RoCE: no other line" \
		"$(awk '{ print $1 }' $D/kernel_ulps | paste -sd' ')" "$1"
}

# kulp_cap_at NAME CAP WHAT: cap NAME at CAP entries (WHAT says how
# much that is), waits of 200 ms, the cap's decisions traced afresh
kulp_cap_at() {
	echo 200 > $P/kernel_ulp_wait_ms
	echo 1 > $TR/events/rnic_mgr/rnic_kulp_cap/enable
	echo > $TR/trace
	check "cap $1 at $2 entries ($3)" sh -c "echo '$1 $2' > $D/kernel_ulp_caps"
}

# kulp_cap_half NAME UNIT: cap NAME at half the entries it held at its
# peak, one UNIT's pool (sets peak and cap)
kulp_cap_half() {
	peak=$(ulp "$1" peak_entries)
	cap=$((peak / 2))
	kulp_cap_at "$1" "$cap" "half of one $2's $peak"
}

# kulp_refused NAME CAP WHAT: NAME's allocation beyond CAP was refused
# and traced, and the WHAT that failed left no MR and nothing reserved
kulp_refused() {
	expect_gt "its allocation was refused" "$(cap_field "$1" refused)" 0
	expect_match "the refusal is traced" "$(grep rnic_kulp_cap: $TR/trace | tail -n1)" \
		"ulp=kernel:$1 entries=[0-9]+ held=[0-9]+ cap=$2 refused"
	check "the failed $3 left no MR" wait_for 20 ulp_zero "$1"
	expect_eq "and nothing reserved" "$(cap_field "$1" reserved)" 0
	echo 0 > $TR/events/rnic_mgr/rnic_kulp_cap/enable
}
