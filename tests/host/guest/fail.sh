# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Guest body for the harness self-test: two checks fail (the first's
# got/want must reach the harness's summary), and it leaves a
# mess for the next body of its group (tests/host/guest/fresh.sh): a
# dummy NIC, a soft-RoCE link, a module, and a process that holds the
# output open for longer than the run may take.
. tests/lib/guest/lib.sh
modprobe rdma_rxe && ip link add dummy0 type dummy && ip link set dummy0 up &&
	rdma link add rxe0 type rxe netdev dummy0
sleep 1000 &
expect_eq "one and one make three" $((1 + 1)) 3
check "false is true" false
tap_done
