# SPDX-License-Identifier: GPL-2.0
#
# Kernel and user consumers share one budget (rxe0 loopback, one guest):
# an NFS mount served and mounted through rdmastor, an iSER session
# through rdmastor's initiator and target, a bound librnic program
# caching idle registrations, and an unmodified verbs program. The
# budget is cut below their combined appetite while verified I/O runs
# on the mount and the LUN: the cooperating program is revoked and
# answers within T from its cache, the plain program waits and is
# served, the I/O completes verified, and every consumer shows in the
# one table. Then everything leaves and nothing stays charged.
. scripts/guest/lib.sh
. scripts/guest/nfs-server.sh
. scripts/guest/nfs-client.sh
. scripts/guest/iser.sh

DEV=rxe0
SYS=/sys/kernel/rnic_mgr/devices/$DEV
P=/sys/module/rnic_mgr/parameters
COOP=build/tools/ucoop
UMR=build/tools/umr
TR=/sys/kernel/tracing

check "soft-RoCE" scripts/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "NFS reaches rdmastor" rdmastor_nfs_client
check "iSER (target and initiator) reaches rdmastor" eval "rdmastor_iser_target && rdmastor_iser_initiator"
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=256m tmpfs $EXPORT && chmod 1777 $EXPORT"
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
check "nfsd serves over RDMA through rdmastor" nfsd_start || bail "no NFS server"
check "mount NFSv4.2 from this host" nfs_mount 4.2 || bail "no mount"
check "an iSER target with one 64 MiB LUN" iser_target_create 1 1 64M || bail "no target"
check "iscsid runs" iscsid_start
check "log in over iSER" iser_login 1 || bail "no session"
check "the LUN appears" wait_for 20 iser_disk 1 0 || bail "no LUN"
LUN=$(iser_disk 1 0)
# a first I/O so every kernel consumer exists
check "warm-up I/O on the mount" fio_verify warm --size=1m --bs=64k --rw=write --direct=1
check "warm-up I/O on the LUN" iser_fio warm "$LUN" --rw=write --bs=64k --iodepth=4 --size=4M

# The servers (nfsd's svcrdma, LIO's isert) reach the clients' buffers by
# their rkeys and their own through the local DMA key: on RoCE they
# register nothing and are no consumer. The clients fast-register.
diag "kernel consumers: $(ls $SYS/consumers | grep -v '^user:' | tr '\n' ' ')"
check "the mount's and the session's consumers are registered" \
	sh -c "ls $SYS/consumers | grep -q '^nfs-' && ls $SYS/consumers | grep -q '^iser-ini-'"

echo 1000 > $P/user_grace_ms
echo 60000 > $P/user_wait_ms
echo > $TR/trace
echo 1 > $TR/events/rnic_mgr/rnic_shrink_done/enable
# the cooperating program caches 3000 idle pages while the device is idle
$COOP $DEV coop 60 50 40 > /tmp/coop.out 2>&1 &
cpid=$!
check "a bound program caches 3000 idle pages" wait_for 20 grep -q "coop cached 3000" /tmp/coop.out

# the budget cut: fewer entries than the program caches plus what the
# kernel consumers' I/O needs
echo 4000 > $SYS/budget
check "the budget is cut to 4000 entries" grep -qx 4000 $SYS/budget
fio_verify shared-nfs --size=16m --bs=256k --rw=randrw --direct=1 --ioengine=libaio \
	--iodepth=8 > /tmp/nfs.res 2>&1 &
nfs=$!
iser_fio shared-iser "$LUN" --rw=randrw --bs=128k --iodepth=8 --size=32M > /tmp/iser.res 2>&1 &
isr=$!
sleep 2
out=$($UMR $DEV reg:600)
urc=$?
diag "plain program: $out"
check "a plain verbs program is granted 600 entries beside them" [ $urc = 0 ]
ncons=$(grep -c "" $SYS/table)
check "one table lists kernel and user consumers together" \
	sh -c "grep -q '^user:ucoop:$cpid' $SYS/table && grep -q '^nfs-' $SYS/table && grep -q '^iser-ini-' $SYS/table"
diag "table ($ncons lines): $(tr '\n' '|' < $SYS/table)"
wait $nfs
check "NFS I/O under the cut budget completed, verified" [ $? = 0 ]
wait $isr
check "iSER I/O under the cut budget completed, verified" [ $? = 0 ]
ucons=$(ls -d $SYS/consumers/user:ucoop:$cpid.* | head -n1)
diag "cooperating program: held $(cat $ucons/held), revocations $(cat $ucons/revocations), late $(cat $ucons/late_revocations)"
check "the cooperating program was revoked to make room" [ "$(cat $ucons/revocations)" -ge 1 ]
check "and answered every time within T" [ "$(cat $ucons/late_revocations)" = 0 ]
ms=$(grep "rnic_shrink_done:.*cons=user:ucoop:$cpid\." $TR/trace | sed 's/.*reclaim_ms=//' | sort -n | tail -n1)
check "its slowest reclaim was within T (${ms:-none} ms)" sh -c "[ -n '$ms' ] && [ '$ms' -le 1000 ]"
check "the budget is kept: granted <= 4000" \
	sh -c "[ \$(cat $SYS/free) -ge 0 ] && [ \$(awk 'NR > 1 { s += \$5 } END { print s + 0 }' $SYS/table) -le 4000 ]"
kill $cpid 2>/dev/null
wait $cpid 2>/dev/null
check "nothing user stays charged" wait_for 10 sh -c "! ls -d $SYS/consumers/user:* >/dev/null 2>&1"

# everything leaves cleanly
echo 262144 > $SYS/budget
check "log out" iser_logout 1
check "umount" umount $MNT
check "nfsd stops" rpc.nfsd 0
iser_target_clear
check "rdmastor's modules unload" wait_for 30 modprobe -r rdmastor_iser rdmastor_isert \
	rdmastor_svcrdma rdmastor_rpcrdma
check "rnic_mgr unloads" wait_for 30 sh -c "modprobe -r rdmastor_transport rnic_mgr"
tap_done
