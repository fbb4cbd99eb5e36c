# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# iSER pairings benchmark in one guest (rxe loopback), on the pairing
# driver (pairbench.sh): one 256 MiB RAM LUN under LIO, reached through
# initiator + target pairings, and NVMe-oF/RDMA as the reference line:
#   stock     stock ib_iser + stock ib_isert, ib_iser at rdmastor's
#             max_sectors (2048: 1 MiB in one command; its default is
#             1024): the base of every ratio
#   stock-aa  the same again, set up anew: the A/A control
#   ini       rdmastor_iser + stock ib_isert (the initiator alone)
#   tgt       stock ib_iser + rdmastor_isert (the target alone)
#   rdmastor  rdmastor_iser + rdmastor_isert (the pair)
#   nvme      stock nvme-rdma + nvmet-rdma on a 256 MiB brd RAM disk: the
#             fastest stock stack here, not a pairing of ours
# PAIRS chooses (default: stock stock-aa rdmastor nvme). Each switch logs
# out, unloads both ends and loads the pairing's through the stock names
# (iscsid's ib_iser, LIO's ib_isert) with rdmastor's modprobe routing in
# place or removed. Sets of jobs (SETS): core (JOBS) and lat (QD1,
# LAT_JOBS), each its own rounds and A/A line. Results: iser-pairs.csv
# (and -verify.csv) and iser-lat.csv in $RDMASTOR_OUT (bench/drivers/bench).
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh
. bench/guest/pairbench.sh
NQN=rdmastor-bench
. tests/lib/guest/nvme.sh
PORTAL=/iscsi/$ISER_IQN:t1/tpg1/portals/$ISER_IP:3260
SETS=${SETS:-core lat}

pb_pairing() {	# pb_pairing NAME
	local ini tgt
	if [ "${1%-aa}" = nvme ]; then
		iscsiadm -m session >/dev/null 2>&1 && { iser_logout 1 || return 1; }
		nvme_connect "$ISER_IP" || return 1
		PB_DEV=$(nvme_dev)
		[ -n "$nvme_filled" ] || { nvme_filled=1
			dd if=/dev/urandom of="$PB_DEV" bs=1M count=256 oflag=direct status=none; }
		return
	fi
	read -r ini tgt < <(iser_pair_ends "$1") && [ -n "$tgt" ] || return 1
	nvme_disconnect
	iscsiadm -m session >/dev/null 2>&1 && { iser_logout 1 || return 1; }
	targetcli "$PORTAL" enable_iser false >/dev/null 2>&1
	wait_for 30 sh -c 'rmmod rdmastor_isert ib_isert rdmastor_iser ib_iser 2>/dev/null
		! grep -qE "^(rdmastor_isert|ib_isert|rdmastor_iser|ib_iser) " /proc/modules' || return 1
	if [ $tgt = rdmastor ]; then rdmastor_iser_target; else iser_stock_target; fi
	if [ $ini = rdmastor ]; then rdmastor_iser_initiator
	else
		rm -f /etc/modprobe.d/rdmastor-iser-initiator.conf
		modprobe --ignore-install ib_iser max_sectors=2048 || return 1
	fi
	targetcli "$PORTAL" enable_iser true >/dev/null || return 1
	iser_login 1 && wait_for 20 iser_disk 1 0 >/dev/null || return 1
	PB_DEV=$(iser_disk 1 0)
	[ -n "$iser_filled" ] || { iser_filled=1
		dd if=/dev/urandom of="$PB_DEV" bs=1M count=256 oflag=direct status=none; }
	# what serves is what was asked for
	grep -q "^$([ $tgt = rdmastor ] && echo rdmastor_isert || echo ib_isert) " /proc/modules &&
		grep -q "^$([ $ini = rdmastor ] && echo rdmastor_iser || echo ib_iser) " /proc/modules
}

iser_filled='' nvme_filled=''
check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "target: one 256 MiB RAM LUN over iSER" iser_target_create 1 1 256M || bail "no target"
check "iscsid runs" iscsid_start
PB_PAIRS=${PAIRS:-"stock stock-aa rdmastor nvme"}
[[ " $PB_PAIRS " == *" nvme "* ]] && check "NVMe-oF target: a subsystem on a RAM disk, rdma 4420" nvme_target "$ISER_IP"
for set in $SETS; do
	case $set in
	core) PB_NAME=iser-pairs PB_JOBS=$JOBS
		pb_verify 4k 8k 16k 128k 1m ;;
	lat) PB_NAME=iser-lat PB_JOBS=$LAT_JOBS ;;
	*) continue ;;
	esac
	pb_rounds
done
nvme_clear
iscsiadm -m session >/dev/null 2>&1 && iser_logout 1
iser_target_clear
tap_done
