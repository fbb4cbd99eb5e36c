# SPDX-License-Identifier: GPL-2.0
#
# rnic_mgr loads and unloads with an rxe device absent and present, and
# follows rxe devices added and removed while it is loaded.
. scripts/guest/lib.sh
check "rdmastor modules installed" rdmastor_install
sysdev=/sys/kernel/rnic_mgr/devices

# No RDMA device at all.
check "load with no RDMA device" modprobe rnic_mgr
check "sysfs tree exists" test -d $sysdev
ok "$(ls $sysdev | wc -l | grep -qx 0; echo $?)" "no device listed"
check "unload with no RDMA device" modprobe -r rnic_mgr
check "sysfs tree gone after unload" test ! -e /sys/kernel/rnic_mgr

# An rxe device that exists before load is listed at load.
check "soft-RoCE on a dummy device" scripts/guest/rxe-setup single
check "load with rxe0 present" modprobe rnic_mgr
check "rxe0 listed" test -d $sysdev/rxe0
ok "$(grep -qx rxe0 $sysdev/rxe0/ibdev; echo $?)" "rxe0 ibdev attribute"
diag "max_mr $(cat $sysdev/rxe0/max_mr), max_frpl $(cat $sysdev/rxe0/max_frpl)"
ok "$( [ "$(cat $sysdev/rxe0/max_mr)" -gt 0 ]; echo $?)" "rxe0 max_mr read from the device"

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
check "unload with rxe0 present" modprobe -r rnic_mgr
check "rxe still works after unload" test -e /sys/class/infiniband/rxe0
check "load/unload 20 times" bash -c 'for i in $(seq 20); do modprobe rnic_mgr && modprobe -r rnic_mgr || exit 1; done'
check "rdma_rxe unloads after rnic_mgr" bash -c 'rdma link delete rxe0 && modprobe -r rdma_rxe'
ok "$(dmesg | grep -c 'rnic_mgr: device rxe0 added' | grep -qv '^0$'; echo $?)" "births logged in dmesg"
tap_done
