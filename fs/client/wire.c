// SPDX-License-Identifier: GPL-2.0
/*
 * The client module's copy of the RPC-over-RDMA codec (common/): each
 * module links its own, as they load independently, and an object file
 * belongs to one module only.
 */
#include "../../common/rpcrdma_wire.c"
