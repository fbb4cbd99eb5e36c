// SPDX-License-Identifier: GPL-2.0
/*
 * The server module's copy of the RPC-over-RDMA codec: the client module
 * builds rpcrdma_wire.c too, and each module links its own (they load
 * independently), so it is included here rather than shared as one
 * object file between two modules.
 */
#include "rpcrdma_wire.c"
