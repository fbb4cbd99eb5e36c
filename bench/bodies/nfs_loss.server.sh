# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Server half of the loss-recovery benchmark (bench/bodies/nfs_loss.client.sh):
# the stock NFS server, with the hooks that drop every packet it sends.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
NFS_HOOKS=1 NFS_SERVE_SECONDS=1500 nfs_server_main
