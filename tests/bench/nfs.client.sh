# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# NFS benchmark, client half: the same fio jobs through rdmastor's
# RPC-over-RDMA client and through the stock rpcrdma client, against the
# same server guest and files, in one boot, interleaved (rdmastor, stock,
# rdmastor, stock...) for ROUNDS (5) rounds. The two register the same SUNRPC
# transport, so each round loads one and unloads the other. Results go
# to $RDMASTOR_OUT/nfs.csv; eval/drivers/bench-plot nfs makes the table and plot.
#
# Jobs (O_DIRECT, libaio, NFSv4.2): 4 KiB random read and write at depth
# 16; 128 KiB and 1 MiB sequential read and write at depth 4.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/nfs-bench.sh
ROUNDS=${ROUNDS:-5}
RUNTIME=${RUNTIME:-10}
CSV=$RDMASTOR_OUT/nfs.csv
result=fail
trap 'nfs_done "$result"' EXIT
JOBS="rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16
seq128k-read:read:128k:4 seq128k-write:write:128k:4
seq1m-read:read:1m:4 seq1m-write:write:1m:4"

use_stack() {	# use_stack rdmastor|stock: that client, 4 KiB inline
	client_stack "$1" 4096
}

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER
check "rdmastor installed" rdmastor_install
check "rdmastor client" use_stack rdmastor
check "mount" nfs_mount 4.2
bench_files 4k 128k 1m
umount $MNT
echo "$BENCH_COLUMNS" > "$CSV"
for round in $(seq "$ROUNDS"); do
	for stack in rdmastor stock; do
		check "round $round: $stack client loaded" use_stack $stack || continue
		check "round $round: $stack mounts" nfs_mount 4.2 || continue
		echo "$JOBS" | tr ' ' '\n' | while IFS=: read -r name rw bs depth; do
			[ -n "$name" ] && bench_job "$round" "$stack" "$name" "$rw" "$bs" "$depth"
		done
		umount $MNT
	done
done
expect_gt "results in nfs.csv (lines, with the header)" "$(wc -l < "$CSV")" 1
modprobe -r rdmastor_rpcrdma rpcrdma 2>/dev/null
[ "$tap_failed" = 0 ] && result=pass
trap - EXIT
# the stock client's module also carries svcrdma: load ours to tell the server
use_stack rdmastor
check "tell the server" nfs_done "$result"
tap_done
