# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Server guest of `make demo`: the kernel NFS server (nfsd) serving a
# tmpfs over RDMA through rdmastor's server transport, rdmastor_svcrdma,
# which nfsd's own "rdma" listener loads through etc/modprobe.d
# (tests/lib/guest/nfs-server.sh). At the end it shows what the server
# transport counted.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
demo_server_totals() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	diag "rdmastor_svcrdma: $(cat /sys/kernel/rdmastor_svcrdma/totals)"
}
NFS_SERVER=rdmastor NFS_SERVE_SECONDS=900 NFS_AFTER=demo_server_totals nfs_server_main
