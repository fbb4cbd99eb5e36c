# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest body of `make bench B=isolation` (issue 35; Documentation/
# evaluation.rst, "Isolation"): the victims of tests/lib/guest/tenants.sh
# (an NFSv4.2 and an NFSv3 mount, an iSER LUN, a librnic verbs program,
# and two stock ones: an nvme-rdma namespace and an ib_write_bw pair)
# beside a hoarder (the greedy cache) and a churner (registers and
# deregisters as fast as it can), under the arbiter, first come first
# served and the static partition; each victim alone with the whole
# budget (solo); and the victims together without the attackers, under
# the arbiter and the same budget (victims): the share of the slowdown
# the attackers cause, apart from the victims' own contention for the
# guest's two CPUs.
# The budget is half of the total demand: what each victim holds alone,
# plus what the hoarder asks (2400) and the churner's 64, halved; but
# nvme-rdma's MR pools are fixed at its connect and cannot be halved, so
# they count whole (its entries, plus half of the rest). rnic_mgr runs
# with kernel_ulps=2, so they come off the budget the others share.
# ROUNDS rounds (the first argument, default 7; SECS, the second, is
# each case's length, default 10), each running the cases in an order
# rotated by one from the round before. Results (ROUND.CASE.{csv,held,
# map}, budget) in the results share for bench/drivers/bench-isolation.
. tests/lib/guest/lib.sh
. tests/lib/guest/tenants.sh
ROUNDS=${1:-7}
SECS=${2:-10}
O=$RDMASTOR_OUT
export TN_VICTIMS=${ISO_VICTIMS:-nfs4 nfs6 iser verbs nvme wbw}
export TN_CHURN=1

# the most a tenant held in a solo run: its consumers' (their prefixes
# in the map) entries summed at each sample, the largest sum
solo_peak() {
	local t=$1
	awk -v t="$t" 'FNR == NR { if ($2 == t) pre[$1] = 1; next }
		{ for (p in pre) if (index($2, p) == 1) s[$1] += $3 }
		END { for (ms in s) if (s[ms] > m) m = s[ms]; print m + 0 }' \
		$TN_OUT/solo.$t.map $TN_OUT/solo.$t.held
}

# stock nvme-rdma's MRs charged off the budget the others share
echo "options rnic_mgr kernel_ulps=2" > /etc/modprobe.d/rdmastor-test-kulp.conf
check "isolation: device, NFS mounts, iSER LUN (and nvme-rdma)" tenants_setup || bail "no setup"
if tenants_has nvme; then
	expect_eq "isolation: kernel ULPs charged" "$(cat $TN_P/kernel_ulps)" 2
	diag "kernel ULPs: $(paste -sd'|' $TN_SYS/kernel_ulps)"
fi
demand=$((2400 + 64))
fixed=0
for t in $TN_VICTIMS; do
	tenants_solo $t "$SECS"
	p=$(solo_peak $t)
	diag "demand: $t holds $p alone ($(tail -n1 $TN_OUT/solo.$t.csv))"
	demand=$((demand + p))
	[ $t = nvme ] && fixed=$((fixed + p))
done
BUDGET=$((fixed + (demand - fixed) / 2))
echo "$BUDGET $demand $fixed" > $O/budget
diag "total demand $demand entries ($fixed fixed): budget $BUDGET"
cases=()
for t in $TN_VICTIMS; do cases+=("solo:$t"); done
cases+=(victims arbiter fcfs static)
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
			for f in verbs greedy churn wbw; do
				[ -e $TN_OUT/$f.out ] && cp $TN_OUT/$f.out "$O/$round.$c.$f.out"
			done
			while read -r l; do diag "  $l"; done < $TN_OUT/$c.csv ;;
		esac
	done
done
echo arbiter > $TN_SYS/policy
echo 262144 > $TN_SYS/budget
check "isolation: log out" iser_logout 1
check "isolation: unmount" sh -c "umount /mnt/t4 && umount /mnt/t6"
tenants_has nvme && check "isolation: nvme disconnect" nvme_clear
tap_done
