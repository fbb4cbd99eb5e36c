# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Server half of the stock NFS/RDMA baseline (tests/lib/guest/nfs-server.sh).
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
nfs_server_main
