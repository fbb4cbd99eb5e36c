# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The NFS/RDMA server the NFS tests and benchmarks run against: the
# kernel NFS server with the stock svcrdma (NFS_SERVER=stock, the
# default) or with rdmastor's (NFS_SERVER=rdmastor), exporting a tmpfs on
# port 20049 of the virtio NIC's rxe0, IPv4 and IPv6 (NFSv3 and v4.x: fsid=0 makes the
# export the v4 pseudo-root). Serves until the client leaves a "done"
# file in the export and reports its content. Source it after lib.sh
# and call nfs_server_main.
EXPORT=/export

# nfsd_threads [N]: start nfsd's N (8) threads and its RDMA listener.
# grace-over appears in the export once nfsd's grace period (10 s, nfsd_start) has
# surely ended: clients wait for it, not a fixed time, before they ask
# for a delegation (none is handed out during the grace period).
nfsd_threads() {
	rm -f $EXPORT/grace-over
	rpc.nfsd "${1:-8}" && echo "rdma 20049" > /proc/fs/nfsd/portlist &&
		{ ( sleep 12; touch $EXPORT/grace-over ) & }
}

# server_stack KIND INLINE [THREADS]: nfsd restarted with THREADS (8)
# threads over that RDMA server transport (rdmastor or stock),
# advertising INLINE bytes both ways (benchmarks). Modules by name: no
# modprobe configuration is involved.
server_stack() {
	rpc.nfsd 0
	wait_for 60 sh -c 'modprobe -r rdmastor_svcrdma 2>/dev/null; modprobe -r rpcrdma 2>/dev/null; ! grep -qE "^(rdmastor_svcrdma|rpcrdma) " /proc/modules' || return 1
	if [ "$1" = rdmastor ] || [ "$1" = rdmastor-sirq ]; then
		# rdmastor-sirq: completions in softirq
		modprobe rdmastor_svcrdma inline_size="$2" \
			cq_softirq="$([ "$1" = rdmastor-sirq ] && echo Y || echo N)"
	else
		modprobe --ignore-install rpcrdma && sysctl -qw sunrpc.svc_rdma.max_req_size="$2"
	fi && nfsd_threads "${3:-8}"
}

nfsd_start() {
	mkdir -p /run/rpcbind /var/lib/nfs/v4recovery /var/lib/nfs/rpc_pipefs &&
	# short lease and grace: a restarted server is usable again in 10 s,
	# and hands out delegations 10 s after it starts (lockd's grace
	# counts too: 50 s by default)
	echo 10 > /proc/fs/nfsd/nfsv4leasetime &&
	echo 10 > /proc/fs/nfsd/nfsv4gracetime &&
	echo 10 > /proc/sys/fs/nfs/nlm_grace_period &&
	rpcbind -w &&
	local o="rw,no_root_squash,insecure,no_subtree_check,fsid=0"
	echo "$EXPORT 192.0.2.0/24($o) 2001:db8::/64($o)" > /etc/exports &&
	exportfs -ra &&
	rpc.mountd &&
	nfsd_threads
}

# What a client can ask of the server by leaving a file in the export.
#   deleg-ready   save nfsd's client states in deleg-states, write to
#                 deleg/F locally (recalls the client's delegation), F
#                 the file's content or "file"; then deleg-done holds
#                 the write's status (deleg/file, file2 and file3 exist:
#                 nfsd delegates no file it recalled a minute before)
#   link-down     lose every packet on the link for 8 s (link_netem).
#                 Taking eth0 down instead fails rxe's sends, and its
#                 GSI QP with them (lib.sh, link_netem_ready), so the
#                 fabric fault is modelled as total loss, which is what
#                 the client experiences
#   restart-nfsd  stop nfsd for 5 s and start it again
nfs_hooks() {
	# created here, not by the client: a file the client itself wrote
	# is not delegated to it right away
	mkdir -p $EXPORT/deleg && echo original > $EXPORT/deleg/file &&
		echo original > $EXPORT/deleg/file2 && echo original > $EXPORT/deleg/file3
	while [ ! -e $EXPORT/done ]; do
		if [ -e $EXPORT/deleg-ready ]; then
			f=$(cat $EXPORT/deleg-ready)
			f=${f:-file}
			rm -f $EXPORT/deleg-ready
			diag "hook: local write to deleg/$f, delegated to the client"
			cat /proc/fs/nfsd/clients/*/info /proc/fs/nfsd/clients/*/states > $EXPORT/deleg-states 2>&1
			# whether the local write went through; renamed into
			# place, so that the client never reads it half-written
			if echo server > "$EXPORT/deleg/$f"; then st=0; else st=1; fi
			echo "$st" > $EXPORT/deleg-done.tmp && mv $EXPORT/deleg-done.tmp $EXPORT/deleg-done
		fi
		if [ -e $EXPORT/link-down ]; then
			rm -f $EXPORT/link-down
			diag "hook: link down (100% loss) for 8 s"
			link_netem loss 100%; sleep 8
			link_netem
		fi
		if [ -e $EXPORT/restart-nfsd ]; then
			rm -f $EXPORT/restart-nfsd
			diag "hook: nfsd restart"
			rpc.nfsd 0; sleep 5; nfsd_threads
			diag "hook: nfsd back: $(paste -sd' ' /proc/fs/nfsd/portlist)"
		fi
		sleep 0.2
	done
}

nfs_server_main() {
	check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 1
	[ -n "${NFS_HOOKS:-}" ] && check "netem on eth0, doing nothing yet" link_netem_ready
	check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=${NFS_EXPORT_SIZE:-768m} tmpfs $EXPORT && chmod 1777 $EXPORT"
	if [ "${NFS_SERVER:-stock}" = rdmastor ]; then
		check "rdmastor installed" rdmastor_install
		# nothing loaded by hand: nfsd's "rdma" listener asks for svcrdma
		check "modprobe configuration installed" \
			install -m 644 "$RDMASTOR_TREE/etc/modprobe.d/rdmastor-nfs.conf" /etc/modprobe.d/
		check "modprobe svcrdma is routed to rdmastor_svcrdma" \
			routed_to svcrdma rdmastor_svcrdma
		check "NFS server module (nfsd)" modprobe nfsd
	else
		# --ignore-install: the stock module, whatever a client's modprobe.d says
		check "NFS server modules (nfsd, stock svcrdma)" sh -c "modprobe nfsd && modprobe --ignore-install rpcrdma"
	fi
	check "nfsd filesystem" sh -c "mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd"
	# before the port opens: a client may connect at once
	[ -n "${NFS_STARTING:-}" ] && $NFS_STARTING
	check "nfsd serving over RDMA on 20049" nfsd_start
	diag "portlist: $(paste -sd' ' /proc/fs/nfsd/portlist)"
	[ -n "${NFS_STARTED:-}" ] && $NFS_STARTED
	if [ "${NFS_SERVER:-stock}" = rdmastor ]; then
		check "the listener loaded rdmastor_svcrdma" grep -q "^rdmastor_svcrdma " /proc/modules
		check "the stock rpcrdma is not loaded" sh -c "! grep -q '^rpcrdma ' /proc/modules"
	fi
	[ -n "${NFS_HOOKS:-}" ] && { nfs_hooks & }
	check "the client finishes" wait_for "${NFS_SERVE_SECONDS:-500}" test -e $EXPORT/done
	check "the client reports: $(cat $EXPORT/done)" grep -q pass $EXPORT/done
	[ -n "${NFS_HOOKS:-}" ] && check "soft-RoCE's GSI QP survived the link faults" gsi_up
	# the body's own checks: while nfsd runs, and once it has stopped
	[ -n "${NFS_AFTER:-}" ] && $NFS_AFTER
	check "nfsd stops" sh -c "rpc.nfsd 0 && exportfs -ua"
	[ -n "${NFS_STOPPED:-}" ] && $NFS_STOPPED
	tap_done
}
