# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Server half of the NFS pairings benchmark: nfsd over the stock svcrdma
# or rdmastor_svcrdma, as the client asks. The client leaves "switch"
# in the export, "KIND INLINE THREADS FRESH" (FRESH: a word that changes
# whenever the server must be set up anew, as for an A/A copy), and
# unmounts. A request that changes only THREADS resizes nfsd's pool;
# any other restarts nfsd over that server (server_stack). "server-now"
# then holds the request.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 1
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=1g tmpfs $EXPORT && chmod 1777 $EXPORT"
check "rdmastor installed" rdmastor_install
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
check "stock server modules" modprobe --ignore-install rpcrdma
check "nfsd serving over RDMA on 20049" nfsd_start
# the client's CPU windows, noted on this side too (pairbench.sh PB_PEER)
# shellcheck source=bench/guest/pbcost.sh
. bench/guest/pbcost.sh
# shellcheck disable=SC2046	# the cost mode's marker, or no argument
bench/guest/cpu-marks 9999 "$RDMASTOR_OUT/server-cpu.csv" $(pb_cost_insnmark) &
now="stock 4096 8 boot"
echo "$now" > $EXPORT/server-now
n=0
while [ ! -e $EXPORT/done ]; do
	# a whole request only (the client renames it into place; an empty
	# one is a client that has not written it yet)
	if [ -s $EXPORT/switch ]; then
		want=$(cat $EXPORT/switch)
		rm -f $EXPORT/switch $EXPORT/server-now
		read -r kind inl threads fresh <<< "$want"
		read -r nkind ninl _ nfresh <<< "$now"
		if [ "$kind $inl $fresh" = "$nkind $ninl $nfresh" ]; then
			check "nfsd with $threads threads" rpc.nfsd "$threads" && now=$want &&
				echo "$want" > $EXPORT/server-now
		else
			sleep 2		# the client unmounts
			check "serve with the $kind server, inline $inl, $threads threads" \
				server_stack "$kind" "$inl" "$threads" && now=$want &&
				echo "$want" > $EXPORT/server-now
		fi
		n=$((n + 1))
	fi
	nap 0.2
done
diag "$n switches"
check "the client reports: $(cat $EXPORT/done)" grep -q pass $EXPORT/done
check "nfsd stops" rpc.nfsd 0
echo quit > /dev/udp/127.0.0.1/9999
tap_done
