# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.12
# vm-group: transport (one guest boot: tests/lib/check)
#
# The transport engine in one guest (client and server over rxe0's
# loopback), through the rtp test protocol: data verified end to end for
# RDMA WRITE and READ with remote and local invalidation, a stale key is
# dead, an idle connection holds no MR (or, with mr_keep_idle, keeps its
# MRs until another consumer waits for them), and everything unloads
# cleanly.
. tests/lib/guest/lib.sh
IP=192.0.2.1
R=tests/lib/rtp

field() { awk -v k="$1" '$1 == k { print $2 }' /tmp/out; }
# rtp_run DESC ARGS...: a run whose every I/O must succeed and verify
rtp_run() {
	local desc=$1
	shift
	if ! $R run "$@" $IP > /tmp/out 2>&1; then
		cat /tmp/out
		ok 1 "$desc: run failed"
		return
	fi
	sed 's/^/# /' /tmp/out | paste -sd' '
	expect_gt "$desc: I/O done" "$(field ops)" 0
	expect_eq "$desc: no error" "$(field errors)" 0
	expect_eq "$desc: data verified" "$(field verify_errors)" 0
	expect_eq "$desc: no protocol error" "$(field proto_errors)" 0
}
mrs() { rdma resource show mr 2>/dev/null | grep -c . || true; }

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "load the transport" modprobe rdmastor_transport
check "load rtp" insmod "$(rdmastor_testmod rtp)"
trace_pairs_start
check "server listens" $R server 7471 32
check "no MR exists before any I/O ($(mrs))" [ "$(mrs)" = 0 ]
rtp_run "RDMA WRITE 64 KiB, remote invalidation" -o write -s 64k -c 8 -t 2 -i remote -w 2500
check "every I/O started was accounted for ($(field started))" [ "$(field started)" = $(( $(field ops) + $(field errors) )) ]
expect_gt "the load held MRs" "$(field mrs_peak)" 0
expect_eq "an idle connection gives back its MRs" "$(field mrs_idle)" 0
expect_eq "every I/O was invalidated by the server's Send-with-Invalidate (remote_inv = ops)" \
	"$(field remote_inv)" "$(field ops)"
expect_eq "and none locally" "$(field local_inv)" 0
check "one registration per I/O ($(field regs))" [ "$(field regs)" = "$(field ops)" ]
# An idle connection, open, after load: no MR in rdma resource.
$R run -o write -s 64k -c 8 -t 1 -i local -w 8000 $IP > /tmp/out 2>&1 &
idle_run=$!
ST=/sys/kernel/debug/rtp/client_stats
check "the connection goes idle and frees its MRs" wait_for 7 sh -c \
	"grep -qx 'running 1' $ST && grep -qx 'outstanding 0' $ST && grep -qx 'mrs 0' $ST && ! grep -qx 'mrs_peak 0' $ST"
expect_eq "rdma resource shows no MR while the idle connection is open" "$(mrs)" 0
expect_match "the idle connection is still open" "$(cat $ST)" '^running 1$'
wait $idle_run

# mr_keep_idle: an idle connection keeps its MRs until rnic_mgr asks. A
# consumer that must wait for entries gets them from the idle MRs
# (->reclaim: rst_reclaim) while the connection stays open and idle.
# rtp's weight keeps what it holds within its share, so no shrink is
# involved: the budget leaves about 8 entries free, the newcomer asks 32.
KEEP=/sys/module/rdmastor_transport/parameters/mr_keep_idle
WEIGHTS=/sys/module/rnic_mgr/parameters/consumer_weights
DEVS=/sys/kernel/rnic_mgr/devices/rxe0
sfield() { awk -v k="$1" '$1 == k { print $2 }' $ST; }
tstat() { test_consumer_stat "$@"; }
check "mr_keep_idle is off by default" [ "$(cat $KEEP)" = N ]
echo 1 > $KEEP
echo 'rtp=1000' > $WEIGHTS
$R run -o write -s 64k -c 8 -t 1 -i local -w 12000 $IP > /tmp/out 2>&1 &
keep_run=$!
check "mr_keep_idle: the connection goes idle holding MRs" wait_for 7 sh -c \
	"grep -qx 'running 1' $ST && grep -qx 'outstanding 0' $ST && ! grep -qx 'mrs 0' $ST"
held=$(sfield mrs)
sleep 3
expect_eq "it keeps them through three idle periods of mr_idle_ms" "$(sfield mrs)" "$held"
budget0=$(cat $DEVS/budget)
for _ in 1 2 3; do echo $(($(cat $DEVS/budget) - $(cat $DEVS/free) + 8)) > $DEVS/budget; done
diag "budget $(cat $DEVS/budget), free $(cat $DEVS/free), granted $(cat $DEVS/granted); rtp holds $held MRs"
check "load the test consumer" insmod "$(rdmastor_testmod rnic_test_consumer)"
# probe: weight 1, min 1, one round of 32 entries, held 100 ms
echo "start newcomer rxe0 probe 1 1 32 1 1 32 100 0 0" > /sys/kernel/debug/rnic_test/ctl
newcomer_done() { [ "$(tstat newcomer "done")" = 1 ]; }
check "a consumer waiting for 32 entries is served" wait_for 10 newcomer_done
diag "waited $(tstat newcomer p50_us) us; rtp: $(paste -sd' ' $ST)"
expect_eq "it was granted (errors)" "$(tstat newcomer errors)" 0
expect_gt "the idle connection was asked for idle MRs (reclaims)" "$(sfield reclaims)" 0
expect_eq "and never to shrink" "$(sfield shrinks)" 0
expect_lt "it gave back idle MRs" "$(sfield mrs)" "$held"
expect_match "and is still open" "$(cat $ST)" '^running 1$'
echo stopall > /sys/kernel/debug/rnic_test/ctl
echo "$budget0" > $DEVS/budget
echo > $WEIGHTS
wait $keep_run
check "unload the test consumer" rmmod rnic_test_consumer
echo 0 > $KEEP
rtp_run "RDMA WRITE 64 KiB, local invalidation" -o write -s 64k -c 8 -t 2 -i local
expect_eq "every I/O was invalidated locally (local_inv = ops)" "$(field local_inv)" "$(field ops)"
expect_eq "and none remotely" "$(field remote_inv)" 0
rtp_run "RDMA READ 64 KiB, remote invalidation" -o read -s 64k -c 8 -t 2 -i remote
rtp_run "RDMA READ 4 KiB, local invalidation" -o read -s 4k -c 4 -t 2 -i local
rtp_run "RDMA WRITE 1 MiB" -o write -s 1m -c 4 -t 2 -i remote
rtp_run "RDMA READ 1 MiB" -o read -s 1m -c 4 -t 2 -i local
rtp_run "one credit: stop-and-wait" -o write -s 16k -c 1 -t 1 -i remote

check "MRs never above the window ($(field mrs_peak) <= 4)" [ "$(field mrs_peak)" -le 4 ]
# A trace-cmd session, in its own instance (the births-and-deaths
# recording goes on underneath): one I/O at a time, local invalidation.
# Every step of an I/O shows, and each completion carries its id.
trace-cmd record -B example -e rdmastor_transport -e rnic_mgr -o /tmp/example.dat \
	$R run -o read -s 16k -c 1 -t 1 -i local $IP > /tmp/record.out 2>&1
trace-cmd report -i /tmp/example.dat > /tmp/example.txt 2>/dev/null
cp /tmp/example.txt "$RDMASTOR_OUT/trace-example.txt"
# every_seen EVENT...: each EVENT occurs in the report
every_seen() {
	local e
	for e in "$@"; do
		grep -q " $e: " /tmp/example.txt || { diag "no $e in the trace"; return 1; }
	done
}
check "trace-cmd shows a connection's life and an I/O's steps" every_seen \
	rst_conn_create rst_conn_up rnic_consumer_register rst_mr_alloc rst_mr_get \
	rst_mr_map rst_wc_send rst_wc_receive rst_wc_li rst_mr_local_inv rst_mr_put \
	rst_conn_down rst_mr_free rst_conn_destroy rnic_consumer_unregister
expect_gt "completions traced" "$(grep -c ' rst_wc_' /tmp/example.txt)" 0
expect_nomatch "all completions name their CQ and completion id; none failed (flushes at teardown)" \
	"$(grep ' rst_wc_' /tmp/example.txt | grep -vE 'cq\.id=[0-9]+ cid=[0-9]+ status=(SUCCESS|WR_FLUSH_ERR)')" .

for inv in remote local; do
	$R stale -s 16k -i $inv $IP > /tmp/out 2>&1
	cat /tmp/out | sed 's/^/# /'
	check "stale key ($inv invalidation): the server's write fails, our buffer is unchanged" grep -q "disconnected 1 unchanged 1" /tmp/out
done
$R server-stats > /tmp/sstats
sed 's/^/# /' /tmp/sstats | paste -sd' '
sstat() { awk -v k="$1" '$1 == k { print $2 }' /tmp/sstats; }
expect_eq "the server saw two stale writes" "$(sstat stale_attempts)" 2
expect_eq "the server saw both stale writes fail" "$(sstat stale_failed)" 2
expect_eq "the server saw no data error" "$(sstat verify_errors)" 0
expect_eq "the server saw no protocol error" "$(sstat proto_errors)" 0

check "no MR left after the connections closed ($(mrs))" [ "$(mrs)" = 0 ]
check "server stops" $R server-stop
check "unload rtp" rmmod rtp
trace_pairs_check
check "unload the transport" modprobe -r rdmastor_transport
check "unload rnic_mgr" modprobe -r rnic_mgr
tap_done
