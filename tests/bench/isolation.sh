# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest body of `make bench B=isolation` (issue 35; Documentation/
# evaluation.rst, "Isolation"): the victims of tests/lib/guest/tenants.sh
# (an NFSv4.2 and an NFSv3 mount, an iSER LUN, a verbs program) beside a
# hoarder (the greedy cache) and a churner (registers and deregisters as
# fast as it can), under the arbiter, first come first served and the
# static partition; each victim alone with the whole budget (solo); and
# the victims together without the attackers, under the arbiter and the
# same budget (victims): the share of the slowdown the attackers cause,
# apart from the victims' own contention for the guest's two CPUs.
# The budget is half of the total demand: what each victim holds alone,
# plus what the hoarder asks (2400) and the churner's 64, halved.
# ROUNDS rounds (the first argument, default 7; SECS, the second, is
# each case's length, default 10), each running the eight cases in an order
# rotated by one from the round before. Results (ROUND.CASE.{csv,held,
# map}, budget) in the results share for eval/drivers/bench-isolation.
. tests/lib/guest/lib.sh
. tests/lib/guest/tenants.sh
ROUNDS=${1:-7}
SECS=${2:-10}
O=$RDMASTOR_OUT
VICTIMS="nfs4 nfs6 iser verbs"
export TN_CHURN=1

# the most a tenant held in a solo run (its consumer's prefix in the map)
solo_peak() {
	local t=$1 pre
	pre=$(awk -v t="$t" '$2 == t { print $1 }' $TN_OUT/solo.$t.map)
	awk -v p="$pre" 'index($2, p) == 1 && $3 > m { m = $3 } END { print m + 0 }' \
		$TN_OUT/solo.$t.held
}

check "isolation: device, NFS mounts, iSER LUN" tenants_setup || bail "no setup"
demand=$((2400 + 64))
for t in $VICTIMS; do
	tenants_solo $t "$SECS"
	p=$(solo_peak $t)
	diag "demand: $t holds $p alone ($(tail -n1 $TN_OUT/solo.$t.csv))"
	demand=$((demand + p))
done
BUDGET=$((demand / 2))
echo "$BUDGET $demand" > $O/budget
diag "total demand $demand entries: budget $BUDGET"
cases=(solo:nfs4 solo:nfs6 solo:iser solo:verbs victims arbiter fcfs static)
for round in $(seq "$ROUNDS"); do
	n=${#cases[@]}
	for i in $(seq 0 $((n - 1))); do
		c=${cases[$(( (i + round - 1) % n ))]}
		diag "round $round/$ROUNDS: $c"
		case $c in
		solo:*)
			t=${c#solo:}
			tenants_solo "$t" "$SECS"
			for f in csv held map; do cp $TN_OUT/solo.$t.$f "$O/$round.solo-$t.$f"; done ;;
		victims)
			TN_ATTACKERS=0 tenants_run arbiter "$BUDGET" "$SECS"
			sed 's/^arbiter,/victims,/' $TN_OUT/arbiter.csv > "$O/$round.victims.csv"
			for f in held map; do cp $TN_OUT/arbiter.$f "$O/$round.victims.$f"; done
			while read -r l; do diag "  $l"; done < "$O/$round.victims.csv" ;;
		*)
			tenants_run "$c" "$BUDGET" "$SECS"
			for f in csv held map; do cp $TN_OUT/$c.$f "$O/$round.$c.$f"; done
			for f in verbs greedy churn; do cp $TN_OUT/$f.out "$O/$round.$c.$f.out"; done
			while read -r l; do diag "  $l"; done < $TN_OUT/$c.csv ;;
		esac
	done
done
echo arbiter > $TN_SYS/policy
echo 262144 > $TN_SYS/budget
check "isolation: log out" iser_logout 1
check "isolation: unmount" sh -c "umount /mnt/t4 && umount /mnt/t6"
tap_done
