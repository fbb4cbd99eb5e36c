# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1 6.12:core
#
# Server half of the rdmastor NFS client test (tests/lib/guest/nfs-server.sh).
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
NFS_SERVE_SECONDS=1500 nfs_server_main
