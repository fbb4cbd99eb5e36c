# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Server half of the rdmastor NFS client test (scripts/guest/nfs-server.sh).
. scripts/guest/lib.sh
. scripts/guest/nfs-server.sh
NFS_SERVE_SECONDS=1500 nfs_server_main
