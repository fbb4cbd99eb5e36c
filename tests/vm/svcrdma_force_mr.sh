# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.12
# vm-group: nfs (one guest boot: tests/lib/check)
#
# rdmastor's NFS server in forced-MR mode (what iWARP needs, forced on
# rxe), with the stock NFS client in the same guest: every RDMA READ of
# a Read chunk lands in an MR registered for that READ only, charged to
# rnic_mgr and invalidated before nfsd sees the call. A budget cut under
# load brings the connection's MRs within its share and the credits each
# reply grants down to the MRs the share covers; restoring the budget
# grants them again; an idle connection holds no MR; data stays
# verified throughout. Then a shorter pass with the server's CQ in
# softirq (cq_softirq=Y): the budget cut, verified data, nothing left.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
SYS=/sys/kernel/rnic_mgr/devices/rxe0
STATS=/sys/kernel/rdmastor_svcrdma/conns

# cstat FIELD: the first connection's counter
cstat() { awk -v k="$1" 'NR == 1 { for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' $STATS; }
cle() { [ "$(cstat "$1")" -le "$2" ]; }
cgt() { [ "$(cstat "$1")" -gt "$2" ]; }

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=256m tmpfs $EXPORT && chmod 1777 $EXPORT"
check "rdmastor installed" rdmastor_install
check "load rdmastor_svcrdma with force_mr=1" modprobe rdmastor_svcrdma force_mr=1
# the stock client: no rnic_mgr consumer of its own beside the server's
check "load the stock rpcrdma (its server side stays out: the class is taken)" modprobe rpcrdma
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
check "nfsd serving over rdmastor on 20049" nfsd_start || bail "no server"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
trace_pairs_start
check "mount NFSv3" nfs_mount 3 nolock || bail "no mount"
diag "$(cat $STATS)"
check "the connection is in MR mode" [ "$(cstat mode)" = mr ]
# Each peer's address and counters are root's to see; the totals are not.
check_not "another user cannot read the connections" \
	setpriv --reuid=65534 --regid=65534 --clear-groups cat $STATS
check "another user reads the totals" \
	setpriv --reuid=65534 --regid=65534 --clear-groups cat ${STATS%/*}/totals
check "4 KiB to 256 KiB writes, verified" \
	fio_verify w --size=16m --bsrange=4k-256k --rw=randwrite --direct=1 --ioengine=libaio --iodepth=16
diag "$(cat $STATS)"
expect_gt "READ sinks were registered" "$(cstat regs)" 0
expect_eq "every READ sink was invalidated (local_inv = regs)" "$(cstat local_inv)" "$(cstat regs)"

check "the connection is an rnic_mgr consumer" grep -q "^nfsd-rdma" $SYS/table

budget0=$(cat $SYS/budget)
fio --name=share --directory=$MNT --size=32m --bs=64k --rw=randwrite --direct=1 \
	--ioengine=libaio --iodepth=32 --time_based --runtime=25 --verify=crc32c \
	--do_verify=1 --output-format=terse > /tmp/fio.out 2>&1 & load=$!
check "the load holds several MRs" wait_for 15 cgt mrs 2
check "and is granted more than two credits ($(cstat granted))" cgt granted 2
diag "before: $(cat $STATS)"
# two MRs' worth of entries (each covers 258 pages)
echo 600 > $SYS/budget
check "MRs fall within the share in 2 s" wait_for 2 cle mrs 2
check "the credits granted follow the share" wait_for 10 cle granted 2
diag "budget 600: $(cat $STATS)"
sleep 3
check "MRs stay within the share under load ($(cstat mrs))" cle mrs 2
echo "$budget0" > $SYS/budget
check "the credits grow again when the budget is restored" wait_for 15 cgt granted 2
wait $load; r=$?
[ "$r" = 0 ] || tail -5 /tmp/fio.out
ok "$r" "the run completes, verified"
check "an idle connection gives its MRs back" wait_for 10 cle mrs 0
diag "$(cat $STATS)"
# --- remote peers weigh as one, with a minimum only once they call (N5) ---
# svc_evil holds 48 connections that never call (the guest's 2 GiB
# held 200 of them at both ends of rxe loopback only to run out of
# memory). Each is a consumer of the server's (force_mr); before, each
# was admitted with its minimum (257 entries), so at a budget of 24
# minimums the rest were refused, and so was a new mount. Now a
# listener's connections are one group, each with no minimum until a
# call needs an MR: all 48 connect, the mount made before still
# verifies, and a new mount connects and verifies.
EP=/sys/module/svc_evil/parameters
nr_conns() { find $SYS/consumers -maxdepth 1 -name 'nfsd-rdma*' | wc -l; }
echo $((257 * 24)) > $SYS/budget
check "load svc_evil, 48 connections to hold" \
	insmod "$(rdmastor_testmod svc_evil)" server=$SERVER port=20049 hold_conns=48
check "48 idle connections held" sh -c "echo hold > $EP/send"
diag "held $(cat $EP/flood_up), first refusal $(cat $EP/flood_end); consumers: $(nr_conns)"
expect_eq "all 48 connected (budget of 24 minimums)" "$(cat $EP/flood_up)" 48
expect_eq "the server's connections are one group" \
	"$(cat $SYS/consumers/nfsd-rdma*/tenant | sort -u | paste -sd' ')" "peers:nfsd-rdma"
expect_eq "each named by its client's address (consumer_weights can weigh it)" \
	"$(cat $SYS/consumers/nfsd-rdma*/name | sort -u | paste -sd' ')" "nfsd-rdma-$SERVER"
idle_mins=$(cat $SYS/consumers/nfsd-rdma*/min | grep -c '^0$')
check "at least 48 of them hold no minimum ($idle_mins)" [ "$idle_mins" -ge 48 ]
# Each connection has its own sysfs directory, with no page limit; the
# conns page holds 15 to 20 of the lines and counts the rest.
CDIR=/sys/kernel/rdmastor_svcrdma/connections
ndirs() { find $CDIR -mindepth 1 -maxdepth 1 -type d | wc -l; }
nd=$(ndirs)
check "connections/: a directory for each of the 49 connections ($nd)" [ "$nd" -ge 49 ]
check "conns: a page of lines, then how many it left out" \
	sh -c "[ \$(grep -c '^conn ' $STATS) -lt $nd ] && grep -q '^\.\.\. [0-9]* more connections' $STATS"
expect_eq "each directory's peer is the client's address" \
	"$(cat $CDIR/*/peer | sed 's/:[0-9]*$//' | sort -u | paste -sd' ')" "$SERVER"
expect_eq "each stats file: one KEY VALUE a line" "$(cat $CDIR/*/stats | awk 'NF != 2' | head -3)" ""
expect_eq "each stats file counts calls" "$(cat $CDIR/*/stats | grep -c '^calls [0-9]*$')" "$nd"
check "the mount made before still verifies" \
	fio_verify p --size=8m --bs=64k --rw=randwrite --direct=1 --ioengine=libaio --iodepth=8
mkdir -p /mnt2
check "a new mount (NFSv4.2: a connection of its own) connects" \
	timeout 120 mount -t nfs -o vers=4.2,proto=rdma,port=20049 $SERVER:/ /mnt2
check "and verifies" sh -c "mountpoint -q /mnt2 && fio --name=p2 --directory=/mnt2 --size=8m \
	--bs=64k --rw=randwrite --direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c \
	--do_verify=1 --output=/dev/null"
diag "minimums now: $(cat $SYS/consumers/nfsd-rdma*/min | sort -n | uniq -c | paste -sd' ')"
claimed=$(cat $SYS/consumers/nfsd-rdma*/min | grep -c '^[1-9]')
idle_mins=$(cat $SYS/consumers/nfsd-rdma*/min | grep -c '^0$')
check "the two mounts' connections took their minimums once they called, the 48 none ($claimed, $idle_mins)" \
	sh -c "[ $claimed -ge 2 ] && [ $idle_mins -ge 48 ]"
umount /mnt2 2>/dev/null
check "the held connections close" sh -c "echo free > $EP/send"
check "unload svc_evil" rmmod svc_evil
check "their consumers go" wait_for 30 sh -c "[ \$(find $SYS/consumers -maxdepth 1 -name 'nfsd-rdma*' | wc -l) -le 2 ]"
check "and their directories" wait_for 30 sh -c "[ \$(find $CDIR -mindepth 1 -maxdepth 1 -type d | wc -l) -le 2 ]"
echo "$budget0" > $SYS/budget
rm -f $MNT/w* $MNT/share* $MNT/p*
check "umount" umount $MNT
check "nfsd stops" rpc.nfsd 0
none_left() { [ "$(rdma_left "$1")" = 0 ]; }
for kind in qp cq mr; do
	check "no $kind of rdmastor left" wait_for 30 none_left $kind
done
trace_pairs_check
check "everything unloads" modprobe -r rdmastor_svcrdma rpcrdma rdmastor_transport rnic_mgr

# Again with the server's completions in softirq (cq_softirq=Y): a
# forced-MR READ's end puts its MR without sleeping
# (rst_mr_put_nosleep()), and the MRs a budget cut drops are
# deregistered by the engine's work item, not by the completion.
check "softirq: load rdmastor_svcrdma with force_mr=1 cq_softirq=Y" \
	modprobe rdmastor_svcrdma force_mr=1 cq_softirq=Y
expect_eq "softirq: the parameter took" \
	"$(cat /sys/module/rdmastor_svcrdma/parameters/cq_softirq)" Y
check "softirq: the stock client's rpcrdma" modprobe rpcrdma
check "softirq: nfsd serving again" nfsd_threads || bail "no server"
check "softirq: mount NFSv3" nfs_mount 3 nolock || bail "no mount"
check "softirq: the connection is in MR mode" [ "$(cstat mode)" = mr ]
budget0=$(cat $SYS/budget)
fio --name=share --directory=$MNT --size=32m --bs=64k --rw=randwrite --direct=1 \
	--ioengine=libaio --iodepth=32 --time_based --runtime=10 --verify=crc32c \
	--do_verify=1 --output-format=terse > /tmp/fio.out 2>&1 & load=$!
check "softirq: the load holds several MRs" wait_for 15 cgt mrs 2
echo 600 > $SYS/budget
check "softirq: MRs fall within the share in 2 s" wait_for 2 cle mrs 2
echo "$budget0" > $SYS/budget
wait $load; r=$?
[ "$r" = 0 ] || tail -5 /tmp/fio.out
ok "$r" "softirq: the run completes, verified"
check "softirq: an idle connection gives its MRs back" wait_for 10 cle mrs 0
diag "$(cat $STATS)"
expect_eq "softirq: every READ sink was invalidated (local_inv = regs)" \
	"$(cstat local_inv)" "$(cstat regs)"
rm -f $MNT/share*
check "softirq: umount" umount $MNT
check "softirq: nfsd stops" rpc.nfsd 0
for kind in qp cq mr; do
	check "softirq: no $kind of rdmastor left" wait_for 30 none_left $kind
done
check "softirq: everything unloads" \
	modprobe -r rdmastor_svcrdma rpcrdma rdmastor_transport rnic_mgr
tap_done
