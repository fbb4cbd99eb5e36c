# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest body of the transport benchmark (one guest, rxe0 loopback):
#  1. rtp throughput for credits 1..32 across sizes 4 KiB..1 MiB
#     (the Geyer et al. paper's single- versus multi-buffer experiment), RDMA WRITE;
#  2. rtp against ib_write_bw / ib_read_bw at 64 KiB and 1 MiB, three
#     rounds interleaved (ours, stock, ours, stock, ...);
#  3. the cost per I/O of registration and of local invalidation.
# Writes sweep.csv, versus.csv and cost.csv to the results share.
. tests/lib/guest/lib.sh
IP=192.0.2.1
R=tests/lib/rtp
SECS=${SECS:-2}
OUT=$RDMASTOR_OUT
field() { awk -v k="$1" '$1 == k { print $2 }' /tmp/out; }

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "load the transport" modprobe rdmastor_transport
check "load rtp" insmod "$(rdmastor_testmod rtp)"
check "server listens" $R server 7471 64

echo "credits,size,MBps,iops" > $OUT/sweep.csv
for size in 4096 16384 65536 262144 1048576; do
	for credits in 1 2 4 8 16 32; do
		$R run -o write -s $size -c $credits -t $SECS -i remote $IP > /tmp/out 2>&1
		expect_eq "sweep: $size bytes, $credits credits: $(field MBps) MB/s, errors" "$(field errors)" 0
		echo "$credits,$size,$(field MBps),$(( $(field ops) * 1000000 / $(field usec) ))" >> $OUT/sweep.csv
	done
done

# ib_*_bw: server and client on rxe0, one run; prints MB/s average.
# Iterations, not -D: under emulation a 1 MiB -D run ends inside
# perftest's warm-up and reports nothing. 64 MiB a run either way.
stock() {	# stock write|read SIZE
	local tool=ib_$1_bw n=$(( 64 * 1048576 / $2 ))
	$tool -d rxe0 -s "$2" -n $n -F > /tmp/srv 2>&1 &
	sleep 1
	$tool -d rxe0 -s "$2" -n $n -F $IP > /tmp/cli 2>&1
	wait
	cat /tmp/cli >> $OUT/perftest.log
	awk -v s="$2" '$1 == s { print int($4) }' /tmp/cli
}
echo "op,size,round,stack,MBps" > $OUT/versus.csv
for round in 1 2 3; do
	for op in write read; do
		for size in 65536 1048576; do
			$R run -o $op -s $size -c 32 -t $SECS -i remote $IP > /tmp/out 2>&1
			echo "$op,$size,$round,rdmastor,$(field MBps)" >> $OUT/versus.csv
			bw=$(stock $op $size)
			expect_gt "round $round, $op $size: rdmastor $(field MBps), ib_${op}_bw MB/s" "${bw:-0}" 0
			echo "$op,$size,$round,ib_${op}_bw,${bw:-0}" >> $OUT/versus.csv
		done
	done
done

echo "size,map_ns,local_inv_ns" > $OUT/cost.csv
for size in 4096 65536 1048576; do
	$R run -o write -s $size -c 1 -t $SECS -i local $IP > /tmp/out 2>&1
	echo "$size,$(field map_ns_per_io),$(field local_inv_ns_per_io)" >> $OUT/cost.csv
	expect_eq "cost at $size: map $(field map_ns_per_io) ns, local invalidate $(field local_inv_ns_per_io) ns; errors" \
		"$(field errors)" 0

done
check "server stops" $R server-stop
check "unload rtp" rmmod rtp
check "unload the transport" modprobe -r rdmastor_transport
tap_done
