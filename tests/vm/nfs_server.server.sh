# SPDX-License-Identifier: GPL-2.0
#
# Server half of the rdmastor NFS server test: nfsd serving through
# rdmastor_svcrdma, reached the normal way (rpc.nfsd, then "rdma 20049"
# in nfsd's portlist, which asks the kernel for svcrdma), with the hooks
# the client uses for delegation recalls, link loss and nfsd restarts.
. scripts/guest/lib.sh
. scripts/guest/nfs-server.sh
NFS_SERVER=rdmastor NFS_HOOKS=1 NFS_SERVE_SECONDS=1500 nfs_server_main
