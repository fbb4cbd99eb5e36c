# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Server half of the two-guest transport test: the rtp server on the
# virtio NIC's rxe0; serves until the client's last check (a stale key)
# has come and gone, then checks what it saw.
. tests/lib/guest/lib.sh
S=/sys/kernel/debug/rtp/server_stats
sval() { awk -v k="$1" '$1 == k { print $2 }' $S; }

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 1
check "rdmastor installed" rdmastor_install
check "load the transport" modprobe rdmastor_transport
check "load rtp" insmod "$(rdmastor_testmod rtp)"
check "server listens" tests/lib/rtp server 7471 32
check "the client's runs and its stale-key check arrive" wait_for 400 sh -c \
	"[ \"\$(awk '\$1 == \"stale_failed\" { print \$2 }' $S)\" -ge 1 ]"
check "every connection is gone" wait_for 30 sh -c "grep -qx 'active 0' $S"
paste -sd' ' $S | sed 's/^/# /'
expect_eq "no data error on the server" "$(sval verify_errors)" 0
expect_eq "no protocol error on the server" "$(sval proto_errors)" 0
expect_eq "no I/O error on the server" "$(sval io_errors)" 0
expect_gt "served RDMA WRITEs" "$(sval writes)" 0
expect_gt "served RDMA READs" "$(sval reads)" 0

check "server stops" tests/lib/rtp server-stop
check "unload rtp" rmmod rtp
check "unload the transport" modprobe -r rdmastor_transport
check "unload rnic_mgr" modprobe -r rnic_mgr
tap_done
