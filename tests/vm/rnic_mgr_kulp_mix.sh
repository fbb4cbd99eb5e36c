# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# vm-group: rnic_mgr (one guest boot: tests/lib/check)
#
# One budget for the whole device (issue 35): the stock nvme-rdma host
# against nvmet-rdma, beside an NFSv4.2 mount and an iSER session
# through rdmastor (client, server, initiator and target), over rxe
# loopback. rnic_mgr runs with kernel_ulps=2 and "* share": the stock
# host's MRs are counted under kernel:nvme_rdma, charged off the budget,
# and capped when it connects at its share by the administrator's
# weight for it (4 here) beside rdmastor's consumers; those share the
# rest. rnic-top shows them side by side. While all three run verifying
# fio at once, every sample finds the stock ULP within its cap, its
# charge equal to what it holds, and rdmastor's consumers within what
# is left. With the budget cut to leave rdmastor's consumers their
# minimums and 256 entries, less than their runs want, they stay within
# it and their I/O still verifies; when the controller goes, its charge
# goes and the whole budget is shared again. Then everything unloads.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/iser.sh
. tests/lib/guest/nvme.sh
. tests/lib/guest/kulp.sh
IP=192.0.2.1
MNT=/mnt/mix

# rdmastor's consumers' held entries, summed (the kernel ULPs are not
# consumers: they have no directory there)
ours_held() { cat $D/consumers/*/held 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
ours_within() { [ "$(ours_held)" -le "$(cat $D/shared_budget)" ]; }
charge_is() { [ "$(cat $D/kernel_charged)" = "$1" ]; }
nvme_verify() {	# nvme_verify NAME: 8 MiB of verified random writes on the namespace
	fio --name="$1" --filename="$(nvme_dev)" --rw=randwrite --bs=16k --iodepth=8 \
		--ioengine=libaio --direct=1 --size=8m --verify=crc32c --do_verify=1 \
		--output=/dev/null
}
# 256 KiB at depth 8: each wants about 520 entries at once
nfs_verify() { fio_verify "$1" --rw=randwrite --bs=256k --iodepth=8 --ioengine=libaio \
	--direct=1 --size=32m; }
lun_verify() { iser_fio "$1" "$LUN" --rw=randwrite --bs=256k --iodepth=8 --size=32m; }
ours_min() { cat $D/consumers/*/min 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }

# sample_bounds: every 0.3 s while the three runs go, one line of
# "ours shared nvme_entries cap charged" to /tmp/mix.samples
sample_bounds() {
	: > /tmp/mix.samples
	while [ -e /tmp/mix.running ]; do
		echo "$(ours_held) $(cat $D/shared_budget) $(ulp nvme_rdma entries)" \
			"$(cap_field nvme_rdma cap) $(cat $D/kernel_charged)" >> /tmp/mix.samples
		sleep 0.3
	done
}
# all_three NAME: the three verifying runs at once, sampled; each must pass
all_three() {
	local p1 p2 p3 s rc=0
	touch /tmp/mix.running
	sample_bounds & s=$!
	nfs_verify "$1-nfs" & p1=$!
	lun_verify "$1-iser" & p2=$!
	nvme_verify "$1-nvme" & p3=$!
	wait $p1 || { diag "$1: NFS run failed"; rc=1; }
	wait $p2 || { diag "$1: iSER run failed"; rc=1; }
	wait $p3 || { diag "$1: nvme run failed"; rc=1; }
	rm -f /tmp/mix.running
	wait $s
	return $rc
}
# samples_bad: the samples that break a bound (printed, one per line)
samples_bad() {
	awk '$1 > $2 || ($4 != "" && $3 > $4) || $3 != $5' /tmp/mix.samples
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "rnic_mgr with kernel_ulps=2, every stock ULP capped at its share" \
	modprobe rnic_mgr kernel_ulps=2 devices=rxe0:ulps=share
check "weight 4 for kernel:nvme_rdma" sh -c "echo 'kernel:nvme_rdma=4' > $P/consumer_weights"
check "routing to rdmastor's NFS and iSER modules" \
	eval "rdmastor_nfs_client && rdmastor_iser_target && rdmastor_iser_initiator"
check "RAM-backed export" sh -c "mkdir -p $EXPORT $MNT && mount -t tmpfs -o size=160m tmpfs $EXPORT && chmod 1777 $EXPORT"
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
check "the server over RDMA on 20049" nfsd_start || bail "no server"
check "NFSv4.2 mount over RDMA" mount -t nfs -o vers=4.2,proto=rdma,port=20049 $IP:/ $MNT ||
	bail "no mount"
check "iSER target: one 32 MiB LUN" eval "lio_ready && iser_target_create 1 1 32M"
check "iscsid" iscsid_start
check "iSER login" iser_login 1 || bail "no login"
wait_for 20 iser_disk 1 0 || bail "no LUN"
LUN=$(iser_disk 1 0)
for m in rdmastor_rpcrdma rdmastor_svcrdma rdmastor_isert rdmastor_iser; do
	check "$m is loaded" grep -q "^$m " /proc/modules
done
check "NVMe-oF target on a RAM disk, rdma 4420" nvme_target $IP 32 || bail "no target"
check "the stock nvme-rdma host connects (1 I/O queue of 16)" \
	nvme_connect $IP nr_io_queues=1,queue_size=16 || bail "no controller"

entries=$(ulp nvme_rdma entries)
cap=$(cap_field nvme_rdma cap)
diag "kernel_ulps: $(paste -sd'|' $D/kernel_ulps); caps: $(paste -sd'|' $D/kernel_ulp_caps)"
expect_gt "nvme_rdma's MRs are counted" "$(ulp nvme_rdma mrs)" 0
expect_match "its cap came from its share at weight 4, by the default" \
	"$(cat $D/kernel_ulp_caps)" "^nvme_rdma cap [0-9]+ entries $entries .* share 4 default 1"
# its share beside the consumers there: budget * 4 / (their weights + 4)
w=$(cat $D/consumers/*/weight | awk '{ s += $1 } END { print s + 0 }')
expect_eq "the cap is budget x 4 / (4 + the consumers' weights, $w)" "$cap" \
	$(($(cat $D/budget) * 4 / (w + 4)))
check "bounded: it holds no more than its cap ($entries of $cap)" [ "$entries" -le "$cap" ]
check "and its cap is less than the budget ($(cat $D/budget))" [ "$cap" -lt "$(cat $D/budget)" ]
check "its entries are charged off the budget" wait_for 10 charge_is "$entries"
expect_eq "rdmastor's consumers share the rest" "$(cat $D/shared_budget)" \
	$(($(cat $D/budget) - entries))
top=$(scripts/admin/rnic-top rxe0)
diag "$(echo "$top" | sed 's/^/rnic-top: /')"
expect_match "rnic-top: the stock host under its own consumer, held $entries" "$top" \
	"^kernel:nvme_rdma +[0-9]+ +$entries +[0-9]+ +[0-9]+ +$cap "
expect_match "rnic-top: rdmastor's NFS client beside it" "$top" "^nfs-$IP\."
expect_match "rnic-top: rdmastor's iSER initiator beside it" "$top" "^iser-ini-"
check "rdmastor's consumers within the shared budget" ours_within

check "NFS, iSER and nvme-rdma verify at once" all_three full
diag "samples (ours shared nvme cap charged): $(wc -l < /tmp/mix.samples), last $(tail -n1 /tmp/mix.samples)"
expect_gt "the bounds were sampled during the runs" "$(wc -l < /tmp/mix.samples)" 2
expect_eq "no sample broke a bound" "$(samples_bad | head -3 | paste -sd'|')" ""

# a tighter budget: rdmastor's consumers get their minimums and 256
# entries more, less than the two runs want at once (about 1040); the
# stock ULP keeps its pools (it cannot shrink; its cap was set at
# connect)
tight=$(($(ours_min) + 256))
B=$((entries + tight))
check "budget cut to $B: $tight entries left to rdmastor's consumers" sh -c "echo $B > $D/budget"
expect_eq "the shared budget is $tight" "$(cat $D/shared_budget)" $tight
check "rdmastor's consumers within it" wait_for 30 ours_within
check "NFS, iSER and nvme-rdma still verify at once" all_three tight
diag "samples: $(wc -l < /tmp/mix.samples), most held by ours $(sort -n /tmp/mix.samples | tail -n1 | cut -d' ' -f1)"
expect_gt "rdmastor's consumers used the tight budget (most held, of $tight)" \
	"$(sort -n /tmp/mix.samples | tail -n1 | cut -d' ' -f1)" $((tight / 2))
expect_eq "no sample broke a bound" "$(samples_bad | head -3 | paste -sd'|')" ""
expect_eq "the stock host kept its pools" "$(ulp nvme_rdma entries)" "$entries"

check "disconnect" nvme_disconnect
check "nvme_rdma's MRs go" wait_for 20 ulp_zero nvme_rdma
check "and with them the charge" wait_for 10 charge_is 0
expect_eq "the whole budget is shared again" "$(cat $D/shared_budget)" "$B"
check "NFS and iSER verify" eval "nfs_verify after && lun_verify after"

check "umount" umount $MNT
check "log out" iser_logout 1
check "clear the targets" eval "nvme_clear && iser_target_clear"
check "rpc.nfsd 0" rpc.nfsd 0
check "no consumer is left" wait_for 30 sh -c "! ls $D/consumers/ | grep -q ."
check "rdmastor's modules unload" wait_for 30 modprobe -r rdmastor_iser rdmastor_isert \
	rdmastor_svcrdma rdmastor_rpcrdma
check "rnic_mgr unloads" wait_for 30 modprobe -r rdmastor_transport rnic_mgr
check "the NVMe modules unload" sh -c "modprobe -r nvme-rdma nvmet-rdma && rmmod brd"
tap_done
