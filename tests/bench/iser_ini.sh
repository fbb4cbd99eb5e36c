# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# iSER initiator benchmark in one guest (rxe loopback): the
# fio jobs of the iSER target benchmark on one RAM LUN under LIO, through
# four initiator + target pairings, in one boot, interleaved for ROUNDS
# (3) rounds, the order rotated each round:
#   stock     stock ib_iser + stock ib_isert (the base)
#   ini       rdmastor_iser + stock ib_isert (the initiator alone)
#   tgt       stock ib_iser + rdmastor_isert
#   rdmastor  rdmastor_iser + rdmastor_isert (the pair)
# Each switch logs out, unloads both ends and loads the pairing's through
# the stock names (iscsid's ib_iser, LIO's ib_isert) with rdmastor's
# modprobe routing in place or removed. MRs counted are the initiator's
# (stock ib_iser's in `rdma resource`, rdmastor_iser's through
# rnic_mgr). Results: $RDMASTOR_OUT/iser-ini.csv, eval/drivers/bench-plot
# iser-ini makes the table and plot.
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh
. tests/lib/guest/nfs-bench.sh
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-10}
CSV=$RDMASTOR_OUT/iser-ini.csv
PORTAL=/iscsi/$ISER_IQN:t1/tpg1/portals/$ISER_IP:3260
JOBS=${JOBS:-"rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16
seq128k-read:read:128k:4 seq128k-write:write:128k:4
seq1m-read:read:1m:4 seq1m-write:write:1m:4"}
PAIRS=${PAIRS:-"stock ini tgt rdmastor"}

initiator_mrs() {
	local n f
	n=$(rdma resource show mr 2>/dev/null | grep rxe0 | grep -c 'comm \[ib_iser\]')
	for f in /sys/kernel/rnic_mgr/devices/*/consumers/iser-ini-*/key_held; do
		[ -e "$f" ] && n=$((n + $(cat "$f")))
	done
	echo "$n"
}
BENCH_MRS=initiator_mrs

unloaded() { ! grep -qE "^($1) " /proc/modules; }

pair_stack() {	# pair_stack NAME
	local ini=stock tgt=stock
	case $1 in
	ini) ini=rdmastor ;;
	tgt) tgt=rdmastor ;;
	rdmastor) ini=rdmastor tgt=rdmastor ;;
	esac
	iscsiadm -m session >/dev/null 2>&1 && { iser_logout 1 || return 1; }
	targetcli "$PORTAL" enable_iser false >/dev/null 2>&1
	wait_for 30 sh -c 'rmmod rdmastor_isert ib_isert rdmastor_iser ib_iser 2>/dev/null
		! grep -qE "^(rdmastor_isert|ib_isert|rdmastor_iser|ib_iser) " /proc/modules' || return 1
	if [ $tgt = rdmastor ]; then rdmastor_iser_target; else iser_stock_target; fi
	if [ $ini = rdmastor ]; then rdmastor_iser_initiator
	else rm -f /etc/modprobe.d/rdmastor-iser-initiator.conf; fi
	targetcli "$PORTAL" enable_iser true >/dev/null || return 1
	iser_login 1 && wait_for 20 iser_disk 1 0 || return 1
	# what serves is what was asked for
	grep -q "^$([ $tgt = rdmastor ] && echo rdmastor_isert || echo ib_isert) " /proc/modules &&
		grep -q "^$([ $ini = rdmastor ] && echo rdmastor_iser || echo ib_iser) " /proc/modules
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "target: one 256 MiB RAM LUN over iSER" iser_target_create 1 1 256M || bail "no target"
check "iscsid runs" iscsid_start
echo "$BENCH_COLUMNS" > "$CSV"
# rotate: round r starts with the r-th pairing, so that no pairing
# always runs first or last in its round (a 128 KiB write figure of the
# pair, always last, was 0.85x in every round; alone and first, 0.97x)
order=$PAIRS
filled=
for round in $(seq "$ROUNDS"); do
	diag "round $round order: $order"
	for stack in $order; do
		check "round $round: $stack" pair_stack $stack || continue
		BENCH_DEV=$(iser_disk 1 0)
		[ -z "$filled" ] && filled=1 &&
			dd if=/dev/urandom of="$BENCH_DEV" bs=1M count=256 oflag=direct status=none
		echo "$JOBS" | tr ' ' '\n' | while IFS=: read -r name rw bs depth; do
			[ -n "$name" ] && bench_job "$round" "$stack" "$name" "$rw" "$bs" "$depth"
		done
	done
	order="${order#* } ${order%% *}"
done
expect_gt "results in iser-ini.csv (lines, with the header)" "$(wc -l < "$CSV")" 1
iser_logout 1
iser_target_clear
tap_done
