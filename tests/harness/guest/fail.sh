# SPDX-License-Identifier: GPL-2.0
# Guest body for the harness self-test: one check fails, and it leaves a
# mess for the next body of its group (tests/harness/guest/fresh.sh): a
# dummy NIC, a soft-RoCE link, a module, and a process that holds the
# output open for longer than the run may take.
. scripts/guest/lib.sh
modprobe rdma_rxe && ip link add dummy0 type dummy && ip link set dummy0 up &&
	rdma link add rxe0 type rxe netdev dummy0
sleep 1000 &
check "false is true" false
tap_done
