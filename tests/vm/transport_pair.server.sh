# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# (6.1: the kernel whose rxe needs the doorbell watchdog, which the
# client makes ring; on 6.12 the watchdog is never armed)
#
# Server half of the two-guest transport test. First the link itself,
# stock tools only (one rping session and one ib_send_bw run served):
# if those fail, the fault is the guests' soft-RoCE, not rdmastor. Then
# the rtp server on the virtio NIC's rxe0; serves until the client's
# last check (a stale key) has come and gone, then checks what it saw.
. tests/lib/guest/lib.sh
S=/sys/kernel/debug/rtp/server_stats
sval() { awk -v k="$1" '$1 == k { print $2 }' $S; }

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 1
check "client reachable" wait_for 60 ping -c1 -W1 192.0.2.2
check "stock link: rping server, one session" timeout 120 rping -s -a 192.0.2.1 -C 10 -S 4096 -v -q
check "stock link: ib_send_bw server" timeout 120 ib_send_bw -d rxe0 -s 65536 -n 200 -F
check "rdmastor installed" rdmastor_install
check "load the transport" modprobe rdmastor_transport
check "load rtp" insmod "$(rdmastor_testmod rtp)"
check "server listens" tests/lib/rtp server 7471 32
rxe_progress /tmp/rxe-progress &
progress=$!
check "the client's runs and its stale-key check arrive" wait_for 400 sh -c \
	"[ \"\$(awk '\$1 == \"stale_failed\" { print \$2 }' $S)\" -ge 1 ]"
check "every connection is gone" wait_for 30 sh -c "grep -qx 'active 0' $S"
paste -sd' ' $S | sed 's/^/# /'
diag "rxe: $(rxe_counters)"
# what the server's failed I/Os were, and how the transport saw them
kill $progress
if [ "$(sval io_errors)" != 0 ] || [ "$(sval flushed_at_close)" != 0 ]; then
	dmesg | grep -E 'rtp server|rdmastor_transport|rst' | tail -n 20 | sed 's/^/# /'
	sed 's/^/# progress: /' /tmp/rxe-progress
fi
expect_eq "no data error on the server" "$(sval verify_errors)" 0
expect_eq "no protocol error on the server" "$(sval proto_errors)" 0
# A reply flushed because the client left before its ACK was processed
# is counted apart (flushed_at_close): whether the client had it, the
# client's checks say.
expect_eq "no I/O error on the server while the client was connected" "$(sval io_errors)" 0
expect_gt "served RDMA WRITEs" "$(sval writes)" 0
expect_gt "served RDMA READs" "$(sval reads)" 0

check "server stops" tests/lib/rtp server-stop
check "unload rtp" rmmod rtp
check "unload the transport" modprobe -r rdmastor_transport
check "unload rnic_mgr" modprobe -r rnic_mgr
tap_done
