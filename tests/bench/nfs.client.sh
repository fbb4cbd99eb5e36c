# SPDX-License-Identifier: GPL-2.0
#
# NFS benchmark, client half: the same fio jobs through rdmastor's
# RPC-over-RDMA client and through the stock rpcrdma client, against the
# same server guest and files, in one boot, interleaved (rdmastor, stock,
# rdmastor, stock...) for ROUNDS (5) rounds. The two register the same SUNRPC
# transport, so each round loads one and unloads the other. Results go
# to $RDMASTOR_OUT/nfs.csv; scripts/bench-plot nfs makes the table and plot.
#
# Jobs (O_DIRECT, libaio, NFSv4.2): 4 KiB random read and write at depth
# 16; 128 KiB and 1 MiB sequential read and write at depth 4.
. scripts/guest/lib.sh
. scripts/guest/nfs-client.sh
ROUNDS=${ROUNDS:-5}
RUNTIME=${RUNTIME:-10}
CSV=$RDMASTOR_OUT/nfs.csv
result=fail
trap 'nfs_done "$result"' EXIT
JOBS="rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16
seq128k-read:read:128k:4 seq128k-write:write:128k:4
seq1m-read:read:1m:4 seq1m-write:write:1m:4"

mrs_now() { rdma resource show mr 2>/dev/null | grep -c rxe0; }
# CPU time the client guest spent busy, in USER_HZ ticks (user, nice,
# system, irq, softirq, steal of all CPUs): per I/O, what a client costs
# its host whoever the bottleneck is
busy_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

use_stack() {	# use_stack rdmastor|stock
	# an unmounted transport lets go of its module a moment later
	wait_for 60 sh -c 'modprobe -r rdmastor_rpcrdma 2>/dev/null; modprobe -r rpcrdma 2>/dev/null; ! grep -qE "^(rdmastor_rpcrdma|rpcrdma) " /proc/modules' || return 1
	if [ "$1" = rdmastor ]; then modprobe rdmastor_rpcrdma; else modprobe rpcrdma; fi
}

# one fio job; prints "iops bw_kib lat_mean_us lat_p99_us"
run_job() {	# run_job NAME RW BS DEPTH
	fio --name="$1" --directory=$MNT --filename=bench.$3 --size=64m --rw="$2" \
		--bs="$3" --iodepth="$4" --direct=1 --ioengine=libaio --time_based \
		--runtime="$RUNTIME" --ramp_time=2 --output-format=json > /tmp/fio.json 2>/tmp/fio.err ||
		{ cat /tmp/fio.err; return 1; }
	scripts/guest/fio-summary /tmp/fio.json
}

check "soft-RoCE on the virtio NIC" scripts/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER
check "rdmastor installed" rdmastor_install
check "rdmastor client" use_stack rdmastor
check "mount" nfs_mount 4.2
for bs in 4k 128k 1m; do
	check "bench file bench.$bs" dd if=/dev/urandom of=$MNT/bench.$bs bs=1M count=64 status=none
done
umount $MNT
echo "round,stack,job,iops,bw_kib,lat_mean_us,lat_p99_us,mrs_idle,mrs_load,cpu_us_io" > "$CSV"
for round in $(seq "$ROUNDS"); do
	for stack in rdmastor stock; do
		check "round $round: $stack client loaded" use_stack $stack || continue
		check "round $round: $stack mounts" nfs_mount 4.2 || continue
		echo "$JOBS" | tr ' ' '\n' | while IFS=: read -r name rw bs depth; do
			[ -n "$name" ] || continue
			sleep 3
			idle=$(mrs_now)
			( sleep $((RUNTIME / 2 + 2)); mrs_now > /tmp/mrs_load ) &
			# fio's ramp is over: mark the phase for the host's
			# per-guest CPU accounting (scripts/vm/qemu-cpu)
			( sleep 2; busy_ticks > /tmp/busy0
			  echo "$round $stack $name start" > "$RDMASTOR_OUT/phase" ) &
			r=$(run_job "$name" "$rw" "$bs" "$depth") || { echo "# $name failed: $r"; continue; }
			b1=$(busy_ticks)
			echo "$round $stack $name end" > "$RDMASTOR_OUT/phase"
			wait
			# ticks of 10 ms over the I/Os of the measured RUNTIME seconds
			cpu=$(awk -v b0="$(cat /tmp/busy0)" -v b1="$b1" -v iops="${r%% *}" -v t="$RUNTIME" \
				'BEGIN { printf "%.0f", (b1 - b0) * 10000 / (iops * t) }')
			echo "$round,$stack,$name,${r// /,},$idle,$(cat /tmp/mrs_load),$cpu" >> "$CSV"
			diag "round $round $stack $name: iops bw_kib lat_us p99_us = $r; MRs idle $idle, loaded $(cat /tmp/mrs_load); client CPU $cpu us/IO"
		done
		umount $MNT
	done
done
ok "$([ "$(wc -l < "$CSV")" -gt 1 ]; echo $?)" "results in nfs.csv ($(($(wc -l < "$CSV") - 1)) rows)"
modprobe -r rdmastor_rpcrdma rpcrdma 2>/dev/null
[ "$tap_failed" = 0 ] && result=pass
trap - EXIT
# the stock client's module also carries svcrdma: load ours to tell the server
use_stack rdmastor
check "tell the server" nfs_done "$result"
tap_done
