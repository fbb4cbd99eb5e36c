# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.12
# vm-group: rnic_mgr (one guest boot: tests/lib/check)
#
# A kernel ULP refused under its cap on one device must not hold up the
# removal of another (rnic_mgr/kulp/kulp.h, K5): the removal waits for
# the allocations inside its own device's wrappers, not every device's.
# The stand-in ULP (tests/kmod/kulp_hog.c) allocates 64-page MRs on rxe1
# in a loop, two at a time, each waiting kernel_ulp_wait_ms under a cap
# of 10 entries and then refused; meanwhile rxe0, capped too, is
# removed. A watchdog stops the loop after 30 s, so that a removal that
# waits for it ends, and fails the check.
. tests/lib/guest/lib.sh
P=/sys/module/rnic_mgr/parameters
DEVS=/sys/kernel/rnic_mgr/devices
H=/sys/kernel/debug/kulp_hog
WAIT_MS=2000

check "soft-RoCE rxe0" tests/lib/guest/rxe-setup single
check "a second dummy link" sh -c "ip link add dummy1 type dummy && ip link set dummy1 up"
check "soft-RoCE rxe1 on it" rdma link add rxe1 type rxe netdev dummy1
check "rdmastor installed" rdmastor_install
check "load rnic_mgr" modprobe rnic_mgr
check "rnic_mgr follows both devices" wait_for 10 test -d $DEVS/rxe1
echo $WAIT_MS > $P/kernel_ulp_wait_ms
for d in rxe0 rxe1; do
	check "cap the stand-in ULP at 10 entries on $d" \
		sh -c "echo 'kulp_hog 10' > $DEVS/$d/kernel_ulp_caps"
done
check "load the stand-in ULP" insmod "$(rdmastor_testmod kulp_hog)"
check "it allocates 64-page MRs on rxe1 in a loop" sh -c "echo 'start rxe1 64' > $H/ctl"
check "its allocations are refused, each after its wait" wait_for 30 sh -c "[ \$(awk '{ print \$6 }' $H/stats) -ge 2 ]"
( sleep 30; echo stop > $H/ctl ) &
dog=$!
t0=$(date +%s%N)
rdma link delete rxe0
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
diag "rdma link delete rxe0: exit $rc in $ms ms; the stand-in on rxe1: $(cat $H/stats)"
check "rxe0 is removed" [ $rc = 0 ]
check "without waiting for rxe1's allocations: $ms ms, within 2 x kernel_ulp_wait_ms" \
	[ $ms -le $((2 * WAIT_MS)) ]
check "the loop on rxe1 went on meanwhile" grep -q '^running 1' $H/stats
kill $dog 2>/dev/null
wait $dog 2>/dev/null
check "the stand-in stops" sh -c "echo stop > $H/ctl"
diag "the stand-in on rxe1: $(cat $H/stats)"
expect_eq "none of its allocations beyond the cap went through" "$(awk '{ print $4 }' $H/stats)" 0
check "it unloads" rmmod kulp_hog
check "rxe1 goes" rdma link delete rxe1
check "rnic_mgr unloads" modprobe -r rnic_mgr
tap_done
