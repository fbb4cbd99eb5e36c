# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# vm-group: user (one guest boot: tests/lib/check)
# vm-run: --mem 4096
# (the group's options are its first body's: user_charging pins 2 GiB)
#
# The admission experiment, shortened to a functional test: unmodified
# perftest pairs (ib_write_bw, server and client in this guest over
# rxe0's loopback) that together need more entries than the budget.
# First come first served refuses some registrations outright; the
# arbiter lets every pair complete, newcomers waiting (REGISTER-WAIT)
# for room, each wait bounded by user_wait_ms, and the entries held over
# time are shared fairly between the pairs. The full experiment with
# its table is `make bench B=user-level`.
. tests/lib/guest/lib.sh
DEV=rxe0
ADM=/tmp/adm
. tests/lib/guest/perftest-pairs.sh

SYS=/sys/kernel/rnic_mgr/devices/$DEV
P=/sys/module/rnic_mgr/parameters
PAIRS=${PAIRS:-4}
# each pair runs this long, so that the pairs started together overlap
SECS=${SECS:-4}

check "rdmastor modules installed" rdmastor_install
check "soft-RoCE on a dummy device" tests/lib/guest/rxe-setup single
check "user charging on for this test" user_charging_on
check "rnic_mgr loads" modprobe rnic_mgr
mkdir -p $ADM
# refused registrations and waits, and why, go into the log
echo 1 > /sys/kernel/tracing/events/rnic_mgr/rnic_user_reg/enable
echo 1 > /sys/kernel/tracing/events/rnic_mgr/rnic_wait_done/enable

# Calibrate: what one process of a pair holds (its peak), budget huge.
adm_pair cal 18500 $SECS &
calp=$!
peak=0
while kill -0 $calp 2>/dev/null; do
	for d in $SYS/consumers/user:ib_write_bw:*; do
		v=0
		read -r v < "$d/peak" 2>/dev/null
		[ "$v" -gt "$peak" ] && peak=$v
	done
	sleep 0.2
done
wait $calp
check "a lone pair completes" adm_completed cal
check "each of its processes was charged (peak $peak entries)" [ "$peak" -gt 0 ]
budget=$(( peak * 5 + peak / 2 ))
diag "budget $budget entries: $((PAIRS * 2)) processes of $peak need $((PAIRS * 2 * peak))"
echo 60000 > $P/user_wait_ms

# run_policy POLICY: PAIRS pairs at once; sets ok_pairs, refused_regs,
# jain (over the entry-seconds each pair obtained), wait_ms
run_policy() {
	local pol=$1 i pids=() spid shares
	echo "$pol" > $SYS/policy
	echo $budget > $SYS/budget
	rm -f $ADM/$pol.*
	touch $ADM/sampling
	adm_sample_held $ADM/$pol.held &
	spid=$!
	for i in $(seq $PAIRS); do
		adm_pair "$pol.$i" $((18510 + i)) $SECS &
		pids+=($!)
	done
	wait "${pids[@]}"
	rm -f $ADM/sampling
	wait $spid
	ok_pairs=0; refused_regs=0; shares=
	for i in $(seq $PAIRS); do
		adm_completed "$pol.$i" && ok_pairs=$((ok_pairs + 1))
		refused_regs=$((refused_regs + $(adm_refused "$pol.$i")))
		shares="$shares $(adm_entry_seconds "$pol.$i" $ADM/$pol.held)"
	done
	jain=$(echo $shares | tr ' ' '\n' | adm_jain)
	wait_ms=$(adm_longest_wait)
	diag "$pol: $ok_pairs of $PAIRS pairs completed, $refused_regs registrations refused"
	diag "$pol: entry-seconds per pair:$shares; Jain $jain; longest wait $wait_ms ms"
	for i in $(seq $PAIRS); do
		adm_completed "$pol.$i" && continue
		diag "$pol.$i did not complete: $(tr '\n' ' ' < $ADM/$pol.$i.st)"
		diag "  server: $(grep -v '^ *$\|---\|\*' $ADM/$pol.$i.s | tail -n3 | tr '\n' ' ')"
		diag "  client: $(grep -v '^ *$\|---\|\*' $ADM/$pol.$i.c | tail -n3 | tr '\n' ' ')"
	done
	grep "rnic_user_reg:.*status=-" /sys/kernel/tracing/trace | head -n 8 | while read -r l; do
		diag "$l"
	done
	echo > /sys/kernel/tracing/trace
}

run_policy fcfs
check "fcfs: some registrations are refused" [ "$refused_regs" -ge 1 ]
check "fcfs: so some pairs never run" [ "$ok_pairs" -lt "$PAIRS" ]
check "fcfs: entries shared unfairly (Jain $jain < 0.9)" awk -v j="$jain" 'BEGIN { exit !(j < 0.9) }'
check "fcfs: nothing left charged" wait_for 10 sh -c "! ls -d $SYS/consumers/user:* >/dev/null 2>&1"

run_policy arbiter
check "arbiter: every pair completes" [ "$ok_pairs" = "$PAIRS" ]
check "arbiter: no registration is refused" [ "$refused_regs" = 0 ]
# Not 0.99: perftest processes hold all of their demand or nothing, and
# a server admitted before its client holds its entries idle until the
# client is admitted too; the arbiter cannot tell the two are a pair.
# Runs measure 0.96-0.97; first come first served about 0.5.
check "arbiter: entries shared fairly over time (Jain $jain >= 0.9)" \
	awk -v j="$jain" 'BEGIN { exit !(j >= 0.9) }'
check "arbiter: every wait bounded by user_wait_ms ($wait_ms ms)" [ "$wait_ms" -le 60000 ]
check "arbiter: nothing left charged" wait_for 10 sh -c "! ls -d $SYS/consumers/user:* >/dev/null 2>&1"

echo 262144 > $SYS/budget

# The evaluation's trace capture (tests/lib/guest/capture-trace, eval/),
# on one short pair: a well-formed, non-empty trace of both sides that
# the translation cache simulator reads, and the pair's registrations.
# 200 iterations of 64 KiB: soft-RoCE copies a message a packet (1 KiB)
# at a time, on both sides, so about 128 records each. 2 s of the pair
# gave 230,000 records, and converting them took most of 37 s.
echo arbiter > $SYS/policy
check "capture: the probe on rxe_mr_copy is set up" tests/lib/guest/capture-trace start
adm_pair trace 18590 n200
diag "$(tests/lib/guest/capture-trace stop $ADM/pair.trace $ADM/pair.regs)"
check "capture: the pair completed while traced" adm_completed trace
check "capture: the trace has sends and receives" \
	sh -c "grep -q ' s [0-9]*\$' $ADM/pair.trace && grep -q ' r [0-9]*\$' $ADM/pair.trace"
check "capture: the simulator reads it" sh -c "build/eval/tlbsim --sizes $ADM/pair.trace > $ADM/pair.sim"
diag "$(grep -m1 accesses $ADM/pair.sim)"
check "capture: at least 100 page accesses recorded" \
	sh -c "[ \$(grep -vc '^#' $ADM/pair.trace) -ge 100 ]"
# each ib_write_bw process registers its buffer: two user registrations
# of the pair's message size at least, which regsim reads
check "capture: both processes' registrations recorded" \
	sh -c "[ \$(grep -c ' u\$' $ADM/pair.regs) -ge 2 ]"
diag "$(grep -v '^#' $ADM/pair.regs | head -n 4 | tr '\n' '|')"
check "capture: regsim reads the registrations" sh -c "build/eval/regsim $ADM/pair.regs > $ADM/pair.rsim"
check "rnic_mgr unloads" modprobe -r rnic_mgr
tap_done
