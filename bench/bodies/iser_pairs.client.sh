# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# iSER pairings benchmark in two guests, initiator half, on the pairing
# driver (pairbench.sh); the target is in the other guest
# (iser_pairs.server.sh), reached over the virtio link as a NIC would be:
#   stock     stock ib_iser (max_sectors 2048, rdmastor_iser's) + stock
#             ib_isert: the base of every ratio
#   stock-aa  the same again, set up anew: the A/A control
#   ini       rdmastor_iser + stock ib_isert (the initiator alone)
#   tgt       stock ib_iser + rdmastor_isert (the target alone)
#   rdmastor  rdmastor_iser + rdmastor_isert (the pair)
#   nvme      stock nvme-rdma + nvmet-rdma on a 256 MiB brd RAM disk in
#             the target guest: NVMe-oF/RDMA, the reference line
# PAIRS chooses (default: stock stock-aa rdmastor rdmastor-aa). Each
# switch logs out, unloads this guest's initiator, has the target guest
# switch its target (hook target-KIND), and logs in through iscsid's
# ib_iser, routed to rdmastor_iser or not. Sets of jobs (SETS): core
# (JOBS) and lat (QD1, LAT_JOBS). Results: iser-pairs-2vm.csv (and
# -verify.csv) and iser-lat-2vm.csv in $RDMASTOR_OUT, with the target
# guest's CPU joined to them by bench/drivers/bench.
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh
. tests/lib/guest/nvme.sh
. bench/guest/pairbench.sh
SETS=${SETS:-core lat}
# shellcheck disable=SC2034	# read by pairbench.sh
PB_PEER=$ISER_IP:9999

pb_pairing() {	# pb_pairing NAME
	local ini tgt
	read -r ini tgt < <(iser_pair_ends "$1") && [ -n "$tgt" ] || return 1
	iscsiadm -m session >/dev/null 2>&1 && { iser_logout 1 || return 1; }
	nvme_disconnect
	wait_for 30 sh -c 'rmmod rdmastor_iser ib_iser 2>/dev/null
		! grep -qE "^(rdmastor_iser|ib_iser) " /proc/modules' || return 1
	hook "target-$tgt" || return 1
	if [ $ini = nvme ]; then
		nvme_connect "$ISER_IP" && PB_DEV=$(nvme_dev) || return 1
		[ -n "$nvme_filled" ] || { nvme_filled=1
			dd if=/dev/urandom of="$PB_DEV" bs=1M count=256 oflag=direct status=none; }
		return 0
	fi
	if [ $ini = rdmastor ]; then rdmastor_iser_initiator
	else
		rm -f /etc/modprobe.d/rdmastor-iser-initiator.conf
		modprobe --ignore-install ib_iser max_sectors=2048 || return 1
	fi
	iser_login 1 && wait_for 20 iser_disk 1 0 >/dev/null || return 1
	PB_DEV=$(iser_disk 1 0)
	[ -n "$filled" ] || { filled=1
		dd if=/dev/urandom of="$PB_DEV" bs=1M count=256 oflag=direct status=none; }
	# what serves here is what was asked for (the hook checked the target)
	grep -q "^$([ $ini = rdmastor ] && echo rdmastor_iser || echo ib_iser) " /proc/modules
}

filled='' nvme_filled=''
check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "rdmastor installed" rdmastor_install
check "target reachable" wait_for 60 ping -c1 -W1 "$ISER_IP"
check "hookd on the target answers" wait_for 120 hook tmr-log || bail "no target"
check "iscsid runs" iscsid_start
# shellcheck disable=SC2034	# read by pairbench.sh
PB_PAIRS=${PAIRS:-"stock stock-aa rdmastor rdmastor-aa"}
for set in $SETS; do
	case $set in
	core) PB_NAME=iser-pairs-2vm PB_JOBS=$JOBS
		pb_verify 4k 8k 16k 128k 1m ;;
	lat) PB_NAME=iser-lat-2vm PB_JOBS=$LAT_JOBS ;;
	cost) PB_NAME=iser-cost PB_JOBS=$(pb_block_jobs "$COST_JOBS") ;;
	*) continue ;;
	esac
	pb_rounds
done
iscsiadm -m session >/dev/null 2>&1 && iser_logout 1
nvme_disconnect
hook "done"
tap_done
