# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# NFS pairings benchmark in one guest (rxe loopback: client and server
# share the guest's CPUs, so this is where CPU per I/O shows).
# The pairings of nfs_pairs.client.sh that one kernel can hold: stock
# rpcrdma carries both the stock client and the stock server, and
# rdmastor's client takes the client transport the stock module needs,
# so "rdmastor client + stock server" is left out here:
#   stock      stock client + stock server (the base)
#   stock-rsv  stock client + rdmastor's server (ours registered first:
#              the stock module's server side then stays out)
#   rdmastor   rdmastor's client + server, inline INLINE bytes
#   stock-inl  stock pair, inline sizes raised to INLINE by sysctl
# Interleaved for ROUNDS (3) rounds. Results in
# $RDMASTOR_OUT/nfs-pairs-loop.csv (eval/drivers/bench-plot nfs-pairs).
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/nfs-bench.sh
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-10}
INLINE=${INLINE:-16384}
CSV=$RDMASTOR_OUT/nfs-pairs-loop.csv
# the jobs of nfs_pairs.client.sh
JOBS="rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16
rand8k-read:randread:8k:16 rand8k-write:randwrite:8k:16
rand16k-read:randread:16k:16 rand16k-write:randwrite:16k:16
seq128k-read:read:128k:4 seq128k-write:write:128k:4
seq1m-read:read:1m:4 seq1m-write:write:1m:4"
PAIRS="stock stock-rsv stock-inl rdmastor"

pair_stack() {	# pair_stack NAME: unload everything, load that pairing
	mountpoint -q $MNT && umount $MNT
	rpc.nfsd 0
	wait_for 60 sh -c 'modprobe -r rdmastor_rpcrdma rdmastor_svcrdma rpcrdma 2>/dev/null; ! grep -qE "^(rdmastor_rpcrdma|rdmastor_svcrdma|rpcrdma) " /proc/modules' || return 1
	case $1 in
	stock) modprobe rpcrdma && sysctl -qw sunrpc.rdma_max_inline_read=4096 \
		sunrpc.rdma_max_inline_write=4096 sunrpc.svc_rdma.max_req_size=4096 ;;
	stock-inl) modprobe rpcrdma && sysctl -qw sunrpc.rdma_max_inline_read=$INLINE \
		sunrpc.rdma_max_inline_write=$INLINE sunrpc.svc_rdma.max_req_size=$INLINE ;;
	stock-rsv) modprobe rdmastor_svcrdma inline_size=$INLINE && modprobe rpcrdma &&
		sysctl -qw sunrpc.rdma_max_inline_read=4096 sunrpc.rdma_max_inline_write=4096 ;;
	rdmastor) modprobe rdmastor_svcrdma inline_size=$INLINE &&
		modprobe rdmastor_rpcrdma inline_size=$INLINE ;;
	esac && nfsd_threads && nfs_mount 4.2
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=1g tmpfs $EXPORT && chmod 1777 $EXPORT"
check "rdmastor installed" rdmastor_install
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
check "stock modules" modprobe rpcrdma
check "nfsd serving over RDMA" nfsd_start || bail "no server"
check "mount" nfs_mount 4.2
bench_files 4k 8k 16k 128k 1m
echo "$BENCH_COLUMNS" > "$CSV"
for round in $(seq "$ROUNDS"); do
	for stack in $PAIRS; do
		check "round $round: $stack" pair_stack $stack || continue
		echo "$JOBS" | tr ' ' '\n' | while IFS=: read -r name rw bs depth; do
			[ -n "$name" ] && bench_job "$round" "$stack" "$name" "$rw" "$bs" "$depth"
		done
	done
done
expect_gt "results in nfs-pairs-loop.csv (lines, with the header)" "$(wc -l < "$CSV")" 1
umount $MNT
rpc.nfsd 0
tap_done
