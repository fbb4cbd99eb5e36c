# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Server half of the stock NFS/RDMA baseline (scripts/guest/nfs-server.sh).
. scripts/guest/lib.sh
. scripts/guest/nfs-server.sh
nfs_server_main
