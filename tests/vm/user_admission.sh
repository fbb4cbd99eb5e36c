# SPDX-License-Identifier: GPL-2.0
#
# The admission experiment, shortened to a functional test: unmodified
# perftest pairs (ib_write_bw, server and client in this guest over
# rxe0's loopback) that together need more entries than the budget.
# First come first served refuses some registrations outright; the
# arbiter lets every pair complete, newcomers waiting (REGISTER-WAIT)
# for room, each wait bounded by user_wait_ms. The full experiment with
# its table is `make bench B=user_admission`.
. scripts/guest/lib.sh

DEV=rxe0
SYS=/sys/kernel/rnic_mgr/devices/$DEV
P=/sys/module/rnic_mgr/parameters
PAIRS=${PAIRS:-4}
SIZE=65536
# each pair runs this long, so that the pairs started together overlap
SECS=${SECS:-4}
OUT=/tmp/adm
# what perftest says when ibv_reg_mr fails
MRFAIL="allocate MR\|create MR\|create mr"

check "rdmastor modules installed" rdmastor_install
check "soft-RoCE on a dummy device" scripts/guest/rxe-setup single
check "rnic_mgr loads" modprobe rnic_mgr
mkdir -p $OUT
# refused registrations, and why, go into the log
echo 1 > /sys/kernel/tracing/events/rnic_mgr/rnic_user_reg/enable

# one ib_write_bw pair on PORT; its two outputs in $OUT/NAME.{s,c}
# The client retries while the server is not listening yet, but not
# after a refused registration: that is the outcome being measured.
pair() {	# pair NAME PORT
	local name=$1 port=$2 i
	ib_write_bw -d $DEV -p "$port" -s $SIZE -D $SECS > $OUT/$name.s 2>&1 &
	srv=$!
	for i in $(seq 60); do
		# a server refused its registration: nobody will answer
		kill -0 $srv 2>/dev/null || break
		timeout 300 ib_write_bw -d $DEV -p "$port" -s $SIZE -D $SECS 192.0.2.1 \
			> $OUT/$name.c 2>&1 && break
		grep -q "$MRFAIL" $OUT/$name.c && break
		sleep 0.5
	done
	wait
}
refused() { grep -l "$MRFAIL" $OUT/"$1".? 2>/dev/null | wc -l; }
completed() { grep -q "^ *$SIZE " $OUT/"$1".c; }

# Calibrate: what one process of a pair holds (its peak), budget huge.
pair cal 18500 &
calp=$!
peak=0
while kill -0 $calp 2>/dev/null; do
	for d in $SYS/consumers/user:ib_write_bw:*; do
		[ -e "$d/peak" ] || continue
		v=$(cat "$d/peak" 2>/dev/null || echo 0)
		[ "$v" -gt "$peak" ] && peak=$v
	done
	sleep 0.1
done
wait $calp
check "a lone pair completes" completed cal
check "each of its processes was charged (peak $peak entries)" [ "$peak" -gt 0 ]
budget=$(( peak * 5 + peak / 2 ))
diag "budget $budget entries: $((PAIRS * 2)) processes of $peak need $((PAIRS * 2 * peak))"
echo 60000 > $P/user_wait_ms

run_policy() {	# run_policy POLICY: PAIRS pairs at once; sets ok_pairs, refused_regs
	local pol=$1 i pids=()
	echo "$pol" > $SYS/policy
	echo $budget > $SYS/budget
	rm -f $OUT/$pol.*
	for i in $(seq $PAIRS); do
		pair "$pol.$i" $((18510 + i)) &
		pids+=($!)
	done
	wait "${pids[@]}"
	ok_pairs=0; refused_regs=0
	for i in $(seq $PAIRS); do
		completed "$pol.$i" && ok_pairs=$((ok_pairs + 1))
		refused_regs=$((refused_regs + $(refused "$pol.$i")))
	done
	diag "$pol: $ok_pairs of $PAIRS pairs completed, $refused_regs registrations refused"
	for f in $(grep -l "$MRFAIL" $OUT/$pol.* 2>/dev/null); do
		diag "$f: $(grep -m1 "$MRFAIL" "$f")"
	done
	grep "rnic_user_reg:.*status=-" /sys/kernel/tracing/trace | head -n 8 | while read -r l; do
		diag "$l"
	done
	echo > /sys/kernel/tracing/trace
}

run_policy fcfs
check "fcfs: some registrations are refused" [ "$refused_regs" -ge 1 ]
check "fcfs: so some pairs never run" [ "$ok_pairs" -lt "$PAIRS" ]
check "fcfs: nothing left charged" wait_for 10 sh -c "! ls -d $SYS/consumers/user:* >/dev/null 2>&1"

run_policy arbiter
check "arbiter: every pair completes" [ "$ok_pairs" = "$PAIRS" ]
check "arbiter: no registration is refused" [ "$refused_regs" = 0 ]
check "arbiter: nothing left charged" wait_for 10 sh -c "! ls -d $SYS/consumers/user:* >/dev/null 2>&1"

echo 262144 > $SYS/budget
check "rnic_mgr unloads" modprobe -r rnic_mgr
tap_done
