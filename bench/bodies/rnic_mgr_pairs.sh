# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest body of the rnic_mgr benchmark: the cost of an acquire/release
# pair in the kernel, through the test consumer's "pairs" pattern.
#   1 thread: uncontended, within the grant (the fast path)
#   2 threads on one consumer: both cores contend for its lock
# Three rounds, interleaved; writes pairs.csv (threads,round,ns_per_pair)
# into the results share for bench/drivers/bench to summarize.
. tests/lib/guest/lib.sh
set -e
DEV=rxe0
CTL=/sys/kernel/debug/rnic_test/ctl
STATS=/sys/kernel/debug/rnic_test/stats
ROUNDS=${ROUNDS:-2000000}
CSV=$RDMASTOR_OUT/pairs.csv

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "load rnic_mgr" modprobe rnic_mgr
check "load the test consumer" insmod "$(rdmastor_testmod rnic_test_consumer)"

col() {	# col NAME COLUMN
	awk -v n="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$1 == n { print $k[c] }' $STATS
}
echo "threads,round,ns_per_pair" > "$CSV"
for round in 1 2 3; do
	for threads in 1 2; do
		name=pairs$threads
		# start NAME DEV PATTERN WEIGHT MIN CHUNK THREADS ROUNDS AMOUNT HOLD GAP DELAY
		echo "start $name $DEV pairs 1 $((16 * threads)) 16 $threads $ROUNDS 16 0 0 0" > $CTL
		wait_for 300 sh -c "[ \"\$(awk -v n=$name '\$1 == n { print \$7 }' $STATS)\" = 1 ]"
		ns=$(col $name pair_ns)
		errors=$(col $name errors)
		echo "stop $name" > $CTL
		expect_eq "round $round, $threads thread(s): errors" "$errors" 0
		expect_gt "round $round, $threads thread(s): ns per pair" "$ns" 0

		echo "$threads,$round,$ns" >> "$CSV"
	done
done
check "unload the test consumer" rmmod rnic_test_consumer
check "unload rnic_mgr" modprobe -r rnic_mgr
tap_done
