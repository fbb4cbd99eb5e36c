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
# rdmastor talking to a stock end uses what the stock end advertises.
# The sets of jobs (SETS) are nfs_pairs_loop.sh's: core, lat (QD1),
# more (fsync, CPU at a fixed rate, bursts, metadata) and nconnect.
# Results in $RDMASTOR_OUT: nfs-threads.csv, nfs-pairs.csv (and
# -verify.csv), nfs-lat.csv, nfs-more.csv, nfs-nconnect.csv
# (eval/drivers/bench).
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/pairbench.sh
INLINE=${INLINE:-16384}
SWEEP_ROUNDS=${SWEEP_ROUNDS:-3}
SWEEP=${SWEEP:-8 16 32 64}
JOBS=${JOBS:-"rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16
rand8k-read:randread:8k:16 rand8k-write:randwrite:8k:16
rand16k-read:randread:16k:16 rand16k-write:randwrite:16k:16
seq128k-read:read:128k:4 seq128k-write:write:128k:4
seq1m-read:read:1m:4 seq1m-write:write:1m:4
mix4k-70r:randrw:4k:16:rwmixread=70
qd4-4k-read:randread:4k:4 qd64-4k-read:randread:4k:64
qd4-4k-write:randwrite:4k:4 qd64-4k-write:randwrite:4k:64"}
LAT_JOBS=${LAT_JOBS:-"lat4k-read:randread:4k:1:number_ios=3000 lat4k-write:randwrite:4k:1:number_ios=3000
lat8k-read:randread:8k:1:number_ios=3000 lat8k-write:randwrite:8k:1:number_ios=3000
lat16k-read:randread:16k:1:number_ios=3000 lat16k-write:randwrite:16k:1:number_ios=3000"}
MORE_JOBS=${MORE_JOBS:-"fsync64k-write:write:64k:1:direct=0+fsync=8+ioengine=psync
cpu4k-read:randread:4k:16:rate_iops=300 cpu4k-write:randwrite:4k:16:rate_iops=300
burst64k-read:randread:64k:16:thinktime=1500000+thinktime_blocks=256+number_ios=1280
burst64k-write:randwrite:64k:16:thinktime=1500000+thinktime_blocks=256+number_ios=1280
meta-create:filecreate:4k:10000 meta-stat:filestat:4k:10000 meta-readdir:readdir:0:0
meta-delete:filedelete:4k:10000"}
SETS=${SETS:-core lat more nconnect}
MOUNT_OPTS=
# shellcheck disable=SC2034	# read by pairbench.sh
PB_DIR=$MNT PB_PEER=$SERVER:9999
result=fail
trap 'nfs_done "$result"' EXIT

server_is() {	# server_is REQUEST: the server guest serves what was asked
	nfs_mount 4.2 soft,timeo=20,retrans=1 >/dev/null || return 1
	grep -qx "$1" $MNT/server-now 2>/dev/null
	local rc=$?
	umount $MNT
	return $rc
}
use_server() {	# use_server KIND INLINE THREADS FRESH: ask the server guest for it
	nfs_mount 4.2 soft,timeo=20,retrans=1 && echo "$*" > $MNT/switch && umount $MNT || return 1
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
	rdmastor) cl=rdmastor sv=rdmastor cinl=$INLINE sinl=$INLINE ;;
	*) return 1 ;;
	esac
	st=$STOCK_THREADS
	[ $sv = rdmastor ] && st=$RDMASTOR_THREADS
	[ "$t" = "$1" ] && t=$st
	# an A/A copy, and the first pairing after one, are set up anew
	[[ "$1" == *-aa* || "$prev" == *-aa* ]] && fresh=$((fresh + 1))
	prev=$1
	mountpoint -q $MNT && umount $MNT
	if [ "$client_now" != "$cl $cinl $fresh" ]; then
		client_stack $cl $cinl || return 1
		client_now="$cl $cinl $fresh"
	fi
	use_server $sv $sinl "$t" "$fresh" && nfs_mount 4.2 "$MOUNT_OPTS" &&
		wait_for 30 test -e $MNT/grace-over
}

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER
check "rdmastor installed" rdmastor_install
check "stock client" client_stack stock 4096
check "mount" nfs_mount 4.2
pb_files 4k 8k 16k 64k 128k 1m
umount $MNT

STOCK_THREADS=8 RDMASTOR_THREADS=8
if [ "$SWEEP" != none ]; then
	PB_NAME=nfs-threads PB_PAIRS="" PB_JOBS="rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16"
	for t in $SWEEP; do PB_PAIRS="$PB_PAIRS stock-inl@$t rdmastor@$t"; done
	PB_PAIRS=${PB_PAIRS# }
	ROUNDS=$SWEEP_ROUNDS pb_rounds
	best=$(eval/drivers/pairstats best "$RDMASTOR_OUT/nfs-threads.csv" --by threads)
	STOCK_THREADS=$(awk '$1 == "stock-inl" { print $2 }' <<< "$best")
	RDMASTOR_THREADS=$(awk '$1 == "rdmastor" { print $2 }' <<< "$best")
	expect_match "a best thread count for each server" "$STOCK_THREADS $RDMASTOR_THREADS" '^[0-9]+ [0-9]+$'
fi
echo "stock $STOCK_THREADS rdmastor $RDMASTOR_THREADS" > "$RDMASTOR_OUT/nfs-pairs.threads"
diag "nfsd threads: stock $STOCK_THREADS, rdmastor $RDMASTOR_THREADS"

PB_PAIRS=${PAIRS:-"stock stock-inl stock-inl-aa stock-rsv rsx-stock rdmastor"}
for set in $SETS; do
	case $set in
	core) PB_NAME=nfs-pairs PB_JOBS=$JOBS
		pb_verify 4k 8k 16k 128k 1m ;;
	lat) PB_NAME=nfs-lat PB_JOBS=$LAT_JOBS ;;
	more) PB_NAME=nfs-more PB_JOBS=$MORE_JOBS ;;
	nconnect) PB_NAME=nfs-nconnect MOUNT_OPTS=nconnect=4
		PB_JOBS="nc4k-read:randread:4k:64 nc4k-write:randwrite:4k:64" ;;
	*) continue ;;
	esac
	pb_rounds
	MOUNT_OPTS=
done
mountpoint -q $MNT && umount $MNT
[ "$tap_failed" = 0 ] && result=pass
trap - EXIT
check "tell the server" nfs_done "$result"
tap_done
