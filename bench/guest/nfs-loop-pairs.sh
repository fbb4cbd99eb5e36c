# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The NFS pairings of one guest (rxe loopback: the guest serves and
# mounts), for the benchmarks that use them (nfs_pairs_loop.sh,
# nfs_profile_loop.sh). Source after lib.sh, nfs-server.sh,
# nfs-client.sh and pairbench.sh; set INLINE, STOCK_THREADS,
# RDMASTOR_THREADS, MOUNT_OPTS, and NFS_VERS (4.2 unless set: this
# kernel's NFSv4 client makes one connection over RDMA whatever
# nconnect says; NFSv3 honours it).
#   loop_setup           soft-RoCE, the tmpfs export, nfsd, a first mount
#   pb_pairing NAME[@T]  that pairing, mounted on $MNT:
#     stock      stock client + server, 4 KiB inline
#     stock-inl  the stock pair at INLINE by sysctl
#     stock-rsv  stock client (4 KiB) + rdmastor's server
#     rdmastor   rdmastor's client + server at INLINE
#     rdmastor-sirq  the same, the server handling completions in
#                softirq (rdmastor_svcrdma cq_softirq=Y)
#   NAME-aa is NAME set up anew; @T: T nfsd threads, else the server's
#   *_THREADS

loaded_now=	# the pairing's modules and inline, as loaded
threads_now=

# pb_pairing NAME[@THREADS]: that pairing, mounted; the modules are
# reloaded only when the pairing's modules or inline sizes change
pb_pairing() {
	local kind=${1%@*} t=${1#*@} want
	kind=${kind%-aa}
	[ "$t" = "$1" ] && { t=$STOCK_THREADS; [[ "$kind" == rdmastor* ]] || [ "$kind" = stock-rsv ] && t=$RDMASTOR_THREADS; }
	want=$kind
	# an A/A copy is set up anew: nothing is kept from the pairing it copies
	[[ "$1" == *-aa* ]] && want=''
	if [ -n "$want" ] && [ "$loaded_now" = "$want" ]; then
		[ "$threads_now" = "$t" ] && return 0
		rpc.nfsd "$t" && threads_now=$t
		return
	fi
	mountpoint -q $MNT && umount $MNT
	rpc.nfsd 0
	loaded_now='' threads_now=''
	wait_for 60 sh -c 'modprobe -r rdmastor_rpcrdma rdmastor_svcrdma rpcrdma 2>/dev/null; ! grep -qE "^(rdmastor_rpcrdma|rdmastor_svcrdma|rpcrdma) " /proc/modules' || return 1
	case $kind in
	stock) modprobe --ignore-install rpcrdma && sysctl -qw sunrpc.rdma_max_inline_read=4096 \
		sunrpc.rdma_max_inline_write=4096 sunrpc.svc_rdma.max_req_size=4096 ;;
	stock-inl) modprobe --ignore-install rpcrdma && sysctl -qw sunrpc.rdma_max_inline_read=$INLINE \
		sunrpc.rdma_max_inline_write=$INLINE sunrpc.svc_rdma.max_req_size=$INLINE ;;
	stock-rsv) modprobe rdmastor_svcrdma inline_size=$INLINE && modprobe --ignore-install rpcrdma &&
		sysctl -qw sunrpc.rdma_max_inline_read=4096 sunrpc.rdma_max_inline_write=4096 ;;
	rdmastor) modprobe rdmastor_svcrdma inline_size=$INLINE &&
		modprobe rdmastor_rpcrdma inline_size=$INLINE ;;
	# the server handling its completions in softirq
	rdmastor-sirq) modprobe rdmastor_svcrdma inline_size=$INLINE cq_softirq=Y &&
		modprobe rdmastor_rpcrdma inline_size=$INLINE ;;
	*) return 1 ;;
	esac && nfsd_threads "$t" && nfs_mount "${NFS_VERS:-4.2}" "$MOUNT_OPTS" || return 1
	# no job runs in nfsd's grace period (OPENs wait it out)
	wait_for 30 test -e $EXPORT/grace-over || return 1
	loaded_now=$kind threads_now=$t
}

loop_setup() {
	check "soft-RoCE" tests/lib/guest/rxe-setup single
	check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=1g tmpfs $EXPORT && chmod 1777 $EXPORT"
	check "rdmastor installed" rdmastor_install
	check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
	check "stock modules" modprobe --ignore-install rpcrdma
	check "nfsd serving over RDMA" nfsd_start || bail "no server"
	check "mount" nfs_mount 4.2
}
