# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# NFS pairings benchmark, client half (two guests), on the pairing
# driver (pairbench.sh). First the nfsd thread sweep: 4 KiB random read
# and write at depth 16 through the stock pair (16 KiB inline) and
# rdmastor's pair at 8, 16, 32 and 64 nfsd threads, SWEEP_ROUNDS (3)
# rounds; each server then runs at its best count. The pairings:
#   stock        stock client + stock server, 4 KiB inline (the default)
#   stock-inl    the stock pair with its inline sizes raised to INLINE by
#                sysctl: the best-configured stock pair, every ratio's base
#   stock-inl-aa the same, both ends set up anew: the A/A control
#   stock-rsv    stock client (4 KiB) + rdmastor's server
#   rsx-stock    rdmastor's client + stock server (4 KiB)
#   rdmastor     rdmastor's client + rdmastor's server, inline INLINE
#   rdmastor-keep  the same, the client's engine keeping idle MRs until
#                rnic_mgr asks (rdmastor_transport mr_keep_idle=Y)
#   rdmastor-sirq  the same pair, the server handling its completions in
#                softirq (rdmastor_svcrdma cq_softirq=Y)
# rdmastor talking to a stock end uses what the stock end advertises.
# The sets of jobs (SETS) are nfs_pairs_loop.sh's: core, lat (QD1),
# more (fsync, CPU at a fixed rate, bursts, metadata) and nconnect.
# Results in $RDMASTOR_OUT: nfs-threads.csv, nfs-pairs.csv (and
# -verify.csv), nfs-lat.csv, nfs-more.csv, nfs-nconnect.csv
# (bench/drivers/bench).
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-client.sh
. bench/guest/pairbench.sh
INLINE=${INLINE:-16384}
MOUNT_OPTS=
# shellcheck disable=SC2034	# read by pairbench.sh
PB_DIR=$MNT PB_PEER=$SERVER:9999
result=fail
trap 'nfs_done "$result"' EXIT

# ctl_mount: the export mounted over TCP, for the requests below. They
# never go over RDMA: a connection request that reaches Debian 6.1's
# stock svcrdma while nfsd stops stays queued for good, its rdma_cm_id
# bound to rpcrdma.ko, and unloading rdma_cm after rpcrdma then calls
# into freed memory. The server switching from stock to rdmastor while
# this client polled it over RDMA Oopsed so at 64d0b6c; the stop flood of
# tests/vm/svcrdma_malformed.sh shows the leak (rdmastor's server
# leaves nothing).
ctl_mount() {
	mkdir -p $MNT &&
		timeout 60 mount -t nfs -o vers=4.2,proto=tcp,soft,timeo=20,retrans=1 \
			$SERVER:/ $MNT 2>/tmp/mnt.err
}
# server_is REQUEST: the server guest serves what was asked, and its
# grace period is over. Each try is a mount of its own: a mount that
# looked for grace-over before the server made it keeps the negative
# entry until the directory's attributes time out (acdirmin, 30 s), so
# waiting on one mount missed it after every server restart.
server_is() {
	ctl_mount || return 1
	grep -qx "$1" $MNT/server-now 2>/dev/null && test -e $MNT/grace-over
	local rc=$?
	umount $MNT
	return $rc
}
# The request is written under another name and renamed: the server
# polls for "switch", and a file it finds between the client's OPEN and
# its WRITE is empty (round 7 of a run at 2cb6943 lost its first
# pairing that way).
use_server() {	# use_server KIND INLINE THREADS FRESH: ask the server guest for it
	wait_for 60 ctl_mount && echo "$*" > $MNT/switch.new &&
		mv $MNT/switch.new $MNT/switch && umount $MNT || return 1
	sleep 1
	wait_for 180 server_is "$*"
}

client_now='' prev='' fresh=0
# pb_pairing NAME[@THREADS]: client and server of that pairing, mounted
pb_pairing() {
	local kind=${1%@*} t=${1#*@} cl sv cinl sinl st
	kind=${kind%-aa}
	case $kind in
	stock) cl=stock sv=stock cinl=4096 sinl=4096 ;;
	stock-inl) cl=stock sv=stock cinl=$INLINE sinl=$INLINE ;;
	stock-rsv) cl=stock sv=rdmastor cinl=4096 sinl=$INLINE ;;
	rsx-stock) cl=rdmastor sv=stock cinl=$INLINE sinl=4096 ;;
	rdmastor | rdmastor-keep) cl=rdmastor sv=rdmastor cinl=$INLINE sinl=$INLINE ;;
	rdmastor-sirq) cl=rdmastor sv=rdmastor-sirq cinl=$INLINE sinl=$INLINE ;;
	*) return 1 ;;
	esac
	st=$STOCK_THREADS
	[[ $sv == rdmastor* ]] && st=$RDMASTOR_THREADS
	[ "$t" = "$1" ] && t=$st
	# an A/A copy, and the first pairing after one, are set up anew
	[[ "$1" == *-aa* || "$prev" == *-aa* ]] && fresh=$((fresh + 1))
	prev=$1
	mountpoint -q $MNT && umount $MNT
	if [ "$client_now" != "$cl $cinl $fresh" ]; then
		client_stack $cl $cinl || return 1
		client_now="$cl $cinl $fresh"
	fi
	if [ $cl = rdmastor ]; then
		echo "$([ "$kind" = rdmastor-keep ] && echo Y || echo N)" \
			> /sys/module/rdmastor_transport/parameters/mr_keep_idle || return 1
	fi
	use_server $sv $sinl "$t" "$fresh" && nfs_mount "${NFS_VERS:-4.2}" "$MOUNT_OPTS" &&
		wait_for 30 test -e $MNT/grace-over
}

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER
check "rdmastor installed" rdmastor_install
check "stock client" client_stack stock 4096
check "mount" nfs_mount 4.2
pb_files 4k 8k 16k 64k 128k 1m
umount $MNT

nfs_sweep ""
PB_PAIRS=${PAIRS:-"stock stock-inl stock-inl-aa stock-rsv rsx-stock rdmastor"}
nfs_sets ""
mountpoint -q $MNT && umount $MNT
[ "$tap_failed" = 0 ] && result=pass
trap - EXIT
check "tell the server" nfs_done "$result"
tap_done
