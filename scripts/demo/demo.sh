# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Client guest of `make demo`: soft-RoCE, rdmastor's modules and what
# rnic_mgr sees of the RDMA devices; then an NFSv4.2 mount of the server
# guest's export (nfsd over rdmastor_svcrdma) through rdmastor's RPC-over-RDMA
# client, fio on it, and rnic_mgr's view of the mount.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-client.sh
set -e
trap 'nfs_done fail' ERR
step() { echo; echo "# ---- $*"; }

step "soft-RoCE: rxe0 on the virtio NIC linked to the server guest"
tests/lib/guest/rxe-setup pair 2
rdma link show

step "install and load rdmastor"
check "rdmastor modules installed" rdmastor_install
modprobe rnic_mgr
lsmod | grep -E '^(rnic_mgr|rdma_rxe|ib_core) '

step "what rnic_mgr sees (/sys/kernel/rnic_mgr/devices)"
for d in /sys/kernel/rnic_mgr/devices/*; do
	echo "# device $(basename "$d"):"
	for f in "$d"/*; do
		[ -f "$f" ] && printf '#   %-10s %s\n' "$(basename "$f")" "$(cat "$f")"
	done
done

step "NFS over rdmastor: proto=rdma reaches rdmastor_rpcrdma (etc/modprobe.d)"
wait_for 60 ping -c1 -W1 $SERVER
rdmastor_nfs_client
nfs_mount 4.2
grep " $MNT " /proc/mounts
lsmod | grep -E '^(rdmastor_rpcrdma|rdmastor_transport|rnic_mgr|rpcrdma) '

step "fio: 4 KiB random read/write, depth 16, O_DIRECT, 15 s"
fio --name=demo4k --directory=$MNT --size=32m --bs=4k --rw=randrw --direct=1 \
	--ioengine=libaio --iodepth=16 --time_based --runtime=15 --group_reporting |
	grep -E "^ *(read|write|lat|clat \(|READ|WRITE)" || true
echo "# rnic_mgr's view under load (scripts/admin/rnic-top):"
scripts/admin/rnic-top -n 1 || true

step "fio: 1 MiB sequential write then read, O_DIRECT"
fio --name=demo1m --directory=$MNT --size=64m --bs=1m --rw=write --direct=1 \
	--ioengine=libaio --iodepth=4 | grep -E "^ *(write|WRITE)" || true
fio --name=demo1m --directory=$MNT --size=64m --bs=1m --rw=read --direct=1 \
	--ioengine=libaio --iodepth=4 | grep -E "^ *(read|READ)" || true

step "the mount's transport (/proc/self/mountstats, rdmastor counters)"
for f in inline_calls read_chunks long_calls inline_replies write_chunks \
	reply_chunks bad_replies bc_calls mrs mr_limit window regs remote_inv local_inv; do
	printf '#   %-16s %s\n' "$f" "$(xstat $f)"
done
rm -f $MNT/demo*
sleep 2
echo "# idle: MRs held $(xstat mrs) (idle MRs go back after rdmastor_transport's mr_idle_ms)"

step "unload"
umount $MNT
modprobe -r rdmastor_rpcrdma rdmastor_transport rnic_mgr
echo "# rdmastor unloaded cleanly; rdma resource: $(rdma_left qp) QPs, $(rdma_left mr) MRs left"
trap - ERR
nfs_done pass
