# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Server half of the NFS pairings benchmark: nfsd over the stock svcrdma
# or rdmastor_svcrdma, as the client asks. The client leaves "switch"
# in the export with "KIND INLINE" and unmounts; nfsd is restarted over
# that server (server_stack) and "server-now" says what serves.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 1
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=1g tmpfs $EXPORT && chmod 1777 $EXPORT"
check "rdmastor installed" rdmastor_install
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
check "stock server modules" modprobe --ignore-install rpcrdma
check "nfsd serving over RDMA on 20049" nfsd_start
echo "stock 4096" > $EXPORT/server-now
n=0
while [ ! -e $EXPORT/done ]; do
	if [ -e $EXPORT/switch ]; then
		want=$(cat $EXPORT/switch)
		rm -f $EXPORT/switch $EXPORT/server-now
		sleep 2		# the client unmounts
		check "serve with the $want server" server_stack $want &&
			echo "$want" > $EXPORT/server-now
		n=$((n + 1))
	fi
	sleep 0.2
done
diag "$n switches"
check "the client reports: $(cat $EXPORT/done)" grep -q pass $EXPORT/done
check "nfsd stops" rpc.nfsd 0
tap_done
