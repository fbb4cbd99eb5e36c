# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.12
# vm-group: rnic_mgr (one guest boot: tests/lib/check)
#
# rnic_mgr loads and unloads with an rxe device absent and present, and
# follows rxe devices added and removed while it is loaded.
. tests/lib/guest/lib.sh
check "rdmastor modules installed" rdmastor_install
sysdev=/sys/kernel/rnic_mgr/devices

# No RDMA device at all.
check "load with no RDMA device" modprobe rnic_mgr
check "sysfs tree exists" test -d $sysdev
expect_eq "no device listed" "$(ls $sysdev | wc -l)" 0
check "unload with no RDMA device" modprobe -r rnic_mgr
check "sysfs tree gone after unload" test ! -e /sys/kernel/rnic_mgr

# An rxe device that exists before load is listed at load.
check "soft-RoCE on a dummy device" tests/lib/guest/rxe-setup single
check "load with rxe0 present" modprobe rnic_mgr
check "rxe0 listed" test -d $sysdev/rxe0
check "rxe0 ibdev attribute" grep -qx rxe0 $sysdev/rxe0/ibdev
diag "max_mr $(cat $sysdev/rxe0/max_mr), max_frpl $(cat $sysdev/rxe0/max_frpl)"
check "rxe0 max_mr read from the device"  [ "$(cat $sysdev/rxe0/max_mr)" -gt 0 ]
# Devices added and removed while loaded.
ip link add dummy1 type dummy && ip link set dummy1 up
check "add rxe1 while loaded" rdma link add rxe1 type rxe netdev dummy1
check "rxe1 appears in sysfs" wait_for 10 test -d $sysdev/rxe1
check "remove rxe1 while loaded" rdma link delete rxe1
check "rxe1 leaves sysfs" wait_for 10 test ! -e $sysdev/rxe1
check "rxe0 still listed" test -d $sysdev/rxe0

# Holding an attribute open across device removal must be safe.
exec 3< $sysdev/rxe0/ibdev
check "remove rxe0 with its sysfs file open" rdma link delete rxe0
check "rxe0 leaves sysfs" wait_for 10 test ! -e $sysdev/rxe0
exec 3<&-

check "re-add rxe0" rdma link add rxe0 type rxe netdev dummy0
check "rxe0 listed again" wait_for 10 test -d $sysdev/rxe0

# Writable parameters are bounded: out-of-range values are refused and
# change nothing (reap_interval_ms=0 made the reaper busy-loop).
P=/sys/module/rnic_mgr/parameters
refused() {	# refused PARAM VALUE: the write fails, the value stays
	local was
	was=$(cat $P/$1)
	! (echo "$2" > $P/$1) 2>/dev/null && [ "$(cat $P/$1)" = "$was" ]
}
check "reap_interval_ms=0 refused" refused reap_interval_ms 0
check "reap_interval_ms=60001 refused" refused reap_interval_ms 60001
check "revoke_deadline_ms=0 refused" refused revoke_deadline_ms 0
check "default_entries=0 refused" refused default_entries 0
check "default_keys=junk refused" refused default_keys junk
check "reap_interval_ms=250 accepted" sh -c "echo 250 > $P/reap_interval_ms && grep -qx 250 $P/reap_interval_ms"
echo 100 > $P/reap_interval_ms
check "a bad value at load fails the load" sh -c "modprobe -r rnic_mgr && ! modprobe rnic_mgr reap_interval_ms=0 2>/dev/null && modprobe rnic_mgr"
check "rxe0 listed after reload" wait_for 10 test -d $sysdev/rxe0
# Budgets the device cannot map are refused: at most max_mr MRs, and
# what they can map (max_mr x max_fast_reg_page_list_len pages); and
# the arithmetic's own bound (2^48 and up wrap it) stays out of reach.
lim=$(( $(cat $sysdev/rxe0/max_mr) * $(cat $sysdev/rxe0/max_frpl) ))
expect_eq "rxe0's entry limit: max_mr x max_frpl" "$(cat $sysdev/rxe0/budget_limit)" "$lim"
expect_eq "its key limit: max_mr" "$(cat $sysdev/rxe0/key_budget_limit)" "$(cat $sysdev/rxe0/max_mr)"
expect_eq "the budgets came from the parameters (both below the limits)" \
	"$(cat $sysdev/rxe0/budget_source)/$(cat $sysdev/rxe0/key_budget_source)" "default_entries/default_keys"
check "a budget of 2^48 entries refused" sh -c "! echo 281474976710656 > $sysdev/rxe0/budget 2>/dev/null"
check "one entry above the device's limit refused" sh -c "! echo $((lim + 1)) > $sysdev/rxe0/budget 2>/dev/null"
check "the device's limit accepted" sh -c "echo $lim > $sysdev/rxe0/budget"
expect_eq "a budget written says so" "$(cat $sysdev/rxe0/budget_source)" written
echo 262144 > $sysdev/rxe0/budget
# default_keys above what the device has: the device's max_mr, and why
check "reload with default_keys=4000000000" \
	sh -c "modprobe -r rnic_mgr && modprobe rnic_mgr default_keys=4000000000"
check "rxe0 listed" wait_for 10 test -d $sysdev/rxe0
expect_eq "the key budget is the device's max_mr" \
	"$(cat $sysdev/rxe0/key_budget)" "$(cat $sysdev/rxe0/max_mr)"
expect_eq "and its source says so" "$(cat $sysdev/rxe0/key_budget_source)" \
	"device: max_mr $(cat $sysdev/rxe0/max_mr)"
check "rdmastor status shows where the budgets came from" \
	sh -c "scripts/admin/rdmastor status | grep -q '^  budgets: entries from default_entries (the device can map $lim), keys from device: max_mr'"
check "reload with the default parameters" sh -c "modprobe -r rnic_mgr && modprobe rnic_mgr"
check "rxe0 listed again" wait_for 10 test -d $sysdev/rxe0

F=/sys/kernel/debug/rnic_mgr
CTL=/sys/kernel/debug/rnic_test/ctl
check "load the test consumer" insmod "$(rdmastor_testmod rnic_test_consumer)"
# A consumer registering while its device is removed: publishing it must
# not race the removal of the device's directory.
echo 2000 > $F/consumer_sysfs_delay_ms
(echo start racer rxe0 saturate 1 64 64 1 0 0 0 0 0 > $CTL) 2>/dev/null &
racer=$!
sleep 0.5
check "remove rxe0 while a consumer registers" rdma link delete rxe0
wait $racer
echo 0 > $F/consumer_sysfs_delay_ms
check "rxe0 leaves sysfs" wait_for 10 test ! -e $sysdev/rxe0
check "the racing consumer stops" sh -c "echo stopall > $CTL"
check "re-add rxe0 for the next check" rdma link add rxe0 type rxe netdev dummy0
check "rxe0 listed" wait_for 10 test -d $sysdev/rxe0
# A consumer whose sysfs directory could not be made still works, unseen,
# and unregisters without touching sysfs (it WARNed and put the kset twice).
check "fault: the next consumer directory fails" sh -c "echo 1 > $F/fail_consumer_sysfs"
check "a consumer registers anyway" sh -c "echo start unseen rxe0 saturate 1 64 64 1 0 0 0 0 0 > $CTL"
check "it has no directory" sh -c "! ls $sysdev/rxe0/consumers | grep -q '^unseen'"
check "it gets entries" wait_for 10 sh -c "grep -q 'unseen' /sys/kernel/debug/rnic_test/stats && [ \$(cat $sysdev/rxe0/granted) -gt 0 ]"
check "it unregisters cleanly" sh -c "echo stop unseen > $CTL"
check "a later consumer is listed again" sh -c "echo start seen rxe0 saturate 1 64 64 1 0 0 0 0 0 > $CTL && ls $sysdev/rxe0/consumers | grep -q '^seen'"
check "and unregisters" sh -c "echo stop seen > $CTL"
check "unload the test consumer" rmmod rnic_test_consumer
check "unload with rxe0 present" modprobe -r rnic_mgr
check "rxe still works after unload" test -e /sys/class/infiniband/rxe0
check "load/unload 20 times" bash -c 'for i in $(seq 20); do modprobe rnic_mgr && modprobe -r rnic_mgr || exit 1; done'
check "rdma_rxe unloads after rnic_mgr" bash -c 'rdma link delete rxe0 && modprobe -r rdma_rxe'
expect_match "births logged in dmesg" "$(dmesg)" 'rnic_mgr: device rxe0 added'

tap_done
