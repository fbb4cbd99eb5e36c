# SPDX-License-Identifier: GPL-2.0
#
# Server guest of `make demo`: the stock kernel NFS server with the stock
# svcrdma, exporting a tmpfs over RDMA (scripts/guest/nfs-server.sh).
. scripts/guest/lib.sh
. scripts/guest/nfs-server.sh
NFS_SERVE_SECONDS=900 nfs_server_main
