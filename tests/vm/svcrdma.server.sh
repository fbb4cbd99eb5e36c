# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1 6.12:core
# vm-run: --timeout 1200
#
# Server half of the rdmastor NFS server test: nfsd serving through
# rdmastor_svcrdma, reached the normal way (rpc.nfsd, then "rdma 20049"
# in nfsd's portlist, which asks the kernel for svcrdma), with the hooks
# the client uses for delegation recalls, link loss and nfsd restarts.
# Once the client is done: the server's own counters show every way
# calls and replies travel was used and no call was refused; once nfsd
# stops, nothing of rdmastor is left on the device, every connection's
# birth has its death, and the module unloads.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
DBG=/sys/kernel/rdmastor_svcrdma

tot() {	# tot FIELD: the server's counter FIELD over every connection
	awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' $DBG/totals
}
server_after() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	diag "totals: $(cat $DBG/totals)"
	local f
	local used="data_chunks long_calls write_chunks reply_chunks send_inv bc_calls bc_replies"
	# core scope: verifying runs only, no long call nor delegation
	full_scope || used="data_chunks write_chunks send_inv"
	for f in $used; do
		check "the clients' traffic used $f ($(tot $f))" [ "$(tot $f)" -gt 0 ]
	done
	expect_eq "no call was refused with an RDMA_ERROR" "$(tot rdma_errors)" 0
	expect_eq "no call was a protocol error" "$(tot bad_calls)" 0
}
none_left() { [ "$(rdma resource show "$1" 2>/dev/null | grep rxe0 | grep -vc "comm \[ib_core\]")" = 0 ]; }
server_stopped() {
	local kind
	for kind in qp cq mr; do
		check "no $kind of rdmastor left once nfsd stopped" wait_for 30 none_left $kind
	done
	trace_pairs_check
	check "rdmastor_svcrdma unloads" modprobe -r rdmastor_svcrdma
}
# Recording starts before nfsd listens: a client connecting while it
# started was seen to die unborn (its birth came before the recording).
# The trace's events need rdmastor_svcrdma loaded: through the alias
# nfsd's own request takes.
server_starting() {
	check "modprobe svcrdma loads rdmastor_svcrdma" sh -c \
		"modprobe svcrdma && grep -q '^rdmastor_svcrdma ' /proc/modules"
	trace_pairs_start
}
server_started() {
	# NLM locking (NFSv3) needs the status monitor on both sides
	check "rpc.statd" sh -c "mkdir -p /var/lib/nfs/sm /var/lib/nfs/sm.bak && rpc.statd"
}
NFS_SERVER=rdmastor NFS_HOOKS=1 NFS_SERVE_SECONDS=1500 NFS_STARTING=server_starting \
	NFS_STARTED=server_started \
	NFS_AFTER=server_after NFS_STOPPED=server_stopped nfs_server_main
