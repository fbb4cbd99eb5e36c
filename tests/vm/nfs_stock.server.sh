# SPDX-License-Identifier: GPL-2.0
#
# Server half of the stock NFS/RDMA baseline: the kernel NFS server with
# the stock svcrdma, exporting a tmpfs on port 20049 of the virtio NIC's
# rxe0. This is the peer every NFS test and benchmark of rdmastor runs
# against; serves until the client leaves a "done" file in the export.
. scripts/guest/lib.sh
EXPORT=/export

check "soft-RoCE on the virtio NIC" scripts/guest/rxe-setup pair 1
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=768m tmpfs $EXPORT && chmod 1777 $EXPORT"
check "NFS server modules (nfsd, stock svcrdma)" sh -c "modprobe nfsd && modprobe rpcrdma"
check "nfsd filesystem" sh -c "mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd"
start_nfsd() {
	mkdir -p /run/rpcbind /var/lib/nfs/v4recovery /var/lib/nfs/rpc_pipefs &&
	rpcbind -w &&
	echo "$EXPORT 192.0.2.0/24(rw,no_root_squash,insecure,no_subtree_check,fsid=0)" > /etc/exports &&
	exportfs -ra &&
	rpc.mountd &&
	rpc.nfsd 8 &&
	echo "rdma 20049" > /proc/fs/nfsd/portlist
}
check "nfsd serving over RDMA on 20049" start_nfsd
diag "portlist: $(cat /proc/fs/nfsd/portlist | paste -sd' ')"
check "the client finishes" wait_for 500 test -e $EXPORT/done
ok "$(grep -q pass $EXPORT/done; echo $?)" "the client reports: $(cat $EXPORT/done)"
check "nfsd stops" sh -c "rpc.nfsd 0 && exportfs -ua"
tap_done
