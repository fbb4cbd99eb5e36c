# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# vm-group: rnic_mgr (one guest boot: tests/lib/check)
#
# What the stock NFS/RDMA client (xprtrdma, module rpcrdma) does when a
# cap refuses its MRs (rnic_mgr/kulp/cap.c), over rxe loopback against
# the stock server. xprtrdma allocates a pool of MRs when its transport
# connects and more when a call finds none free; a refused allocation is
# to it the device running out: a call that finds no MR free sleeps
# and a worker retries the allocation, for as long as it takes. So,
# under a cap of one MR's entries: the mount goes through (its calls
# need one MR at most), a 1 MiB O_DIRECT write, whose data the server
# pulls through several MRs at once, waits while its allocations are
# refused again and again; nothing fails. Once the cap is lifted the
# write completes and its data reads back intact, and the MRs go when
# the mount does. (Under a cap that refuses every MR, the mount itself
# waited: it did not complete in 50 s.)
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/kulp.sh
write_done() { ! kill -0 "$writer" 2>/dev/null; }
refused_again() { [ "$(cap_field rpcrdma refused)" -ge "$1" ]; }

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=64m tmpfs $EXPORT && chmod 1777 $EXPORT"
check "rdmastor installed" rdmastor_install
check "load rnic_mgr" modprobe rnic_mgr
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
check "the stock server over RDMA on 20049" nfsd_start || bail "no server"
check "the stock client mounts NFSv3 from this host" nfs_mount 3 nolock || bail "no mount"
check "1 MiB writes, O_DIRECT, verified" \
	fio_verify s1m --size=4m --bs=1m --rw=write --direct=1 --ioengine=psync
mrs=$(ulp rpcrdma mrs)
diag "kernel_ulps: $(paste -sd'|' $D/kernel_ulps)"
expect_gt "the stock client's MRs are counted under rpcrdma" "${mrs:-0}" 0
expect_eq "the stock server allocates none on RoCE: no other line" \
	"$(awk '{ print $1 }' $D/kernel_ulps | paste -sd' ')" rpcrdma
check "umount" umount $MNT
check "its MRs go when the mount does" wait_for 30 ulp_zero rpcrdma

# One MR's worth: a cap of its entries, each refusal after 200 ms
per_mr=$(( $(ulp rpcrdma peak_entries) / $(ulp rpcrdma peak_mrs) ))
echo 200 > $P/kernel_ulp_wait_ms
check "cap rpcrdma at one MR's $per_mr entries" sh -c "echo 'rpcrdma $per_mr' > $D/kernel_ulp_caps"
# (one attempt, bounded: nfs_mount retries for minutes)
check "the stock client mounts under the cap" \
	timeout 60 mount -t nfs -o vers=3,nolock,proto=rdma,port=20049 $SERVER:/export $MNT ||
	bail "no mount under the cap"
expect_eq "it holds one MR" "$(ulp rpcrdma mrs)" 1
check "4 MiB of data to write" dd if=/dev/urandom of=/tmp/data bs=1M count=4 status=none
dd if=/tmp/data of=$MNT/capped bs=1M oflag=direct status=none &
writer=$!
refused=$(cap_field rpcrdma refused)
check "its allocations are refused again and again (from $refused)" \
	wait_for 20 refused_again $((refused + 3))
check "the write waits meanwhile: not failed, not done" kill -0 "$writer"
expect_eq "and the client still holds one MR" "$(ulp rpcrdma mrs)" 1
diag "caps: $(cat $D/kernel_ulp_caps)"
check "the cap lifted" sh -c "echo 'rpcrdma 0' > $D/kernel_ulp_caps"
check "the write completes" wait_for 60 write_done
check "and succeeded" wait "$writer"
expect_gt "with more MRs now" "$(ulp rpcrdma mrs)" 1
check "its data reads back intact" cmp /tmp/data <(dd if=$MNT/capped bs=1M iflag=direct status=none)
check "umount" umount $MNT
check "its MRs go" wait_for 30 ulp_zero rpcrdma

# Review 4's N1 with `ulps share`: a user with a delegated subtree runs
# 32 always-hungry bound processes, each in a cgroup of its own
# (urogue sybil). The stock client's cap is its share among the
# entities that demand entries, and the Sybil's 32 cgroups are one
# tenant (tenant_depth 2), so the cap is half the budget and the client
# mounts and verifies. With every leaf cgroup a tenant (tenant_depth 0,
# as before; NFS_SYBIL_LEAF=1 in the body): 32 tenants, the client's
# cap 78 entries of 1024 (two of its MRs), and its 1 MiB writes stood
# still for as long as the Sybil ran.
SYB=$(body_cgroup)/syb
SBUDGET=1024
check "user charging on" user_charging_on
echo "$SBUDGET" > $D/budget
if [ -n "${NFS_SYBIL_LEAF:-}" ]; then
	echo 0 > $P/tenant_depth
	echo 65536 > $P/tenants_per_uid
fi
check "the stock client capped at its share (ulps share)" \
	sh -c "echo 'rpcrdma share' > $D/kernel_ulp_caps"
mkdir -p "$SYB"
chown 1000:1000 "$SYB" "$SYB/cgroup.procs" "$SYB/cgroup.threads" "$SYB/cgroup.subtree_control"
rm -f /tmp/syb.[0-9]*
in_cgroup syb setpriv --reuid=1000 --regid=1000 --clear-groups sh -c '
	for i in $(seq 32); do
		mkdir "$1/c$i" && sh -c "echo \$\$ > $1/c$i/cgroup.procs &&
			exec build/tools/urogue $2 sybil 120" > /tmp/syb.$i 2>&1 &
	done
	wait' sh "$SYB" rxe0 &
spid=$!
check "the Sybil's 32 processes are bound" \
	wait_for 60 sh -c "[ \$(cat /tmp/syb.[0-9]* 2>/dev/null | grep -c 'sybil bound') = 32 ]"
check "and hold most of the device" wait_for 30 sh -c "[ \$(cat $D/free) -lt $((SBUDGET / 10)) ]"
diag "tenants: $(grep -c "^cgroup:.*/syb" $D/tenants) of the Sybil's"
check "the stock client mounts beside it (one attempt, 60 s)" \
	timeout 60 mount -t nfs -o vers=3,nolock,proto=rdma,port=20049 $SERVER:/export $MNT
cap=$(cap_field rpcrdma cap)
diag "caps: $(cat $D/kernel_ulp_caps | paste -sd'|')"
expect_ge "its cap is half the budget: the Sybil weighs as one ($cap of $SBUDGET)" "${cap:-0}" $((SBUDGET / 2 - 1))
check "1 MiB writes beside the Sybil, O_DIRECT, verified" \
	fio_verify sybil --size=4m --bs=1m --rw=write --direct=1 --ioengine=psync
check "umount" umount $MNT
pkill -TERM -x urogue
wait $spid
rmdir "$SYB"/c* "$SYB" 2>/dev/null
check "its MRs go" wait_for 30 ulp_zero rpcrdma
# the bodies after this one in the boot load rnic_mgr with its defaults
rm -f /etc/modprobe.d/rdmastor-test-user.conf
check "nfsd stops" rpc.nfsd 0
check "rnic_mgr unloads" modprobe -r rnic_mgr
tap_done
