# SPDX-License-Identifier: GPL-2.0
#
# Malformed iSER from a test initiator (tests/kmod/iser_evil.c) against
# rdmastor's target: every bad message ends its connection (or its
# connect is refused), never a crash; a good login still gets its
# reply; afterwards the stock initiator logs in and verifies data, and
# nothing is left behind.
. scripts/guest/lib.sh
. scripts/guest/iser.sh
P=/sys/module/iser_evil/parameters

check "soft-RoCE" scripts/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_iser_target
check "target: one 64 MiB LUN over iSER" iser_target_create 1 1 64M || bail "no target"
check "load the test initiator" insmod "$(rdmastor_testmod iser_evil)" || bail "no iser_evil"

evil() {
	echo "$1" > $P/run || return 1
	[ "$(cat $P/result)" = "$2" ] || { echo "# $1: $(cat $P/result), wanted $2"; return 1; }
}
check "a well-formed login request gets a login response" evil login "reply 0x23"
for m in short hello rsvd zerostag lyinglen hugedsl ahs notlogin; do
	check "$m: the target drops the connection" evil "$m" dropped
done
check "reserved private-data bits: the connect is refused" evil badpdata refused
check "a good login still works after all that" evil login "reply 0x23"

# Logged-in sessions (target t1, Normal session) that misbehave.
qps_gone() { [ "$(iser_rdma_left qp)" = 0 ]; }
# A READ carrying immediate data ran twice in LIO; now a Reject, and the
# connection stays (the ping after it is answered).
check "readimm: a READ with immediate data is rejected, the session stays" \
	evil readimm "0x3f 0x20"
check "the target lets go of the session" wait_for 30 qps_gone
diag "$(dmesg | grep rdmastor_isert | tail -10 | paste -sd'|')"
check "unload the test initiator" rmmod iser_evil

check "iscsid runs" iscsid_start
check "the stock initiator logs in" iser_login 1 || bail "no login"
wait_for 20 iser_disk 1 0 || bail "no LUN"
check "and verifies data" iser_fio after "$(iser_disk 1 0)" --rw=randrw --bs=4k \
	--iodepth=8 --size=16M --io_size=16M
check "log out" iser_logout 1
check "remove the target" iser_target_clear
iser_check_gone
tap_done
