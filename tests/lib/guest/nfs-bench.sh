# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the NFS benchmarks (tests/bench/nfs*.sh): one fio job and
# what it cost. Source after lib.sh and nfs-client.sh.
#
#   bench_job ROUND STACK NAME RW BS DEPTH   run one job on $MNT (or the
#                                            device $BENCH_DEV), append a
#                                            row to $CSV, print a diag line
# $BENCH_MRS names the command that counts MRs (default mrs_now: all).
# Columns: round,stack,job,iops,bw_kib,lat_mean_us,lat_p99_us,mrs_idle,
# mrs_load,cpu_us_io (the guest's busy CPU per I/O). $RUNTIME seconds a
# job, after a 2 s ramp; each job has its file bench.BS (bench_files).

# shellcheck disable=SC2034	# the CSV header, read by the bodies that source this
BENCH_COLUMNS="round,stack,job,iops,bw_kib,lat_mean_us,lat_p99_us,mrs_idle,mrs_load,cpu_us_io"

mrs_now() { rdma resource show mr 2>/dev/null | grep -c rxe0; }
# CPU time the guest spent busy, in USER_HZ ticks (user, nice, system,
# irq, softirq, steal of all CPUs): per I/O, what it costs its host
# whoever the bottleneck is
busy_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

bench_files() {	# bench_files BS...: a 64 MiB file of random data per size
	local bs
	for bs in "$@"; do
		check "bench file bench.$bs" dd if=/dev/urandom of=$MNT/bench.$bs bs=1M count=64 status=none
	done
}

# one fio job; prints "iops bw_kib lat_mean_us lat_p99_us". On the
# block device $BENCH_DEV if set (its first 256 MiB), else on bench.BS.
bench_fio() {	# bench_fio NAME RW BS DEPTH
	local where="--directory=$MNT --filename=bench.$3 --size=64m"
	[ -n "${BENCH_DEV:-}" ] && where="--filename=$BENCH_DEV --size=256m"
	# shellcheck disable=SC2086
	fio --name="$1" $where --rw="$2" \
		--bs="$3" --iodepth="$4" --direct=1 --ioengine=libaio --time_based \
		--runtime="$RUNTIME" --ramp_time=2 --output-format=json > /tmp/fio.json 2>/tmp/fio.err ||
		{ cat /tmp/fio.err; return 1; }
	tests/lib/guest/fio-summary /tmp/fio.json
}

bench_job() {	# bench_job ROUND STACK NAME RW BS DEPTH
	local round=$1 stack=$2 name=$3 r idle b1 cpu
	sleep 3
	idle=$(${BENCH_MRS:-mrs_now})
	( sleep $((RUNTIME / 2 + 2)); ${BENCH_MRS:-mrs_now} > /tmp/mrs_load ) &
	# fio's ramp is over: mark the phase for the host's per-guest CPU
	# accounting (tests/lib/vm/qemu-cpu)
	( sleep 2; busy_ticks > /tmp/busy0
	  echo "$round $stack $name start" > "$RDMASTOR_OUT/phase" ) &
	r=$(bench_fio "$name" "$4" "$5" "$6") || { echo "# $name failed: $r"; wait; return 1; }
	b1=$(busy_ticks)
	echo "$round $stack $name end" > "$RDMASTOR_OUT/phase"
	wait
	# ticks of 10 ms over the I/Os of the measured RUNTIME seconds
	cpu=$(awk -v b0="$(cat /tmp/busy0)" -v b1="$b1" -v iops="${r%% *}" -v t="$RUNTIME" \
		'BEGIN { printf "%.0f", (b1 - b0) * 10000 / (iops * t) }')
	echo "$round,$stack,$name,${r// /,},$idle,$(cat /tmp/mrs_load),$cpu" >> "$CSV"
	diag "round $round $stack $name: iops bw_kib lat_us p99_us = $r; MRs idle $idle, loaded $(cat /tmp/mrs_load); guest CPU $cpu us/IO"
}

# client_stack KIND INLINE: the NFS client of that kind (rdmastor|stock),
# its inline sizes INLINE bytes, loaded alone
client_stack() {
	# an unmounted transport lets go of its module a moment later
	wait_for 60 sh -c 'modprobe -r rdmastor_rpcrdma 2>/dev/null; modprobe -r rpcrdma 2>/dev/null; ! grep -qE "^(rdmastor_rpcrdma|rpcrdma) " /proc/modules' || return 1
	if [ "$1" = rdmastor ]; then
		modprobe rdmastor_rpcrdma inline_size="$2"
	else
		modprobe rpcrdma &&
			sysctl -qw sunrpc.rdma_max_inline_read="$2" sunrpc.rdma_max_inline_write="$2"
	fi
}
