# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Client half of the two-guest RDMA test: talks RDMA to the server guest
# over the private link, with rping (RDMA READ and WRITE of a verified
# pattern) and ib_send_bw.
. tests/lib/guest/lib.sh
check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 192.0.2.1

rping_client() {
	local _
	# The server may not be listening yet: retry the connect.
	for _ in $(seq 30); do
		timeout 120 rping -c -a 192.0.2.1 -C 10 -S 4096 -v > /tmp/rping.out 2>&1 && return 0
		sleep 1
	done
	cat /tmp/rping.out
	return 1
}
check "rping client: 10 verified ping-pongs over RDMA" rping_client
expect_eq "rping saw 10 data exchanges" "$(grep -c 'ping data' /tmp/rping.out)" 10


send_bw() {
	local _
	for _ in $(seq 30); do
		timeout 120 ib_send_bw -d rxe0 -s 65536 -n 200 -F 192.0.2.1 > /tmp/bw.out 2>&1 && return 0
		sleep 1
	done
	cat /tmp/bw.out
	return 1
}
check "ib_send_bw client to the server guest" send_bw
diag "$(grep -A1 'BW average' /tmp/bw.out | tail -n1)"
tap_done
