# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Server half of the NFS benchmark: the stock NFS server (scripts/guest/nfs-server.sh).
. scripts/guest/lib.sh
. scripts/guest/nfs-server.sh
NFS_SERVE_SECONDS=3000 nfs_server_main
