# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# NFS inline-size benchmark (one guest, rxe loopback, CPU-bound): the
# rdmastor client mounting the rdmastor server, both ends loaded with the
# same inline_size, for 4, 8, 16 and 32 KiB, interleaved (4k, 8k, 16k,
# 32k, 4k, ...) for ROUNDS (3) rounds in one boot. An NFS READ or WRITE
# whose call and reply fit the inline size goes in the Send itself: no
# registration, no RDMA READ or WRITE; one that does not takes a chunk
# (an MR on the client, an RDMA operation on the server). What that
# costs against copying the data into the Send is what this measures.
# Results: $RDMASTOR_OUT/nfs-inline.csv (eval/drivers/bench-plot nfs-inline).
#
# Jobs (O_DIRECT, libaio, NFSv4.2, depth 16): 4, 8 and 16 KiB random
# read and write.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/nfs-bench.sh
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-8}
SIZES=${SIZES:-"4k:4096 8k:8192 16k:16384 32k:32768"}
CSV=$RDMASTOR_OUT/nfs-inline.csv
JOBS="rand4k-read:randread:4k rand4k-write:randwrite:4k
rand8k-read:randread:8k rand8k-write:randwrite:8k
rand16k-read:randread:16k rand16k-write:randwrite:16k"

tot() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' \
	/sys/kernel/rdmastor_svcrdma/totals; }

use_inline() {	# use_inline BYTES: both ends reloaded with that inline size
	mountpoint -q $MNT && umount $MNT
	rpc.nfsd 0
	wait_for 60 sh -c 'modprobe -r rdmastor_rpcrdma rdmastor_svcrdma 2>/dev/null; ! grep -qE "^rdmastor_(rpc|svc)rdma " /proc/modules' || return 1
	modprobe rdmastor_svcrdma inline_size="$1" && modprobe rdmastor_rpcrdma inline_size="$1" &&
		nfsd_threads && nfs_mount 4.2
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=256m tmpfs $EXPORT && chmod 1777 $EXPORT"
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_nfs_client
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
check "nfsd serving over rdmastor" nfsd_start || bail "no server"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
check "mount" nfs_mount 4.2
bench_files 4k 8k 16k
echo "$BENCH_COLUMNS,regs_per_io,chunks_per_io" > "$CSV"
for round in $(seq "$ROUNDS"); do
	for sz in $SIZES; do
		stack=${sz%%:*}
		check "round $round: both ends at inline ${sz#*:}" use_inline "${sz#*:}" || continue
		echo "$JOBS" | tr ' ' '\n' | while IFS=: read -r name rw bs; do
			[ -n "$name" ] || continue
			sleep 2
			idle=$(mrs_now)
			regs0=$(xstat regs); ch0=$(( $(tot data_chunks) + $(tot write_chunks) ))
			( sleep $((RUNTIME / 2 + 2)); mrs_now > /tmp/mrs_load ) &
			( sleep 2; busy_ticks > /tmp/busy0 ) &
			r=$(bench_fio "$name" "$rw" "$bs" 16) || { echo "# $name failed: $r"; continue; }
			b1=$(busy_ticks)
			wait
			ios=$(awk -v i="${r%% *}" -v t="$RUNTIME" 'BEGIN { printf "%.0f", i * (t + 2) }')
			cpu=$(awk -v b0="$(cat /tmp/busy0)" -v b1="$b1" -v iops="${r%% *}" -v t="$RUNTIME" \
				'BEGIN { printf "%.0f", (b1 - b0) * 10000 / (iops * t) }')
			regs=$(awk -v a="$regs0" -v b="$(xstat regs)" -v n="$ios" 'BEGIN { printf "%.2f", (b - a) / n }')
			ch=$(awk -v a="$ch0" -v b="$(( $(tot data_chunks) + $(tot write_chunks) ))" -v n="$ios" \
				'BEGIN { printf "%.2f", (b - a) / n }')
			echo "$round,$stack,$name,${r// /,},$idle,$(cat /tmp/mrs_load),$cpu,$regs,$ch" >> "$CSV"
			diag "round $round inline $stack $name: iops bw_kib lat_us p99_us = $r; MRs idle $idle, loaded $(cat /tmp/mrs_load); guest CPU $cpu us/IO; registrations $regs/IO, chunks $ch/IO"
		done
	done
done
expect_gt "results in nfs-inline.csv (lines, with the header)" "$(wc -l < "$CSV")" 1
umount $MNT
rpc.nfsd 0
tap_done
