# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# vm-group: rnic_mgr (one guest boot: tests/lib/check)
#
# What the stock iSER initiator (ib_iser) does when a cap refuses its MRs
# (rnic_mgr/kulp/cap.c), over rxe loopback against the stock target
# (LIO's ib_isert). ib_iser allocates one fast-registration MR per
# command slot of a connection, all at once, when the connection is
# bound to its session; a refused allocation is to it the device running
# out, so the bind, and with it the login, fails, and what it had taken
# goes back. It does not wait for room: the connection fails, iscsid
# gives the login up at its login timeout (15 s: the failed login took
# 15.6 s) and iscsiadm reports the failure;
# a later login goes through once the cap allows the pool (113 MRs of
# 129 entries each per session here). The stock target allocates no MR on
# RoCE (rdma_rw uses the local key).
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh
. tests/lib/guest/kulp.sh
IQN=$ISER_IQN:t1
target() { lio_ready && iser_target_create 1 1 16M; }
# one login attempt, not iscsid's default eight. (Not a shorter login
# timeout: LIO's own login of the failed connection runs out only after
# 15 s, and the next login waits for it; with 5 s it timed out.)
login_once() {
	iscsiadm -m node -T "$IQN" -p "$ISER_IP:3260" -I iser -o update \
		-n node.session.initial_login_retry_max -v 1 >/dev/null &&
		timeout 60 iscsiadm -m node -T "$IQN" -p "$ISER_IP:3260" -I iser --login >/dev/null 2>&1
}
verify() {	# verify NAME: 4 MiB of verified random writes on the LUN
	# (no udev in the guest: the disk shows once the scan finds it)
	wait_for 20 iser_disk 1 0 &&
		iser_fio "$1" "$(iser_disk 1 0)" --rw=randwrite --bs=16k --iodepth=8 --size=4M
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "load rnic_mgr" modprobe rnic_mgr
check "the stock iSER target: one 16 MiB RAM-disk LUN" target ||
	bail "no target"
check "iscsid runs" iscsid_start
check "the stock initiator logs in" iser_login 1 || bail "no login"
check "I/O through it verifies" verify counted
kulp_only ib_iser
check "log out" iser_logout 1
check "its MRs go with the session" wait_for 20 ulp_zero ib_iser

# Half of one session's entries: the pool cannot be had
kulp_cap_half ib_iser session
t0=$(date +%s%N)
check_not "the stock initiator cannot log in beyond its cap" login_once
diag "the failed login took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
diag "$(dmesg | grep -iE 'iser|iscsi' | tail -4 | paste -sd'|')"
check_not "and has no session" iscsiadm -m session
kulp_refused ib_iser $cap login

check "the cap raised to one session's entries" sh -c "echo 'ib_iser $peak' > $D/kernel_ulp_caps"
check "the stock initiator logs in" login_once
check "I/O through it verifies" verify capped
check "it holds no more than the cap" [ "$(ulp ib_iser entries)" -le "$peak" ]
check "log out" iser_logout 1
check "its MRs go with the session" wait_for 20 ulp_zero ib_iser
check "the cap lifted" sh -c "echo 'ib_iser 0' > $D/kernel_ulp_caps"

check "iscsid stops" pkill -x iscsid
check "remove the target" iser_target_clear
check "ib_iser unloads" wait_for 20 rmmod ib_iser
check "rnic_mgr unloads" modprobe -r rnic_mgr
tap_done
