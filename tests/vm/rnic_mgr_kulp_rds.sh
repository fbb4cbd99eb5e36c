# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# (Not on 6.12: there rds_rdma itself cannot unload after a mapping over
# rxe. With no module of rdmastor loaded, `modprobe -r rds_rdma` after
# rdsmr's 4 KiB and 64 KiB mappings hangs in rds_ib_conn_path_shutdown(),
# which waits for its rings with no timeout; Debian's 6.1 wakes that wait
# every second and reschedules the tasklets, 6.12.95 does not.)
# vm-group: rnic_mgr (one guest boot: tests/lib/check)
#
# What the stock RDS over RDMA (rds_rdma) does when a cap refuses its
# MRs (rnic_mgr/kulp/cap.c), over rxe loopback: RDS's IB transport
# keeps a connection between two of the host's own sockets on the
# device (only its TCP transport takes loopback). rds_rdma allocates an
# MR when a socket asks it to map a buffer for the peer's RDMA
# (RDS_CMSG_RDMA_MAP on sendmsg; tests/tools/rdsmr.c), from one of two
# pools by size (up to 8 KiB, and up to 1 MiB, with 257 entries an MR).
# A refused allocation is to it the device running out: that sendmsg
# fails with ENOMEM, nothing is sent, and the connection carries on; it
# does not wait or retry. A mapping whose MR fits under the cap goes
# through beside it.
. tests/lib/guest/lib.sh
. tests/lib/guest/kulp.sh
IP=192.0.2.1
RDSMR=build/tools/rdsmr

rdsmr() {	# rdsmr MAPS BYTES: the tool's report in /tmp/rdsmr.out, its status
	local rc=0
	timeout 60 $RDSMR $IP "$1" "$2" > /tmp/rdsmr.out 2>&1 || rc=$?
	diag "rdsmr $1 x $2: $(paste -sd'|' /tmp/rdsmr.out) (exit $rc)"
	return $rc
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "load rnic_mgr" modprobe rnic_mgr
check "the stock RDS over RDMA" modprobe rds_rdma || bail "no rds_rdma"

# capped below one 1 MiB-pool MR before RDS allocates any, so that no
# mapping can reuse an MR from its pools
kulp_cap_at rds_rdma 100 "less than one MR for 64 KiB"
check_not "a 64 KiB mapping beyond the cap" rdsmr 1 65536
expect_match "the RDS connection came up" "$(head -n1 /tmp/rdsmr.out)" "^connected$"
expect_match "its sendmsg fails with ENOMEM" "$(cat /tmp/rdsmr.out)" \
	"map 1 refused: Cannot allocate memory"
expect_match "and the connection carries on" "$(tail -n1 /tmp/rdsmr.out)" "^plain after maps ok$"
diag "kernel_ulps: $(paste -sd'|' $D/kernel_ulps); caps: $(paste -sd'|' $D/kernel_ulp_caps)"
# (no line in kernel_ulps yet: it never held an MR)
kulp_refused rds_rdma 100 "mapping"
check "a 4 KiB mapping fits under the cap (the 8 KiB pool)" rdsmr 2 4096
check "it holds no more than the cap" [ "$(ulp rds_rdma entries)" -le 100 ]

check "the cap lifted" sh -c "echo 'rds_rdma 0' > $D/kernel_ulp_caps"
check "64 KiB mappings go through" rdsmr 4 65536
expect_match "each with an MR of its own" "$(cat /tmp/rdsmr.out)" "map 4 ok"
diag "kernel_ulps: $(paste -sd'|' $D/kernel_ulps)"
# RDS keeps freed MRs in its pools for reuse: they go with the module
check "rds_rdma unloads" wait_for 20 modprobe -r rds_rdma
check "and its MRs go with it" wait_for 20 ulp_zero rds_rdma
check "rnic_mgr unloads" modprobe -r rnic_mgr
tap_done
