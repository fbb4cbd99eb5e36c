# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Server half of the two-guest RDMA test: soft-RoCE on the virtio NIC,
# then serve one rping session and one ib_send_bw run.
. tests/lib/guest/lib.sh
check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 1
check "client reachable" wait_for 60 ping -c1 -W1 192.0.2.2
check "rping server: one session" timeout 120 rping -s -a 192.0.2.1 -C 10 -S 4096 -v -q
check "ib_send_bw server" timeout 120 ib_send_bw -d rxe0 -s 65536 -n 200 -F
tap_done
