# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# vm-group: rnic_mgr (one guest boot: tests/lib/check)
#
# Kernel ULPs' MRs, counted (rnic_mgr/kulp/count.c): the stock nvme-rdma host
# against nvmet-rdma over rxe loopback. Its MRs show in kernel_ulps
# under nvme_rdma, as many as the RDMA core's resource tracking lists,
# and go back to zero on disconnect; rdmastor's own transport is not
# listed (it is the arbiter's consumer); rnic_mgr unloads with the stock
# MRs allocated and nothing breaks; MRs allocated before it loaded are
# not counted. An administrator's cap on a stock ULP's entries bounds it:
# beyond it, its allocations wait, then fail (nvme-rdma's connect fails);
# so does a cap from its share, by its weight in consumer_weights, for
# one ULP or as the device's default for every ULP without a line.
# With kernel_ulps=2 they are charged off the budget, and a
# consumer of rdmastor shrinks to make room and grows back after.
. tests/lib/guest/lib.sh
. tests/lib/guest/nvme.sh
. tests/lib/guest/kulp.sh
IP=192.0.2.1
# the MRs the RDMA core tracks for nvme-rdma (kernel resources show
# their module's name as the command)
restrack_mrs() { rdma resource show mr 2>/dev/null | grep -c '\[nvme_rdma\]' || true; }
nvme_gone() { ! nvme_dev >/dev/null; }
none_counted() { [ -z "$(cat $D/kernel_ulps)" ]; }
verify() {	# verify NAME: 8 MiB of verified random writes on the namespace
	fio --name="$1" --filename="$(nvme_dev)" --rw=randwrite --bs=16k --iodepth=8 \
		--ioengine=libaio --direct=1 --size=8m --verify=crc32c --do_verify=1 \
		--output=/dev/null
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "load rnic_mgr" modprobe rnic_mgr
expect_eq "kernel_ulps is empty before any kernel ULP" "$(cat $D/kernel_ulps)" ""
check "NVMe-oF target on a RAM disk, rdma 4420" nvme_target $IP 64 || bail "no target"
check "the stock nvme-rdma host connects (2 I/O queues)" nvme_connect $IP nr_io_queues=2 ||
	bail "no controller"
diag "kernel_ulps: $(paste -sd'|' $D/kernel_ulps); restrack: $(rdma resource show mr | head -3 | paste -sd'|')"
mrs=$(ulp nvme_rdma mrs)
expect_gt "nvme_rdma's MRs are counted" "${mrs:-0}" 0
expect_eq "as many as the RDMA core tracks" "$mrs" "$(restrack_mrs)"
check "with their translation entries ($(ulp nvme_rdma entries))" \
	[ "$(ulp nvme_rdma entries)" -ge "$mrs" ]
check "I/O through it verifies" verify counted
expect_eq "its MR pools do not change with I/O" "$(ulp nvme_rdma mrs)" "$mrs"
expect_eq "nvmet-rdma on RoCE allocates no MR (rdma_rw uses the local key)" "$(ulp nvmet_rdma mrs)" ""
expect_match "rnic-top lists it" "$(scripts/admin/rnic-top rxe0)" "^kernel:nvme_rdma +$mrs "
expect_match "rdmastor status --prometheus has its MRs" "$(scripts/admin/rdmastor status --prometheus)" \
	"^rdmastor_kernel_ulp_mrs\\{device=\"rxe0\",ulp=\"nvme_rdma\"\\} $mrs\$"

# rdmastor's transport registers its own MRs: charged as a consumer,
# never listed here (K2)
check "load the transport and rtp" sh -c "modprobe rdmastor_transport && insmod $(rdmastor_testmod rtp)"
check "rtp server listens" tests/lib/rtp server 7471 8
check "rtp: RDMA WRITEs through rdmastor's MRs" sh -c \
	"tests/lib/rtp run -o write -s 64k -c 4 -t 1 -i remote -w 2500 $IP > /tmp/rtp.out"
expect_match "rtp registered MRs" "$(cat /tmp/rtp.out)" '^regs [1-9]'
expect_nomatch "rdmastor's own MRs are not listed" "$(cat $D/kernel_ulps)" '^(rdmastor|rnic_mgr)'
check "rtp and the transport unload" sh -c "tests/lib/rtp server-stop; rmmod rtp && rmmod rdmastor_transport"

check "disconnect" nvme_disconnect
check "nvme_rdma's MRs go back to zero" wait_for 20 ulp_zero nvme_rdma
expect_eq "its peak stays" "$(ulp nvme_rdma peak_mrs)" "$mrs"

# caps (rnic_mgr/kulp/cap.c): a stock ULP cannot be asked to shrink, so
# the administrator caps it. At half of what one controller takes, the
# connect's allocations beyond the cap wait (kernel_ulp_wait_ms) and
# fail with ENOMEM, so the connect fails: it never holds more than the
# cap, and leaves nothing. With the cap lifted it connects.
peak=$(ulp nvme_rdma peak_entries)
cap=$((peak / 2))
echo 200 > $P/kernel_ulp_wait_ms
echo 1 > $TR/events/rnic_mgr/rnic_kulp_mr/enable
echo 1 > $TR/events/rnic_mgr/rnic_kulp_cap/enable
echo > $TR/trace
check_not "rdmastor's own modules cannot be capped here" sh -c "echo 'rdmastor_transport 10' > $D/kernel_ulp_caps"
# "other" names the slot that ULPs beyond the 15th share (K8): no cap
# of one ULP's may land on it, by its name either
check_not "nor the shared slot, by its name \"other\"" sh -c "echo 'other share' > $D/kernel_ulp_caps"
expect_nomatch "and no ULP called other was made" "$(cat $D/kernel_ulp_caps)" "^other"
check "cap nvme_rdma at $cap entries (half of one controller's $peak)" \
	sh -c "echo 'nvme_rdma $cap' > $D/kernel_ulp_caps"
expect_match "kernel_ulp_caps shows it" "$(cat $D/kernel_ulp_caps)" "^nvme_rdma cap $cap entries 0 "
t0=$(date +%s%N)
check_not "the stock host cannot connect beyond its cap" nvme_connect $IP nr_io_queues=2
diag "the failed connect took $(( ($(date +%s%N) - t0) / 1000000 )) ms; caps: $(cat $D/kernel_ulp_caps)"
diag "$(dmesg | grep -i nvme | tail -3 | paste -sd'|')"
cap_refused() { [ "$(cap_field nvme_rdma waits)" -ge 1 ] && [ "$(cap_field nvme_rdma refused)" -ge 1 ]; }
check "its allocation beyond the cap waited, then was refused" cap_refused
maxheld=$(grep "rnic_kulp_mr:.*ulp=kernel:nvme_rdma alloc" $TR/trace | sed 's/.*held=//' | sort -n | tail -n1)
check "it never held more than the cap (most: ${maxheld:-none})" [ "${maxheld:-0}" -le "$cap" ]
expect_match "the refusal is traced" "$(grep rnic_kulp_cap: $TR/trace | tail -n1)" \
	"ulp=kernel:nvme_rdma entries=[0-9]+ held=[0-9]+ cap=$cap refused"
# the ULP itself sees only -ENOMEM: the log says why, once
expect_eq "the first refusal is logged at warning level, with the cap" \
	"$(dmesg -l warn | grep -c "rxe0: kernel ULP nvme_rdma: an MR of [0-9]* entries refused at its cap of $cap entries")" 1
check "the failed connect left no MR" wait_for 20 ulp_zero nvme_rdma
expect_eq "and nothing reserved" "$(cap_field nvme_rdma reserved)" 0
check "the cap lifted" sh -c "echo 'nvme_rdma 0' > $D/kernel_ulp_caps"
check "the stock host connects" nvme_connect $IP nr_io_queues=2
check "I/O through it verifies" verify uncapped
echo 0 > $TR/events/rnic_mgr/rnic_kulp_mr/enable
echo 0 > $TR/events/rnic_mgr/rnic_kulp_cap/enable
check "rnic_mgr unloads with the device's alloc_mr wrapped, MRs allocated" modprobe -r rnic_mgr
check "I/O still verifies: the driver's own alloc_mr is back" verify unwrapped
check "disconnect" nvme_disconnect
check "the controller is gone" wait_for 20 nvme_gone
check "rnic_mgr loads again" modprobe rnic_mgr

# unload with stock MRs allocated: the device is untouched
check "connect again" nvme_connect $IP nr_io_queues=2
check "rnic_mgr unloads with nvme-rdma's MRs allocated" modprobe -r rnic_mgr
check "I/O still verifies without rnic_mgr" verify unloaded
check "rnic_mgr loads again" modprobe rnic_mgr
check "MRs allocated before it loaded are not counted" wait_for 10 none_counted
check "disconnect: their deregistration is ignored" nvme_disconnect
check "the controller is gone" wait_for 20 nvme_gone
expect_eq "and nothing is counted" "$(cat $D/kernel_ulps)" ""
check "a new controller is counted" nvme_connect $IP nr_io_queues=1
expect_gt "nvme_rdma's MRs" "$(ulp nvme_rdma mrs)" 0
check "disconnect" nvme_disconnect
check "zero again" wait_for 20 ulp_zero nvme_rdma
check "rnic_mgr unloads" modprobe -r rnic_mgr

# kernel_ulps=2: the stock MRs are charged off the budget; a consumer
# of rdmastor holding the whole budget shrinks to what is left, and
# grows back when the MRs go.
CTL=/sys/kernel/debug/rnic_test/ctl
sat_held() { cat "$(ls -d $D/consumers/sat.* | head -n1)/held"; }
sat_within() { [ "$(sat_held)" -le "$(cat $D/shared_budget)" ]; }
sat_above() { [ "$(sat_held)" -gt "$1" ]; }
check "rnic_mgr loads with kernel_ulps=2" modprobe rnic_mgr kernel_ulps=2
check "budget 150000 entries, 65536 keys" sh -c "echo 150000 > $D/budget && echo 65536 > $D/key_budget"
check "a saturating consumer of rdmastor" sh -c \
	"insmod $(rdmastor_testmod rnic_test_consumer) && echo start sat rxe0 saturate 1 64 1024 2 0 0 0 0 0 > $CTL"
check "it takes most of the budget" wait_for 30 sat_above 140000
check "the stock host connects (2 I/O queues)" nvme_connect $IP nr_io_queues=2
charged=$(ulp nvme_rdma entries)
check "its entries are charged ($charged)" wait_for 10 sh -c "[ \$(cat $D/kernel_charged) = $charged ]"
expect_eq "the budget rdmastor's consumers share is the rest" "$(cat $D/shared_budget)" $((150000 - charged))
expect_eq "the administrator's budget is unchanged" "$(cat $D/budget)" 150000
check "the saturating consumer shrinks within it ($(sat_held) held)" wait_for 30 sat_within
check "I/O through nvme-rdma verifies meanwhile" verify charged
check "disconnect" nvme_disconnect
check "the charge goes" wait_for 20 sh -c "[ \$(cat $D/kernel_charged) = 0 ]"
expect_eq "the whole budget is shared again" "$(cat $D/shared_budget)" 150000
check "the consumer grows back" wait_for 30 sat_above $((150000 - charged))

# A cap from the share: "* share" caps every stock ULP without a line
# of its own, at each connect that finds it holding nothing, at what a
# newcomer of its weight would be given beside the saturating consumer
# (weight 1): half the budget at weight 1, three quarters at weight 3
# (consumer_weights "kernel:nvme_rdma=3"), and "nvme_rdma share" does
# the same for one ULP. With the budget at 9/5 of one controller's
# entries, half is too little and three quarters enough. Ending the
# default leaves a ULP's own cap; "nvme_rdma 0" exempts it from the
# default.
B=$((peak * 9 / 5))
check "budget $B entries (9/5 of one controller's $peak)" sh -c "echo $B > $D/budget"
echo 1 > $TR/events/rnic_mgr/rnic_kulp_cap/enable
echo > $TR/trace
check_not "the default takes no cap in entries" sh -c "echo '* 100' > $D/kernel_ulp_caps"
check "cap every stock ULP at its share" sh -c "echo '* share' > $D/kernel_ulp_caps"
expect_eq "kernel_ulp_caps shows the default, and no ULP capped before it allocates" \
	"$(cat $D/kernel_ulp_caps)" "* share"
check_not "the stock host cannot connect at half the budget" nvme_connect $IP nr_io_queues=2
expect_match "its cap came from the default, at weight 1" "$(cat $D/kernel_ulp_caps)" \
	"nvme_rdma cap $((B / 2)) entries 0 .* share 1 default 1"
check "its allocation beyond its share waited, then was refused" cap_refused
expect_match "the refusal is traced" "$(grep rnic_kulp_cap: $TR/trace | tail -n1)" \
	"ulp=kernel:nvme_rdma entries=[0-9]+ held=[0-9]+ cap=$((B / 2)) refused"
diag "nvme_rdma's refusals on this load: $(cap_field nvme_rdma refused)"
expect_eq "logged once per ULP and device: once for each load of rnic_mgr, 2 in all" \
	"$(dmesg | grep -c 'kernel ULP nvme_rdma: an MR of')" 2
check "the failed connect left no MR" wait_for 20 ulp_zero nvme_rdma
check "weight 3 for kernel:nvme_rdma" sh -c "echo 'kernel:nvme_rdma=3' > $P/consumer_weights"
check "nvme_rdma capped at its share by a line of its own" \
	sh -c "echo 'nvme_rdma share' > $D/kernel_ulp_caps"
# 32 processes bound to rxe0 that hold and ask nothing, each a tenant
# of its own (tenant_by process): idle, they divide no share (N1;
# before, the cap was 3/36 of the budget and the connect failed)
check "user charging on rxe0, each process a tenant" \
	sh -c "echo on > $D/user_charging && echo process > $D/tenant_by"
idlers=()
for _ in $(seq 32); do
	build/tools/urogue rxe0 bindidle 600 >> /tmp/bindidle.out 2>&1 &
	idlers+=($!)
done
check "32 idle processes bound to rxe0" \
	wait_for 60 sh -c "[ \$(grep -c 'bindidle bind: 0' /tmp/bindidle.out) = 32 ]"
check "the stock host connects within three quarters of the budget" nvme_connect $IP nr_io_queues=2
kill "${idlers[@]}" 2>/dev/null
wait "${idlers[@]}" 2>/dev/null
check "the idle processes gone, user charging off" wait_for 30 sh -c \
	"! ls -d $D/consumers/user:* >/dev/null 2>&1 && echo cgroup > $D/tenant_by && echo off > $D/user_charging"
expect_match "its cap was set anew from its share at weight 3" "$(cat $D/kernel_ulp_caps)" \
	"nvme_rdma cap $((B * 3 / 4)) entries [0-9]+ .* share 3\$"
expect_match "and traced" "$(grep 'rnic_kulp_cap:.*cap from its share' $TR/trace | tail -n1)" \
	"ulp=kernel:nvme_rdma .*cap=$((B * 3 / 4)) cap from its share"
check "I/O through it verifies" verify share
check "disconnect" nvme_disconnect
check "its MRs go" wait_for 20 ulp_zero nvme_rdma
check "end the default" sh -c "echo '* 0' > $D/kernel_ulp_caps"
expect_match "a ULP's own share cap stays" "$(cat $D/kernel_ulp_caps)" \
	"^nvme_rdma cap $((B * 3 / 4)) entries 0 .* share 3\$"
check "weights cleared, nvme_rdma's cap lifted by its own line" \
	sh -c "echo > $P/consumer_weights && echo 'nvme_rdma 0' > $D/kernel_ulp_caps"
check "the default again" sh -c "echo '* share' > $D/kernel_ulp_caps"
check "the stock host, exempted by its line, connects at weight 1" nvme_connect $IP nr_io_queues=2
expect_nomatch "and has no cap" "$(cat $D/kernel_ulp_caps)" "^nvme_rdma cap [1-9]"
check "disconnect" nvme_disconnect
check "its MRs go" wait_for 20 ulp_zero nvme_rdma
expect_match "the default was traced" "$(grep -c 'ulp=kernel:\* .*every ULP capped at its share' $TR/trace)" "^2\$"
echo 0 > $TR/events/rnic_mgr/rnic_kulp_cap/enable
check "the default ended" sh -c "echo '* 0' > $D/kernel_ulp_caps"
check "stop the consumer" sh -c "echo stopall > $CTL && rmmod rnic_test_consumer"
check "clear the target" nvme_clear
check "rnic_mgr unloads" modprobe -r rnic_mgr
# the default from the boot configuration, in place as the device is added
check "rnic_mgr loads with devices=rxe0:ulps=share" modprobe rnic_mgr devices=rxe0:ulps=share
expect_eq "rxe0's stock ULPs are capped at their share from the start" \
	"$(head -n1 $D/kernel_ulp_caps)" "* share"
check "rnic_mgr unloads" modprobe -r rnic_mgr
check "the NVMe modules unload" sh -c "modprobe -r nvme-rdma nvmet-rdma && rmmod brd"
tap_done
