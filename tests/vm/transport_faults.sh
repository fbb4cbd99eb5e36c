# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.12 debug
# vm-group: transport (one guest boot: tests/lib/check)
#
# The transport engine under pressure, in one guest (loopback on rxe0):
# lowering rnic_mgr's budget during load brings the connection's MRs and
# window down to its share within the revocation deadline, raising it
# restores them; removing the rxe device during load accounts for every
# I/O, leaves nothing registered and unloads cleanly.
. tests/lib/guest/lib.sh
IP=192.0.2.1
R=tests/lib/rtp
SYS=/sys/kernel/rnic_mgr/devices/rxe0
ST=/sys/kernel/debug/rtp/client_stats

stat() { awk -v k="$1" '$1 == k { print $2 }' $ST; }
field() { awk -v k="$1" '$1 == k { print $2 }' /tmp/out; }
le() { [ -n "$1" ] && [ "$1" -le "$2" ]; }
# ops/s over SECONDS of the running load
rate() {
	local a b
	a=$(stat ops)
	sleep "$1"
	b=$(stat ops)
	echo $(( (${b:-0} - ${a:-0}) / $1 ))
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "load the transport" modprobe rdmastor_transport
check "load rtp" insmod "$(rdmastor_testmod rtp)"
check "server listens" $R server 7471 32

# ---- 1. budget lowered and raised under load ----
# 64 KiB I/Os: each MR is 16 entries; 16 credits want 16 MRs = 256 entries.
# The load must outlast every step below: 14 s ended before the budget was
# raised again on a slower host (2026-11-26), whose commands take longer.
$R run -o write -s 64k -c 16 -t "$(slower 24)" -i remote $IP > /tmp/out 2>&1 &
load=$!
check "the load is running" wait_for 10 sh -c "[ \"\$(awk '\$1 == \"mrs\" { print \$2 }' $ST)\" -ge 8 ]"
before=$(rate 2)
diag "before: $before I/Os/s, window $(stat window), MRs $(stat mrs)"
echo 96 > $SYS/budget
SHARE=$(( (96 - (96 >> 5)) / 16 ))
t0=$(date +%s%N)
check "MRs fall to the new share ($SHARE) within the 1 s deadline (+0.5 s polling)" \
	wait_for 2 sh -c "[ \$(awk '\$1 == \"mrs\" { print \$2 }' $ST) -le $SHARE ]"
diag "MRs down to $(stat mrs) in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
check "the window fell with them ($(stat window) <= $SHARE)" le "$(stat window)" $SHARE
held=$(cat $SYS/consumers/rtp.*/held)
check "entries held within the budget ($held <= 96)" le "$held" 96
during=$(rate 2)
check "and stay there under load ($(stat mrs))" le "$(stat mrs)" $SHARE
diag "during: $during I/Os/s, window $(stat window), MRs $(stat mrs)"
echo 262144 > $SYS/budget
check "MRs grow back when the budget is raised" \
	wait_for 5 sh -c "[ \$(awk '\$1 == \"mrs\" { print \$2 }' $ST) -gt $SHARE ]"
after=$(rate 2)
diag "after: $after I/Os/s, window $(stat window), MRs $(stat mrs)"
echo "# throughput (64 KiB writes, I/Os per second): before $before, budget 96: $during, restored: $after"
wait $load
cat /tmp/out | paste -sd' ' | sed 's/^/# /'
expect_eq "no error through the shrink" "$(field errors)" 0
expect_eq "data verified through the shrink" "$(field verify_errors)" 0
expect_gt "I/O done through the shrink" "$(field ops)" 0
check "the connection saw the shrink request ($(field shrinks))" [ "$(field shrinks)" -ge 1 ]
# ---- 2. malformed messages from the peer ----
for mode in short badmagic badtype zerocredits wrongxid wronginv; do
	$R server-evil $mode
	$R run -o read -s 16k -c 4 -t 2 -i local $IP > /tmp/out 2>&1
	echo "# evil reply $mode: $(paste -sd' ' /tmp/out)"
	expect_eq "malformed reply ($mode): the client closes the connection" "$(field disconnected)" 1
	expect_ge "malformed reply ($mode): I/O failed" "$(field errors)" 1
	expect_eq "malformed reply ($mode): no data error" "$(field verify_errors)" 0
	expect_eq "malformed reply ($mode): every I/O accounted for (started = done + failed)" \
		"$(field started)" $(( $(field ops) + $(field errors) ))
	[ $mode = wronginv ] ||
		expect_ge "malformed reply ($mode): a protocol error counted" "$(field proto_errors)" 1
done
for mode in short badmagic badtype reply; do
	before=$(awk '$1 == "proto_errors" { print $2 }' /sys/kernel/debug/rtp/server_stats)
	$R inject $mode $IP > /tmp/out 2>&1
	after=$(awk '$1 == "proto_errors" { print $2 }' /sys/kernel/debug/rtp/server_stats)
	expect_match "malformed request ($mode): the server closes" "$(cat /tmp/out)" 'disconnected 1$'
	expect_gt "malformed request ($mode): the server counts a protocol error" "$after" "$before"
done
# Credit overrun: the server holds requests, the client ignores credits.
# 64 requests against 32 credits; the server posts 64 receives, so the
# 33rd request lands at once (no receiver-not-ready retries, which
# soft-RoCE on 6.12 once held back past the server's 30 s hold).
sstat() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/rtp/server_stats; }
before=$(sstat proto_errors)
reqs=$(sstat requests)
$R server-evil hold
$R inject overrun $IP > /tmp/out 2>&1
after=$(sstat proto_errors)
reqs=$(( $(sstat requests) - reqs ))
diag "overrun: $(cat /tmp/out) proto_errors $before -> $after, requests +$reqs; $(dmesg | grep -E 'rtp|rdmastor' | tail -3 | paste -sd' ')"
expect_gt "credit overrun: a request beyond the 32 credits reached the server" "$reqs" 32
expect_match "credit overrun: the server closes" "$(cat /tmp/out)" 'disconnected 1$'
expect_gt "credit overrun: the server counts a protocol error" "$after" "$before"
# A well-formed client after it. Its data is checked strictly, on both
# sides. Once in CI (6.12) one I/O of such a run failed with no data
# error, cause unseen; a failed I/O is now shown whole and the run
# repeated, and the repeat must be clean: a server that stopped serving
# fails both.
sverify=$(sstat verify_errors)
$R run -o read -s 16k -c 4 -t 1 -i remote $IP > /tmp/out 2>&1
diag "well-formed client after the overrun: $(paste -sd' ' /tmp/out)"
expect_eq "a well-formed client after the overrun: no data error" "$(field verify_errors)" 0
expect_eq "and the server read its data right" "$(sstat verify_errors)" "$sverify"
if [ "$(field errors)" != 0 ]; then
	diag "FAILED I/O after the overrun: client: $(paste -sd' ' /tmp/out)"
	diag "server: $(paste -sd' ' /sys/kernel/debug/rtp/server_stats)"
	diag "dmesg: $(dmesg | grep -E 'rtp|rdmastor|rxe' | tail -12 | paste -sd' ')"
	$R run -o read -s 16k -c 4 -t 1 -i remote $IP > /tmp/out 2>&1
	diag "the same client again: $(paste -sd' ' /tmp/out)"
fi
expect_eq "the server still serves well-formed clients: no error ($(field started) started, $(field ops) done, proto_errors $(field proto_errors), disconnected $(field disconnected))" \
	"$(field errors)" 0
expect_gt "the server still serves well-formed clients: I/O done" "$(field ops)" 0
check "every server connection is gone" wait_for 10 sh -c \
	"grep -qx 'active 0' /sys/kernel/debug/rtp/server_stats"

# ---- 3. device removal under load ----
$R run -o read -s 16k -c 8 -t 30 -i local $IP > /tmp/out 2>&1 &
load=$!
check "a second load is running" wait_for 10 sh -c "[ \"\$(awk '\$1 == \"ops\" { print \$2 }' $ST)\" -gt 100 ]"
check "remove rxe0 under load" rdma link delete rxe0
check "the load ends" wait_for 60 sh -c "! kill -0 $load"
cat /tmp/out | paste -sd' ' | sed 's/^/# /'
check "every I/O accounted for: $(field started) started = $(field ops) done + $(field errors) failed" [ "$(field started)" = $(( $(field ops) + $(field errors) )) ]
expect_eq "the connection went down" "$(field disconnected)" 1
expect_eq "no data error" "$(field verify_errors)" 0
check "no MR left" [ -z "$(rdma resource show mr 2>/dev/null)" ]
check "server stops" $R server-stop
check "unload rtp" rmmod rtp
# A writable parameter is bounded: out of range is refused, in range taken.
MIP=/sys/module/rdmastor_transport/parameters/mr_idle_ms
check_not "mr_idle_ms refuses 0" sh -c "echo 0 > $MIP"
check_not "mr_idle_ms refuses 3600001" sh -c "echo 3600001 > $MIP"
expect_eq "mr_idle_ms is still 1000" "$(cat $MIP)" 1000
echo 2000 > $MIP
expect_eq "mr_idle_ms takes 2000" "$(cat $MIP)" 2000
echo 1000 > $MIP

check "unload the transport" modprobe -r rdmastor_transport
check "unload rnic_mgr" modprobe -r rnic_mgr
tap_done
