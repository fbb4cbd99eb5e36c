# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The rdmastor NFS client (NFSv4.2, hard mount) through what a server and
# a fabric do to it: a delegation recalled over the RFC 8167 backchannel;
# the server's link losing every packet for 8 s and nfsd restarted, each during a
# verifying fio run that must complete without a data error; a soft mount
# through the same outage, whose writer must get EIO, not hang; rnic_mgr's
# budget cut during load, which must bring the entries the mount's MRs
# hold down to its share, for large and small I/O (small I/O takes small
# MRs and keeps its window); an idle mount giving its MRs back; and
# nothing of rdmastor left on the device after umount.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-client.sh
SYS=/sys/kernel/rnic_mgr/devices/rxe0
result=fail
trap 'nfs_done "$result"' EXIT
le() { [ -n "$1" ] && [ "$1" -le "$2" ]; }
xle() { le "$(xstat "$1")" "$2"; }	# xle FIELD N: counter FIELD <= N
xgt() { ! xle "$1" "$2"; }
xlt() { [ "$(xstat "$1")" -lt "$2" ]; }	# xlt FIELD N: counter FIELD < N
opcount() {	# opcount OP: how many OP calls the mount has sent
	awk -v op="$1:" '$1 == op { print $2; exit }' /proc/self/mountstats
}

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_nfs_client
check "mount NFSv4.2 over rdmastor (hard)" nfs_mount 4.2 hard,lookupcache=positive,actimeo=1

# ---- delegation recall over the backchannel ----
deleg() {	# the server created deleg/file ("original")
	# nfsd hands out no delegation during its grace period
	wait_for 60 test -e $MNT/grace-over || return 1
	exec 3< $MNT/deleg/file		# a read open: the server may delegate it
	read -r line <&3
	[ "$line" = original ]
}
check "open a file for reading and keep it open" deleg
bc0=$(xstat bc_calls); ret0=$(opcount DELEGRETURN)
touch $MNT/deleg-ready
check "the server's local write completes (recall answered)" wait_for 120 test -e $MNT/deleg-done
check "the server's write succeeded" [ "$(cat $MNT/deleg-done 2>/dev/null)" = 0 ]
check "the server had delegated the file to us" grep -q "type: deleg" $MNT/deleg-states
diag "server: $(grep -vE "^(address|name|clientid|Implementation|seconds)" $MNT/deleg-states | paste -sd' ')"
diag "client: $(dmesg | grep -iE "rdmastor|callback|backchannel" | tail -5 | paste -sd'|')"
diag "backchannel calls $bc0 -> $(xstat bc_calls), DELEGRETURN $ret0 -> $(opcount DELEGRETURN)"
check "callbacks arrived over the backchannel" [ "$(xstat bc_calls)" -gt "$bc0" ]
check "the client returned the delegation" [ "$(opcount DELEGRETURN)" -gt "$ret0" ]
check "the client sees the server's write" wait_for 30 sh -c "[ \"\$(cat $MNT/deleg/file)\" = server ]"
exec 3<&-

# ---- faults during verifying fio runs ----
fio_fault() {	# fio_fault HOOK MIN: a verifying run with HOOK fired 2 s in, MIN reconnects
	# (16 MiB at no more than 2 MiB/s: at least 8 s of I/O on any
	# machine, so the fault lands mid-run; a slower one only takes longer)
	timeout 400 fio --name=fault --directory=$MNT --size=16m --bs=64k --rw=randwrite \
		--rate=2m --direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c \
		--do_verify=1 --output-format=terse > /tmp/fio.out 2>&1 &
	local pid=$! r0 dog
	r0=$(xstat reconnects)
	# if the run is stuck, show why while it still is
	# (its sleep dies with it: a sleep left behind held the body's output
	# open, and the guest's end waited for it)
	( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep 150 & s=$!; wait $s
	  echo "# watchdog: fio still running after 150 s"; grep "xprt:" /proc/self/mountstats
	  echo w > /proc/sysrq-trigger; dmesg | tail -80 ) &
	dog=$!
	sleep 2
	touch "$MNT/$1"
	# the fault must land mid-run: the run is still going once it began
	sleep 2
	kill -0 $pid 2>/dev/null || { kill $dog; echo "# the run ended before the fault landed"; return 1; }
	wait $pid || { kill $dog; tail -5 /tmp/fio.out; dmesg | tail -25; grep "xprt:" /proc/self/mountstats; return 1; }
	kill $dog 2>/dev/null
	diag "reconnects $r0 -> $(xstat reconnects)"
	[ "$(xstat reconnects)" -ge $((r0 + $2)) ] || { echo "# no reconnect happened"; return 1; }
	rm -f $MNT/fault*
}
# RC retransmission may ride out 8 s of loss, or the QP may fail and the
# transport reconnect: either way the run must complete, verified.
# On a mount of its own with a 10 s RPC timeout (timeo=100): a reply the
# loss swallowed is resent only when its RPC times out (the stock client
# too: testing.rst, rdmastor's NFS client after 8 s of total loss), 60 s
# by default. $MNT keeps the default for the cases below.
LOSS=/mnt/loss
loss_mount() { local MNT=$LOSS; nfs_mount 4.2 hard,timeo=100; }
loss_fault() { local MNT=$LOSS; fio_fault link-down 0; }
if check "mount NFSv4.2 (hard, timeo=100) for the link-down run" loss_mount; then
	check "server link down (100% loss) 8 s during fio: completes, verified" loss_fault
	check "umount the link-down mount" umount $LOSS
fi
check "nfsd restarted during fio: completes, verified, reconnected" fio_fault restart-nfsd 1

# ---- a soft mount through the same outage: errors, not a hang ----
# NFSv3, its own transport. A writer is streaming O_DIRECT writes (each
# RPC's data registered for it) when the link starts losing everything
# for 8 s; the RPCs time out after about 3 s (timeo=10, retrans=1): the
# writer must get EIO instead of hanging, whatever the RPCs had
# registered must be invalidated and given back (checked when all is
# unmounted), and the mount must work again once the link is back.
SOFT=/mnt/soft
soft_mount() { local MNT=$SOFT; nfs_mount 3 nolock,soft,timeo=10,retrans=1; }
soft_outage() {
	local pid rc
	timeout 120 dd if=/dev/zero of=$SOFT/lost bs=64k count=4096 oflag=direct \
		status=none 2>/tmp/dd.err &
	pid=$!
	sleep 2
	touch $MNT/link-down
	wait $pid
	rc=$?
	diag "dd through the outage: exit $rc, $(head -c 200 /tmp/dd.err);" \
		"reconnects $(xstat reconnects $SOFT), abandoned RPCs $(xstat abandoned $SOFT)"
	# 124: timeout killed it (a hang); 0: the outage was not seen
	[ $rc != 0 ] && [ $rc != 124 ] && grep -q "Input/output error" /tmp/dd.err
}
soft_works() {	# write, read back, compare
	dd if=/dev/urandom of=/tmp/soft.src bs=64k count=16 status=none &&
		dd if=/tmp/soft.src of=$SOFT/back bs=64k oflag=direct status=none &&
		cmp /tmp/soft.src $SOFT/back
}
if check "mount NFSv3 soft (timeo=10, retrans=1)" soft_mount; then
	check "soft mount: data goes through before the outage" soft_works
	check "soft mount, link lost under a writer: EIO, no hang" soft_outage
	check "soft mount: works again once the link is back" wait_for 90 soft_works
	rm -f $SOFT/lost $SOFT/back
	check "umount the soft mount" umount $SOFT
fi

# ---- a share reduction during load ----
# Chunks of up to 64 KiB take small MRs (16 pages); larger ones 260-page
# MRs. A budget of 600 entries covers two large MRs but 37 small ones.
budget0=$(cat $SYS/budget)
share_load() {	# share_load BS DEPTH SECONDS: verifying random writes, in the background
	fio --name=share --directory=$MNT --size=32m --bs=$1 --rw=randwrite --direct=1 \
		--ioengine=libaio --iodepth=$2 --time_based --runtime="$(slower "$3")" --verify=crc32c \
		--do_verify=1 --output-format=terse > /tmp/fio.out 2>&1 &
	load=$!
}
share_load 1m 8 20
check "1 MiB load: the load holds several MRs" wait_for 15 xgt mrs 3
diag "before: MRs $(xstat mrs) ($(xstat mr_entries) entries), limit $(xstat mr_limit), window $(xstat window)"
w0=$(xstat window)
echo 600 > $SYS/budget
check "1 MiB load: MRs fall within the share in 3 s" wait_for 3 xle mr_entries 600
check "1 MiB load: the window falls with the share (from $w0)" wait_for 5 xlt window "$w0"
diag "budget 600: MRs $(xstat mrs) ($(xstat mr_entries) entries), limit $(xstat mr_limit), window $(xstat window)"
expect_le "1 MiB load: to at most 37" "$(xstat window)" 37

check "1 MiB load: entries held stay within the share ($(xstat mr_entries))" le "$(xstat mr_entries)" 600
check "1 MiB load: the run completes, verified" wait $load || tail -5 /tmp/fio.out
# the same budget, small I/O: many small MRs, the window stays open
share_load 64k 16 12
check "64 KiB load: more MRs than two large ones would be" wait_for 10 xgt mrs 4
sleep 2
diag "64 KiB load, budget 600: MRs $(xstat mrs) ($(xstat mr_entries) entries), limit $(xstat mr_limit), window $(xstat window)"
check "64 KiB load: entries held stay within the share ($(xstat mr_entries))" le "$(xstat mr_entries)" 600
check "64 KiB load: the window covers the load's depth ($(xstat window) >= 16)" [ "$(xstat window)" -ge 16 ]
check "64 KiB load: the run completes, verified" wait $load || tail -5 /tmp/fio.out
share_load 1m 8 12
check "1 MiB load again: it holds MRs" wait_for 10 xgt mrs 0
check "1 MiB after 64 KiB: entries within the share ($(xstat mrs) MRs, $(xstat mr_entries) entries)" le "$(xstat mr_entries)" 600
echo "$budget0" > $SYS/budget
check "the window grows back when the budget is restored" wait_for 10 xgt mr_limit 37
check "the run completes, verified" wait $load || tail -5 /tmp/fio.out
rm -f $MNT/share*
check "an idle mount gives its MRs back" wait_for 10 xle mrs 0
check "no bad reply" [ "$(xstat bad_replies)" = 0 ]
check "umount" umount $MNT
none_left() { [ "$(rdma_left "$1")" = 0 ]; }
for kind in qp cq mr; do
	check "no $kind of rdmastor left after umount" wait_for 30 none_left $kind
done
check "rdmastor_rpcrdma unloads" modprobe -r rdmastor_rpcrdma
[ "$tap_failed" = 0 ] && result=pass
trap - EXIT
diag "$(dmesg | grep -E "rdmastor|rxe|nfs" | tail -20)"
check "tell the server" nfs_done "$result"
tap_done
