# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.12 debug
#
# Server half of the rdmastor NFS fault test (tests/lib/guest/nfs-server.sh),
# with the hooks the client triggers: delegation recall, link down, nfsd
# restart.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
NFS_HOOKS=1 NFS_SERVE_SECONDS=1200 nfs_server_main
