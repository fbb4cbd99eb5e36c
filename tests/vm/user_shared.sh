# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# vm-group: user (one guest boot: tests/lib/check)
#
# Kernel and user consumers share one budget (rxe0 loopback, one guest):
# the Magoutis paper's tenant experiment (tests/lib/guest/tenants.sh) shortened to a
# functional test under the arbiter. Two NFS mounts served and mounted
# through rdmastor (v4.2 over IPv4, v3 over IPv6: two transports), an iSER LUN
# through rdmastor's initiator and target, a librnic program writing over
# RDMA, and a greedy librnic program that arrives first and caches all
# it may, with a churner (registers and deregisters as fast as it can:
# the short version of make bench B=isolation); the budget is below
# their combined appetite. Every tenant
# progresses, none fails, the greedy one is revoked and answers within
# T, one table lists them all, the grants stay within the budget; then
# a plain verbs program is served beside them, and everything leaves.
. tests/lib/guest/lib.sh
. tests/lib/guest/tenants.sh
TR=/sys/kernel/tracing
SYS=$TN_SYS

check "tenants: soft-RoCE, two NFS mounts and an iSER LUN through rdmastor" tenants_setup ||
	bail "no setup"
diag "kernel consumers: $(ls $SYS/consumers | tr '\n' ' ')"
# The servers (nfsd's svcrdma, LIO's isert) reach the clients' buffers by
# their rkeys and their own through the local DMA key: on RoCE they
# register nothing and are no consumer. The clients fast-register.
check "the mounts' and the session's consumers are registered" \
	sh -c "ls $SYS/consumers | grep -q '^nfs-192' && ls $SYS/consumers | grep -q '^nfs-2001' && ls $SYS/consumers | grep -q '^iser-ini-'"

echo 60000 > $TN_P/user_wait_ms
echo > $TR/trace
echo 1 > $TR/events/rnic_mgr/rnic_shrink_done/enable
TN_CHURN=1 tenants_run arbiter 4000 6
while read -r l; do diag "$l"; done < $TN_OUT/arbiter.csv
progressed() { awk -F, -v t="$1" '$2 == t && $3 > 0 && $5 == 0 { ok = 1 } END { exit !ok }' $TN_OUT/arbiter.csv; }
for t in nfs4 nfs6 iser verbs; do
	check "arbiter: tenant $t progressed without errors" progressed $t
done
diag "verbs: $(tail -n2 $TN_OUT/verbs.out | tr '\n' ' ')"
check "arbiter: the greedy tenant ran to its end" grep -q "coop revokes=" $TN_OUT/greedy.out
diag "churner: $(tail -n1 $TN_OUT/churn.out)"
check "arbiter: the churner ran to its end, registering over and over" \
	grep -Eq "churn cycles=[1-9][0-9]+ " $TN_OUT/churn.out
diag "greedy: $(tail -n1 $TN_OUT/greedy.out)"
check "arbiter: the greedy tenant was revoked to make room" grep -Eq "coop revokes=[1-9]" $TN_OUT/greedy.out
gpid=$(awk '$2 == "greedy" { split($1, a, ":"); sub(/\.$/, "", a[3]); print a[3] }' $TN_OUT/arbiter.map)
ms=$(grep "rnic_shrink_done:.*cons=user:ucoop:$gpid\." $TR/trace | sed 's/.*reclaim_ms=//' | sort -n | tail -n1)
check "arbiter: its slowest reclaim was within T (${ms:-none} ms)" sh -c "[ -n '$ms' ] && [ '$ms' -le 1000 ]"
diag "held samples: $(wc -l < $TN_OUT/arbiter.held); greedy's mean after the others came: $(awk -v g="user:ucoop:$gpid." 'index($2, g) == 1 && $1 >= 4000 { s += $3; n++ } END { printf "%.0f", n ? s / n : 0 }' $TN_OUT/arbiter.held)"
check "arbiter: the grants stay within the budget (every sample)" \
	awk '{ s[$1] += $3 } END { for (t in s) if (s[t] > 4000) exit 1 }' $TN_OUT/arbiter.held

# a plain verbs program beside the kernel tenants, under the cut budget
fio --name=bg --filename=$TN_F4 --direct=1 --ioengine=libaio \
	--rw=randrw --bs=64k --iodepth=8 --size=64m --time_based --runtime=4 > /dev/null 2>&1 &
bg=$!
sleep 1
out=$(build/tools/umr $TN_DEV reg:600)
check "a plain verbs program is granted 600 entries beside an NFS tenant ($out)" [ $? = 0 ]
check "one table lists kernel and user consumers together" \
	sh -c "grep -q '^nfs-192' $SYS/table && grep -q '^iser-ini-' $SYS/table"
wait $bg
check "nothing user stays charged" wait_for 10 sh -c "! ls -d $SYS/consumers/user:* >/dev/null 2>&1"

# everything leaves cleanly
echo 262144 > $SYS/budget
check "log out" iser_logout 1
check "unmount both" sh -c "umount /mnt/t4 && umount /mnt/t6"
check "nfsd stops" rpc.nfsd 0
iser_target_clear
check "rdmastor's modules unload" wait_for 30 modprobe -r rdmastor_iser rdmastor_isert \
	rdmastor_svcrdma rdmastor_rpcrdma
check "rnic_mgr unloads" wait_for 30 sh -c "modprobe -r rdmastor_transport rnic_mgr"
tap_done
