# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# NFS pairings benchmark in one guest (rxe loopback: client and server
# share the guest's CPUs), on the pairing driver (pairbench.sh).
#
# First the nfsd thread sweep: 4 KiB random read and write at depth 16
# through the stock pair (16 KiB inline) and rdmastor's pair with 8, 16,
# 32 and 64 nfsd threads, SWEEP_ROUNDS (3) rounds: each server's best
# count (pairstats best) is what it runs with afterwards.
#
# Then the pairings, each server at its own best thread count:
#   stock        stock client + stock server, 4 KiB inline (the default)
#   stock-inl    the stock pair, inline raised to INLINE by sysctl: the
#                best-configured stock pair, the base of every ratio
#   stock-inl-aa the same again, set up anew: the A/A control
#   rdmastor     rdmastor's client + server, inline INLINE bytes
# rdmastor's client with the stock server is left out: one kernel cannot
# hold both client transports. Jobs: PB_JOBS below (JOBS=... replaces
# them). Results: nfs-threads-loop.csv, nfs-pairs-loop.csv and its
# -verify.csv in $RDMASTOR_OUT (eval/drivers/bench).
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
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
qd4-4k-write:randwrite:4k:4 qd64-4k-write:randwrite:4k:64
lat4k-read:randread:4k:1:number_ios=3000 lat4k-write:randwrite:4k:1:number_ios=3000
lat8k-read:randread:8k:1:number_ios=3000 lat8k-write:randwrite:8k:1:number_ios=3000
lat16k-read:randread:16k:1:number_ios=3000 lat16k-write:randwrite:16k:1:number_ios=3000"}
# shellcheck disable=SC2034	# read by pairbench.sh
PB_DIR=$MNT

loaded_now=	# the pairing's modules and inline, as loaded
threads_now=

# pb_pairing NAME[@THREADS]: that pairing, mounted; the modules are
# reloaded only when the pairing's modules or inline sizes change
pb_pairing() {
	local kind=${1%@*} t=${1#*@} want
	kind=${kind%-aa}
	[ "$t" = "$1" ] && { t=$STOCK_THREADS; [ "$kind" = rdmastor ] || [ "$kind" = stock-rsv ] && t=$RDMASTOR_THREADS; }
	want=$kind
	# an A/A copy is set up anew: nothing is kept from the pairing it copies
	[[ "$1" == *-aa* ]] && want=''
	if [ -n "$want" ] && [ "$loaded_now" = "$want" ]; then
		[ "$threads_now" = "$t" ] && return 0
		rpc.nfsd "$t" && threads_now=$t
		return
	fi
	mountpoint -q $MNT && umount $MNT
	rpc.nfsd 0
	loaded_now='' threads_now=''
	wait_for 60 sh -c 'modprobe -r rdmastor_rpcrdma rdmastor_svcrdma rpcrdma 2>/dev/null; ! grep -qE "^(rdmastor_rpcrdma|rdmastor_svcrdma|rpcrdma) " /proc/modules' || return 1
	case $kind in
	stock) modprobe --ignore-install rpcrdma && sysctl -qw sunrpc.rdma_max_inline_read=4096 \
		sunrpc.rdma_max_inline_write=4096 sunrpc.svc_rdma.max_req_size=4096 ;;
	stock-inl) modprobe --ignore-install rpcrdma && sysctl -qw sunrpc.rdma_max_inline_read=$INLINE \
		sunrpc.rdma_max_inline_write=$INLINE sunrpc.svc_rdma.max_req_size=$INLINE ;;
	stock-rsv) modprobe rdmastor_svcrdma inline_size=$INLINE && modprobe --ignore-install rpcrdma &&
		sysctl -qw sunrpc.rdma_max_inline_read=4096 sunrpc.rdma_max_inline_write=4096 ;;
	rdmastor) modprobe rdmastor_svcrdma inline_size=$INLINE &&
		modprobe rdmastor_rpcrdma inline_size=$INLINE ;;
	*) return 1 ;;
	esac && nfsd_threads "$t" && nfs_mount 4.2 || return 1
	# no job runs in nfsd's grace period (OPENs wait it out)
	wait_for 30 test -e $EXPORT/grace-over || return 1
	loaded_now=$kind threads_now=$t
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=1g tmpfs $EXPORT && chmod 1777 $EXPORT"
check "rdmastor installed" rdmastor_install
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
check "stock modules" modprobe --ignore-install rpcrdma
check "nfsd serving over RDMA" nfsd_start || bail "no server"
check "mount" nfs_mount 4.2
pb_files 4k 8k 16k 128k 1m
umount $MNT

STOCK_THREADS=8 RDMASTOR_THREADS=8
if [ "$SWEEP" != none ]; then
	PB_NAME=nfs-threads-loop PB_PAIRS="" PB_JOBS="rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16"
	for t in $SWEEP; do PB_PAIRS="$PB_PAIRS stock-inl@$t rdmastor@$t"; done
	PB_PAIRS=${PB_PAIRS# }
	ROUNDS=$SWEEP_ROUNDS pb_rounds
	best=$(eval/drivers/pairstats best "$RDMASTOR_OUT/nfs-threads-loop.csv" --by threads)
	STOCK_THREADS=$(awk '$1 == "stock-inl" { print $2 }' <<< "$best")
	RDMASTOR_THREADS=$(awk '$1 == "rdmastor" { print $2 }' <<< "$best")
	expect_match "a best thread count for each server" "$STOCK_THREADS $RDMASTOR_THREADS" '^[0-9]+ [0-9]+$'
fi
echo "stock $STOCK_THREADS rdmastor $RDMASTOR_THREADS" > "$RDMASTOR_OUT/nfs-pairs-loop.threads"
diag "nfsd threads: stock $STOCK_THREADS, rdmastor $RDMASTOR_THREADS"

PB_NAME=nfs-pairs-loop PB_PAIRS=${PAIRS:-"stock stock-inl stock-inl-aa rdmastor"}
PB_JOBS=$JOBS
pb_verify 4k 8k 16k 128k 1m
pb_rounds
mountpoint -q $MNT && umount $MNT
rpc.nfsd 0
tap_done
