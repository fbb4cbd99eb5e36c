# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Client half of the two-guest transport test: first the link with stock
# tools only (rping: RDMA READ and WRITE of a verified pattern, and
# ib_send_bw), then rtp over that real (virtual) link between two
# guests, data verified, both invalidation modes, then a stale key that
# must be dead.
. tests/lib/guest/lib.sh
SERVER=192.0.2.1
R=tests/lib/rtp
field() { awk -v k="$1" '$1 == k { print $2 }' /tmp/out; }

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "netem on eth0, doing nothing yet" link_netem_ready
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER

# the stock tools first; the server may not be listening yet: retry
rping_client() {
	local _
	for _ in $(seq 30); do
		timeout 120 rping -c -a $SERVER -C 10 -S 4096 -v > /tmp/rping.out 2>&1 && return 0
		sleep 1
	done
	cat /tmp/rping.out
	return 1
}
check "stock link: rping client, 10 verified ping-pongs over RDMA" rping_client
expect_eq "stock link: rping saw 10 data exchanges" "$(grep -c 'ping data' /tmp/rping.out)" 10
send_bw() {
	local _
	for _ in $(seq 30); do
		timeout 120 ib_send_bw -d rxe0 -s 65536 -n 200 -F $SERVER > /tmp/bw.out 2>&1 && return 0
		sleep 1
	done
	cat /tmp/bw.out
	return 1
}
check "stock link: ib_send_bw client to the server guest" send_bw
diag "$(grep -A1 'BW average' /tmp/bw.out | tail -n1)"

check "rdmastor installed" rdmastor_install
check "load the transport" modprobe rdmastor_transport
check "load rtp" insmod "$(rdmastor_testmod rtp)"

# The server may not be listening yet: retry the first run.
first_run() {
	local _
	for _ in $(seq 60); do
		$R run -o write -s 64k -c 16 -t 3 -i remote $SERVER > /tmp/out 2>&1 && return 0
		sleep 1
	done
	cat /tmp/out
	return 1
}
run_ok() {
	local desc=$1
	shift
	[ "$desc" = first ] && { first_run || return 1; } || $R run "$@" $SERVER > /tmp/out 2>&1 || return 1
	echo "# $(paste -sd' ' /tmp/out)"
	[ "$(field ops)" -gt 0 ] && [ "$(field errors)" = 0 ] && [ "$(field verify_errors)" = 0 ]
}
check "RDMA WRITE 64 KiB across guests, remote invalidation, verified" run_ok first
check "RDMA READ 64 KiB across guests, local invalidation, verified" run_ok read -o read -s 64k -c 16 -t 3 -i local
check "RDMA WRITE 1 MiB across guests, verified" run_ok big -o write -s 1m -c 4 -t 3 -i local
check "RDMA READ 1 MiB across guests, verified" run_ok big -o read -s 1m -c 4 -t 3 -i remote
# The doorbell watchdog (transport.rst, E9) made to ring, and
# shown harmless: every packet of ours 1 s late (netem delay), so each
# send waits a second for its ACK and the send queue stands still for
# ten 100 ms periods, whatever the host's speed (a run at rxe_kick_ms=1
# on a fast host rang nowhere: its queue never stood still a jiffy).
# The delay is below rxe's 4.3 s ACK timeout and netem's queue holds
# every packet, so nothing is retransmitted; the delay is taken off once
# the run is over.
KICK=/sys/module/rdmastor_transport/parameters/rxe_kick_ms
kicked_run() {
	local rc
	link_netem delay 1000ms || return 1
	run_ok kick -o write -s 64k -c 4 -t 3 -i local; rc=$?
	sleep 3
	link_netem
	diag "rxe: $(rxe_counters)"
	return $rc
}
echo 100 > $KICK
check "RDMA WRITE 64 KiB, packets 1 s late, doorbell at 100 ms: verified" kicked_run
expect_gt "the doorbell rang while every ACK was 1 s late" "$(field kicks)" 0
echo 1000 > $KICK
$R stale -s 16k -i remote $SERVER > /tmp/out 2>&1
cat /tmp/out | sed 's/^/# /'
check "stale key across guests: the server's write fails, our buffer is unchanged" grep -q "disconnected 1 unchanged 1" /tmp/out
diag "rxe: $(rxe_counters)"
check "unload rtp" rmmod rtp
check "unload the transport" modprobe -r rdmastor_transport
check "unload rnic_mgr" modprobe -r rnic_mgr
tap_done
