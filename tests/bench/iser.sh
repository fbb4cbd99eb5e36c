# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# iSER benchmark (one guest): the same fio jobs through rdmastor's iSER
# target (rdmastor_isert) and the stock one (ib_isert) under LIO, with
# the same stock open-iscsi + ib_iser initiator and the same RAM LUN, in
# one boot, interleaved (rdmastor, stock, ...) for ROUNDS rounds. The two
# register LIO's one RDMA transport type: each round disables iSER on
# the portal, unloads one, and re-enables it with the modprobe alias in
# place (rdmastor) or removed (stock). Results: $RDMASTOR_OUT/iser.csv;
# eval/drivers/bench-plot iser makes the table and plot.
#
# Jobs (raw LUN, O_DIRECT, libaio): 4 KiB random read and write at depth
# 16; 128 KiB and 1 MiB sequential read and write at depth 4.
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-10}
CSV=$RDMASTOR_OUT/iser.csv
PORTAL=/iscsi/$ISER_IQN:t1/tpg1/portals/$ISER_IP:3260
JOBS="rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16
seq128k-read:read:128k:4 seq128k-write:write:128k:4
seq1m-read:read:1m:4 seq1m-write:write:1m:4"

# MRs of the target (the initiator's own ib_iser pool not counted)
target_mrs() { rdma resource show mr 2>/dev/null | grep rxe0 | grep -v 'comm \[ib_iser\]' | grep -vc 'comm \[ib_core\]'; }

use_target() {	# use_target rdmastor|stock
	iscsiadm -m session >/dev/null 2>&1 && { iser_logout 1 || return 1; }
	targetcli "$PORTAL" enable_iser false >/dev/null 2>&1
	wait_for 30 sh -c 'rmmod rdmastor_isert 2>/dev/null; rmmod ib_isert 2>/dev/null; ! grep -qE "^(rdmastor_isert|ib_isert) " /proc/modules' || return 1
	if [ "$1" = rdmastor ]; then
		rdmastor_iser_target
	else
		rm -f /etc/modprobe.d/rdmastor-iser.conf
	fi
	targetcli "$PORTAL" enable_iser true >/dev/null || return 1
	grep -q "^$([ "$1" = rdmastor ] && echo rdmastor_isert || echo ib_isert) " /proc/modules || return 1
	iser_login 1 && wait_for 20 iser_disk 1 0
}

# one fio job; prints "iops bw_kib lat_mean_us lat_p99_us"
run_job() {	# run_job DEV RW BS DEPTH
	fio --name=bench --filename="$1" --size=256m --rw="$2" --bs="$3" \
		--iodepth="$4" --direct=1 --ioengine=libaio --time_based \
		--runtime="$RUNTIME" --ramp_time=2 --output-format=json > /tmp/fio.json 2>/tmp/fio.err ||
		{ cat /tmp/fio.err; return 1; }
	tests/lib/guest/fio-summary /tmp/fio.json
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_iser_target
check "target: one 256 MiB RAM LUN over iSER" iser_target_create 1 1 256M || bail "no target"
check "iscsid runs" iscsid_start
echo "round,stack,job,iops,bw_kib,lat_mean_us,lat_p99_us,mrs_idle,mrs_load" > "$CSV"
for round in $(seq "$ROUNDS"); do
	for stack in rdmastor stock; do
		check "round $round: $stack target serves the portal" use_target $stack || continue
		dev=$(iser_disk 1 0)
		[ "$round" = 1 ] && [ "$stack" = rdmastor ] &&
			dd if=/dev/urandom of="$dev" bs=1M count=256 oflag=direct status=none
		echo "$JOBS" | tr ' ' '\n' | while IFS=: read -r name rw bs depth; do
			[ -n "$name" ] || continue
			sleep 2
			idle=$(target_mrs)
			( sleep $((RUNTIME / 2 + 2)); target_mrs > /tmp/mrs_load ) &
			r=$(run_job "$dev" "$rw" "$bs" "$depth") || { echo "# $name failed: $r"; continue; }
			wait
			echo "$round,$stack,$name,${r// /,},$idle,$(cat /tmp/mrs_load)" >> "$CSV"
			diag "round $round $stack $name: iops bw_kib lat_us p99_us = $r; target MRs idle $idle, loaded $(cat /tmp/mrs_load)"
		done
	done
done
expect_gt "results in iser.csv (lines, with the header)" "$(wc -l < "$CSV")" 1
iser_logout 1
iser_target_clear
tap_done
