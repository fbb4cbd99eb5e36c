# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-group: rnic_mgr (one guest boot: tests/lib/check)
#
# rnic_mgr's arbiter in the kernel, driven by the test consumer module
# (tests/kmod/rnic_test_consumer.c): work conservation, fairness, weights,
# reclaim latency, waiters, accounting under a million random operations,
# budget changes, device removal and unload.
. tests/lib/guest/lib.sh

DEV=rxe0
SYS=/sys/kernel/rnic_mgr/devices/$DEV
CTL=/sys/kernel/debug/rnic_test/ctl
STATS=/sys/kernel/debug/rnic_test/stats
BUDGET=65536

tc() { echo "$*" > $CTL; }
# start NAME PATTERN WEIGHT MIN CHUNK THREADS ROUNDS AMOUNT HOLD_MS GAP_MS DELAY_MS
start() { local n=$1; shift; tc start "$n" $DEV "$@"; }
cons_dir() { ls -d $SYS/consumers/"$1".* 2>/dev/null | head -n1; }
field() { cat "$(cons_dir "$1")/$2"; }
stat_of() { test_consumer_stat "$@"; }
# Average held of each named consumer over SAMPLES samples 0.5 s apart.
sample_held() {
	local samples=$1 i n
	shift
	declare -gA avg=()
	for n in "$@"; do avg[$n]=0; done
	for i in $(seq "$samples"); do
		for n in "$@"; do avg[$n]=$(( ${avg[$n]} + $(field "$n" held) )); done
		sleep 0.5
	done
	for n in "$@"; do avg[$n]=$(( ${avg[$n]} / samples )); done
}
# Jain's index of x_i / w_i: prints it; args: "x:w" pairs.
jain() {
	echo "$@" | tr ' ' '\n' | awk -F: '{ v = $1 / $2; s += v; s2 += v * v; n++ }
		END { printf "%.4f\n", (s2 ? s * s / (n * s2) : 0) }'
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
held_settles() {	# held_settles NAME MIN: poll until held >= MIN
	wait_for 30 bash -c "[ \$(cat $(cons_dir "$1")/held) -ge $2 ]"
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "load rnic_mgr" modprobe rnic_mgr
check "load the test consumer" insmod "$(rdmastor_testmod rnic_test_consumer)"
check "set the entry budget" sh -c "echo $BUDGET > $SYS/budget"
check "set the key budget" sh -c "echo 65536 > $SYS/key_budget"
RESERVE=$(cat $SYS/reserve)
diag "budget $BUDGET entries, reserve $RESERVE"

# ---- 1. work conservation: a lone consumer ----
start lone saturate 1 64 64 2 0 0 0 0 0
held_settles lone $(( BUDGET * 95 / 100 ))
sample_held 4 lone
diag "lone consumer holds ${avg[lone]} of $BUDGET"
expect_ge "a lone consumer gets >= 95% of the budget of $BUDGET" "${avg[lone]}" $(( BUDGET * 95 / 100 ))
tc stop lone

# ---- 2. four equal consumers converge to equal shares ----
for i in 1 2 3 4; do start eq$i saturate 1 64 64 2 0 0 0 0 0; done
sleep 4
sample_held 8 eq1 eq2 eq3 eq4
J=$(jain "${avg[eq1]}:1" "${avg[eq2]}:1" "${avg[eq3]}:1" "${avg[eq4]}:1")
diag "equal weights: held ${avg[eq1]} ${avg[eq2]} ${avg[eq3]} ${avg[eq4]}, Jain $J"
check "four equal consumers: Jain index $J >= 0.99" ge "$J" 0.99
TOTAL=$(( ${avg[eq1]} + ${avg[eq2]} + ${avg[eq3]} + ${avg[eq4]} ))
expect_ge "four equal consumers use 90% of the budget of $BUDGET" "$TOTAL" $(( BUDGET * 90 / 100 ))
tc stopall

# ---- 3. weights 1:2:4 ----
start w1 saturate 1 64 64 2 0 0 0 0 0
start w2 saturate 2 64 64 2 0 0 0 0 0
start w4 saturate 4 64 64 2 0 0 0 0 0
sleep 4
sample_held 8 w1 w2 w4
TOTAL=$(( ${avg[w1]} + ${avg[w2]} + ${avg[w4]} ))
PROP=0
for w in 1 2 4; do
	ideal=$(( TOTAL * w / 7 ))
	diag "weight $w: held ${avg[w$w]}, proportional $ideal"
	ge "$(awk -v a="${avg[w$w]}" -v b="$ideal" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d <= 0.05 * b) }')" 1 || PROP=1
done
ok "$PROP" "weights 1:2:4 give shares proportional within 5%"
# rnic-top shows the same consumers, once and refreshing.
TOP=$(scripts/admin/rnic-top $DEV)
echo "$TOP" | sed 's/^/# /'
expect_match "rnic-top prints the device summary" "$TOP" "^$DEV  entries"
for n in w1 w2 w4; do
	expect_match "rnic-top prints a line for consumer $n" "$TOP" "^$n\.[0-9]+ +[124] "
done
expect_eq "rnic-top -w refreshes (3 screens)" "$(scripts/admin/rnic-top -w 0.2 -n 3 | grep -c "^rnic-top: every")" 3
expect_match "rnic-top names a device it does not know" "$(scripts/admin/rnic-top nosuchdev 2>&1)" "no device nosuchdev"
tc stopall

# ---- 3b. the administrator's weights by name glob (consumer_weights) ----
# three consumers that register with weight 1; a rule gives a4 4 and
# b* 2, at once for those registered, and to one that registers later
WP=/sys/module/rnic_mgr/parameters/consumer_weights
start a4 saturate 1 64 64 2 0 0 0 0 0
start b2 saturate 1 64 64 2 0 0 0 0 0
check "consumer_weights: a rule list is taken at run time" sh -c "echo 'a*=4,b*=2' > $WP"
start b2late saturate 1 64 64 2 0 0 0 0 0
cw() { cat $SYS/consumers/$1.*/weight 2>/dev/null; }
expect_eq "consumer_weights: the registered consumers are reweighed, a later one takes its rule" \
	"$(cw a4) $(cw b2) $(cw b2late)" "4 2 2"
sleep 4
sample_held 8 a4 b2 b2late
TOTAL=$(( ${avg[a4]} + ${avg[b2]} + ${avg[b2late]} ))
PROP=0
for n in a4:4 b2:2 b2late:2; do
	ideal=$(( TOTAL * ${n#*:} / 8 ))
	diag "consumer_weights: ${n%:*} weight ${n#*:}: held ${avg[${n%:*}]}, proportional $ideal"
	ge "$(awk -v a="${avg[${n%:*}]}" -v b="$ideal" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d <= 0.05 * b) }')" 1 || PROP=1
done
ok "$PROP" "consumer_weights 4:2:2 give shares proportional within 5%"
check_not "consumer_weights: a weight out of range is refused" sh -c "echo 'a*=0' > $WP"
expect_eq "and the rules stay" "$(cat $WP)" "a*=4,b*=2"
check "consumer_weights: cleared" sh -c "echo > $WP"
expect_eq "each consumer goes back to the weight it registered with" "$(cw a4) $(cw b2) $(cw b2late)" "1 1 1"
tc stopall

# ---- 4. a greedy consumer gives a newcomer its fair share in time ----
DEADLINE=$(cat /sys/module/rnic_mgr/parameters/revoke_deadline_ms)
start greedy saturate 1 64 64 2 0 0 0 0 20
held_settles greedy $(( BUDGET * 90 / 100 ))
FAIR=$(( (BUDGET - RESERVE) / 2 - 64 ))
start newcomer probe 1 64 64 1 20 $FAIR 100 300 0
check "the newcomer's 20 probes finish" wait_for 60 bash -c "[ \"\$(awk '\$1 == \"newcomer\" { print \$7 }' $STATS)\" = 1 ]"
P50=$(stat_of newcomer p50_us); P99=$(stat_of newcomer p99_us); MAX=$(stat_of newcomer max_us)
diag "reclaim latency for $FAIR entries from a greedy holder (release delay 20 ms): p50 ${P50} us, p99 ${P99} us, max ${MAX} us over $(stat_of newcomer samples) probes"
expect_eq "every probe was granted (errors)" "$(stat_of newcomer errors)" 0
expect_eq "every probe was granted (samples)" "$(stat_of newcomer samples)" 20
expect_le "the newcomer got its fair share within the ${DEADLINE} ms deadline (max us)" "$MAX" $(( DEADLINE * 1000 ))
check "the greedy consumer was never late"  [ "$(field greedy late_revocations)" = 0 ]
# A probe that found room (the greedy one had not yet taken back what
# the last probe freed when the probe's 100 ms of quiet came) needs no
# shrink: seen once, 19 requests for 20 probes. Each probe that waited
# needed one.
waited=$(field newcomer waits)
expect_gt "probes waited for the greedy consumer's entries ($waited of 20)" "${waited:-0}" 10
check "the greedy consumer was asked to shrink for each ($(field greedy revocations) times)" \
	[ "$(field greedy revocations)" -ge "${waited:-1}" ]
tc stopall

# ---- 4b. relief: a consumer that shrank grows back when the newcomer leaves ----
# The keeper takes what it is told it may (like a ULP sizing its MRs)
# and never waits; the reaper re-derives shares only under contention,
# so without I7 nothing would tell it the newcomer's entries came back.
AMOUNT=$(( BUDGET * 90 / 100 / 64 * 64 ))	# whole chunks
start keeper hold 1 64 64 1 0 $AMOUNT 0 0 0
check "the keeper takes $AMOUNT" held_settles keeper $AMOUNT
start newcomer saturate 1 64 64 2 0 0 0 0 0
check "the keeper shrinks for the newcomer" wait_for 10 bash -c \
	"[ \$(cat $(cons_dir keeper)/held) -le $(( BUDGET * 60 / 100 )) ]"
diag "with the newcomer: keeper holds $(field keeper held), newcomer $(field newcomer held), keeper told to grow $(stat_of keeper grows) times"
GROWS=$(stat_of keeper grows)
tc stop newcomer
check "a consumer that shrank grows back when the newcomer leaves (held $AMOUNT within 5 s)" \
	wait_for 5 bash -c "[ \$(cat $(cons_dir keeper)/held) -ge $AMOUNT ]"
diag "after the newcomer left: keeper holds $(field keeper held), told to grow $(stat_of keeper grows) times"
expect_gt "it was told (->grow) when the newcomer left" "$(stat_of keeper grows)" "$GROWS"
expect_eq "its target is gone" "$(field keeper target)" -1
tc stopall

# ---- 5. a million random operations, 8 threads, under contention ----
check "small budget for contention" sh -c "echo 1024 > $SYS/budget"
for i in 1 2 3 4; do start rnd$i random $i 64 64 2 125000 0 0 0 0; done
check "8 threads finish 1,000,000 operations" wait_for 600 bash -c \
	"[ \$(awk 'NR > 1 && \$1 ~ /^rnd/ && \$7 == 1' $STATS | wc -l) = 4 ]"
cat $STATS | sed 's/^/# /'
OPS=$(awk 'NR > 1 && $1 ~ /^rnd/ { s += $6 } END { print s }' $STATS)
ERR=$(awk 'NR > 1 && $1 ~ /^rnd/ { s += $4 } END { print s }' $STATS)
WAITS=0
for i in 1 2 3 4; do WAITS=$(( WAITS + $(field rnd$i waits) )); done
diag "random: $OPS operations, $WAITS waits, $ERR errors"
check "a million operations done ($OPS)"  [ "$OPS" -ge 1000000 ]
check "every waiter was granted (no errors)"  [ "$ERR" = 0 ]
check "waiting happened ($WAITS waits)"  [ "$WAITS" -gt 0 ]
HELD=0
for i in 1 2 3 4; do HELD=$(( HELD + $(field rnd$i held) + $(field rnd$i key_held) )); done
check "threads at rest hold nothing"  [ "$HELD" = 0 ]
tc stopall
expect_eq "no accounting drift: free == budget at rest" "$(cat $SYS/free)" "$(cat $SYS/budget)"
expect_eq "no accounting drift: nothing granted at rest" "$(cat $SYS/granted)" 0
check "no key drift at rest"  [ "$(cat $SYS/key_free)" = "$(cat $SYS/key_budget)" ]
# ---- 6. budget changes under load ----
check "budget back up" sh -c "echo $BUDGET > $SYS/budget"
start load saturate 1 64 64 2 0 0 0 0 0
held_settles load $(( BUDGET * 90 / 100 ))
check "lower the budget under load" sh -c "echo 16384 > $SYS/budget"
check "the consumer shrinks to the new budget" wait_for 5 bash -c "[ \$(cat $(cons_dir load)/held) -le 16384 ]"
diag "held after lowering: $(field load held)"
check "raise it again" sh -c "echo $BUDGET > $SYS/budget"
check "the consumer grows back" held_settles load $(( BUDGET * 90 / 100 ))
start pinned saturate 1 4000 64 1 0 0 0 0 0
check_not "a budget below the guaranteed minimums is refused" sh -c "echo 3000 > $SYS/budget"
expect_match "with a clear message" "$(dmesg)" 'refused: below the consumers.* guaranteed minimums'
check_not "rnic_mgr cannot be unloaded while consumers exist" modprobe -r rnic_mgr
cat $SYS/table | sed 's/^/# /'

# ---- 7. device removal with consumers ----
check "remove rxe0 under load" rdma link delete rxe0
check "rxe0 leaves rnic_mgr" wait_for 10 test ! -e $SYS
expect_nomatch "every consumer was told of the removal (column 12 of every consumer is 1)" \
	"$(awk 'NR > 1 && $12 != 1' $STATS)" .

check "consumers stop cleanly after removal" tc stopall
check "unload the test consumer" rmmod rnic_test_consumer
check "unload rnic_mgr" modprobe -r rnic_mgr
tap_done
