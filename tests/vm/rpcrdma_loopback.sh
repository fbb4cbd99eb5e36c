# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.12
# vm-group: nfs (one guest boot: tests/lib/check)
#
# One host both serving and mounting NFS over RDMA through rdmastor (rxe0
# loopback in one guest): nfsd's "rdma" listener loads rdmastor_svcrdma
# and proto=rdma loads rdmastor_rpcrdma, side by side; NFSv3 and NFSv4.2
# verify data through both. Then rdmastor's modules are taken away, its
# routing left in place (a kernel DKMS did not build for): the routing
# falls back, logs why, and the stock pair serves and mounts again (the
# stock rpcrdma carries both sides).
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
CONF=/etc/modprobe.d/rdmastor-nfs.conf

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=256m tmpfs $EXPORT && chmod 1777 $EXPORT"
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_nfs_client
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
echo "options rdmastor_svcrdma cq_softirq=Y" > /etc/modprobe.d/rdmastor-test-cq.conf
check "nfsd serving over RDMA on 20049" nfsd_start || bail "no server"
check "the listener loaded rdmastor_svcrdma" grep -q "^rdmastor_svcrdma " /proc/modules

# The server's connection handles its completions in softirq when asked
# (rdmastor_svcrdma cq_softirq=Y, set here; off by default), the
# client's in a workqueue: the
# kernel's rdma_core:cq_alloc event names each CQ's context as it is
# made (iproute2 6.1's "rdma resource show cq" names them one off the
# kernel's enum: SOFTIRQ as DIRECT, WORKQUEUE as SOFTIRQ). Only
# rdmastor's two ends make CQs while it is traced.
CQT=/sys/kernel/tracing/instances/rdmastor-cq
cq_trace() {	# cq_trace on|off
	if [ "$1" = on ]; then
		{ mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing; } &&
			mkdir -p $CQT && echo 1 > $CQT/events/rdma_core/cq_alloc/enable
	else
		echo 0 > $CQT/events/rdma_core/cq_alloc/enable && rmdir $CQT
	fi
}
cq_contexts() {
	grep -q "poll_ctx=SOFTIRQ" $CQT/trace && grep -q "poll_ctx=WORKQUEUE" $CQT/trace &&
		! grep "poll_ctx=" $CQT/trace | grep -qv "poll_ctx=SOFTIRQ\|poll_ctx=WORKQUEUE" && return
	diag "CQs made: $(grep -o "poll_ctx=[A-Z_]*" $CQT/trace | sort | uniq -c | tr '\n' ' ')"
	diag "wanted the server's in SOFTIRQ, the client's in WORKQUEUE, nothing else"
	return 1
}

loop_io() {	# loop_io WHO: two versions, verified
	local vers opts
	for vers in 3 4.2; do
		opts=
		[ "$vers" = 3 ] && opts=nolock
		check "$1: mount NFSv$vers from this host" nfs_mount $vers $opts || continue
		check "$1 NFSv$vers: 4 KiB random read/write, O_DIRECT, verified" \
			fio_verify r4k --size=1m --bs=4k --rw=randrw --direct=1 --ioengine=libaio --iodepth=8
		check "$1 NFSv$vers: 1 MiB sequential, O_DIRECT, verified" \
			fio_verify s1m --size=4m --bs=1m --rw=write --direct=1 --ioengine=psync
		if [ "$vers" = 3 ]; then
			check "$1 NFSv3: a 100-entry ACL set and read back" long_acl 100
		fi
		rm -f $MNT/r4k* $MNT/s1m*
		check "$1: umount NFSv$vers" umount $MNT
	done
}
check "trace the CQs made" cq_trace on
loop_io rdmastor
check "rdmastor's server polls its CQs in softirq, its client in a workqueue" cq_contexts
check "CQ trace off" cq_trace off
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
diag "server: $(cat /sys/kernel/rdmastor_svcrdma/totals)"
check "the server refused no call" \
	grep -q "rdma_errors 0 bad_calls 0 " /sys/kernel/rdmastor_svcrdma/totals
check "rdmastor serves and mounts: both its modules, no stock rpcrdma" \
	sh -c "grep -q '^rdmastor_rpcrdma ' /proc/modules && ! grep -q '^rpcrdma ' /proc/modules"
check "nfsd stops" rpc.nfsd 0
none_left() { [ "$(rdma_left "$1")" = 0 ]; }
for kind in qp cq mr; do
	check "no $kind of rdmastor left" wait_for 30 none_left $kind
done
check "rdmastor's modules unload" \
	wait_for 30 modprobe -r rdmastor_svcrdma rdmastor_rpcrdma rdmastor_transport rnic_mgr
rm -f /etc/modprobe.d/rdmastor-test-cq.conf

# rdmastor's modules missing for the running kernel (a kernel DKMS did
# not build for, a module the kernel refuses), its routing still in
# place: the same commands reach the stock rpcrdma, and the kernel log
# says why, once per request.
MODDIR=/lib/modules/$(uname -r)/updates/rdmastor
check "rdmastor's modules taken away" sh -c "mv $MODDIR /tmp/rdmastor-mods"
dmesg -C
check "nfsd serves over RDMA again" nfsd_threads
check "the listener loaded the stock rpcrdma" grep -q "^rpcrdma " /proc/modules
dmesg > /tmp/fallback.log
diag "$(grep 'rdmastor:' /tmp/fallback.log | head -n1)"
check "one kernel log line says why the stock server serves" \
	grep -q "rdmastor: rdmastor_svcrdma did not load (.*rdmastor_svcrdma.*): the stock svcrdma (rpcrdma) serves" /tmp/fallback.log
loop_io stock
check "no module of rdmastor is loaded" sh -c "! grep -q '^rdmastor_' /proc/modules"
check "nfsd stops" rpc.nfsd 0
check "the stock rpcrdma unloads" wait_for 30 modprobe -r rpcrdma
check "rdmastor's modules are back" sh -c "mv /tmp/rdmastor-mods $MODDIR"

# Without the configuration the names are the stock module's again.
rm -f $CONF
check "without rdmastor's configuration svcrdma is the stock rpcrdma" \
	[ "$(modprobe -R svcrdma 2>/dev/null)" = rpcrdma ]
tap_done
