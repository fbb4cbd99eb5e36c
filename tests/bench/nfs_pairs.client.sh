# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# NFS pairings benchmark, client half: the same fio jobs
# through four pairings of client and server in one boot of two guests,
# interleaved for ROUNDS (3) rounds:
#   stock      stock client + stock server (the base)
#   stock-rsv  stock client + rdmastor's server
#   rsx-stock  rdmastor's client + stock server
#   rdmastor   rdmastor's client + rdmastor's server, inline INLINE bytes
#   stock-inl  stock pair with its inline sizes raised to INLINE by sysctl
# The stock ends keep their 4 KiB default except in stock-inl; rdmastor
# talking to a stock end uses what the stock end advertises. Results in
# $RDMASTOR_OUT/nfs-pairs.csv (eval/drivers/bench-plot nfs-pairs).
#
# Jobs (O_DIRECT, libaio, NFSv4.2): the NFS client benchmark's (4 KiB
# random, 128 KiB and 1 MiB sequential, read and write) plus 8 and
# 16 KiB random; random at depth 16, sequential at depth 4. About 60
# minutes for 3 rounds.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/nfs-bench.sh
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-10}
INLINE=${INLINE:-16384}
CSV=$RDMASTOR_OUT/nfs-pairs.csv
result=fail
trap 'nfs_done "$result"' EXIT
JOBS="rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16
rand8k-read:randread:8k:16 rand8k-write:randwrite:8k:16
rand16k-read:randread:16k:16 rand16k-write:randwrite:16k:16
seq128k-read:read:128k:4 seq128k-write:write:128k:4
seq1m-read:read:1m:4 seq1m-write:write:1m:4"
# name:client:server:inline (inline: both ends' where they are ours or raised)
PAIRS="stock:stock:stock:4096 rsx-stock:rdmastor:stock:4096
stock-inl:stock:stock:$INLINE stock-rsv:stock:rdmastor:$INLINE
rdmastor:rdmastor:rdmastor:$INLINE"

server_now=
server_is() {	# server_is KIND INLINE: the server guest serves with that
	nfs_mount 4.2 soft,timeo=20,retrans=1 >/dev/null || return 1
	grep -qx "$1 $2" $MNT/server-now 2>/dev/null
	local rc=$?
	umount $MNT
	return $rc
}
use_server() {	# use_server KIND INLINE: ask the server guest for it
	[ "$server_now" = "$1 $2" ] && return 0
	nfs_mount 4.2 soft,timeo=20,retrans=1 && echo "$1 $2" > $MNT/switch && umount $MNT || return 1
	sleep 3
	wait_for 180 server_is "$1" "$2" && server_now="$1 $2"
}

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER
check "rdmastor installed" rdmastor_install
check "stock client" client_stack stock 4096
check "mount" nfs_mount 4.2
bench_files 4k 8k 16k 128k 1m
umount $MNT
echo "$BENCH_COLUMNS" > "$CSV"
for round in $(seq "$ROUNDS"); do
	for p in $PAIRS; do
		IFS=: read -r stack cl sv inl <<< "$p"
		# a stock end keeps its default unless the pairing raises it
		cinl=$inl sinl=$inl
		[ "$stack" = rsx-stock ] && { cinl=$INLINE; sinl=4096; }
		[ "$stack" = stock-rsv ] && cinl=4096
		check "round $round: $stack: client $cl" client_stack $cl $cinl || continue
		check "round $round: $stack: server $sv" use_server $sv $sinl || continue
		check "round $round: $stack mounts" nfs_mount 4.2 || continue
		echo "$JOBS" | tr ' ' '\n' | while IFS=: read -r name rw bs depth; do
			[ -n "$name" ] && bench_job "$round" "$stack" "$name" "$rw" "$bs" "$depth"
		done
		umount $MNT
	done
done
expect_gt "results in nfs-pairs.csv (lines, with the header)" "$(wc -l < "$CSV")" 1
[ "$tap_failed" = 0 ] && result=pass
trap - EXIT
check "tell the server" nfs_done "$result"
tap_done
