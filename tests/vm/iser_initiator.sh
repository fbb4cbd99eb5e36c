# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# vm-group: iser (one guest boot: tests/lib/check)
#
# rdmastor's iSER initiator (rdmastor_iser) with open-iscsi, in one guest
# (rxe0 loopback), against LIO with rdmastor's target and then with the
# stock ib_isert: iscsid's "ib_iser" loads rdmastor_iser; discovery and
# login; verified fio (4 KiB random, 1 MiB sequential, 512 B..256 KiB)
# on two sessions and three LUNs; ext4 with a file workload and fsck;
# logout and re-login with the data intact; no MR held by an idle
# session; nothing left in `rdma resource`; clean unload. Then once
# more with the initiator's completions in its work item (cq_softirq=N).
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_iser_target
check "initiator routing installed" rdmastor_iser_initiator
check "the module iscsid loads (ib_iser) is routed to rdmastor_iser" \
	routed_to ib_iser rdmastor_iser

# ini_mrs: MRs rdmastor's initiator holds now, from rnic_mgr's consumers
ini_mrs() {
	local f n=0
	for f in /sys/kernel/rnic_mgr/devices/*/consumers/iser-ini-*/key_held; do
		[ -e "$f" ] && n=$((n + $(cat "$f")))
	done
	echo "$n"
}
ini_no_mrs() { [ "$(ini_mrs)" = 0 ]; }
# ini_peak: the most MRs any of the initiator's sessions held at once
ini_peak() {
	cat /sys/kernel/rnic_mgr/devices/*/consumers/iser-ini-*/key_peak 2>/dev/null |
		sort -n | tail -n1
}
# ini_entry_peak: the most translation entries any session held at once
ini_entry_peak() {
	cat /sys/kernel/rnic_mgr/devices/*/consumers/iser-ini-*/peak 2>/dev/null |
		sort -n | tail -n1
}
# ini_host_names: proc_name of the SCSI hosts of the iSCSI sessions
ini_host_names() {
	cat /sys/class/iscsi_session/session*/device/../scsi_host/*/proc_name | sort -u
}

# one_target_kind KIND: the whole workload against LIO with KIND's target
one_target_kind() {
	local kind=$1 D10 D11 D20 sha r0 r1 r2
	check "$kind: target 1: two 64 MiB LUNs" iser_target_create 1 2 64M || return 1
	check "$kind: target 2: one 64 MiB LUN" iser_target_create 2 1 64M || return 1
	check "$kind: iscsid runs" iscsid_start
	expect_match "$kind: iscsid's ib_iser loaded rdmastor_iser" "$(lsmod)" '^rdmastor_iser '
	expect_nomatch "$kind: and not ib_iser" "$(lsmod)" '^ib_iser '
	check "$kind: discover and log in to target 1" iser_login 1 || return 1
	check "$kind: log in to target 2 (a second session)" iser_login 2 || return 1
	wait_for 20 iser_disk 1 1 && wait_for 20 iser_disk 2 0 || { ok 1 "$kind: LUNs appear"; return 1; }
	D10=$(iser_disk 1 0) D11=$(iser_disk 1 1) D20=$(iser_disk 2 0)
	expect_eq "$kind: the SCSI host is iscsi_iser" "$(ini_host_names)" iscsi_iser
	[ "$kind" = rdmastor ] &&
		expect_eq "$kind: the sessions' consumers are named by the target portal" \
			"$(cat /sys/kernel/rnic_mgr/devices/*/consumers/iser-ini-*/name | sort -u | paste -sd' ')" \
			"iser-ini-$ISER_IP"
	check "$kind: 4 KiB random read/write, depth 16, verified" \
		iser_fio "rand4k-$kind" "$D10" --rw=randrw --bs=4k --iodepth=16 --size=32M --io_size=48M
	# a 64 KiB I/O is charged a small MR, not a 1 MiB one: before the
	# small class took 64 KiB, depth 4 held 4 MRs of 257 entries (1028
	# for 64 KiB of data each); now every MR so far is a small one
	check "$kind: 64 KiB random read/write, depth 4, verified" \
		iser_fio "rand64k-$kind" "$D10" --rw=randrw --bs=64k --iodepth=4 --size=32M --io_size=8M
	expect_le "$kind: 4 KiB and 64 KiB I/O held small MRs only (peak entries, at most 16 for each of $(ini_peak) MRs)" \
		"$(ini_entry_peak)" $((16 * $(ini_peak)))
	check "$kind: 1 MiB sequential write then read, verified" \
		iser_fio "seq1m-$kind" "$D10" --rw=write --bs=1M --iodepth=4 --size=64M
	check "$kind: odd sizes 512 B..256 KiB, verified" \
		iser_fio "mixed-$kind" "$D20" --rw=randrw --bsrange=512-256k --iodepth=8 --size=32M --io_size=48M
	iser_fio "par0-$kind" "$D10" --rw=randrw --bs=16k --iodepth=8 --size=16M --io_size=32M & r0=$!
	iser_fio "par1-$kind" "$D11" --rw=randrw --bs=64k --iodepth=8 --size=32M --io_size=64M --offset=32M & r1=$!
	iser_fio "par2-$kind" "$D20" --rw=randrw --bs=4k --iodepth=16 --size=16M --io_size=16M & r2=$!
	wait $r0; r0=$?
	wait $r1; r1=$?
	wait $r2; r2=$?
	ok "$((r0 | r1 | r2))" "$kind: three LUNs on two sessions at once, verified"
	expect_gt "$kind: the sessions' MRs were charged to rnic_mgr (peak per session)" "$(ini_peak)" 0
	expect_le "$kind: at most 128 MRs per session" "$(ini_peak)" 128
	check "$kind: an idle session gives back its MRs (within 10 s)" \
		wait_for 10 ini_no_mrs
	check "$kind: mkfs.ext4 on t1 LUN 1" mkfs.ext4 -q -F "$D11"
	mkdir -p /mnt/iser
	check "$kind: mount it" mount "$D11" /mnt/iser || return 1
	check "$kind: file workload" iser_files /mnt/iser
	check "$kind: umount" umount /mnt/iser
	check "$kind: fsck finds the filesystem clean" fsck.ext4 -f -n "$D11"
	sha=$(sha256sum "$D10" | cut -d' ' -f1)
	check "$kind: log out of both" eval "iser_logout 1 && iser_logout 2"
	check_not "$kind: no session left" iscsiadm -m session
	check "$kind: log in to target 1 again" iser_login 1 || return 1
	wait_for 20 iser_disk 1 1 || { ok 1 "$kind: the LUNs come back"; return 1; }
	D10=$(iser_disk 1 0) D11=$(iser_disk 1 1)
	check "$kind: LUN 0 reads back what it held" [ "$(sha256sum "$D10" | cut -d' ' -f1)" = "$sha" ]
	check "$kind: the filesystem mounts again" mount "$D11" /mnt/iser || return 1
	check "$kind: and its files are intact" \
		sh -c 'cd /mnt/iser && sha256sum -c --quiet /tmp/iser-sums'
	umount /mnt/iser
	expect_nomatch "$kind: no connection error in the sessions' life" "$(iser_conn_errors_ours)" \
		'detected conn error'
	check "$kind: log out" iser_logout 1
	check "$kind: remove the targets" iser_target_clear
}

one_target_kind rdmastor
check "rdmastor_isert unloads" rmmod rdmastor_isert
check "LIO's iSER requests go to the stock ib_isert again" iser_stock_target
dmesg -C
one_target_kind stock
expect_match "stock: that was the stock ib_isert" "$(lsmod)" '^ib_isert '

for k in qp cq mr; do
	check "no $k left (within 30 s)" wait_for 30 iser_none_left $k
done
check "iscsid stops" pkill -x iscsid
check "rdmastor_iser unloads" rmmod rdmastor_iser

# The initiator's completions in its work item (cq_softirq=N), the path
# softirq completions replaced as the default: a login, a verified run
# and a logout against the stock target, nothing left.
check "workqueue completions: rdmastor_iser cq_softirq=N loads" modprobe rdmastor_iser cq_softirq=N
expect_eq "workqueue completions: the parameter took" \
	"$(cat /sys/module/rdmastor_iser/parameters/cq_softirq)" N
check "workqueue completions: a 64 MiB LUN" iser_target_create 1 1 64M
check "workqueue completions: iscsid runs" iscsid_start
if check "workqueue completions: log in" iser_login 1 &&
	check "workqueue completions: the LUN appears" wait_for 20 iser_disk 1 0; then
	check "workqueue completions: 4 KiB random read/write, depth 16, verified" \
		iser_fio rand4k-wq "$(iser_disk 1 0)" --rw=randrw --bs=4k --iodepth=16 --size=16M --io_size=24M
	check "workqueue completions: log out" iser_logout 1
fi
check "workqueue completions: remove the target" iser_target_clear
check "workqueue completions: iscsid stops" pkill -x iscsid
for k in qp cq mr; do
	check "workqueue completions: no $k left (within 30 s)" wait_for 30 iser_none_left $k
done
check "workqueue completions: rdmastor_iser unloads" rmmod rdmastor_iser
check "then the engine and rnic_mgr" modprobe -r rdmastor_transport rnic_mgr
tap_done
